import { conformantDocument } from '../fixtures/conformant.js';
import { geospatialDocument } from '../fixtures/geospatial.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/geo/crs-list';

test('a geospatial API without /collections or /crss is an error at paths', async () => {
  const doc = geospatialDocument();
  delete doc.paths['/crss'];
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths', 'Path is not described: /collections or /crss. Describe GET /collections (OGC API Features) or GET /crss with the supported CRS URIs.'],
  ]);
});

test('/crss or /collections passes; a non-geospatial API needs neither', async () => {
  expect(await findingsOf(CODE, geospatialDocument())).toEqual([]);
  const ogc = geospatialDocument();
  delete ogc.paths['/crss'];
  ogc.paths['/collections'] = ogc.paths['/monumenten'];
  expect(await findingsOf(CODE, ogc)).toEqual([]);
  expect(await findingsOf(CODE, conformantDocument())).toEqual([]);
});
