import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, lint, summary } from '../harness.js';

const CODE = '/core/error-handling/problem-details';

test('4xx, 5xx and the 4XX/5XX ranges without problem details are warnings', async () => {
  const doc = conformantDocument();
  const responses = doc.paths['/monumenten'].get.responses;
  responses['404'] = { description: 'Niet gevonden', content: { 'application/json': { schema: { type: 'object' } } } };
  responses['5XX'] = { description: 'Serverfout' };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'paths./monumenten.get.responses.404.content', 'Error response does not offer problem details: application/json. Declare content application/problem+json (RFC 9457).'],
    ['warn', 'paths./monumenten.get.responses.5XX', 'Error response declares no content. Declare content application/problem+json (RFC 9457).'],
  ]);
});

test('a shared error response is reported once, at its definition', async () => {
  const doc = conformantDocument();
  doc.components.responses.Probleem.content = { 'application/hal+json': { schema: { type: 'object' } } };
  doc.paths['/monumenten'].get.responses['404'] = { $ref: '#/components/responses/Probleem' };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.responses.Probleem.content', 'Error response does not offer problem details: application/hal+json. Declare content application/problem+json (RFC 9457).'],
  ]);
});

test('problem+json and problem+xml pass, media type names case-insensitive and with parameters', async () => {
  const doc = conformantDocument();
  const responses = doc.paths['/monumenten'].get.responses;
  responses['404'] = { description: 'Niet gevonden', content: { 'Application/Problem+JSON; charset=utf-8': { schema: { type: 'object' } } } };
  responses['500'] = { description: 'Fout', content: { 'application/problem+xml': { schema: { type: 'object' } } } };
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('an error response whose $ref does not resolve is left to /core/doc-openapi', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.responses['404'] = { $ref: '#/components/responses/OokOntbreekt' };
  const findings = await lint(doc);
  expect(findings.filter(({ code }) => code === CODE)).toEqual([]);
  expect(summary(findings.filter(({ code }) => code === '/core/doc-openapi'))).toEqual([
    ['error', 'paths./monumenten.get.responses.404.$ref', expect.stringContaining('#/components/responses/OokOntbreekt')],
  ]);
});
