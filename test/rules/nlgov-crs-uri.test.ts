import { geospatialDocument } from '../fixtures/geospatial.js';
import { findingsOf, summary } from '../harness.js';

const CODE = 'nlgov:crs-uri';
const advice = 'Use a CRS URI, for example http://www.opengis.net/def/crs/EPSG/0/28992.';
/** A value that names a CRS gets that CRS's own URI as the fix. */
const own = (uri: string) => `Use its CRS URI ${uri}.`;
const RD = 'http://www.opengis.net/def/crs/EPSG/0/28992';

test('CRS codes in enum, default and examples of crs and bbox-crs are warnings at each value', async () => {
  const doc = geospatialDocument();
  doc.components.parameters.Crs.schema = { type: 'string', enum: ['EPSG:28992', 'http://www.opengis.net/def/crs/OGC/1.3/CRS84'], default: 'CRS84' };
  doc.paths['/monumenten'].get.parameters.push({ name: 'bbox-crs', in: 'query', schema: { type: 'string' }, examples: { rd: { value: 'urn:ogc:def:crs:EPSG::28992' } } });
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'paths./monumenten.get.parameters.2.examples.rd.value', `bbox-crs value is not a CRS URI: urn:ogc:def:crs:EPSG::28992. ${own(RD)}`],
    ['warn', 'components.parameters.Crs.schema.enum.0', `crs value is not a CRS URI: EPSG:28992. ${own(RD)}`],
    ['warn', 'components.parameters.Crs.schema.default', `crs value is not a CRS URI: CRS84. ${own('http://www.opengis.net/def/crs/OGC/1.3/CRS84')}`],
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
    ['warn', 'components.parameters.Crs.schema.enum.0', `crs value is not a CRS URI: 28992. ${own(RD)}`],
  ]);
});

test('a CRS URI without the registry version or without the code is a warning at each value', async () => {
  const doc = geospatialDocument();
  doc.components.parameters.Crs.schema = {
    type: 'string',
    enum: ['http://www.opengis.net/def/crs/EPSG/28992', 'http://www.opengis.net/def/crs/EPSG/0/', 'https://www.opengis.net/def/crs/OGC/1.3/CRS84', 'http://www.opengis.net/def/crs/OGC/0/CRS84h'],
  };
  doc.components.headers.ContentCrs.schema = { type: 'string', enum: ['<http://www.opengis.net/def/crs/EPSG//28992>', '<http://www.opengis.net/def/crs/EPSG/0/28992>'] };
  const form = 'is not a CRS URI of the form http://www.opengis.net/def/crs/{authority}/{version}/{code}';
  const give = 'Give the authority, the version of the CRS registry and the code, for example http://www.opengis.net/def/crs/EPSG/0/28992.';
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.headers.ContentCrs.schema.enum.0', `Content-Crs value ${form}: <http://www.opengis.net/def/crs/EPSG//28992>. ${give}`],
    ['warn', 'components.parameters.Crs.schema.enum.0', `crs value ${form}: http://www.opengis.net/def/crs/EPSG/28992. Use ${RD}.`],
    ['warn', 'components.parameters.Crs.schema.enum.1', `crs value ${form}: http://www.opengis.net/def/crs/EPSG/0/. ${give}`],
  ]);
});

test('an object or array value is named as JSON, not [object Object]', async () => {
  const doc = geospatialDocument();
  doc.components.headers.ContentCrs.examples = { object: { value: { a: 1 } } };
  doc.components.parameters.Crs.schema.example = [1];
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'components.headers.ContentCrs.examples.object.value', `Content-Crs value is not a CRS URI: {"a":1}. ${advice}`],
    ['warn', 'components.parameters.Crs.schema.example', `crs value is not a CRS URI: [1]. ${advice}`],
  ]);
});

test('values pinned down inside anyOf, oneOf and items of the schema are judged too', async () => {
  const doc = geospatialDocument();
  doc.paths['/monumenten'].get.parameters.push({ name: 'bbox-crs', in: 'query', schema: { anyOf: [{ type: 'string', enum: ['urn:ogc:def:crs:EPSG::28992'] }, { type: 'string' }] } });
  expect(summary(await findingsOf(CODE, doc))).toEqual([
    ['warn', 'paths./monumenten.get.parameters.2.schema.anyOf.0.enum.0', `bbox-crs value is not a CRS URI: urn:ogc:def:crs:EPSG::28992. ${own(RD)}`],
  ]);
});

test('a value under not is excluded, not declared', async () => {
  const doc = geospatialDocument();
  doc.paths['/monumenten'].get.parameters.push({ name: 'bbox-crs', in: 'query', schema: { type: 'string', format: 'uri', not: { enum: ['urn:ogc:def:crs:EPSG::28992'] } } });
  expect(await findingsOf(CODE, doc)).toEqual([]);
});

test('a deprecated or shorthand code is answered with its own URI, not an example for another CRS', async () => {
  const doc = geospatialDocument();
  doc.components.parameters.Crs.schema = { type: 'string', enum: ['EPSG:4326', 'epsg:3857', 'OGC:CRS84h', 'urn:ogc:def:crs:EPSG:6.6:4258'] };
  expect(summary(await findingsOf(CODE, doc)).map(([, , message]) => message)).toEqual([
    `crs value is not a CRS URI: EPSG:4326. ${own('http://www.opengis.net/def/crs/EPSG/0/4326')}`,
    `crs value is not a CRS URI: epsg:3857. ${own('http://www.opengis.net/def/crs/EPSG/0/3857')}`,
    `crs value is not a CRS URI: OGC:CRS84h. ${own('http://www.opengis.net/def/crs/OGC/0/CRS84h')}`,
    `crs value is not a CRS URI: urn:ogc:def:crs:EPSG:6.6:4258. ${own('http://www.opengis.net/def/crs/EPSG/0/4258')}`,
  ]);
});
