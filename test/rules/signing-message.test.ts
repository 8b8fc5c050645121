import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/signing/message';
const signature = { description: 'Handtekening.', schema: { type: 'string', format: 'jws-compact-detached', example: 'eyJhbGciOiJQUzI1NiJ9..c2lnbmF0dXJl' } };
const digest = { description: 'Digest van de body.', schema: { type: 'string', example: 'SHA-256=X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=' } };

test('a message-signed response without Digest is an error at the signature header', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.responses['200'].headers['Message-Signature'] = signature;
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.responses.200.headers.Message-Signature', 'Message-Signature is declared without the Digest header it signs: no Digest. Declare the Digest header beside it.'],
  ]);
});

test('a message-signed request without a Digest parameter is an error; a wrong format too', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.parameters.push({ name: 'Message-Signature', in: 'header', schema: { type: 'string' } });
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.parameters.1', 'Message-Signature is declared without the Digest header it signs: no Digest. Declare the Digest header beside it.'],
    ['error', 'paths./monumenten.get.parameters.1.schema', 'Message-Signature is not declared as a detached JWS: type string, format none. Declare schema type string with format jws-compact-detached.'],
  ]);
});

test('a signature with Digest beside it passes, in a response and in a request', async () => {
  const doc = conformantDocument();
  Object.assign(doc.paths['/monumenten'].get.responses['200'].headers, { 'Message-Signature': signature, digest });
  doc.paths['/monumenten'].get.parameters.push({ name: 'Message-Signature', in: 'header', ...signature }, { name: 'Digest', in: 'header', ...digest });
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('a Digest declared on the path item applies to the operation', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].parameters = [{ name: 'Digest', in: 'header', ...digest }];
  doc.paths['/monumenten'].get.parameters.push({ name: 'Message-Signature', in: 'header', ...signature });
  expect(await findingsOf(CODE, doc)).toEqual([]);
});
