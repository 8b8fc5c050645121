import { geospatialDocument } from '../fixtures/geospatial.js';
import { findingsOf, summary } from '../harness.js';

const CODE = 'nlgov:crs-uri';
const advice = 'Use the URI, for example http://www.opengis.net/def/crs/EPSG/0/28992.';

test('CRS codes in enum, default and examples of crs and bbox-crs are warnings at each value', async () => {
  const doc = geospatialDocument();
  doc.components.parameters.Crs.schema = { type: 'string', enum: ['EPSG:28992', 'http://www.opengis.net/def/crs/OGC/1.3/CRS84'], default: 'CRS84' };
  doc.paths['/monumenten'].get.parameters.push({ name: 'bbox-crs', in: 'query', schema: { type: 'string' }, examples: { rd: { value: 'urn:ogc:def:crs:EPSG::28992' } } });
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'paths./monumenten.get.parameters.2.examples.rd.value', `bbox-crs value is not a CRS URI: urn:ogc:def:crs:EPSG::28992. ${advice}`],
    ['warn', 'components.parameters.Crs.schema.enum.0', `crs value is not a CRS URI: EPSG:28992. ${advice}`],
    ['warn', 'components.parameters.Crs.schema.default', `crs value is not a CRS URI: CRS84. ${advice}`],
  ]);
});

test('a response Content-Crs with a non-URI value is a warning; legacy EPSG codes are left to nlgov:deprecated-geo', async () => {
  const doc = geospatialDocument();
  doc.components.headers.ContentCrs.schema = { type: 'string', enum: ['RD', 'EPSG:28992'] };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.headers.ContentCrs.schema.enum.0', `Content-Crs value is not a CRS URI: RD. ${advice}`],
  ]);
});

test('CRS URIs pass, Content-Crs also in angle brackets (OGC API Features part 2)', async () => {
  const doc = geospatialDocument();
  doc.components.headers.ContentCrs.schema = { type: 'string', enum: ['<http://www.opengis.net/def/crs/EPSG/0/28992>'] };
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('a number is not a CRS URI either', async () => {
  const doc = geospatialDocument();
  doc.components.parameters.Crs.schema = { type: 'integer', enum: [28992] };
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.parameters.Crs.schema.enum.0', `crs value is not a CRS URI: 28992. ${advice}`],
  ]);
});
