import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/core/path-segments-kebab-case';

function withPath(path: string) {
  const doc = conformantDocument();
  doc.paths[path] = { get: { operationId: 'x', responses: doc.paths['/monumenten'].get.responses } };
  return doc;
}

test.each([
  ['/camelCasePad', "'camelCasePad'"],
  ['/snake_case/{id}', "'snake_case'"],
  ['/monumenten/_zoek/items', "'_zoek'"],
  ['/monumenten--dubbel', "'monumenten--dubbel'"],
  ['/Monumenten/{id}/Foto', "'Monumenten', 'Foto'"],
  ['/monumenten//foto', '(empty segment)'],
])('%s is an error naming the segments', async (path, segments) => {
  expect(summary(await findingsOf(CODE, withPath(path)))).toEqual([
    ['error', `paths.${path}`, `Path segment is not kebab-case: ${segments} in ${path}. Use lowercase letters, digits and hyphens, or {variable}; only the last segment may start with _.`],
  ]);
});

test.each(['/', '/monumenten/{monumentId}', '/rijksmonumenten-2024/{id}/foto-s', '/_search', '/monumenten/_zoek', '/openapi.json', '/openapi.yaml', '/suffix-slash/'])('%s passes', async (path) => {
  expect(await findingsOf(CODE, withPath(path))).toEqual([]);
});
