import { conformantDocument } from '../fixtures/conformant.js';
import { geospatialDocument } from '../fixtures/geospatial.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/geo/crs-query-parameter';

test('a GET returning geometry without crs is a warning at its parameters', async () => {
  const doc = geospatialDocument();
  doc.paths['/monumenten'].get.parameters.pop();
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'paths./monumenten.get.parameters', 'GET /monumenten does not declare the query parameter crs (it returns geometry). Add crs to the parameters of the operation or of its path item.'],
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

describe('SPEC.md\'s CRS scenarios: whenever the response carries geometry, the client sends crs, whatever the request carries', () => {
  const json = (schema: unknown) => ({ 'application/json': { schema } });
  const geometry = { $ref: '#/components/schemas/Geometrie' };
  const monumenten = { type: 'array', items: { $ref: '#/components/schemas/Monument' } };

  test('a POST that takes a geometry filter and returns geometry ("Client sends Content-Crs and crs") needs crs', async () => {
    const doc = geospatialDocument();
    doc.paths['/monumenten/_zoek'] = {
      post: {
        operationId: 'zoekMonumenten',
        parameters: [{ $ref: '#/components/parameters/ContentCrs' }],
        requestBody: { content: json({ type: 'object', properties: { _geo: { type: 'object', properties: { intersects: geometry } } } }) },
        responses: { '200': { description: 'Gevonden.', content: json(monumenten) }, '400': { $ref: '#/components/responses/Probleem' } },
      },
    };
    expect(summary(await findingsOf(CODE, doc)).map(([severity, path]) => [severity, path])).toEqual([['warn', 'paths./monumenten/_zoek.post.parameters']]);
    doc.paths['/monumenten/_zoek'].post.parameters.push({ $ref: '#/components/parameters/Crs' });
    expect(await findingsOf(CODE, doc)).toEqual([]);
  });

  test('a PUT that answers with the geometry it stored needs crs too; a create answering 201 with only Location needs none', async () => {
    const doc = geospatialDocument();
    doc.paths['/monumenten/{monumentId}'] = {
      parameters: [{ name: 'monumentId', in: 'path', required: true, schema: { type: 'string' } }],
      put: {
        operationId: 'vervangMonument',
        parameters: [{ $ref: '#/components/parameters/ContentCrs' }],
        requestBody: { content: json({ $ref: '#/components/schemas/Monument' }) },
        responses: { '200': { description: 'Vervangen.', content: json({ $ref: '#/components/schemas/Monument' }) } },
      },
    };
    expect(summary(await findingsOf(CODE, doc)).map(([, path]) => path)).toEqual(['paths./monumenten/{monumentId}.put.parameters']);
  });
});
