import { readFileSync } from 'node:fs';
import { certificateTrust } from '../live/signing/certificate-path.js';
import { verifyDigest } from '../live/signing/digest.js';
import { parseDetachedJws, signedData, verifyDetached, type SignatureHeader } from '../live/signing/jades.js';

/**
 * A signature made by another implementation than ours: OpenSSL, by
 * test/fixtures/signing/make-vector.sh (the command is kept beside the fixture).
 */
const fixture = (name: string) => readFileSync(`test/fixtures/signing/${name}`);
const body = fixture('body.json');
const digest = fixture('digest.txt').toString('utf8');
const jws = parseDetachedJws(fixture('payload-signature.txt').toString('utf8')) as SignatureHeader;
const x5c = (jws.header.x5c as string[])[0] as string;
const data = signedData(['digest'], (name) => (name === 'digest' ? digest : undefined)) as string;

test('the vector is a detached JWS with the module header, and its Digest is the body digest', () => {
  expect(jws.header).toEqual(expect.objectContaining({ alg: 'PS256', b64: false, crit: ['b64', 'sigD'], sigD: { mId: 'http://uri.etsi.org/19182/HttpHeaders', pars: ['digest'] } }));
  expect(verifyDigest(digest, body, undefined)).toEqual({ matched: ['SHA-256'], mismatched: [], passedOver: [] });
  expect(data).toBe(`digest: ${digest}`);
});

test('the signature made by OpenSSL verifies with the x5c certificate', async () => {
  expect(await verifyDetached(jws, data, { x5c })).toBe(true);
});

test('other signed data, another signature or another key does not verify', async () => {
  expect(await verifyDetached(jws, `${data} `, { x5c })).toBe('signature verification failed');
  const flipped = { ...jws, signature: `${jws.signature.slice(0, 10)}${jws.signature[10] === 'A' ? 'B' : 'A'}${jws.signature.slice(11)}` };
  expect(await verifyDetached(flipped, data, { x5c })).toBe('signature verification failed');
  const { generateKeyPair, exportJWK } = await import('jose');
  const { publicKey } = await generateKeyPair('PS256');
  expect(await verifyDetached(jws, data, { jwk: await exportJWK(publicKey) })).toBe('signature verification failed');
});

test('trust: reported without a CA, judged with one', async () => {
  expect((await certificateTrust([x5c], undefined)).summary).toMatch(/^x5c: CN=nlgov-adr test vector signer, issued by CN=nlgov-adr test vector signer, valid until .+; trust not judged \(give --signing-ca\)$/);
  expect((await certificateTrust([x5c], fixture('cert.pem').toString('utf8'))).trusted).toBe(true);
});
