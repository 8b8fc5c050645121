import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { probeTls, findingsOf, type ProbeResult } from '../live/tls/prober.js';
import { gradeFindings, type TlsGrade } from '../live/tls/grading.js';
import { IANA_CIPHER_SUITES } from '../live/tls/suites.js';

/**
 * The prober against Debian's `openssl s_server` on loopback, one profile per test, with exact
 * protocol, suite and group lists and the grade. OpenSSL is required: CI installs it (.ci/run);
 * a missing binary fails these tests rather than skipping them.
 */
const OPENSSL = spawnSync('openssl', ['version'], { encoding: 'utf8' });
const OPENSSL_MISSING = OPENSSL.error !== undefined || OPENSSL.status !== 0;

let directory = '';
const servers: ChildProcess[] = [];

function generate(name: string, keyArguments: string[]): void {
  const result = spawnSync('openssl', ['req', '-x509', ...keyArguments, '-nodes', '-keyout', path.join(directory, `${name}.key`), '-out', path.join(directory, `${name}.pem`), '-days', '2', '-subj', '/CN=localhost'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`openssl req for ${name} failed: ${result.stderr}`);
}

beforeAll(() => {
  if (OPENSSL_MISSING) return;
  directory = mkdtempSync(path.join(tmpdir(), 'tls-servers-'));
  generate('ec', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256']);
  generate('rsa3072', ['-newkey', 'rsa:3072']);
  generate('rsa2048', ['-newkey', 'rsa:2048']);
});

afterAll(() => {
  for (const server of servers) server.kill();
  if (directory !== '') rmSync(directory, { recursive: true, force: true });
});

/** Starts s_server on an ephemeral loopback port; its "ACCEPT host:port" line says which. */
function startServer(cert: string, serverArguments: string[]): Promise<number> {
  if (OPENSSL_MISSING) return Promise.reject(new Error('openssl not found on PATH: install it (apt-get install -y openssl)'));
  const child = spawn('openssl', ['s_server', '-accept', '127.0.0.1:0', '-cert', path.join(directory, `${cert}.pem`), '-key', path.join(directory, `${cert}.key`), ...serverArguments], { stdio: ['pipe', 'pipe', 'pipe'] });
  servers.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`s_server did not start: ${output}`)), 5000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /ACCEPT \S*:(\d+)/.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`s_server exited with ${code}: ${output}`)));
    child.once('error', (error) => reject(new Error(`s_server did not start: ${error.message}`)));
  });
}

async function probe(port: number): Promise<{ result: ProbeResult; grade: TlsGrade }> {
  const result = await probeTls({ host: '127.0.0.1', port, timeoutMs: 3000, deadline: Date.now() + 20000, concurrency: 8 });
  return { result, grade: gradeFindings(findingsOf(result), IANA_CIPHER_SUITES) };
}

const names = (codes: number[]) => codes.map((code) => IANA_CIPHER_SUITES.get(code) ?? code.toString(16));
const accepted = (result: ProbeResult) => result.protocols.filter((protocol) => protocol.accepted).map((protocol) => protocol.protocol);
const suitesOf = (result: ProbeResult, protocol: string) => names(result.protocols.find((entry) => entry.protocol === protocol)?.suites ?? []);
const X25519 = 0x001d;
const P256 = 0x0017;
const P384 = 0x0018;

test('openssl is installed (CI installs it; these tests never skip)', () => {
  expect(OPENSSL_MISSING ? 'openssl not found on PATH: install it (apt-get install -y openssl)' : 'present').toBe('present');
});

test('TLS 1.3 only, three suites, X25519/P-256/P-384, EC certificate: pass', async () => {
  const port = await startServer('ec', ['-tls1_3', '-groups', 'X25519:P-256:P-384']);
  const { result, grade } = await probe(port);
  expect(accepted(result)).toEqual(['TLSv1.3']);
  expect(suitesOf(result, 'TLSv1.3')).toEqual(['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256']);
  expect(result.protocols.find((entry) => entry.protocol === 'TLSv1.3')?.preference).toBe('client');
  expect([...result.groups['TLSv1.3']].sort()).toEqual([P256, P384, X25519].sort());
  expect(result.certificates).toEqual([{ subject: 'CN=localhost', key: { type: 'ec', curve: 'prime256v1' }, signatureAlgorithm: 'ecdsa-with-SHA256' }]);
  expect(result.compression).toBeUndefined();
  expect(grade).toMatchObject({ verdict: 'pass', evidence: [] });
  expect(result.durationMs).toBeLessThan(3000);
});

test('TLS 1.3 only with OpenSSL default groups: ffdhe2048 accepted, so fail', async () => {
  const port = await startServer('ec', ['-tls1_3']);
  const { result, grade } = await probe(port);
  expect(result.groups['TLSv1.3']).toEqual(expect.arrayContaining([0x0100, 0x0101, 0x0102, 0x0103, 0x0104, X25519]));
  expect(grade.verdict).toBe('fail');
  expect(grade.evidence).toEqual([
    'Insufficient: key exchange group ffdhe2048',
    'Phase out: key exchange group ffdhe3072',
    'Phase out: key exchange group ffdhe4096',
    'Phase out: key exchange group ffdhe6144',
    'Phase out: key exchange group ffdhe8192',
  ]);
});

