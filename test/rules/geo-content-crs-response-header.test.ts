import { geospatialDocument } from '../fixtures/geospatial.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/geo/content-crs-response-header';

test('a 2xx response with geometry and without Content-Crs is an error at its headers', async () => {
  const doc = geospatialDocument();
  delete doc.paths['/monumenten'].get.responses['200'].headers['Content-Crs'];
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.get.responses.200.headers', 'Response does not declare the Content-Crs header. Declare Content-Crs with the CRS URI of the geometry in the body.'],
  ]);
});

test('content-crs in any case passes; responses without geometry need none', async () => {
  const doc = geospatialDocument();
  const headers = doc.paths['/monumenten'].get.responses['200'].headers;
  headers['content-crs'] = headers['Content-Crs'];
  delete headers['Content-Crs'];
  expect(await findingsOf(CODE, doc)).toEqual([]);
});
