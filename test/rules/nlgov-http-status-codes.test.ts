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
    ['info', 'paths./monumenten.post.responses', 'POST on collection /monumenten has a success response other than 201: 200. Answer a create with 201 Created and a Location header.'],
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
    ['info', 'paths./monumenten/{monumentId}.get.responses', 'GET /monumenten/{monumentId} declares only a 200 response. Describe the error responses too (400, 404, ...), with problem details.'],
    ['info', 'paths./monumenten/{monumentId}.delete.responses', 'DELETE /monumenten/{monumentId} declares no 200, 202 or 204 response. Answer a delete with 204 No Content (or 200/202).'],
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

test('a POST or DELETE without any success response says so, and lists nothing that is fine', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].post = { operationId: 'createMonument', responses: { default: problem } };
  doc.paths['/monumenten/{monumentId}'] = memberPath;
  doc.paths['/monumenten'].delete = { operationId: 'deleteAlles', responses: {} };
  expect(summary(await findingsOf(CODE, doc)).map(([, , message]) => message)).toEqual([
    'POST on collection /monumenten declares no 201 response. Answer a create with 201 Created and a Location header.',
    'DELETE /monumenten declares no 200, 202 or 204 response. Answer a delete with 204 No Content (or 200/202).',
  ]);
});

test('the offending success responses are named as written (200, 206), the error responses and default are not', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].post = { operationId: 'createMonument', responses: { '200': versioned('Ok'), '206': versioned('Deels'), default: problem } };
  doc.paths['/monumenten/{monumentId}'] = memberPath;
  doc.paths['/monumenten'].delete = { operationId: 'deleteAlles', responses: { '201': versioned('Raar'), '4xx': problem } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['info', 'paths./monumenten.post.responses', 'POST on collection /monumenten has a success response other than 201: 200, 206. Answer a create with 201 Created and a Location header.'],
    ['info', 'paths./monumenten.delete.responses', 'DELETE /monumenten has a success response other than 200, 202 or 204: 201. Answer a delete with 204 No Content (or 200/202).'],
  ]);
  const page = readFileSync(join(process.cwd(), 'docs', 'rules', 'nlgov-http-status-codes.md'), 'utf8');
  expect(page).toContain('names the success responses found, as written');
  expect(page).not.toMatch(/uppercased|DEFAULT|shows as `none`/);
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

describe('a POST on a collection that searches is not a create: no advice to answer 201', () => {
  const json = (schema: unknown) => ({ 'application/json': { schema } });
  const point = { type: 'object', properties: { type: { type: 'string', enum: ['Point'] }, coordinates: { type: 'array', items: { type: 'number' } } } };
  const monument = { $ref: '#/components/schemas/Monument' };

  function postOnCollection(post: Record<string, unknown>): Record<string, any> {
    const doc = conformantDocument();
    doc.paths['/monumenten'].post = { operationId: 'postMonumenten', ...post };
    doc.paths['/monumenten/{monumentId}'] = memberPath;
    return doc;
  }

  test.each([
    ['an array', { type: 'array', items: monument }],
    ['a HAL collection (_embedded)', { type: 'object', properties: { _embedded: { type: 'object', properties: { monumenten: { type: 'array', items: monument } } }, _links: { type: 'object' } } }],
    ['an object with an items list', { type: 'object', properties: { items: { type: 'array', items: monument }, totaal: { type: 'integer' } } }],
  ])('a POST whose 200 response is a collection (%s) passes', async (_what, schema) => {
    const doc = postOnCollection({ requestBody: { content: json({ type: 'object', properties: { naam: { type: 'string' } } }) }, responses: { '200': { ...versioned('Gevonden'), content: json(schema) }, '400': problem } });
    expect(await findingsOf(CODE, doc)).toEqual([]);
  });

  test.each([
    ['a bare geometry', point],
    ['a geometry filter with a spatial operator', { type: 'object', properties: { _geo: { type: 'object', properties: { intersects: point } } } }],
    ['a spatial operator on a geometry', { type: 'object', properties: { within: point, naam: { type: 'string' } } }],
  ])('a POST whose request body is a search (%s) passes', async (_what, schema) => {
    const doc = postOnCollection({ requestBody: { content: json(schema) }, responses: { '200': { ...versioned('Gevonden'), content: json(monument) }, '400': problem } });
    expect(await findingsOf(CODE, doc)).toEqual([]);
  });

  test('a path ending in _zoek or _search is a search, also written onto the last segment', async () => {
    const doc = conformantDocument();
    doc.paths['/monumenten_zoek'] = { post: { operationId: 'zoek', responses: { '200': versioned('Ok'), '400': problem } } };
    doc.paths['/monumenten_zoek/{id}'] = { get: { operationId: 'gevonden', responses: { '200': versioned('Ok'), '404': problem } } };
    expect(await findingsOf(CODE, doc)).toEqual([]);
  });

  test('a create that answers with the created member (not a collection), whose body embeds a geometry, is still reported', async () => {
    const withGeometry = { type: 'object', properties: { naam: { type: 'string' }, geometrie: point } };
    const doc = postOnCollection({ requestBody: { content: json(withGeometry) }, responses: { '200': { ...versioned('Gemaakt'), content: json(withGeometry) }, '400': problem } });
    expect(summary(await findingsOf(CODE, doc)).map(([, path]) => path)).toEqual(['paths./monumenten.post.responses']);
  });
});
