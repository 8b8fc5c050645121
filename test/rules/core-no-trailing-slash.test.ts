import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, lint, summary } from '../harness.js';

const CODE = '/core/no-trailing-slash';

test('a path ending with a slash is an error at the path, and only this rule reports it', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten/'] = doc.paths['/monumenten'];
  delete doc.paths['/monumenten'];
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten/', 'Path ends with a slash: /monumenten/. Remove the trailing slash.'],
  ]);
  expect((await lint(doc)).filter((finding) => finding.code === '/core/path-segments-kebab-case')).toEqual([]);
});

test('the root path / and paths without a trailing slash pass', async () => {
  const doc = conformantDocument();
  doc.paths['/'] = { get: { operationId: 'getRoot', responses: { '200': { description: 'Ok', headers: { 'API-Version': { schema: { type: 'string' } } } }, '400': { $ref: '#/components/responses/Probleem' } } } };
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('x- extensions under paths are not paths; /openapi.json/ gets this one finding only', async () => {
  const doc = conformantDocument();
  doc.paths['x-intern/'] = { head: { responses: { '200': { description: 'x' } } } };
  doc.paths['/openapi.json/'] = doc.paths['/openapi.json'];
  delete doc.paths['/openapi.json'];
  const all = await lint(doc);
  expect(all.filter((finding) => finding.path.startsWith('paths.x-intern'))).toEqual([]);
  expect(summary(all.filter((finding) => finding.path === 'paths./openapi.json/'))).toEqual([
    ['error', 'paths./openapi.json/', 'Path ends with a slash: /openapi.json/. Remove the trailing slash.'],
  ]);
});
