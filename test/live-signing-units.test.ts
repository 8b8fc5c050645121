import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { certificateTrust } from '../live/signing/certificate-path.js';
import { headerDeclaration, responseFor, throughReferences } from '../live/signing/declared-header.js';
import { verifyDigest } from '../live/signing/digest.js';

/** The signing checks' helpers on what a server or a description may send them. */
const body = Buffer.from('{"naam":"Oude Waag"}');
const base64 = (hash: string) => createHash(hash).update(body).digest('base64');

describe('Digest (RFC 3230)', () => {
  test('every registered algorithm node:crypto computes is verified, in any case', () => {
    const header = `md5=${base64('md5')}, SHA=${base64('sha1')}, Sha-256=${base64('sha256')}, SHA-512=${base64('sha512')}, id-sha-256=${base64('sha256')}`;
    expect(verifyDigest(header, body, undefined)).toEqual({ matched: ['MD5', 'SHA', 'SHA-256', 'SHA-512', 'ID-SHA-256'], mismatched: [], passedOver: [] });
  });

  test('a registered checksum, an unknown name and an id-sha digest under a content coding are named, not verified', () => {
    expect(verifyDigest(`ADLER32=03da0195, FOO=bar, ID-SHA-512=${base64('sha512')}`, body, 'gzip')).toEqual({
      matched: [],
      mismatched: [],
      passedOver: ['ADLER32 (registered, not computed by adr-check)', 'FOO (not in the RFC 3230 registry)', 'ID-SHA-512 (of the body before Content-Encoding gzip, which adr-check does not undo)'],
    });
  });

  test('a wrong instance beside a right one is a mismatch', () => {
    expect(verifyDigest(`SHA-256=${base64('sha256')},SHA-512=${base64('sha256')}`, body, undefined)).toEqual({
      matched: ['SHA-256'],
      mismatched: [{ algorithm: 'SHA-512', value: base64('sha256'), expected: base64('sha512') }],
      passedOver: [],
    });
  });

  test('100,000 instances over a 5 MB body: the first 16 are read', () => {
    const large = Buffer.alloc(5_000_000, 97);
    const started = Date.now();
    const verdict = verifyDigest(Array.from({ length: 100_000 }, () => 'SHA-512=AAAA').join(','), large, undefined);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(verdict.mismatched).toHaveLength(16);
    expect(verdict.passedOver).toEqual(['99984 instances after the first 16']);
  });
});

describe('declared response headers, through $ref', () => {
  const description = {
    components: {
      responses: { Signed: { headers: { 'payload-signature': { $ref: '#/components/headers/Sig' } } }, Loop: { $ref: '#/components/responses/Loop2' }, Loop2: { $ref: '#/components/responses/Loop' } },
      headers: { Sig: { required: true } },
    },
  };

  test('a response and its header each a $ref: required is read at the end of the chain, names in any case', () => {
    const response = responseFor(description, { responses: { '2XX': { $ref: '#/components/responses/Signed' } } }, 200);
    expect(headerDeclaration(description, response, 'Payload-Signature')).toBe('required');
  });

  test('a $ref loop, a remote $ref and a missing target end at nothing', () => {
    expect(throughReferences(description, { $ref: '#/components/responses/Loop' })).toEqual({});
    expect(throughReferences(description, { $ref: 'https://example.nl/responses.json#/Signed' })).toEqual({});
    expect(throughReferences(description, { $ref: '#/components/responses/Absent' })).toEqual({});
    expect(headerDeclaration(description, responseFor(description, { responses: { 200: { $ref: '#/components/responses/Loop' } } }, 200), 'Payload-Signature')).toBe('undeclared');
  });
});

describe('certificate trust on what the server and the user give', () => {
  const vector = JSON.parse(Buffer.from(readFileSync('test/fixtures/signing/payload-signature.txt', 'utf8').split('.')[0] ?? '', 'base64url').toString('utf8')) as { x5c: string[] };
  const [signer = ''] = vector.x5c;

  test('a --signing-ca without a certificate is not judged, and says so', async () => {
    expect(await certificateTrust([signer], 'not a PEM file')).toEqual({ summary: expect.stringMatching(/^x5c: CN=nlgov-adr test vector signer, /), unusable: '--signing-ca holds no PEM certificate (-----BEGIN CERTIFICATE-----)' });
  });

  test('an x5c of 11 certificates fails before any is parsed; one that is no certificate fails', async () => {
    expect(await certificateTrust(Array.from({ length: 11 }, () => 'AAAA'), undefined)).toEqual({ summary: 'x5c holds 11 certificates: adr-check builds a path through at most 10', trusted: false });
    expect(await certificateTrust(['AAAA'], undefined)).toEqual({ summary: expect.stringMatching(/^x5c is not a certificate: /), trusted: false });
  });
});
