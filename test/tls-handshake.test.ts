import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TlsGrade } from '../live/tls/grading.js';
import { judgeOcspStapling } from '../live/tls/ocsp.js';
import { shortReason } from '../live/tls/handshake.js';
import { probeAndGrade as probe } from './tls-probe.js';
import { generateCertificate } from '../tools/tls-profiles.js';
import { issueLeaf, ocspResponseFor, startSServer, stopSServers, strangerCertificate, type Pki } from './support/openssl-server.js';

/**
 * What needs a complete handshake, against `openssl s_server` on loopback: client-initiated
 * renegotiation, OCSP stapling, the TLS 1.3 signature schemes, and Node's verdict on the chain.
 */
let directory = '';
let pki: Pki;

beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'tls-handshake-'));
  pki = issueLeaf(directory);
});

afterAll(() => {
  stopSServers();
  rmSync(directory, { recursive: true, force: true });
});

/** An EC leaf with one Sufficient TLS 1.2 suite and SHA-256 signatures: nothing else to grade. */
const TLS12_CLEAN = ['-tls1_2', '-cipher', 'ECDHE-ECDSA-AES256-GCM-SHA384', '-groups', 'X25519', '-sigalgs', 'ECDSA+SHA256'];
const TLS13_CLEAN = ['-tls1_3', '-ciphersuites', 'TLS_AES_256_GCM_SHA384', '-groups', 'X25519'];

function leafServer(extra: string[]): Promise<number> {
  return startSServer(['-cert', pki.leafCertificate, '-key', pki.leafKey, '-cert_chain', pki.caCertificate, ...extra]);
}

const optionItems = (grade: TlsGrade) => grade.items.filter((item) => item.kind === 'option').map((item) => `${item.class}: ${item.item}`);

test('client-initiated renegotiation refused (OpenSSL 3 default): Good, and how the server refused', async () => {
  const { result, grade } = await probe(await leafServer(TLS12_CLEAN));
  expect(result.renegotiation).toEqual({ accepted: 0, refusal: 'no renegotiation' });
  expect(optionItems(grade)).toContain('good: client-initiated renegotiation refused');
  expect(grade).toMatchObject({ verdict: 'pass', evidence: [] });
});

test('client-initiated renegotiation allowed without limit (-client_renegotiation): Phase out, warn', async () => {
  const { result, grade } = await probe(await leafServer([...TLS12_CLEAN, '-client_renegotiation']));
  expect(result.renegotiation).toEqual({ accepted: 11 });
  expect(grade.verdict).toBe('warn');
  expect(grade.evidence).toEqual(['Phase out: option client-initiated renegotiation allowed more than 10 times']);
});

