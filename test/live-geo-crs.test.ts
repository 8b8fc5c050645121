import { CRS84, distanceMetres, envelopeIn, fromCrs84, normalCrsUri, toCrs84, type Position } from '../live/geo/crs.js';

/**
 * Fixed points, not computed by the code under test: the Onze Lieve Vrouwetoren in Amersfoort,
 * the origin of the RD grid, at RD (155000, 463000) = ETRS89 52.15517440 N, 5.38720621 E
 * (Kadaster, RDNAPTRANS); the 7-parameter shift adr-check uses agrees within a metre.
 */
const TOWER_CRS84: Position = [5.38720621, 52.1551744];
const EPSG = (code: number) => `http://www.opengis.net/def/crs/EPSG/0/${code}`;

test('RD New to CRS84 within a metre of the published origin', () => {
  const lonLat = toCrs84(EPSG(28992), [155000, 463000]) as Position;
  expect(distanceMetres(lonLat, TOWER_CRS84)).toBeLessThan(1);
  const back = fromCrs84(EPSG(28992), TOWER_CRS84) as Position;
  expect(Math.hypot(back[0] - 155000, back[1] - 463000)).toBeLessThan(1);
});

test('EPSG:4258 and EPSG:4326 are latitude first; CRS84 longitude first', () => {
  expect(fromCrs84(EPSG(4258), TOWER_CRS84)?.map((value) => value.toFixed(5))).toEqual(['52.15517', '5.38721']);
  expect(fromCrs84(EPSG(4326), TOWER_CRS84)?.map((value) => value.toFixed(5))).toEqual(['52.15517', '5.38721']);
  expect(fromCrs84(CRS84, TOWER_CRS84)).toEqual(TOWER_CRS84);
  // Swapped axes land in the Indian Ocean, thousands of kilometres away.
  expect(distanceMetres(toCrs84(EPSG(4258), [5.38720621, 52.1551744]) as Position, TOWER_CRS84)).toBeGreaterThan(1_000_000);
});

test('Web Mercator, angle brackets and https spellings; an unknown CRS is not guessed', () => {
  const mercator = fromCrs84(EPSG(3857), TOWER_CRS84) as Position;
  expect(mercator[0]).toBeCloseTo(599_700, -2);
  expect(mercator[1]).toBeCloseTo(6_828_200, -3);
  expect(normalCrsUri('<https://www.opengis.net/def/crs/EPSG/0/28992/>')).toBe(EPSG(28992));
  expect(toCrs84(EPSG(999999), [1, 2])).toBeUndefined();
  expect(envelopeIn(EPSG(28992), [5.38, 52.15, 5.39, 52.16])?.every(Number.isFinite)).toBe(true);
});
