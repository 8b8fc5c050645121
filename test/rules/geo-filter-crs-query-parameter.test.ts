import { geospatialDocument } from '../fixtures/geospatial.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/geo/filter-crs-query-parameter';

test('filter without filter-crs is a warning, also when filter is declared at path level', async () => {
  const doc = geospatialDocument();
  doc.paths['/monumenten'].parameters = [{ name: 'filter', in: 'query', schema: { type: 'string' } }];
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'paths./monumenten.get.parameters', 'GET /monumenten does not declare the query parameter filter-crs (it accepts filter). Add filter-crs to the parameters of the operation or of its path item.'],
    ['warn', 'paths./monumenten.post.parameters', 'POST /monumenten does not declare the query parameter filter-crs (it accepts filter). Add filter-crs to the parameters of the operation or of its path item.'],
  ]);
});

test('filter with filter-crs passes', async () => {
  const doc = geospatialDocument();
  doc.paths['/monumenten'].get.parameters.push({ name: 'filter', in: 'query', schema: { type: 'string' } }, { name: 'filter-crs', in: 'query', schema: { type: 'string' } });
  expect(await findingsOf(CODE, doc)).toEqual([]);
});
