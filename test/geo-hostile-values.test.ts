import { crsUriDefect, envelopeOf, fromCrs84, normalCrsUri, toCrs84, worstDistance, CRS84, type Position } from '../live/geo/crs.js';
import { geometryProblem, identityOf, mapPositions, positionsOf } from '../live/geo/geojson.js';

/** The geospatial helpers on values a hostile server sends: each answers at once, none throws. */
const RD = 'http://www.opengis.net/def/crs/EPSG/0/28992';

function elapsedMs(run: () => unknown): number {
  const started = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

test.each([
  [`${CRS84}\u2028`, 'it contains U+2028'],
  [`${RD}\r\n`, 'it contains U+000D (a control character)'],
  [`${RD} `, 'it contains a space'],
  ['', 'it is empty'],
  [`http://x/${'a'.repeat(3000)}`, 'it is 3,009 characters long (at most 2,048)'],
  [`<${RD}>`, undefined],
  [RD, undefined],
])('crsUriDefect(%j) is %j', (value, defect) => {
  expect(crsUriDefect(value)).toBe(defect);
});

test('normalCrsUri on 100,000 slashes: linear, not quadratic; a value longer than any CRS URI is left as it is', () => {
  const slashes = `${'/'.repeat(100_000)}x`;
  expect(elapsedMs(() => expect(normalCrsUri(slashes)).toBe(slashes))).toBeLessThan(200);
  expect(elapsedMs(() => expect(normalCrsUri(`http://a${'/'.repeat(2000)}`)).toBe('http://a'))).toBeLessThan(200);
  expect(normalCrsUri('<https://www.opengis.net/def/crs/EPSG/0/28992/>')).toBe(RD);
});

test('a non-finite position is transformed to nowhere (NaN), never an exception; its distance is infinite', () => {
  expect(toCrs84(RD, [Infinity, 52])).toEqual([NaN, NaN]);
  expect(fromCrs84(RD, [5.1, -Infinity])).toEqual([NaN, NaN]);
  expect(fromCrs84(RD, toCrs84('http://unknown', [1, 2]) as Position)).toEqual([NaN, NaN]);
  expect(worstDistance([[NaN, NaN]], [[5.1, 52.1]])).toBe(Infinity);
});

test('400,000 positions: read up to the limit, enveloped without a spread into a call', () => {
  const coordinates = Array.from({ length: 400_000 }, (_, index): Position => [5 + index * 1e-6, 52]);
  const lineString = { type: 'LineString', coordinates };
  expect(elapsedMs(() => expect(positionsOf(lineString)).toHaveLength(500))).toBeLessThan(200);
  expect(envelopeOf(coordinates)).toEqual([5, 52, 5 + 399_999 * 1e-6, 52]);
  expect(worstDistance(coordinates, coordinates)).toBe(0);
  expect(geometryProblem(lineString, CRS84)).toBeUndefined();
});

/** `[[[...]]]` `depth` arrays deep, built without recursion. */
function nestedArrays(depth: number): unknown[] {
  let node: unknown[] = [5.1, 52.1];
  for (let level = 0; level < depth; level += 1) node = [node];
  return node;
}

/** GeometryCollections nested `depth` deep around a Point. */
function nestedCollections(depth: number): Record<string, unknown> {
  let node: Record<string, unknown> = { type: 'Point', coordinates: [5.1, 52.1] };
  for (let level = 0; level < depth; level += 1) node = { type: 'GeometryCollection', geometries: [node] };
  return node;
}

test('geometry nested 20,000 deep: a verdict, no recursion', () => {
  expect(geometryProblem(nestedCollections(20_000))).toBe('geometry nested deeper than 16 levels (GeometryCollections within GeometryCollections)');
  expect(geometryProblem(nestedCollections(16))).toBeUndefined();
  expect(positionsOf(nestedCollections(20_000))).toEqual([]);
  expect(positionsOf(nestedCollections(16))).toEqual([[5.1, 52.1]]);
  expect(mapPositions(nestedCollections(20_000), (position) => position)).toBeUndefined();
  expect(geometryProblem({ type: 'Point', coordinates: nestedArrays(20_000) })).toBe('position [[…]] is not two or three numbers');
  expect(geometryProblem({ type: 'LineString', coordinates: nestedArrays(20_000) })).toBe('position [[…]] is not two or three numbers');
  expect(positionsOf({ type: 'LineString', coordinates: nestedArrays(20_000) })).toEqual([]);
});

test.each([
  [{ type: 'Point', coordinates: [Infinity, 52] }, CRS84, 'position [Infinity, 52] has a coordinate that is not a finite number (a number such as 1e999 is beyond what JSON readers hold)'],
  [{ type: 'Point', coordinates: [200, 52] }, CRS84, 'position [200, 52] has longitude 200, outside CRS84 (longitude -180 to 180, latitude -90 to 90)'],
  [{ type: 'Point', coordinates: [5, -91] }, 'http://www.opengis.net/def/crs/OGC/0/CRS84h', 'position [5, -91] has latitude -91, outside CRS84 (longitude -180 to 180, latitude -90 to 90)'],
  [{ type: 'Point', coordinates: [52, 200] }, 'http://www.opengis.net/def/crs/EPSG/0/4258', undefined],
  [{ type: 'Point', coordinates: [155000, 463000] }, RD, undefined],
  [{ type: 'Point', coordinates: ['5', 52] }, CRS84, 'position ["5", 52] is not two or three numbers'],
  [{ type: 'Polygon', coordinates: [5, 52] }, CRS84, 'coordinates 5 where an array belongs'],
  [{ type: 'Circle', coordinates: [5, 52] }, CRS84, 'type "Circle" is no GeoJSON geometry type'],
])('geometryProblem(%j, %s)', (geometry, crs, problem) => {
  expect(geometryProblem(geometry, crs)).toBe(problem);
});

test('an identity is bounded: a megabyte id is shortened with a digest, properties nested too deep do not throw', () => {
  const identity = identityOf({ id: 'x'.repeat(1_000_000) });
  expect(identity).toMatch(/^x{160}… \(1,000,000 characters, sha256 [0-9a-f]{12}\)$/);
  expect(identityOf({ id: 'x'.repeat(1_000_000) })).toBe(identity);
  expect(identityOf({ id: `${'x'.repeat(999_999)}y` })).not.toBe(identity);
  expect(identityOf({ properties: { nested: nestedArrays(20_000) } })).toBe('(an item without identifier, its properties nested too deep to compare)');
});

test('CRS URIs in every spelling the registry allows name one CRS (issue 22 item 9)', async () => {
  const { normalCrsUri, isTransformable, CRS84 } = await import('../live/geo/crs.js');
  const epsg4326 = 'http://www.opengis.net/def/crs/EPSG/0/4326';
  for (const spelling of ['http://www.opengis.net/def/crs/EPSG/9.6.2/4326', 'https://www.opengis.net/def/crs/EPSG/0/4326/', '<http://www.opengis.net/def/crs/EPSG/10.0/4326>', 'urn:ogc:def:crs:EPSG::4326', 'urn:ogc:def:crs:EPSG:9.6.2:4326']) {
    expect(normalCrsUri(spelling)).toBe(epsg4326);
    expect(isTransformable(spelling)).toBe(true);
  }
  for (const spelling of ['urn:ogc:def:crs:OGC:1.3:CRS84', 'http://www.opengis.net/def/crs/OGC/0/CRS84']) expect(normalCrsUri(spelling)).toBe(CRS84);
  expect(isTransformable('http://www.opengis.net/def/crs/EPSG/0/2154')).toBe(false);
});
