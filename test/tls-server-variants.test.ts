import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gradeFindings } from '../live/tls/grading.js';
import { IANA_CIPHER_SUITES } from '../live/tls/suites.js';
import { main } from '../live/main.js';
import { generateCertificate } from '../tools/tls-profiles.js';
import { startSServer, stopSServers } from './support/openssl-server.js';
import { GROUP, acceptedProtocols, probeAndGrade as probe, suitesOf } from './tls-probe.js';

/**
 * Server configurations an independent review tried beyond the three profiles, each of which the
 * prober once got wrong (graded a bad server as pass, or missed what it accepts): `openssl
 * s_server` on loopback, exact outcomes.
 */
let directory = '';
let ec: { certificate: string; key: string };
let rsa1024: { certificate: string; key: string };
let dsa: { certificate: string; key: string };

beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'tls-variants-'));
  ec = generateCertificate(directory, 'ec', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256']);
  rsa1024 = generateCertificate(directory, 'rsa1024', ['-newkey', 'rsa:1024', '-sigopt', 'rsa_padding_mode:pkcs1']);
  // DSA keys need their parameters first (a fraction of a second for 2048 bits).
  const parameters = path.join(directory, 'dsa-parameters.pem');
  const generated = spawnSync('openssl', ['genpkey', '-genparam', '-algorithm', 'DSA', '-pkeyopt', 'pbits:2048', '-out', parameters], { encoding: 'utf8' });
  if (generated.status !== 0) throw new Error(`openssl genpkey -genparam DSA failed: ${generated.stderr}`);
  dsa = generateCertificate(directory, 'dsa', ['-newkey', `dsa:${parameters}`]);
});

afterAll(() => {
  stopSServers();
  rmSync(directory, { recursive: true, force: true });
});

const server = (certificate: { certificate: string; key: string }, extra: string[]) => startSServer(['-cert', certificate.certificate, '-key', certificate.key, ...extra]);
const certificateItems = (grade: { items: Array<{ kind: string; item: string; class: string }> }) => grade.items.filter((item) => item.kind === 'certificate').map((item) => `${item.class}: ${item.item}`);

