import { join } from 'node:path';
import { conformantDocument } from '../fixtures/conformant.js';
import { FIXTURES, findingsOf, lint, summary } from '../harness.js';

const CODE = '/core/version-header';

test('a 2xx response without API-Version is an error at its headers', async () => {
  const doc = conformantDocument();
  delete doc.paths['/monumenten'].get.responses['200'].headers;
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.responses.200', 'Response does not declare the API-Version header. Declare API-Version with the full version of the API.'],
  ]);
});

test('status ranges (2XX) and 3xx codes are checked; the message does not list the headers that are declared', async () => {
  const doc = conformantDocument();
  const responses = doc.paths['/monumenten'].get.responses;
  responses['2XX'] = { description: 'Ok', headers: { 'X-Request-Id': { schema: { type: 'string' } } } };
  responses['304'] = { description: 'Niet gewijzigd' };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.responses.304', 'Response does not declare the API-Version header. Declare API-Version with the full version of the API.'],
    ['error', 'paths./monumenten.get.responses.2XX.headers', 'Response does not declare the API-Version header. Declare API-Version with the full version of the API.'],
  ]);
});

test('header names compare case-insensitively', async () => {
  const doc = conformantDocument();
  const headers = doc.paths['/monumenten'].get.responses['200'].headers;
  headers['API-VERSION'] = headers['API-Version'];
  delete headers['API-Version'];
  doc.paths['/openapi.json'].get.responses['200'].headers['api-version'] = { schema: { type: 'string' } };
  delete doc.paths['/openapi.json'].get.responses['200'].headers['API-Version'];
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('a shared response reached through $ref, under 200 and 201, is reported once, at its definition', async () => {
  const doc = conformantDocument();
  doc.components.responses.Lijst = { description: 'Lijst', content: { 'application/json': { schema: { type: 'object' } } } };
  doc.paths['/monumenten'].get.responses['200'] = { $ref: '#/components/responses/Lijst' };
  doc.paths['/gebieden'] = { post: { operationId: 'createGebied', responses: { '201': { $ref: '#/components/responses/Lijst' } } } };
  const findings = await findingsOf(CODE, doc);
  expect(summary(findings)).toEqual([
    ['error', 'components.responses.Lijst', 'Response does not declare the API-Version header. Declare API-Version with the full version of the API.'],
  ]);
});

test('a response in another file, reached through a relative $ref, is checked in that file', async () => {
  const external = join(FIXTURES, 'external-responses.yaml');
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.responses['200'] = { $ref: './external-responses.yaml#/Lijst' };
  const findings = await findingsOf(CODE, doc);
  expect(findings.map((finding) => [finding.path, finding.source])).toEqual([['Lijst.headers', external]]);
});

test('error responses and other methods than the five are not this rule\'s business', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.responses['404'] = { description: 'Niet gevonden', content: { 'application/problem+json': { schema: { type: 'object' } } } };
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('a HEAD operation is /core/http-methods\' finding, and its responses are still judged', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].head = { responses: { '200': { description: 'Ok' } } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.head.responses.200', 'Response does not declare the API-Version header. Declare API-Version with the full version of the API.'],
  ]);
});

test('a response whose $ref does not resolve is left to /core/doc-openapi, not reported at the document root', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.responses['200'] = { $ref: '#/components/responses/Ontbreekt' };
  const findings = await lint(doc);
  expect(findings.filter(({ code }) => code === CODE)).toEqual([]);
  expect(summary(findings.filter(({ code }) => code === '/core/doc-openapi'))).toEqual([
    ['error', 'paths./monumenten.get.responses.200.$ref', expect.stringContaining('#/components/responses/Ontbreekt')],
  ]);
});

describe('a default response that is the operation\'s only success response', () => {
  const withDefault = (responses: Record<string, unknown>) => {
    const doc = conformantDocument();
    doc.paths['/monumenten'].get.responses = responses;
    return doc;
  };
  const bare = { description: 'Het antwoord.', content: { 'application/json': { schema: { type: 'object' } } } };

  test('declares API-Version: without it, it is reported at the default response', async () => {
    const findings = await findingsOf(CODE, withDefault({ default: bare, '404': { $ref: '#/components/responses/Probleem' } }));
    expect(summary(findings)).toEqual([
      ['error', 'paths./monumenten.get.responses.default', 'Default response, the only success response of its operation, does not declare the API-Version header. Declare API-Version with the full version of the API.'],
    ]);
  });

  test('passes when it declares API-Version, and is not judged beside a 2xx or 3xx response', async () => {
    const versioned = { ...bare, headers: { 'API-Version': { $ref: '#/components/headers/ApiVersion' } } };
    expect(await findingsOf(CODE, withDefault({ default: versioned }))).toEqual([]);
    expect(await findingsOf(CODE, withDefault({ '304': { description: 'Niet gewijzigd.', headers: versioned.headers }, default: bare }))).toEqual([]);
  });
});

test('a header that is API-Version under another name (X-API-Version, Api_Version) is named, with the rename as the fix', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.responses['200'].headers = { 'X-API-Version': { schema: { type: 'string' } }, 'X-Request-Id': { schema: { type: 'string' } } };
  doc.paths['/openapi.json'].get.responses['200'].headers = { Api_Version: { schema: { type: 'string' } }, 'Access-Control-Allow-Origin': { schema: { type: 'string', enum: ['*'] } } };
  expect(summary(await findingsOf(CODE, doc)).map(([, , message]) => message)).toEqual([
    'Response does not declare the API-Version header (it declares Api_Version, another name). Rename Api_Version to API-Version.',
    'Response does not declare the API-Version header (it declares X-API-Version, another name). Rename X-API-Version to API-Version.',
  ]);
});
