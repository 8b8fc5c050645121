import { geospatialDocument } from '../fixtures/geospatial.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/geo/bbox-query-parameter';

function withItems(parameters: unknown[]) {
  const doc = geospatialDocument();
  doc.paths['/collections/{collectionId}/items'] = {
    parameters: [{ name: 'collectionId', in: 'path', required: true, schema: { type: 'string' } }],
    get: { operationId: 'getItems', parameters, responses: doc.paths['/monumenten'].get.responses },
  };
  return doc;
}

test('an OGC items operation without bbox is a warning', async () => {
  expect(summary(await findingsOf(CODE, withItems([{ $ref: '#/components/parameters/Crs' }])))).toEqual([
    ['warn', 'paths./collections/{collectionId}/items.get.parameters', 'GET /collections/{collectionId}/items does not declare the query parameter bbox (it lists the features of a collection). Add bbox to the parameters of the operation or of its path item.'],
  ]);
});

test('bbox declared, also through an unresolvable OGC $ref named bbox, passes; other paths need none', async () => {
  expect(await findingsOf(CODE, withItems([{ name: 'bbox', in: 'query', schema: { type: 'string' } }]))).toEqual([]);
  expect(await findingsOf(CODE, withItems([{ $ref: 'https://schemas.example.invalid/ogcapi-features-1.yaml#/components/parameters/bbox' }]))).toEqual([]);
  expect(await findingsOf(CODE, geospatialDocument())).toEqual([]);
});

test('a collection named in the path (/collections/monumenten/items) is an items operation too', async () => {
  const doc = geospatialDocument();
  doc.paths['/collections/monumenten/items'] = { get: { operationId: 'getMonumentItems', parameters: [{ $ref: '#/components/parameters/Crs' }], responses: doc.paths['/monumenten'].get.responses } };
  expect(summary(await findingsOf(CODE, doc)).map(([, path]) => path)).toEqual(['paths./collections/monumenten/items.get.parameters']);
});

test('several unresolvable OGC parameter refs do not hide each other', async () => {
  const doc = geospatialDocument();
  const ogc = 'https://schemas.example.invalid/ogcapi-features-1.yaml#/components/parameters/';
  doc.paths['/collections/{collectionId}/items'] = {
    get: { operationId: 'getItems', parameters: [{ $ref: `${ogc}collectionId` }, { $ref: `${ogc}bbox` }, { $ref: `${ogc}datetime` }, { $ref: '#/components/parameters/Crs' }], responses: doc.paths['/monumenten'].get.responses },
  };
  expect(await findingsOf(CODE, doc)).toEqual([]);
});
