import { conformantDocument } from '../fixtures/conformant.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/core/query-keys-camel-case';

test.each([
  ['kebab-case', 'kebabCase'],
  ['_startMetUnderscore', 'startMetUnderscore'],
  ['9startMetGetal', 'p9startMetGetal'],
  ['snake_case', 'snakeCase'],
  ['UpperCamelCase', 'upperCamelCase'],
])('%s is a warning with a suggestion', async (name, suggestion) => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.parameters.push({ name, in: 'query', schema: { type: 'string' } });
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'paths./monumenten.get.parameters.1.name', `Query parameter name is not lowerCamelCase: ${name}. Rename it, for example ${suggestion}.`],
  ]);
});

test('path-level query parameters are checked', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].parameters = [{ name: 'page_size', in: 'query', schema: { type: 'integer' } }];
  expect(summary(await findingsOf(CODE, doc)).map(([, path]) => path)).toEqual(['paths./monumenten.parameters.0.name']);
});

test('lowerCamelCase, OGC parameters and non-query parameters pass', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.parameters.push(
    ...['paginaGrootte', 'bbox-crs', 'filter-crs', 'filter-lang', 'crs'].map((name) => ({ name, in: 'query', schema: { type: 'string' } })),
    { name: 'X-Correlatie-Id', in: 'header', schema: { type: 'string' } },
  );
  expect(await findingsOf(CODE, doc)).toEqual([]);
});