test("client-initiated renegotiation limited (Node's server: 3 per 10 minutes): Sufficient", async () => {
  const key = readFileSync(pki.leafKey);
  const cert = Buffer.concat([readFileSync(pki.leafCertificate), readFileSync(pki.caCertificate)]);
  const server = tls.createServer({ key, cert, maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES256-GCM-SHA384', ecdhCurve: 'X25519', sigalgs: 'ECDSA+SHA256' });
  // Node's server reports a client that renegotiates too often as an error on the socket.
  server.on('secureConnection', (socket) => socket.on('error', () => socket.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { result, grade } = await probe((server.address() as AddressInfo).port);
    expect(result.renegotiation).toMatchObject({ accepted: 3 });
    expect(optionItems(grade)).toContain('sufficient: client-initiated renegotiation allowed (3 times, then refused)');
    expect(grade).toMatchObject({ verdict: 'pass', evidence: [] });
  } finally {
    server.close();
  }
});

test('a TLS 1.3-only server is not asked to renegotiate (TLS 1.3 has none)', async () => {
  const { result } = await probe(await leafServer(TLS13_CLEAN));
  expect(result.renegotiation).toBeUndefined();
  expect(result.notes).toEqual([]);
});

test('no OCSP response stapled: informational, Good; Node reports the chain as untrusted without --ca', async () => {
  const { result, grade } = await probe(await leafServer(TLS13_CLEAN));
  expect(result.ocsp).toEqual({ stapled: false });
  expect(optionItems(grade)).toEqual(['good: no OCSP response stapled (optional)', 'good: no 0-RTT early data']);
  expect(result.chainVerification).toMatchObject({ authorized: false, error: 'SELF_SIGNED_CERT_IN_CHAIN', protocol: 'TLSv1.3' });
  expect(grade.verdict).toBe('pass');
  const byAddress = await probe(await leafServer(TLS13_CLEAN), { ca: readFileSync(pki.caCertificate, 'utf8') });
  expect(byAddress.result.chainVerification).toMatchObject({ authorized: false, error: 'ERR_TLS_CERT_ALTNAME_INVALID' });
});

test('a valid stapled OCSP response (CA-signed, good, fresh) is Good; with --ca and the host name the chain verifies', async () => {
  const response = ocspResponseFor(pki, 'valid');
  const port = await leafServer([...TLS13_CLEAN, '-status_file', response]);
  const { result, grade } = await probe(port, { ca: readFileSync(pki.caCertificate, 'utf8'), serverName: 'localhost' });
  expect(result.ocsp).toEqual({ stapled: true, status: 'good', nextUpdate: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  expect(optionItems(grade)).toEqual(['good: valid OCSP response stapled', 'good: no 0-RTT early data']);
  expect(result.chainVerification).toEqual({ authorized: true, protocol: 'TLSv1.3', notAfter: expect.stringMatching(/^\d{4}-/) });
  expect(result.certificates.map((certificate) => certificate.subject)).toEqual(['CN=localhost']);
  expect(grade).toMatchObject({ verdict: 'pass', evidence: [] });
});

test('a stapled response signed by a stranger is Insufficient: fail, naming why', async () => {
  const response = ocspResponseFor(pki, 'stranger', strangerCertificate(directory));
  const { result, grade } = await probe(await leafServer([...TLS13_CLEAN, '-status_file', response]));
  expect(result.ocsp).toMatchObject({ stapled: true, status: 'good', problem: expect.stringMatching(/^the stapled response signature does not verify: /) });
  expect(grade.verdict).toBe('fail');
  expect(grade.evidence).toEqual([expect.stringMatching(/^Insufficient: option stapled OCSP response not valid: the stapled response signature does not verify: /)]);
});

test('a stapled response past its nextUpdate, or for another certificate, is not valid', async () => {
  const response = readFileSync(ocspResponseFor(pki, 'dates'));
  const der = (file: string) => Buffer.from(readFileSync(file, 'utf8').replace(/-----[^-]+-----|\s/g, ''), 'base64');
  const chain = [der(pki.leafCertificate), der(pki.caCertificate)];
  const inThreeDays = new Date(Date.now() + 3 * 86_400_000);
  expect(await judgeOcspStapling(response, chain, [], inThreeDays)).toMatchObject({ stapled: true, problem: expect.stringMatching(/^the stapled response expired \(nextUpdate /) });
  const otherPki = issueLeaf(mkdtempSync(path.join(directory, 'other-')), 'Other CA');
  expect(await judgeOcspStapling(response, [der(otherPki.leafCertificate), der(otherPki.caCertificate)])).toMatchObject({ stapled: true, problem: 'the stapled response is for another certificate' });
  expect(await judgeOcspStapling(response, [chain[0] as Buffer])).toMatchObject({ status: 'good', unchecked: 'the issuer certificate was not sent, so the response signature is not checked' });
  expect(await judgeOcspStapling(Buffer.from('not DER'), chain)).toMatchObject({ stapled: true, problem: expect.stringMatching(/^the stapled response does not parse/) });
});

test('TLS 1.3 signature schemes: a P-256 key signs with ecdsa_secp256r1_sha256 only', async () => {
  const { result, grade } = await probe(await leafServer(TLS13_CLEAN));
  expect(result.tls13SignatureSchemes).toEqual([0x0403]);
  expect(grade.items.filter((item) => item.kind === 'signature hash')).toEqual([{ kind: 'signature hash', item: 'ecdsa_secp256r1_sha256', class: 'good' }]);
});

test('TLS 1.3 signature schemes: an RSA key signs with the three RSA-PSS (rsae) schemes, or those it is restricted to', async () => {
  const rsa = generateCertificate(directory, 'rsa', ['-newkey', 'rsa:2048']);
  const rsaServer = (extra: string[]) => startSServer(['-cert', rsa.certificate, '-key', rsa.key, '-tls1_3', ...extra]);
  expect((await probe(await rsaServer([]))).result.tls13SignatureSchemes).toEqual([0x0804, 0x0805, 0x0806]);
  expect((await probe(await rsaServer(['-sigalgs', 'rsa_pss_rsae_sha256:rsa_pss_rsae_sha512']))).result.tls13SignatureSchemes).toEqual([0x0804, 0x0806]);
});

test("OpenSSL's error strings are reported as what the server did, without thread ids and source paths", () => {
  expect(shortReason('801CA332517F0000:error:0A000410:SSL routines:ssl3_read_bytes:sslv3 alert handshake failure:../deps/openssl/openssl/ssl/record/rec_layer_s3.c:1601:SSL alert number 40\n')).toBe('alert handshake_failure');
  expect(shortReason('80ECE1974B7F0000:error:0A000153:SSL routines:ssl3_read_bytes:no renegotiation:../deps/openssl/openssl/ssl/record/rec_layer_s3.c:1617:\n')).toBe('no renegotiation');
  expect(shortReason('80DCABBD3F7F0000:error:02000085:rsa routines:RSA_verify_PKCS1_PSS_mgf1:first octet invalid:../deps/openssl/openssl/crypto/rsa/rsa_pss.c:76:\n')).toBe('first octet invalid');
  expect(shortReason('socket hang up')).toBe('socket hang up');
});

test("Node.js's https server with its defaults: 3 renegotiations, then silence taken as its limit; graded as before", async () => {
  const { createServer } = await import('node:https');
  const server = createServer({ cert: readFileSync(pki.leafCertificate), key: readFileSync(pki.leafKey) }, (_request, response) => response.end('ok'));
  // Node answers renegotiation attempts past its limit with an error on its own side and silence on the wire.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { result, grade } = await probe((server.address() as AddressInfo).port);
    expect(result.renegotiation?.accepted).toBe(3);
    expect(result.renegotiation?.refusal).toMatch(/^no answer within \d+ ms after 3 accepted \(taken as the server's limit\)$/);
    expect(optionItems(grade)).toContain('sufficient: client-initiated renegotiation allowed (3 times, then refused)');
    expect(result.notes).toEqual([]);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
