import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateCertificate } from '../tools/tls-profiles.js';
import { startSServer, stopSServers } from './support/openssl-server.js';
import { GROUP, acceptedProtocols as accepted, probeAndGrade as probe, suitesOf } from './tls-probe.js';

/**
 * The prober against Debian's `openssl s_server` on loopback, one profile per test, with exact
 * protocol, suite and group lists and the grade. OpenSSL is required: CI installs it (.ci/run);
 * a missing binary fails these tests rather than skipping them.
 */
const OPENSSL = spawnSync('openssl', ['version'], { encoding: 'utf8' });
const OPENSSL_MISSING = OPENSSL.error !== undefined || OPENSSL.status !== 0;

let directory = '';

beforeAll(() => {
  if (OPENSSL_MISSING) return;
  directory = mkdtempSync(path.join(tmpdir(), 'tls-servers-'));
  generateCertificate(directory, 'ec', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256']);
  generateCertificate(directory, 'rsa3072', ['-newkey', 'rsa:3072']);
  generateCertificate(directory, 'rsa2048', ['-newkey', 'rsa:2048']);
});

afterAll(() => {
  stopSServers();
  if (directory !== '') rmSync(directory, { recursive: true, force: true });
});

function startServer(cert: string, serverArguments: string[]): Promise<number> {
  if (OPENSSL_MISSING) return Promise.reject(new Error('openssl not found on PATH: install it (apt-get install -y openssl)'));
  return startSServer(['-cert', path.join(directory, `${cert}.pem`), '-key', path.join(directory, `${cert}.key`), ...serverArguments]);
}

const X25519 = GROUP.x25519;
const P256 = GROUP.secp256r1;
const P384 = GROUP.secp384r1;

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
