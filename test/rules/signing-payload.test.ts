import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/signing/payload';
const signature = { description: 'Handtekening.', schema: { type: 'string', format: 'jws-compact-detached', example: 'eyJhbGciOiJQUzI1NiJ9..c2lnbmF0dXJl' } };
const digest = { description: 'Digest van de body.', schema: { type: 'string', example: 'SHA-256=X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=' } };

/** The conformant fixture with Digest declared beside every signature the test adds. */
function documentWithDigest() {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.responses['200'].headers.Digest = digest;
  doc.paths['/monumenten'].get.parameters.push({ name: 'Digest', in: 'header', ...digest });
  return doc;
}

test('a response Payload-Signature of another format and with a non-detached example is an error at each', async () => {
  const doc = documentWithDigest();
  doc.paths['/monumenten'].get.responses['200'].headers['payload-signature'] = { schema: { type: 'string', example: 'eyJhbGciOiJQUzI1NiJ9.eyJ4IjoxfQ.c2ln' } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.responses.200.headers.payload-signature.schema', 'payload-signature is not declared as a detached JWS: type string. Declare schema type string with format jws-compact-detached.'],
    ['error', 'paths./monumenten.get.responses.200.headers.payload-signature.schema.example', 'payload-signature example is not a detached compact JWS: eyJhbGciOiJQUzI1NiJ9.eyJ4IjoxfQ.c2ln. Give header..signature: two base64url parts around two dots.'],
  ]);
});

test('a shared header in components and a request header parameter are checked', async () => {
  const doc = documentWithDigest();
  doc.components.headers.Handtekening = { schema: { type: 'integer' } };
  doc.paths['/monumenten'].get.responses['200'].headers['Payload-Signature'] = { $ref: '#/components/headers/Handtekening' };
  doc.paths['/monumenten'].get.parameters.push({ name: 'Payload-Signature', in: 'header', schema: { type: 'string', format: 'jws-compact-detached' }, example: 'abc' });
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.parameters.2.example', 'Payload-Signature example is not a detached compact JWS: abc. Give header..signature: two base64url parts around two dots.'],
    ['error', 'components.headers.Handtekening.schema', 'Payload-Signature is not declared as a detached JWS: type integer. Declare schema type string with format jws-compact-detached.'],
  ]);
});

test('a string of format jws-compact-detached with a detached example passes', async () => {
  const doc = documentWithDigest();
  doc.paths['/monumenten'].get.responses['200'].headers['Payload-Signature'] = signature;
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('a signature header declared with content instead of schema is judged on that schema', async () => {
  const doc = documentWithDigest();
  doc.paths['/monumenten'].get.responses['200'].headers['Payload-Signature'] = { content: { 'text/plain': { schema: { type: 'string', format: 'jws-compact-detached' } } } };
  expect(await findingsOf(CODE, doc)).toEqual([]);
  doc.paths['/monumenten'].get.responses['200'].headers['Payload-Signature'] = { content: { 'text/plain': { schema: { type: 'string' } } } };
  expect(summary(await findingsOf(CODE, doc)).map(([, path]) => path)).toEqual(['paths./monumenten.get.responses.200.headers.Payload-Signature.content.text/plain.schema']);
});

test('an example that is no string is named as JSON in the message', async () => {
  const doc = documentWithDigest();
  doc.paths['/monumenten'].get.responses['200'].headers['Payload-Signature'] = { schema: { type: 'string', format: 'jws-compact-detached', example: { alg: 'PS256' } } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.responses.200.headers.Payload-Signature.schema.example', 'Payload-Signature example is not a detached compact JWS: {"alg":"PS256"}. Give header..signature: two base64url parts around two dots.'],
  ]);
});

test('a payload-signed response or request without Digest is an error where Digest is missing', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.responses['200'].headers['Payload-Signature'] = signature;
  doc.paths['/monumenten'].get.parameters.push({ name: 'Payload-Signature', in: 'header', ...signature });
  const missing = 'Payload-Signature is declared without the Digest header it signs. Declare the Digest header beside it.';
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.parameters', missing],
    ['error', 'paths./monumenten.get.responses.200.headers', missing],
  ]);
});
