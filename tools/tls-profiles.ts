/**
 * Real nginx servers for the TLS prober: three profiles (TLS 1.3 only, modern TLS 1.2 + 1.3,
 * legacy), each started unprivileged on 127.0.0.1 with an ephemeral port, everything it writes
 * in a temporary prefix. Shared by test/tls-nginx.test.ts and `npm run compare:testssl --
 * --profiles`, so that the tests and the testssl.sh comparison look at the same servers.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Public 1024-bit DH parameters (generator 2), fixed so that tests can assert the exact prime. */
export const DH1024_PEM = fileURLToPath(new URL('../test/fixtures/dh1024.pem', import.meta.url));

export const NGINX_MISSING_MESSAGE = 'nginx not found on PATH or in /usr/sbin: install it (apt-get install -y nginx)';

/**
 * Debian puts nginx in /usr/sbin, which is on root's PATH but often not on a user's: look there
 * too, so that the tests run the same for a developer as for CI.
 */
export function findNginx(): string | undefined {
  for (const candidate of ['nginx', '/usr/sbin/nginx']) {
    const probe = spawnSync(candidate, ['-v'], { encoding: 'utf8' });
    if (probe.error === undefined && probe.status === 0) return candidate;
  }
  return undefined;
}

/** A self-signed certificate for CN=localhost, valid two days; returns the .pem and .key paths. */
export function generateCertificate(directory: string, name: string, keyArguments: readonly string[]): { certificate: string; key: string } {
  const certificate = path.join(directory, `${name}.pem`);
  const key = path.join(directory, `${name}.key`);
  const result = spawnSync('openssl', ['req', '-x509', ...keyArguments, '-nodes', '-keyout', key, '-out', certificate, '-days', '2', '-subj', '/CN=localhost'], { encoding: 'utf8' });
  if (result.error !== undefined) throw new Error(`openssl not found on PATH: install it (apt-get install -y openssl): ${result.error.message}`);
  if (result.status !== 0) throw new Error(`openssl req for ${name} failed: ${result.stderr}`);
  return { certificate, key };
}

export type NginxProfileName = 'tls13-only' | 'modern' | 'legacy';

export interface NginxProfile {
  name: NginxProfileName;
  description: string;
  /** `openssl req` key arguments for the server certificate. */
  certificateKey: readonly string[];
  /** ssl_* directives of the server block, without the certificate. */
  directives: readonly string[];
}

/**
 * nginx 1.22 has no ssl_ciphersuites or ssl_sigalgs directive: TLS 1.3 suites and signature
 * algorithms go to OpenSSL through ssl_conf_command. ssl_ecdh_curve is set in the passing
 * profiles because nginx's default ("auto") is OpenSSL 3's list, which includes ffdhe2048 for
 * TLS 1.3 (Insufficient).
 */
export const NGINX_PROFILES: Readonly<Record<NginxProfileName, NginxProfile>> = {
  'tls13-only': {
    name: 'tls13-only',
    description: 'TLS 1.3 only, the two Good suites, X25519/P-384/P-256, EC P-384 certificate',
    certificateKey: ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-384'],
    directives: [
      'ssl_protocols TLSv1.3;',
      'ssl_conf_command Ciphersuites TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256;',
      'ssl_ecdh_curve X25519:secp384r1:prime256v1;',
    ],
  },
  modern: {
    name: 'modern',
    description: 'TLS 1.2 + 1.3, ECDHE AEAD suites only in server order, SHA-2 signatures, RSA 3072 certificate',
    certificateKey: ['-newkey', 'rsa:3072'],
    directives: [
      'ssl_protocols TLSv1.2 TLSv1.3;',
      'ssl_ciphers ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-CHACHA20-POLY1305:ECDHE-RSA-AES128-GCM-SHA256;',
      'ssl_prefer_server_ciphers on;',
      'ssl_conf_command Ciphersuites TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256;',
      'ssl_ecdh_curve X25519:secp384r1:prime256v1;',
      // OpenSSL 3.0 otherwise signs with SHA-224 when a client offers nothing better (Phase out).
      'ssl_conf_command SignatureAlgorithms RSA-PSS+SHA256:RSA-PSS+SHA384:RSA-PSS+SHA512:RSA+SHA256:RSA+SHA384:RSA+SHA512;',
    ],
  },
  legacy: {
    name: 'legacy',
    description: 'TLS 1.0-1.2, CBC and static RSA suites, DHE with a 1024-bit group, client order, RSA 2048 certificate',
    certificateKey: ['-newkey', 'rsa:2048'],
    directives: [
      'ssl_protocols TLSv1 TLSv1.1 TLSv1.2;',
      // SECLEVEL=0: Debian's OpenSSL 3 refuses TLS 1.0/1.1 and a 1024-bit DH group at level 1 and up.
      'ssl_ciphers ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-SHA384:ECDHE-RSA-AES128-SHA:DHE-RSA-AES256-SHA:AES128-SHA:AES256-SHA256:@SECLEVEL=0;',
      'ssl_prefer_server_ciphers off;',
      `ssl_dhparam ${DH1024_PEM};`,
    ],
  },
};