test('TLS 1.2 + 1.3, ECDHE AEAD only, server order, SHA-2 signatures, RSA 3072: pass', async () => {
  const port = await startServer('rsa3072', [
    '-no_tls1', '-no_tls1_1', '-serverpref',
    '-cipher', 'ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-CHACHA20-POLY1305:ECDHE-RSA-AES128-GCM-SHA256',
    '-ciphersuites', 'TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256',
    '-groups', 'X25519:P-384:P-256',
    '-sigalgs', 'RSA-PSS+SHA256:RSA-PSS+SHA384:RSA-PSS+SHA512:RSA+SHA256:RSA+SHA384:RSA+SHA512',
  ]);
  const { result, grade } = await probe(port);
  expect(accepted(result)).toEqual(['TLSv1.3', 'TLSv1.2']);
  expect(suitesOf(result, 'TLSv1.3')).toEqual(['TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256']);
  expect(suitesOf(result, 'TLSv1.2')).toEqual(['TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384', 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256', 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256']);
  expect(result.protocols.filter((entry) => entry.accepted).map((entry) => entry.preference)).toEqual(['server', 'server']);
  expect(result.groups).toEqual({ 'TLSv1.3': [X25519, P384, P256], 'TLSv1.2': [X25519, P384, P256] });
  expect(result.signatureSchemes).toEqual([0x0804, 0x0805, 0x0806, 0x0401, 0x0501, 0x0601]);
  expect(result).toMatchObject({ compression: false, secureRenegotiation: true, extendedMasterSecret: true, dhGroups: [] });
  expect(result.certificates).toEqual([{ subject: 'CN=localhost', key: { type: 'rsa', bits: 3072 }, signatureAlgorithm: 'sha256WithRSAEncryption' }]);
  expect(grade).toMatchObject({ verdict: 'pass', evidence: [] });
});

test('legacy: TLS 1.0-1.2, CBC, static RSA, DHE with a MODP prime, SHA-1 signatures, RSA 2048: fail', async () => {
  const port = await startServer('rsa2048', [
    '-min_protocol', 'TLSv1', '-max_protocol', 'TLSv1.2',
    '-cipher', 'ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-AES128-SHA256:DHE-RSA-AES128-GCM-SHA256:AES128-SHA:ECDHE-RSA-AES128-SHA:@SECLEVEL=0',
  ]);
  const { result, grade } = await probe(port);
  expect(accepted(result)).toEqual(['TLSv1.2', 'TLSv1.1', 'TLSv1.0']);
  // Client order (no -serverpref): the server picks the first of the offered list it has, IANA order.
  expect(suitesOf(result, 'TLSv1.2')).toEqual(['TLS_RSA_WITH_AES_128_CBC_SHA', 'TLS_DHE_RSA_WITH_AES_128_GCM_SHA256', 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA', 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256', 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384']);
  expect(suitesOf(result, 'TLSv1.1')).toEqual(['TLS_RSA_WITH_AES_128_CBC_SHA', 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA']);
  expect(suitesOf(result, 'TLSv1.0')).toEqual(['TLS_RSA_WITH_AES_128_CBC_SHA', 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA']);
  expect(result.protocols.find((entry) => entry.protocol === 'TLSv1.2')?.preference).toBe('client');
  expect(result.protocols.find((entry) => entry.protocol === 'SSLv3')).toMatchObject({ accepted: false, outcome: 'alert handshake_failure' });
  expect(result.dhGroups).toHaveLength(1);
  expect(result.prefersStrongSuites).toBe(false);
  expect(grade.verdict).toBe('fail');
  expect(grade.evidence).toEqual([
    'Insufficient: protocol TLSv1.1',
    'Insufficient: protocol TLSv1.0',
    'Insufficient: cipher suite TLS_RSA_WITH_AES_128_CBC_SHA (0x002f)',
    'Insufficient: cipher suite TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA (0xc013)',
    'Insufficient: key exchange group DHE DH 2048-bit custom group',
    'Insufficient: signature hash rsa_pkcs1_sha1',
    'Phase out: cipher suite TLS_DHE_RSA_WITH_AES_128_GCM_SHA256 (0x009e)',
    'Phase out: cipher suite TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256 (0xc027)',
    'Phase out: signature hash rsa_pkcs1_sha224',
    'Phase out: certificate CN=localhost: RSA 2048 bits',
    'Phase out: option server picks a Phase out suite over a Sufficient one offered',
  ]);
});

test('TLS 1.0 only at SECLEVEL=0: the TLS 1.2 probe sees a downgrade, not an acceptance', async () => {
  const port = await startServer('rsa2048', ['-tls1', '-cipher', 'AES128-SHA:ECDHE-RSA-AES128-SHA:DHE-RSA-AES256-SHA:@SECLEVEL=0']);
  const { result, grade } = await probe(port);
  expect(accepted(result)).toEqual(['TLSv1.0']);
  expect(result.protocols.find((entry) => entry.protocol === 'TLSv1.2')?.outcome).toBe('ServerHello TLSv1.0 TLS_RSA_WITH_AES_128_CBC_SHA');
  expect(suitesOf(result, 'TLSv1.0')).toEqual(['TLS_RSA_WITH_AES_128_CBC_SHA', 'TLS_DHE_RSA_WITH_AES_256_CBC_SHA', 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA']);
  expect(result.signatureSchemes).toEqual([]);
  expect(grade.verdict).toBe('fail');
});
