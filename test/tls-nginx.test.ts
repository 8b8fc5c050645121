import { findNginx, NGINX_MISSING_MESSAGE, startNginxProfile, type NginxProfileName, type RunningNginx } from '../tools/tls-profiles.js';
import { GROUP, acceptedProtocols, probeAndGrade, protocolEntry, suitesOf } from './tls-probe.js';

/**
 * The prober against Debian's nginx on loopback, in the three profiles of tools/tls-profiles.ts
 * (the same servers `npm run compare:testssl -- --profiles` compares with testssl.sh), with exact
 * protocol, suite, group and signature lists, options and grades. nginx is required: CI installs
 * it (.ci/run); a missing binary fails these tests rather than skipping them.
 */
const NGINX_MISSING = findNginx() === undefined;

/** The prime of test/fixtures/dh1024.pem (`openssl dhparam -in test/fixtures/dh1024.pem -text`). */
const DH1024_PRIME =
  'ee460566b71540351e1fd44ed6219b60ee8548d9d890ce715d217bc96d0190fdbe6afe2f7c95ec782c76bfe24c97718b' +
  '323a4379bc3f1b9e5435032edb5df79de79b4a52471b3c87317e5d282aa24601819a404b225b95760c3065a9eeab4466' +
  '4658253039c55874406919355c8cb63c3e948582a373cabac3501b2fd8726567';

const running: RunningNginx[] = [];

afterAll(async () => {
  await Promise.all(running.map((server) => server.stop()));
});

async function probeProfile(name: NginxProfileName) {
  const server = await startNginxProfile(name);
  running.push(server);
  return probeAndGrade(server.port);
}

test('nginx is installed (CI installs it; these tests never skip)', () => {
  expect(NGINX_MISSING ? NGINX_MISSING_MESSAGE : 'present').toBe('present');
});

test('nginx tls13-only: TLS 1.3, the two Good suites, X25519/P-384/P-256, EC P-384: pass', async () => {
  const { result, grade } = await probeProfile('tls13-only');
  expect(acceptedProtocols(result)).toEqual(['TLSv1.3']);
  expect(suitesOf(result, 'TLSv1.3')).toEqual(['TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256']);
  // nginx's default is ssl_prefer_server_ciphers off.
  expect(protocolEntry(result, 'TLSv1.3')?.preference).toBe('client');
  expect(protocolEntry(result, 'TLSv1.2')?.outcome).toBe('alert protocol_version');
  expect(result.groups).toEqual({ 'TLSv1.3': [GROUP.x25519, GROUP.secp384r1, GROUP.secp256r1], 'TLSv1.2': [] });
  expect(result.dhGroups).toEqual([]);
  expect(result.signatureSchemes).toEqual([]);
  // The chain comes from Node's TLS (encrypted in TLS 1.3); the TLS 1.2 options do not apply.
  expect(result.certificates).toEqual([{ subject: 'CN=localhost', key: { type: 'ec', curve: 'secp384r1' }, signatureAlgorithm: 'ecdsa-with-SHA256' }]);
  expect(result).not.toHaveProperty('compression');
  expect(result).not.toHaveProperty('secureRenegotiation');
  expect(result).not.toHaveProperty('extendedMasterSecret');
  expect(result).not.toHaveProperty('prefersStrongSuites');
  expect(result.notes).toEqual([]);
  expect(grade).toMatchObject({ verdict: 'pass', evidence: [] });
});

test('nginx modern: TLS 1.2 + 1.3, ECDHE AEAD only in server order, SHA-2 signatures, RSA 3072: pass', async () => {
  const { result, grade } = await probeProfile('modern');
  expect(acceptedProtocols(result)).toEqual(['TLSv1.3', 'TLSv1.2']);
  expect(suitesOf(result, 'TLSv1.3')).toEqual(['TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256', 'TLS_AES_128_GCM_SHA256']);
  expect(suitesOf(result, 'TLSv1.2')).toEqual(['TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384', 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256', 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256']);
  expect(result.protocols.filter((entry) => entry.accepted).map((entry) => entry.preference)).toEqual(['server', 'server']);
  expect(protocolEntry(result, 'TLSv1.1')?.outcome).toBe('alert protocol_version');
  // ssl_prefer_server_ciphers also makes OpenSSL pick groups in the server's order.
  expect(result.groups).toEqual({ 'TLSv1.3': [GROUP.x25519, GROUP.secp384r1, GROUP.secp256r1], 'TLSv1.2': [GROUP.x25519, GROUP.secp384r1, GROUP.secp256r1] });
  expect(result.dhGroups).toEqual([]);
  expect(result.signatureSchemes).toEqual([0x0804, 0x0805, 0x0806, 0x0401, 0x0501, 0x0601]);
  expect(result).toMatchObject({ compression: false, secureRenegotiation: true, extendedMasterSecret: true });
  // No Phase out suite is accepted, so the cipher order rule has nothing to test.
  expect(result).not.toHaveProperty('prefersStrongSuites');
  expect(result.certificates).toEqual([{ subject: 'CN=localhost', key: { type: 'rsa', bits: 3072 }, signatureAlgorithm: 'sha256WithRSAEncryption' }]);
  expect(result.notes).toEqual([]);
  expect(grade).toMatchObject({ verdict: 'pass', evidence: [] });
});

