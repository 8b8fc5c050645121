import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = 'nlgov:http-status-codes';
const problem = { $ref: '#/components/responses/Probleem' };
const versioned = (description: string) => ({ description, headers: { 'API-Version': { $ref: '#/components/headers/ApiVersion' } } });

const memberPath = {
  parameters: [{ name: 'monumentId', in: 'path', required: true, schema: { type: 'string' } }],
  get: { operationId: 'getMonument', responses: { '200': versioned('Ok'), '404': problem } },
};

test('a POST on a collection (a member path lies below it) without 201 is an info', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].post = { operationId: 'createMonument', responses: { '200': versioned('Ok'), '400': problem } };
  doc.paths['/monumenten/{monumentId}'] = memberPath;
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['info', 'paths./monumenten.post.responses', 'POST on collection /monumenten has no 201 response: 200, 400. Answer a create with 201 Created and a Location header.'],
  ]);
});

test('200 as the only response and a DELETE without 200/202/204 are infos', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten/{monumentId}'] = {
    parameters: [{ name: 'monumentId', in: 'path', required: true, schema: { type: 'string' } }],
    get: { operationId: 'getMonument', responses: { '200': versioned('Ok') } },
    delete: { operationId: 'deleteMonument', responses: { '404': problem } },
  };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['info', 'paths./monumenten/{monumentId}.get.responses', 'GET declares 200 as its only response: 200. Describe the error responses too (400, 404, ...), with problem details.'],
    ['info', 'paths./monumenten/{monumentId}.delete.responses', 'DELETE has no 200, 202 or 204 response: 404. Answer a delete with 204 No Content (or 200/202).'],
  ]);
});

test('a create with 201, a POST on _search, /search or a member, a DELETE with 204 and /openapi.json with only 200 pass', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].post = { operationId: 'createMonument', responses: { '201': versioned('Gemaakt'), '400': problem } };
  doc.paths['/_search'] = { post: { operationId: 'zoek', responses: { '200': versioned('Ok'), '400': problem } } };
  doc.paths['/monumenten/search'] = { post: { operationId: 'zoekMonumenten', responses: { '200': versioned('Ok'), '400': problem } } };
  doc.paths['/monumenten/{monumentId}'] = {
    parameters: [{ name: 'monumentId', in: 'path', required: true, schema: { type: 'string' } }],
    post: { operationId: 'vervangMonument', responses: { '200': versioned('Ok'), '400': problem } },
    delete: { operationId: 'deleteMonument', responses: { '204': versioned('Verwijderd'), '404': problem } },
  };
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('status keys are shown as written, and an empty responses map says none', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].post = { operationId: 'createMonument', responses: { default: problem } };
  doc.paths['/monumenten/{monumentId}'] = memberPath;
  doc.paths['/monumenten'].delete = { operationId: 'deleteAlles', responses: {} };
  expect(summary(await findingsOf(CODE, doc)).map(([, , message]) => message)).toEqual([
    'POST on collection /monumenten has no 201 response: default. Answer a create with 201 Created and a Location header.',
    'DELETE has no 200, 202 or 204 response: none. Answer a delete with 204 No Content (or 200/202).',
  ]);
});

test('status keys are listed as written (default, 4xx), as the docs page says', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].post = { operationId: 'createMonument', responses: { '200': versioned('Ok'), default: problem } };
  doc.paths['/monumenten/{monumentId}'] = memberPath;
  doc.paths['/monumenten'].delete = { operationId: 'deleteAlles', responses: { '4xx': problem } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['info', 'paths./monumenten.post.responses', 'POST on collection /monumenten has no 201 response: 200, default. Answer a create with 201 Created and a Location header.'],
    ['info', 'paths./monumenten.delete.responses', 'DELETE has no 200, 202 or 204 response: 4xx. Answer a delete with 204 No Content (or 200/202).'],
  ]);
  const page = readFileSync(join(process.cwd(), 'docs', 'rules', 'nlgov-http-status-codes.md'), 'utf8');
  expect(page).toContain('lists the status keys found as written (`200, default`, `4xx`)');
  expect(page).not.toMatch(/uppercased|DEFAULT/);
});

test('a POST with 200 on an action resource named with a verb without underscore passes: without a member path below it, no collection', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten/{monumentId}'] = memberPath;
  doc.paths['/monumenten/{monumentId}/verplaatsen'] = {
    parameters: memberPath.parameters,
    post: { operationId: 'verplaatsMonument', responses: { '200': versioned('Verplaatst'), '400': problem } },
  };
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('a collection under a leading path variable is a collection too', async () => {
  const doc = conformantDocument();
  doc.paths['/{gemeente}/meldingen'] = { post: { operationId: 'meld', responses: { '200': versioned('Ok'), '400': problem } } };
  doc.paths['/{gemeente}/meldingen/{id}'] = { get: { operationId: 'getMelding', responses: { '200': versioned('Ok'), '404': problem } } };
  expect(summary(await findingsOf(CODE, doc)).map(([, path]) => path)).toEqual(['paths./{gemeente}/meldingen.post.responses']);
});
