import { geospatialDocument } from '../fixtures/geospatial.js';
import { findingsOf, summary } from '../harness.js';

const CODE = 'nlgov:deprecated-geo';

test('Accept-Crs, legacy EPSG values of Content-Crs and _zoek with _geo are hints', async () => {
  const doc = geospatialDocument();
  doc.paths['/monumenten'].get.parameters.push({ name: 'accept-crs', in: 'header', schema: { type: 'string' } });
  doc.components.headers.ContentCrs.schema = { type: 'string', enum: ['epsg:28992'] };
  doc.paths['/monumenten/_zoek'] = {
    post: {
      operationId: 'zoekMonumenten',
      requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { _geo: { type: 'object' } } } } } },
      responses: doc.paths['/monumenten'].get.responses,
    },
  };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['hint', 'paths./monumenten.get.parameters.2.name', 'Request uses the deprecated Accept-Crs header: accept-crs. Negotiate with the crs query parameter and the Content-Crs response header.'],
    ['hint', 'paths./monumenten/_zoek.post.requestBody.content.application/json.schema', 'Search uses the deprecated _geo filter: POST /monumenten/_zoek. Use the bbox and filter parameters of OGC API Features.'],
    ['hint', 'components.headers.ContentCrs.schema.enum.0', 'Content-Crs uses a deprecated EPSG code: epsg:28992. Use its CRS URI http://www.opengis.net/def/crs/EPSG/0/28992.'],
  ]);
});

test('the current CRS negotiation passes', async () => {
  expect(await findingsOf(CODE, geospatialDocument())).toEqual([]);
});

test('a legacy Content-Crs on a non-2xx response is a hint too (nlgov:crs-uri leaves it to this rule)', async () => {
  const doc = geospatialDocument();
  doc.paths['/monumenten'].get.responses['303'] = { description: 'Elders.', headers: { 'API-Version': { $ref: '#/components/headers/ApiVersion' }, 'Content-Crs': { schema: { type: 'string', example: 'EPSG:4326' } } } };
  expect(summary(await findingsOf(CODE, doc)).map(([, path]) => path)).toEqual(['paths./monumenten.get.responses.303.headers.Content-Crs.schema.example']);
});

test('each deprecated EPSG code is answered with its own URI: EPSG:4326 with .../EPSG/0/4326, not RD\'s', async () => {
  const doc = geospatialDocument();
  doc.components.headers.ContentCrs.schema = { type: 'string', enum: ['EPSG:4326', 'EPSG:3857', 'EPSG:4258'] };
  expect(summary(await findingsOf(CODE, doc)).map(([, , message]) => message)).toEqual(['4326', '3857', '4258'].map((code) =>
    `Content-Crs uses a deprecated EPSG code: EPSG:${code}. Use its CRS URI http://www.opengis.net/def/crs/EPSG/0/${code}.`));
});
