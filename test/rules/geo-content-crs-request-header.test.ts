import { geospatialDocument } from '../fixtures/geospatial.js';
import { findingsOf, summary } from '../harness.js';

const CODE = '/geo/content-crs-request-header';

test('a POST whose body carries geometry without Content-Crs is an error', async () => {
  const doc = geospatialDocument();
  doc.paths['/monumenten'].post.parameters = [];
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['error', 'paths./monumenten.post.parameters', 'POST /monumenten does not declare the header parameter Content-Crs (its request body carries geometry). Add Content-Crs to the parameters of the operation or of its path item.'],
  ]);
});

test('a PUT with application/geo+json body counts; content-crs in any case passes', async () => {
  const doc = geospatialDocument();
  doc.paths['/monumenten'].put = {
    operationId: 'vervangMonumenten',
    requestBody: { content: { 'application/geo+json': { schema: { type: 'object' } } } },
    responses: { '204': { description: 'Ok', headers: { 'API-Version': { $ref: '#/components/headers/ApiVersion' } } }, '400': { $ref: '#/components/responses/Probleem' } },
  };
  expect(summary(await findingsOf(CODE, doc)).map(([, path]) => path)).toEqual(['paths./monumenten.put']);
  doc.paths['/monumenten'].put.parameters = [{ name: 'content-crs', in: 'header', schema: { type: 'string' } }];
  expect(await findingsOf(CODE, doc)).toEqual([]);
});
