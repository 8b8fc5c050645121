import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { findNginx, freeLoopbackPort, nginxPreamble, NGINX_MISSING_MESSAGE } from '../../../tools/tls-profiles.js';
import type { LabPki } from './tls.js';

/**
 * Debian's nginx as a site owner sets it up for an API: TLS with the protocol lines of Debian's own
 * /etc/nginx/nginx.conf, Debian's fastcgi_params, and a plain-HTTP server that only redirects to
 * https. One process in the foreground, everything it writes inside the prefix.
 */
/** An API of the lab served by Debian's nginx with TLS (MapServer, QGIS Server): what a test needs of it. */
export interface LabTlsApi {
  /** The base URL adr-check is given (`https://127.0.0.1:PORT/lab/ogcapi`, `https://localhost:PORT/wfs3`). */
  baseUrl: string;
  plainPort: number;
  caCertificate: string;
  /** nginx's access log: every request the API got, as nginx wrote it. */
  accessLog(): string;
  close(): Promise<void>;
}

export interface LabNginx {
  /** `https://127.0.0.1:PORT` */
  origin: string;
  port: number;
  /** The plain-HTTP port that redirects (adr-check's --plain-http-port). */
  plainPort: number;
  close(): Promise<void>;
}

/** `locations` are location blocks of the TLS server, one string each. */
export async function startLabNginx(prefix: string, pki: LabPki, locations: readonly string[]): Promise<LabNginx> {
  const nginx = findNginx();
  if (nginx === undefined) throw new Error(NGINX_MISSING_MESSAGE);
  const port = await freeLoopbackPort();
  const plainPort = await freeLoopbackPort();
  const inPrefix = (name: string) => join(prefix, name);
  const configFile = inPrefix('nginx.conf');
  writeFileSync(configFile, [
    ...nginxPreamble(prefix),
    // As in Debian's /etc/nginx/nginx.conf.
    '  ssl_protocols TLSv1 TLSv1.1 TLSv1.2 TLSv1.3;',
    '  ssl_prefer_server_ciphers on;',
    '  server {',
    `    listen 127.0.0.1:${plainPort};`,
    `    return 301 https://$host:${port}$request_uri;`,
    '  }',
    '  server {',
    `    listen 127.0.0.1:${port} ssl;`,
    '    server_name localhost;',
    `    ssl_certificate ${pki.leafCertificate};`,
    `    ssl_certificate_key ${pki.leafKey};`,
    ...locations.map((location) => `    ${location}`),
    '  }',
    '}',
    '',
  ].join('\n'));
  const child = spawn(nginx, ['-p', prefix, '-c', configFile, '-e', inPrefix('error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
  await waitForListener(child, port, () => `nginx did not start: ${stderr}${existsSync(inPrefix('error.log')) ? readFileSync(inPrefix('error.log'), 'utf8') : ''}`);
  return { origin: `https://127.0.0.1:${port}`, port, plainPort, close: () => stopChild(child) };
}

/** Resolves once 127.0.0.1:port (or the unix socket) accepts a connection; rejects when the process exits first. */
export async function waitForListener(child: ChildProcess, target: number | string, why: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${why()} (exited with ${child.exitCode ?? child.signalCode})`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = typeof target === 'number' ? net.connect(target, '127.0.0.1') : net.connect(target);
      socket.once('connect', () => { socket.destroy(); resolve(true); });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`${why()} (no listener within 10 s)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `signal` (SIGTERM: nginx's fast shutdown), then SIGKILL if it hangs: a test run never leaves one behind. */
export function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => { clearTimeout(killer); resolve(); });
    child.kill(signal);
  });
}