test('an EC and an RSA 1024 certificate on one server: both are graded, so the weak RSA key fails', async () => {
  const port = await server(ec, ['-dcert', rsa1024.certificate, '-dkey', rsa1024.key, '-tls1_2', '-cipher', 'ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:@SECLEVEL=0', '-groups', 'X25519', '-sigalgs', 'ECDSA+SHA256:RSA+SHA256']);
  const { result, grade } = await probe(port);
  expect(suitesOf(result, 'TLSv1.2')).toEqual(['TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384', 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384']);
  expect(certificateItems(grade)).toEqual([
    'sufficient: CN=localhost: EC prime256v1',
    'sufficient: CN=localhost: signed with ecdsa-with-SHA256',
    'insufficient: CN=localhost: RSA 1024 bits',
    'sufficient: CN=localhost: signed with sha256WithRSAEncryption',
  ]);
  expect(grade.verdict).toBe('fail');
  expect(grade.evidence).toEqual(['Insufficient: certificate CN=localhost: RSA 1024 bits']);
});

test('TLS 1.3 with an EC and an RSA 1024 certificate: the per-scheme handshakes show both chains', async () => {
  const port = await server(ec, ['-dcert', rsa1024.certificate, '-dkey', rsa1024.key, '-tls1_3', '-groups', 'X25519', '-cipher', 'DEFAULT:@SECLEVEL=0']);
  const { result, grade } = await probe(port);
  // RSA-PSS with SHA-512 needs a key of at least 1040 bits: a 1024-bit key cannot sign with it.
  expect(result.tls13SignatureSchemes).toEqual([0x0403, 0x0804, 0x0805]);
  expect(certificateItems(grade)).toContain('insufficient: CN=localhost: RSA 1024 bits');
  expect(grade.verdict).toBe('fail');
});

test('an ECDSA certificate on P-256 with secp256k1 and secp224r1 also accepted: the TLS 1.2 curves are all found', async () => {
  const port = await server(ec, ['-tls1_2', '-cipher', 'ECDHE-ECDSA-AES256-GCM-SHA384', '-groups', 'P-256:secp256k1:secp224r1', '-sigalgs', 'ECDSA+SHA256']);
  const { result, grade } = await probe(port);
  expect([...result.groups['TLSv1.2']].sort((a, b) => a - b)).toEqual([0x0015, 0x0016, GROUP.secp256r1]);
  expect(grade.evidence).toEqual(['Insufficient: key exchange group secp256k1', 'Phase out: key exchange group secp224r1']);
});

test('TLS 1.3 with finite-field groups only: accepted through a HelloRetryRequest, groups graded', async () => {
  const port = await server(ec, ['-tls1_3', '-groups', 'ffdhe3072:ffdhe4096', '-ciphersuites', 'TLS_AES_256_GCM_SHA384']);
  const { result, grade } = await probe(port);
  expect(acceptedProtocols(result)).toEqual(['TLSv1.3']);
  expect(result.groups['TLSv1.3']).toEqual([0x0101, 0x0102]);
  expect(grade.verdict).toBe('warn');
  expect(grade.evidence).toEqual(['Phase out: key exchange group ffdhe3072', 'Phase out: key exchange group ffdhe4096']);
});

test('0-RTT early data allowed in the session tickets (-early_data): Insufficient', async () => {
  const port = await server(ec, ['-tls1_3', '-groups', 'X25519', '-ciphersuites', 'TLS_AES_256_GCM_SHA384', '-early_data']);
  const { result, grade } = await probe(port);
  expect(result.earlyData).toEqual({ maxEarlyData: 16384 });
  expect(grade.verdict).toBe('fail');
  expect(grade.evidence).toEqual(['Insufficient: option 0-RTT early data accepted (session tickets allow 16384 bytes)']);
});

test('server order Sufficient > Phase out > Sufficient breaks the cipher order rule', async () => {
  const port = await server(ec, ['-tls1_2', '-serverpref', '-cipher', 'ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-ECDSA-AES256-SHA384:ECDHE-ECDSA-AES128-GCM-SHA256', '-groups', 'X25519', '-sigalgs', 'ECDSA+SHA256']);
  const { result, grade } = await probe(port);
  expect(suitesOf(result, 'TLSv1.2')).toEqual(['TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384', 'TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384', 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256']);
  expect(result.prefersStrongSuites).toBe(false);
  expect(grade.evidence).toEqual(['Phase out: cipher suite TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384 (0xc024)', 'Phase out: option server picks a Phase out suite over a Sufficient one offered']);
});

test('a DSA certificate with DHE-DSS only: found (DSA signature schemes are offered) and failed', async () => {
  const port = await server(dsa, ['-tls1_2', '-cipher', 'DHE-DSS-AES256-GCM-SHA384:@SECLEVEL=0', '-sigalgs', 'DSA+SHA256']);
  const { result, grade } = await probe(port);
  expect(suitesOf(result, 'TLSv1.2')).toEqual(['TLS_DHE_DSS_WITH_AES_256_GCM_SHA384']);
  expect(result.signatureSchemes).toEqual([0x0402]);
  expect(certificateItems(grade)).toEqual(['insufficient: CN=localhost: dsa', 'insufficient: CN=localhost: signed with dsa-with-SHA256']);
  expect(grade.verdict).toBe('fail');
});

test('TLS 1.3 with CCM suites only: the complete handshakes still get the chain and the signature schemes', async () => {
  const port = await server(ec, ['-tls1_3', '-groups', 'X25519', '-ciphersuites', 'TLS_AES_128_CCM_SHA256']);
  const { result, grade } = await probe(port);
  expect(suitesOf(result, 'TLSv1.3')).toEqual(['TLS_AES_128_CCM_SHA256']);
  expect(result.tls13SignatureSchemes).toEqual([0x0403]);
  expect(result.certificates).toEqual([{ subject: 'CN=localhost', key: { type: 'ec', curve: 'prime256v1' }, signatureAlgorithm: 'ecdsa-with-SHA256' }]);
  expect(result.notes).toEqual([]);
  expect(grade).toMatchObject({ verdict: 'pass', evidence: [] });
});

test('a server that refuses the SNI name sent: nothing accepted is a note, not a silent pass', async () => {
  const port = await server(ec, ['-servername', 'api.example.nl', '-servername_fatal', '-cert2', ec.certificate, '-key2', ec.key]);
  const { result } = await probe(port, { serverName: 'other.example.nl' });
  expect(acceptedProtocols(result)).toEqual([]);
  expect(result.notes).toEqual([expect.stringMatching(/^no protocol version was accepted \(TLSv1\.3: alert \w+; TLSv1\.2: alert \w+/)]);
});

// Second review round.

test('0-RTT announced in tickets by a server that cannot resume (no ticket keys, no cache): not accepted, Good', async () => {
  const port = await server(ec, ['-tls1_3', '-groups', 'X25519', '-ciphersuites', 'TLS_AES_256_GCM_SHA384', '-early_data', '-no_ticket', '-no_cache']);
  const { result, grade } = await probe(port);
  expect(result.earlyData).toEqual({ maxEarlyData: 0 });
  expect(grade.items.filter((item) => item.item.includes('0-RTT'))).toEqual([{ kind: 'option', item: 'no 0-RTT early data', class: 'good' }]);
});

test('TLS 1.2 curves behind an ECDSA certificate in server order: every curve found, the certificate curve kept offered', async () => {
  const port = await server(ec, ['-tls1_2', '-serverpref', '-cipher', 'ECDHE-ECDSA-AES256-GCM-SHA384', '-groups', 'X25519:secp256k1:secp224r1:P-256', '-sigalgs', 'ECDSA+SHA256']);
  const { result, grade } = await probe(port);
  expect(result.groups['TLSv1.2']).toEqual([GROUP.x25519, 0x0016, 0x0015, GROUP.secp256r1]);
  expect(grade.evidence).toEqual(['Insufficient: key exchange group secp256k1', 'Phase out: key exchange group secp224r1']);
});

test('a TLS 1.3 server that requires a client certificate: the late alert is handled, the probe completes', async () => {
  const port = await server(ec, ['-tls1_3', '-groups', 'X25519', '-Verify', '1']);
  const { result } = await probe(port);
  expect(acceptedProtocols(result)).toEqual(['TLSv1.3']);
  expect(result.certificates.map((certificate) => certificate.subject)).toEqual(['CN=localhost']);
});

test('a server behind a proxy that resets every third connection: the losses are noted, so the check cannot pass', async () => {
  const port = await server(ec, ['-tls1_2', '-cipher', 'ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-ECDSA-AES128-GCM-SHA256', '-groups', 'X25519:P-256', '-sigalgs', 'ECDSA+SHA256']);
  let count = 0;
  const proxy = net.createServer((client) => {
    count += 1;
    if (count % 3 === 0) return client.resetAndDestroy();
    const upstream = net.connect(port, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    const end = () => { client.destroy(); upstream.destroy(); };
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  try {
    const { result } = await probe((proxy.address() as net.AddressInfo).port);
    expect(result.notes.length).toBeGreaterThan(0);
    expect(result.notes.every((note) => /connection reset|the list may be incomplete/.test(note))).toBe(true);
  } finally {
    proxy.close();
  }
});

test('a stapled response whose signature could not be checked says so in the graded item', () => {
  const grade = gradeFindings({ protocols: ['TLSv1.3'], suites: [], groups: [], dhGroups: [], signatureSchemes: [], certificates: [], ocspStapled: true, ocspUnchecked: 'the issuer certificate was not sent, so the response signature is not checked' }, IANA_CIPHER_SUITES);
  expect(grade.items.filter((item) => item.kind === 'option')).toEqual([{ kind: 'option', item: 'OCSP response stapled, status good; not fully checked: the issuer certificate was not sent, so the response signature is not checked', class: 'good' }]);
});

test('adr-check against a server that requires a client certificate: one line saying so, exit 2, not "does not verify"', async () => {
  const port = await server(ec, ['-tls1_3', '-groups', 'X25519', '-Verify', '1', '-www']);
  const stderr: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => { stderr.push(chunk); return true; }) as typeof process.stderr.write;
  try {
    expect(await main([`https://localhost:${port}/v1`, '--ca', ec.certificate])).toBe(2);
  } finally {
    process.stderr.write = write;
  }
  expect(stderr.join('')).toMatch(/^adr-check: localhost:\d+ requires a client certificate \(mutual TLS; the server's alert certificate_required\)\. adr-check does not send one\n$/);
});
