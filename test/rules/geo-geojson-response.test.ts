import { featureSchema, geospatialDocument } from '../fixtures/geospatial.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/geo/geojson-response';

test('a Feature offered only as application/json is a warning', async () => {
  const doc = geospatialDocument();
  doc.paths['/monumenten'].get.responses['200'].content = { 'application/json': { schema: featureSchema } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'paths./monumenten.get.responses.200.content.application/json', 'Feature response is not offered as application/geo+json: application/json. Add application/geo+json for Features and FeatureCollections.'],
  ]);
});

test('application/geo+json for a body that is no Feature or FeatureCollection is a warning', async () => {
  const doc = geospatialDocument();
  doc.paths['/monumenten'].get.responses['200'].content['application/geo+json'] = { schema: { type: 'array', items: { $ref: '#/components/schemas/Monument' } } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'paths./monumenten.get.responses.200.content.application/geo+json', 'application/geo+json is offered for a body that is not a Feature or FeatureCollection: no GeoJSON object. Offer it as application/json.'],
  ]);
});

test('a FeatureCollection as application/geo+json (beside JSON) passes', async () => {
  const doc = geospatialDocument();
  const collection = { type: 'object', properties: { type: { type: 'string', enum: ['FeatureCollection'] }, features: { type: 'array', items: featureSchema } } };
  doc.paths['/monumenten'].get.responses['200'].content = { 'application/geo+json': { schema: collection }, 'application/json': { schema: collection } };
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('application/geo+json without a schema is not known to be anything else: no finding', async () => {
  const doc = geospatialDocument();
  doc.paths['/monumenten'].get.responses['200'].content['application/geo+json'] = {};
  expect(await findingsOf(CODE, doc)).toEqual([]);
});
