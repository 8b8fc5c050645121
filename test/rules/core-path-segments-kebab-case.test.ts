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

test('a version number in a path is not a spelling problem: the advice points at /core/uri-version', async () => {
  expect(summary(await findingsOf(CODE, withPath('/api/1.1.0/monumenten')))).toEqual([
    ['error', 'paths./api/1.1.0/monumenten', "Path segment is a version number: '1.1.0' in /api/1.1.0/monumenten. Put the major version in the server URL as /v<major> (see /core/uri-version), not in the paths."],
  ]);
  // Mixed with a real spelling problem, the spelling advice stays.
  expect(summary(await findingsOf(CODE, withPath('/api/1.1.0/fotoLijst')))[0]?.[2]).toMatch(/^Path segment is not kebab-case: '1\.1\.0', 'fotoLijst' in /);
});
