import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { conformantDocument } from './fixtures/conformant.js';
import { geospatialDocument } from './fixtures/geospatial.js';
import { lint, summary } from './harness.js';

const GEO_CODES = /^(\/geo\/|nlgov:crs-uri$)/;

async function geoFindings(document: object | string, source?: string) {
  return (await lint(document, source)).filter((finding) => GEO_CODES.test(finding.code));
}

test('the geospatial fixture is conformant: no finding at all', async () => {
  expect(await lint(geospatialDocument())).toEqual([]);
});

describe('descriptions without geospatial data get no /geo/ finding', () => {
  test('the core fixture', async () => {
    expect(await geoFindings(conformantDocument())).toEqual([]);
  });

  test('the monumenten example', async () => {
    const file = join(process.cwd(), 'examples', 'monumenten-api.yaml');
    expect(await geoFindings(readFileSync(file, 'utf8'), file)).toEqual([]);
  });

  test('location-like names without GeoJSON, WKT or geo parameters', async () => {
    const doc = conformantDocument();
    doc.components.schemas.Monument.properties.locatie = { type: 'object', properties: { straat: { type: 'string' }, type: { type: 'string', enum: ['Adres', 'Postbus'] } } };
    doc.components.schemas.Monument.properties.coordinaten = { type: 'string', description: 'Tekst, geen geometrie.' };
    doc.paths['/monumenten'].get.parameters.push({ name: 'bboxActief', in: 'query', schema: { type: 'boolean' } });
    expect(await geoFindings(doc)).toEqual([]);
  });
});

describe('an API is geospatial by each of the signs RULES.md lists', () => {
  const lacksCrsList = ['/geo/crs-list'];
  test.each([
    ['a WKT string', (doc: any) => { doc.components.schemas.Monument.properties.vorm = { type: 'string', format: 'wkt' }; }],
    ['a bbox parameter', (doc: any) => { doc.paths['/monumenten'].get.parameters.push({ name: 'bbox', in: 'query', schema: { type: 'string' } }, { name: 'bbox-crs', in: 'query', schema: { type: 'string' } }); }],
    ['application/geo+json', (doc: any) => { doc.paths['/monumenten'].get.responses['200'].content = { 'application/geo+json': { schema: { type: 'object' } } }; }],
    ['a $ref to a GeoJSON schema', (doc: any) => { doc.components.schemas.Monument.properties.vorm = { $ref: 'https://geojson.org/schema/Geometry.json' }; }],
  ])('%s', async (_sign, mutate) => {
    const doc = conformantDocument();
    mutate(doc);
    expect((await geoFindings(doc)).map((finding) => finding.code)).toEqual(expect.arrayContaining(lacksCrsList));
  });
});

test('a Content-Crs or Accept-Crs header makes an API geospatial', async () => {
  const doc = conformantDocument();
  doc.paths['/monumenten'].get.parameters.push({ name: 'Accept-Crs', in: 'header', schema: { type: 'string' } });
  expect((await geoFindings(doc)).map((finding) => finding.code)).toContain('/geo/crs-list');
});

test('{type, coordinates: {lat, lng}} is not GeoJSON: coordinates are an array', async () => {
  const doc = conformantDocument();
  doc.components.schemas.Monument.properties.antwoord = { type: 'object', properties: { type: { type: 'string' }, coordinates: { type: 'object', properties: { lat: { type: 'number' }, lng: { type: 'number' } } } } };
  expect(await geoFindings(doc)).toEqual([]);
});

describe('a shape sign needs the shape, not only the name (a free `type` beside it)', () => {
  test.each([
    ['features as a map of feature flags', { features: { type: 'object', additionalProperties: { type: 'boolean' } } }],
    ['features as a list of names', { features: { type: 'array', items: { type: 'string' } } }],
    ['features as a list of objects without type', { features: { type: 'array', items: { type: 'object', properties: { naam: { type: 'string' }, actief: { type: 'boolean' } } } } }],
    ['geometry as a {lat, lng} object beside properties', { geometry: { type: 'object', properties: { lat: { type: 'number' }, lng: { type: 'number' } } }, properties: { type: 'object' } }],
    ['geometry beside properties that are a list', { geometry: { type: 'object' }, properties: { type: 'array', items: { type: 'string' } } }],
  ])('%s makes no description geospatial', async (_case, shape) => {
    const doc = conformantDocument();
    doc.components.schemas.Monument.properties.abonnement = { type: 'object', properties: { type: { type: 'string' }, ...shape } };
    expect(await geoFindings(doc)).toEqual([]);
  });

  test.each([
    ['features as a list of objects with type', { features: { type: 'array', items: { type: 'object', properties: { type: { type: 'string' }, geometry: {}, properties: { type: 'object' } } } } }],
    ['features as a list of anything', { features: { type: 'array' } }],
    ['features as a list of objects with geometry and properties but no type', { features: { type: 'array', items: { properties: { id: { type: 'string' }, geometry: { $ref: 'https://geojson.org/schema/Point.json' }, properties: { type: 'object' } } } } }],
    ['geometry as an object with type beside properties', { geometry: { type: 'object', properties: { type: { type: 'string' } } }, properties: { type: 'object' } }],
    ['geometry as an empty schema beside properties', { geometry: {}, properties: { type: 'object', additionalProperties: true } }],
  ])('%s still makes a description geospatial', async (_case, shape) => {
    const doc = conformantDocument();
    doc.components.schemas.Monument.properties.kenmerk = { type: 'object', properties: { type: { type: 'string' }, ...shape } };
    expect((await geoFindings(doc)).map((finding) => finding.code)).toContain('/geo/crs-list');
  });
});

