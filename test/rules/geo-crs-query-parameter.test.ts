import { conformantDocument } from '../fixtures/conformant.js';
import { geospatialDocument } from '../fixtures/geospatial.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/geo/crs-query-parameter';

test('a GET returning geometry without crs is a warning at its parameters', async () => {
  const doc = geospatialDocument();
  doc.paths['/monumenten'].get.parameters.pop();
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'paths./monumenten.get.parameters', 'GET /monumenten does not declare the query parameter crs: it returns geometry. Declare crs (query).'],
  ]);
});

test('geometry nested deep in the body, or as WKT, counts; crs declared at path level passes', async () => {
  const doc = geospatialDocument();
  doc.paths['/monumenten'].get.parameters.pop();
  doc.paths['/gebieden'] = {
    get: {
      operationId: 'listGebieden',
      responses: { '200': { description: 'Ok', content: { 'application/json': { schema: { type: 'object', properties: { _embedded: { type: 'object', properties: { vorm: { type: 'string', format: 'wkt' } } } } } } } } },
    },
  };
  expect(summary(await findingsOf(CODE, doc)).map(([, path]) => path)).toEqual(['paths./monumenten.get.parameters', 'paths./gebieden.get']);
  doc.paths['/monumenten'].parameters = [{ $ref: '#/components/parameters/Crs' }];
  doc.paths['/gebieden'].parameters = [{ $ref: '#/components/parameters/Crs' }];
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('a GET without geometry, and a non-geospatial API, need no crs', async () => {
  expect(await findingsOf(CODE, geospatialDocument())).toEqual([]);
  expect(await findingsOf(CODE, conformantDocument())).toEqual([]);
});

test('a /crss list offered as application/geo+json is no geometry (only /geo/geojson-response speaks of it)', async () => {
  const doc = geospatialDocument();
  const content = doc.paths['/crss'].get.responses['200'].content;
  content['application/geo+json'] = content['application/json'];
  expect(await findingsOf(CODE, doc)).toEqual([]);
});
