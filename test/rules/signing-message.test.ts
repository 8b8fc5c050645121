import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/signing/message';
const signature = { description: 'Handtekening.', schema: { type: 'string', format: 'jws-compact-detached', example: 'eyJhbGciOiJQUzI1NiJ9..c2lnbmF0dXJl' } };
const digest = { description: 'Digest van de body.', schema: { type: 'string', example: 'SHA-256=X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=' } };

test('a message-signed response without Digest is an error at its headers map', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.responses['200'].headers['Message-Signature'] = signature;
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.responses.200.headers', 'Message-Signature is declared without the Digest header it signs. Declare the Digest header beside it.'],
  ]);
});

test('a message-signed request without a Digest parameter is an error at the parameter list; a wrong format too', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.parameters.push({ name: 'Message-Signature', in: 'header', schema: { type: 'string' } });
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.parameters', 'Message-Signature is declared without the Digest header it signs. Declare the Digest header beside it.'],
    ['error', 'paths./monumenten.get.parameters.1.schema', 'Message-Signature is not declared as a detached JWS: type string. Declare schema type string with format jws-compact-detached.'],
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

const noDigest = 'Message-Signature is declared without the Digest header it signs. Declare the Digest header beside it.';

test('a shared Message-Signature header ($ref): each response without Digest is reported at its own headers map', async () => {
  const doc = conformantDocument();
  doc.components.headers.MessageSignature = signature;
  doc.components.headers.Digest = digest;
  const get = doc.paths['/monumenten'].get.responses['200'];
  Object.assign(get.headers, { 'Message-Signature': { $ref: '#/components/headers/MessageSignature' }, Digest: { $ref: '#/components/headers/Digest' } });
  doc.paths['/monumenten'].post = { responses: { '201': { description: 'Aangemaakt.', headers: { 'Message-Signature': { $ref: '#/components/headers/MessageSignature' } } } } };
  doc.paths['/monumenten'].put = { responses: { '200': { description: 'Vervangen.', headers: { 'Message-Signature': { $ref: '#/components/headers/MessageSignature' } } } } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.post.responses.201.headers', noDigest],
    ['error', 'paths./monumenten.put.responses.200.headers', noDigest],
  ]);
});

test('a shared Message-Signature parameter ($ref): each operation without Digest is reported at its own parameter list', async () => {
  const doc = conformantDocument();
  doc.components.parameters = {
    MessageSignature: { name: 'Message-Signature', in: 'header', ...signature },
    Digest: { name: 'Digest', in: 'header', ...digest },
  };
  doc.paths['/monumenten'].get.parameters.push({ $ref: '#/components/parameters/MessageSignature' }, { $ref: '#/components/parameters/Digest' });
  doc.paths['/monumenten'].post = { parameters: [{ $ref: '#/components/parameters/MessageSignature' }], responses: { '201': { description: 'Aangemaakt.' } } };
  doc.paths['/monumenten/{monumentId}'] = { parameters: [{ $ref: '#/components/parameters/MessageSignature' }], delete: { responses: { '204': { description: 'Verwijderd.' } } } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.post.parameters', noDigest],
    ['error', 'paths./monumenten/{monumentId}.parameters', noDigest],
  ]);
});

test('a wrong shared declaration is still reported once, at its definition', async () => {
  const doc = conformantDocument();
  doc.components.headers.Handtekening = { schema: { type: 'string', example: 'geen-jws' } };
  doc.components.headers.Digest = digest;
  for (const method of ['post', 'put']) {
    doc.paths['/monumenten'][method] = { responses: { '200': { description: 'Ok.', headers: { 'Message-Signature': { $ref: '#/components/headers/Handtekening' }, Digest: { $ref: '#/components/headers/Digest' } } } } };
  }
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'components.headers.Handtekening.schema', 'Message-Signature is not declared as a detached JWS: type string. Declare schema type string with format jws-compact-detached.'],
    ['error', 'components.headers.Handtekening.schema.example', 'Message-Signature example is not a detached compact JWS: geen-jws. Give header..signature: two base64url parts around two dots.'],
  ]);
});