test('an unresolvable $ref into the OGC bundle is judged by its fragment, not by the file name', async () => {
  const doc = conformantDocument();
  doc.components.schemas.Monument.properties.landing = { $ref: 'https://schemas.example.invalid/ogcapi-features-1.yaml#/components/schemas/landingPage' };
  expect(await geoFindings(doc)).toEqual([]);
});

describe('a `type` pinned by enum or const', () => {
  const crsList = ['error', 'paths', 'Path is not described: /collections or /crss. Describe GET /collections (OGC API Features) or GET /crss with the supported CRS URIs.'];

  test.each([
    ['an enum with Feature among other values', { type: { type: 'string', enum: ['Bug', 'Feature', 'Task'] }, titel: { type: 'string' } }],
    ['an enum with a geometry type among other values', { type: { type: 'string', enum: ['Point', 'Adres'] } }],
    ['an enum without FeatureCollection beside features', { type: { type: 'string', enum: ['basis', 'premium'] }, features: { type: 'array', items: { type: 'string' } } }],
    ['a const other than Feature beside geometry and properties', { type: { type: 'string', const: 'melding' }, geometry: { type: 'string' }, properties: { type: 'object' } }],
    ['an enum of geometry types beside geometries, no GeometryCollection', { type: { type: 'string', enum: ['Punt', 'Vlak'] }, geometries: { type: 'array', items: {} } }],
    ['an enum without a coordinate geometry beside coordinates', { type: { type: 'string', enum: ['GPS', 'GeometryCollection2'] }, coordinates: { type: 'array', items: { type: 'number' } } }],
  ])('%s makes no description geospatial', async (_case, properties) => {
    const doc = conformantDocument();
    doc.components.schemas.Monument.properties.kenmerk = { type: 'object', properties };
    expect(await geoFindings(doc)).toEqual([]);
  });

  test.each([
    ['an enum of GeoJSON type names only', { type: { type: 'string', enum: ['Point', 'MultiPoint'] } }],
    ['a const FeatureCollection', { type: { const: 'FeatureCollection' } }],
    ['an enum that allows FeatureCollection beside features', { type: { type: 'string', enum: ['FeatureCollection', 'Leeg'] }, features: { type: 'array', items: {} } }],
    ['an enum that allows Feature beside geometry and properties', { type: { type: 'string', enum: ['Feature', 'Onbekend'] }, geometry: { type: 'object' }, properties: { type: 'object' } }],
    ['an enum that allows Point beside coordinates', { type: { type: 'string', enum: ['Point', 'Onbekend'] }, coordinates: { type: 'array', items: { type: 'number' } } }],
    ['a nullable enum of geometry types', { type: { type: 'string', nullable: true, enum: ['Polygon', null] } }],
    ['no enum or const beside features', { type: { type: 'string' }, features: { type: 'array', items: {} } }],
  ])('%s still makes a description geospatial', async (_case, properties) => {
    const doc = conformantDocument();
    doc.components.schemas.Monument.properties.kenmerk = { type: 'object', properties };
    expect(summary((await geoFindings(doc)).filter((finding) => finding.code === '/geo/crs-list'))).toEqual([crsList]);
  });
});

test('a oneOf or anyOf of the same schema twice, 40 levels deep, is judged at once (it doubled per level)', async () => {
  const doc = conformantDocument();
  doc.components.schemas.Niveau0 = { type: 'object', properties: { naam: { type: 'string' } } };
  for (let level = 1; level <= 40; level += 1) {
    const below = { $ref: `#/components/schemas/Niveau${level - 1}` };
    doc.components.schemas[`Niveau${level}`] = { [level % 2 === 0 ? 'oneOf' : 'anyOf']: [below, below] };
  }
  doc.components.schemas.Monument.properties.niveau = { $ref: '#/components/schemas/Niveau40' };
  expect(await geoFindings(doc)).toEqual([]);
});
