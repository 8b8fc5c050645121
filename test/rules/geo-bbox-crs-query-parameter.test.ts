import { geospatialDocument } from '../fixtures/geospatial.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/geo/bbox-crs-query-parameter';

test('bbox without bbox-crs is a warning', async () => {
  const doc = geospatialDocument();
  doc.paths['/monumenten'].get.parameters.push({ name: 'bbox', in: 'query', schema: { type: 'string' } });
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'paths./monumenten.get.parameters', 'GET /monumenten does not declare the query parameter bbox-crs (it accepts bbox). Add bbox-crs to the parameters of the operation or of its path item.'],
  ]);
});

test('bbox with bbox-crs passes', async () => {
  const doc = geospatialDocument();
  doc.paths['/monumenten'].get.parameters.push({ name: 'bbox', in: 'query', schema: { type: 'string' } }, { name: 'bbox-crs', in: 'query', schema: { type: 'string', format: 'uri' } });
  expect(await findingsOf(CODE, doc)).toEqual([]);
});
