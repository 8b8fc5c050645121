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
    ['warn', 'paths./monumenten.get.responses.200.content.application/geo+json', 'application/geo+json is offered for a body that is no GeoJSON object. Offer it as application/json.'],
  ]);
});

test('a FeatureCollection as application/geo+json (beside JSON) passes', async () => {
  const doc = geospatialDocument();
  const collection = { type: 'object', properties: { type: { type: 'string', enum: ['FeatureCollection'] }, features: { type: 'array', items: featureSchema } } };
  doc.paths['/monumenten'].get.responses['200'].content = { 'application/geo+json': { schema: collection }, 'application/json': { schema: collection } };
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test.each([
  ['without a schema', {}],
  ['with type: object alone', { schema: { type: 'object' } }],
  ['with an open object', { schema: { type: 'object', additionalProperties: true } }],
])('application/geo+json %s is not known to be anything else: no finding, and Content-Crs is asked for', async (_case, media) => {
  const doc = geospatialDocument();
  const response = doc.paths['/monumenten'].get.responses['200'];
  response.content = { 'application/geo+json': media };
  delete response.headers['Content-Crs'];
  const findings = await Promise.all([findingsOf(CODE, doc), findingsOf('/geo/content-crs-response-header', doc)]);
  expect(findings.map((found) => found.map((finding) => finding.path))).toEqual([[], ['paths./monumenten.get.responses.200.headers']]);
});

test('a `type` whose enum merely includes Feature, or excludes FeatureCollection beside features, is no GeoJSON body', async () => {
  const doc = geospatialDocument();
  const melding = { type: 'object', properties: { type: { type: 'string', enum: ['Bug', 'Feature', 'Task'] }, titel: { type: 'string' } } };
  const abonnement = { type: 'object', properties: { type: { type: 'string', enum: ['basis', 'premium'] }, features: { type: 'array', items: { type: 'string' } } } };
  doc.paths['/monumenten'].get.responses['200'].content = { 'application/json': { schema: melding } };
  doc.paths['/crss'].get.responses['200'].content = { 'application/json': { schema: abonnement } };
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('a `type` whose enum allows Feature beside geometry and properties is a Feature', async () => {
  const doc = geospatialDocument();
  const feature = { type: 'object', properties: { type: { type: 'string', enum: ['Feature', 'Onbekend'] }, geometry: { $ref: '#/components/schemas/Geometrie' }, properties: { type: 'object' } } };
  doc.paths['/monumenten'].get.responses['200'].content = { 'application/json': { schema: feature } };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'paths./monumenten.get.responses.200.content.application/json', 'Feature response is not offered as application/geo+json: application/json. Add application/geo+json for Features and FeatureCollections.'],
  ]);
});

test('a FeatureCollection whose features have geometry and properties but declare no type is one: no finding as application/geo+json', async () => {
  const doc = geospatialDocument();
  const loose = { type: 'object', properties: { type: { type: 'string' }, features: { type: 'array', items: { properties: { id: { type: 'string' }, geometry: { type: 'object', properties: { type: { type: 'string' }, coordinates: { type: 'array', items: {} } } }, properties: { type: 'object' } } } } } };
  doc.paths['/monumenten'].get.responses['200'].content = { 'application/geo+json': { schema: loose } };
  expect(await findingsOf(CODE, doc)).toEqual([]);
  doc.paths['/monumenten'].get.responses['200'].content = { 'application/json': { schema: loose } };
  expect(summary(await findingsOf(CODE, doc)).map(([, , message]) => message)).toEqual([
    'FeatureCollection response is not offered as application/geo+json: application/json. Add application/geo+json for Features and FeatureCollections.',
  ]);
});