export const NGINX_PROFILE_NAMES = Object.keys(NGINX_PROFILES) as NginxProfileName[];

export function isNginxProfileName(name: string): name is NginxProfileName {
  return Object.hasOwn(NGINX_PROFILES, name);
}

/**
 * The start of an nginx.conf for one nginx run by a test: one process, in the foreground, as
 * whoever started it (no root, no service manager), with its pid, logs and temp paths inside
 * `prefix`; it ends inside the `http {` block, for the caller's servers.
 */
export function nginxPreamble(prefix: string): string[] {
  const inPrefix = (name: string) => path.join(prefix, name);
  return [
    'daemon off;',
    'master_process off;',
    `pid ${inPrefix('nginx.pid')};`,
    `error_log ${inPrefix('error.log')} notice;`,
    'events { worker_connections 64; }',
    'http {',
    `  access_log ${inPrefix('access.log')};`,
    `  client_body_temp_path ${inPrefix('client_body')};`,
    `  proxy_temp_path ${inPrefix('proxy')};`,
    `  fastcgi_temp_path ${inPrefix('fastcgi')};`,
    `  uwsgi_temp_path ${inPrefix('uwsgi')};`,
    `  scgi_temp_path ${inPrefix('scgi')};`,
  ];
}

/** The whole nginx.conf of a profile: one TLS server, logs, pid and temp paths inside the prefix. */
export function nginxConfig(profile: NginxProfile, prefix: string, port: number, certificate: { certificate: string; key: string }): string {
  return [
    ...nginxPreamble(prefix),
    '  server {',
    `    listen 127.0.0.1:${port} ssl;`,
    '    server_name localhost;',
    `    ssl_certificate ${certificate.certificate};`,
    `    ssl_certificate_key ${certificate.key};`,
    ...profile.directives.map((directive) => `    ${directive}`),
    '    location / { return 200 "ok\\n"; }',
    '  }',
    '}',
    '',
  ].join('\n');
}

/** A port that was free a moment ago: the kernel picks one for a listener that is closed at once. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port === 0 ? reject(new Error('no ephemeral port')) : resolve(port)));
    });
  });
}

export interface RunningNginx {
  profile: NginxProfile;
  host: '127.0.0.1';
  port: number;
  /** The prefix: config, certificate, logs; removed by stop(). */
  prefix: string;
  stop(): Promise<void>;
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    // SIGTERM is nginx's fast shutdown; SIGKILL only if it hangs, so a test run never leaves one behind.
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Starts a profile and resolves once nginx accepts connections; rejects with nginx's own error. */
export async function startNginxProfile(name: NginxProfileName): Promise<RunningNginx> {
  const nginx = findNginx();
  if (nginx === undefined) throw new Error(NGINX_MISSING_MESSAGE);
  const profile = NGINX_PROFILES[name];
  const prefix = mkdtempSync(path.join(tmpdir(), `nginx-${name}-`));
  const removePrefix = () => rmSync(prefix, { recursive: true, force: true });
  let child: ChildProcess | undefined;
  try {
    const certificate = generateCertificate(prefix, 'server', profile.certificateKey);
    const port = await freeLoopbackPort();
    const configFile = path.join(prefix, 'nginx.conf');
    writeFileSync(configFile, nginxConfig(profile, prefix, port, certificate));
    // -e: the log nginx writes to before it has read the config (Debian's default is stderr).
    const started = spawn(nginx, ['-p', prefix, '-c', configFile, '-e', path.join(prefix, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
    child = started;
    let stderr = '';
    started.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
    const spawnError = new Promise<Error>((resolve) => started.once('error', resolve));
    const failure = (reason: string): Error => {
      const log = existsSync(path.join(prefix, 'error.log')) ? readFileSync(path.join(prefix, 'error.log'), 'utf8') : '';
      return new Error(`nginx profile ${name} did not start: ${reason}\n${stderr}${log}`.trim());
    };
    const deadline = Date.now() + 10_000;
    for (;;) {
      const exited = started.exitCode !== null || started.signalCode !== null;
      if (exited) throw failure(`exited with ${started.exitCode ?? started.signalCode}`);
      const early = await Promise.race([spawnError, new Promise<undefined>((resolve) => setTimeout(resolve, 50, undefined))]);
      if (early !== undefined) throw failure(early.message);
      if (await canConnect(port)) break;
      if (Date.now() > deadline) throw failure('no listener within 10 s');
    }
    return {
      profile,
      host: '127.0.0.1',
      port,
      prefix,
      stop: async () => {
        await stopProcess(started);
        removePrefix();
      },
    };
  } catch (error) {
    if (child !== undefined) await stopProcess(child);
    removePrefix();
    throw error;
  }
}