test('nginx legacy: TLS 1.0-1.2, CBC, static RSA, 1024-bit DHE, SHA-1 signatures, client order, RSA 2048: fail', async () => {
  const { result, grade } = await probeProfile('legacy');
  expect(acceptedProtocols(result)).toEqual(['TLSv1.2', 'TLSv1.1', 'TLSv1.0']);
  // Client order: the server picks the first suite of the offered list (IANA order) it has.
  expect(suitesOf(result, 'TLSv1.2')).toEqual([
    'TLS_RSA_WITH_AES_128_CBC_SHA',
    'TLS_DHE_RSA_WITH_AES_256_CBC_SHA',
    'TLS_RSA_WITH_AES_256_CBC_SHA256',
    'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA',
    'TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384',
    'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
  ]);
  // The SHA-256/384 and GCM suites exist only from TLS 1.2 on.
  expect(suitesOf(result, 'TLSv1.1')).toEqual(['TLS_RSA_WITH_AES_128_CBC_SHA', 'TLS_DHE_RSA_WITH_AES_256_CBC_SHA', 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA']);
  expect(suitesOf(result, 'TLSv1.0')).toEqual(['TLS_RSA_WITH_AES_128_CBC_SHA', 'TLS_DHE_RSA_WITH_AES_256_CBC_SHA', 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA']);
  expect(result.protocols.filter((entry) => entry.accepted).map((entry) => entry.preference)).toEqual(['client', 'client', 'client']);
  expect(protocolEntry(result, 'TLSv1.3')?.outcome).toBe('alert protocol_version');
  expect(protocolEntry(result, 'SSLv3')).toMatchObject({ accepted: false, outcome: 'alert handshake_failure' });
  // ssl_ecdh_curve is nginx's default ("auto"): OpenSSL's list, picked in the client's order.
  expect(result.groups).toEqual({ 'TLSv1.3': [], 'TLSv1.2': [GROUP.secp521r1, GROUP.secp384r1, GROUP.secp256r1, GROUP.x25519, GROUP.x448] });
  expect(result.dhGroups).toEqual([{ primeHex: DH1024_PRIME, generatorHex: '02' }]);
  // SECLEVEL=0 lets OpenSSL sign with SHA-224 and SHA-1 when those are all a client offers.
  expect(result.signatureSchemes).toEqual([0x0804, 0x0805, 0x0806, 0x0401, 0x0501, 0x0601, 0x0301, 0x0201]);
  expect(result).toMatchObject({ compression: false, secureRenegotiation: true, extendedMasterSecret: true, prefersStrongSuites: false });
  expect(result.certificates).toEqual([{ subject: 'CN=localhost', key: { type: 'rsa', bits: 2048 }, signatureAlgorithm: 'sha256WithRSAEncryption' }]);
  expect(result.notes).toEqual([]);
  expect(grade.verdict).toBe('fail');
  expect(grade.evidence).toEqual([
    'Insufficient: protocol TLSv1.1',
    'Insufficient: protocol TLSv1.0',
    'Insufficient: cipher suite TLS_RSA_WITH_AES_128_CBC_SHA (0x002f)',
    'Insufficient: cipher suite TLS_DHE_RSA_WITH_AES_256_CBC_SHA (0x0039)',
    'Insufficient: cipher suite TLS_RSA_WITH_AES_256_CBC_SHA256 (0x003d)',
    'Insufficient: cipher suite TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA (0xc013)',
    'Insufficient: key exchange group DHE DH 1024-bit custom group',
    'Insufficient: signature hash rsa_pkcs1_sha1',
    'Phase out: cipher suite TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384 (0xc028)',
    'Phase out: signature hash rsa_pkcs1_sha224',
    'Phase out: certificate CN=localhost: RSA 2048 bits',
    'Phase out: option server picks a Phase out suite over a Sufficient one offered',
  ]);
});
