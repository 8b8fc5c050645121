import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/core/publish-openapi';

test('a root security requirement that applies to /openapi.json is an error', async () => {
  const doc = conformantDocument();
  doc.components.securitySchemes = { oauth: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: 'https://auth.example.nl/a', tokenUrl: 'https://auth.example.nl/t', scopes: { lezen: 'Lezen' } } } } };
  doc.security = [{ oauth: ['lezen'] }];
  delete doc.paths['/openapi.json'].get.security;
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./openapi.json.get', '/openapi.json requires authentication through the root security, which applies to it: oauth. Set security: [] on GET /openapi.json.'],
  ]);
});

test('its own security requirement is an error at that requirement; an optional one ({}) is fine', async () => {
  const doc = conformantDocument();
  doc.components.securitySchemes = { sleutel: { type: 'http', scheme: 'bearer' } };
  doc.paths['/openapi.json'].get.security = [{ sleutel: [] }];
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./openapi.json.get.security', '/openapi.json requires authentication through its own security: sleutel. Set security: [] on GET /openapi.json.'],
  ]);
  doc.paths['/openapi.json'].get.security = [{ sleutel: [] }, {}];
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('other methods, a missing allow-origin header and a restricted origin are each reported', async () => {
  const doc = conformantDocument();
  const item = doc.paths['/openapi.json'];
  item.post = { operationId: 'postOpenapi', responses: { '201': { description: 'Gemaakt', headers: { 'API-Version': { schema: { type: 'string' } } } } } };
  item.get.responses['200'].headers['Access-Control-Allow-Origin'].schema = { type: 'string', enum: ['https://www.example.nl'] };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./openapi.json.get.responses.200.headers.Access-Control-Allow-Origin.schema.enum.0', '/openapi.json Access-Control-Allow-Origin does not allow all origins: "https://www.example.nl". Declare the value *.'],
    ['error', 'paths./openapi.json.post', '/openapi.json has an operation other than GET: POST. Define only GET on /openapi.json.'],
  ]);
  delete item.post;
  delete item.get.responses['200'].headers['Access-Control-Allow-Origin'];
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./openapi.json.get.responses.200.headers', '/openapi.json response 200 does not declare Access-Control-Allow-Origin. Declare the header with value *.'],
  ]);
});

test('the allow-origin header name compares case-insensitively, through a $ref', async () => {
  const doc = conformantDocument();
  const headers = doc.paths['/openapi.json'].get.responses['200'].headers;
  delete headers['Access-Control-Allow-Origin'];
  headers['access-control-allow-origin'] = { $ref: '#/components/headers/AlleOrigins' };
  doc.components.headers.AlleOrigins = { schema: { type: 'string', example: '*' } };
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('a description without /openapi.json is left to nlgov:openapi-json-documented', async () => {
  const doc = conformantDocument();
  delete doc.paths['/openapi.json'];
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('origins pinned by examples, const and content are judged too', async () => {
  const doc = conformantDocument();
  const headers = doc.paths['/openapi.json'].get.responses['200'].headers;
  headers['Access-Control-Allow-Origin'] = { schema: { type: 'string' }, examples: { een: { value: 'https://a.example.nl' } } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./openapi.json.get.responses.200.headers.Access-Control-Allow-Origin.examples.een.value', '/openapi.json Access-Control-Allow-Origin does not allow all origins: "https://a.example.nl". Declare the value *.'],
  ]);
  headers['Access-Control-Allow-Origin'] = { content: { 'text/plain': { schema: { type: 'string', enum: ['https://b.example.nl'] } } } };
  expect(summary(await findingsOf(CODE, doc)).map(([, path]) => path)).toEqual([
    'paths./openapi.json.get.responses.200.headers.Access-Control-Allow-Origin.content.text/plain.schema.enum.0',
  ]);
});
