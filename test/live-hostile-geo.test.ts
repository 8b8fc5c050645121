import { startHostile, type HostileServer } from './support/hostile-servers.js';
import { adrCheck, expectBounded, jsonReport, startOffTarget, type JsonReport, type Outcome } from './support/adr-check-process.js';
import { collectionsText, CRS84, deepGeometryCollection, ETRS89, longLineString, ogcServer, pathTemplateFlood, RD, sharedCrsFlood } from './support/hostile-geo.js';

/**
 * adr-check against servers that attack its path matcher and its geospatial checks: each run ends
 * within --deadline + 5 s (tsx's start included), within 512 MB (the lint's 256 MB included; 768 MB
 * for the run that reads seven 3 MB answers), sends
 * nothing off the target, and gives a clear verdict where the old code stalled, ran out of memory
 * or reported an internal error.
 */
const DEADLINE = 10;
const LINT_MEMORY_MB = 256;
/** The bound is 512 MB plus the lint's budget; these descriptions are small, so the whole run must fit in 512 MB. */
const PEAK_MB = 512;

const closers: Array<() => Promise<void>> = [];

afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

async function hostile(server: Promise<HostileServer>): Promise<HostileServer> {
  const started = await server;
  closers.push(() => started.close());
  return started;
}

/** adr-check as a user runs it, JSON out; asserts the bounds every scenario shares. */
async function check(server: HostileServer, extra: string[] = [], peakMb = PEAK_MB): Promise<{ outcome: Outcome; report: JsonReport }> {
  const offTarget = await startOffTarget(server.port);
  closers.push(() => offTarget.close());
  const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--lint-memory', String(LINT_MEMORY_MB), '--max-body', '6000000', ...extra], { deadline: DEADLINE, killAfterMs: 25_000 });
  expectBounded(outcome, DEADLINE);
  expect(outcome.seconds).toBeLessThan(DEADLINE + 5);
  expect(outcome.peakMb).toBeLessThan(peakMb);
  expect(offTarget.requests).toEqual([]);
  expect(outcome.stderr).not.toMatch(/internal error/);
  return { outcome, report: jsonReport(outcome) };
}

function result(report: JsonReport, code: string): JsonReport['results'][number] | undefined {
  return report.results.find((candidate) => candidate.code === code);
}

test('6. 1,025 path templates of 61 to 91 pieces and 25 concrete paths of 7,800 characters (0.2 MB): matched within the deadline, each to its own template', async () => {
  const server = await hostile(startHostile(pathTemplateFlood(130)));
  const { report } = await check(server);
  // Each concrete path was matched to its template (GET and DELETE): the 405's Allow lacks DELETE on all 25.
  // The base URL is not probed: the description declares no `/`.
  const methods = result(report, '/core/http-methods');
  expect(methods?.verdict).toBe('fail');
  expect(methods?.details).toHaveLength(25);
  for (const detail of methods?.details ?? []) expect(detail).toMatch(/^TRACE \/v1\/x{1987}.*\(cut at 2000 of 78\d\d characters\)$/);
  expect(server.requests.filter((request) => request.method === 'TRACE').map((request) => request.url.length).sort((a, b) => a - b)).toEqual([...Array.from({ length: 25 }, (_, index) => (index < 10 ? 7806 : 7807))]);
}, 60_000);

const GEO_CODES = ['/geo/crs-list', '/geo/crs-query-parameter', '/geo/bbox-query-parameter', '/geo/bbox-crs-query-parameter', '/geo/content-crs-request-header', '/geo/geojson-response', '/geo/content-crs-response-header'];

/** Every geospatial check gave a verdict of its own: none is an internal error. */
function expectGeoVerdicts(report: JsonReport): void {
  for (const code of GEO_CODES) expect([code, result(report, code)?.summary]).not.toEqual([code, expect.stringMatching(/internal error/)]);
  expect(report.results.filter((candidate) => candidate.code.startsWith('/geo/')).map((candidate) => candidate.code).sort()).toEqual([...GEO_CODES].sort());
}

/** One collection, `wegen`, with this CRS list and one feature of this geometry. */
function oneCollection(crs: string[], geometry: string, writable = false) {
  return ogcServer({ collections: collectionsText([{ id: 'wegen', itemType: 'feature', crs }]), geometry, writable });
}

test.each([
  ['1 MB', 10_000],
  ['2.5 MB', 25_000],
])('7. a %s /collections whose collections all list #/crs, a shared list of as many CRSs: resolved once, bounded, what was left out named', async (_size, count) => {
  const server = await hostile(startHostile(ogcServer({ collections: sharedCrsFlood(count, count), geometry: '{"type":"Point","coordinates":[5.1,52.09]}' })));
  const { report } = await check(server);
  const list = result(report, '/geo/crs-list');
  expect(list?.verdict).toBe('pass');
  expect(list?.summary).toBe('GET /collections lists CRS URIs (200 collections, 500 CRSs), CRS84 in every list; no collection gives a storageCrs');
  expect(list?.details).toEqual([`the crs list of /collections: the first 500 of ${count.toLocaleString('en')} CRSs judged`, `the first 200 of ${count.toLocaleString('en')} feature collections judged`]);
  expectGeoVerdicts(report);
  // Asked in RD (the one CRS of the list adr-check can transform), the sample is compared: this server ignores crs.
  expect(result(report, '/geo/crs-query-parameter')?.details[0]).toMatch(/^crs=http:\/\/www\.opengis\.net\/def\/crs\/EPSG\/0\/28992: 1 lies 475 km from where CRS84 puts it \(tolerance 5 m\): the coordinates are CRS84, the crs was ignored/);
}, 60_000);

test('11. a LineString of 400,000 positions (3 MB): no spread into a call, compared on its first positions', async () => {
  const server = await hostile(startHostile(oneCollection([CRS84, RD], longLineString(400_000), true)));
  // Seven answers of 3 MB, each parsed once: within 512 MB plus the lint's budget.
  const { report } = await check(server, ['--unsafe'], 512 + LINT_MEMORY_MB);
  expectGeoVerdicts(report);
  expect(result(report, '/geo/geojson-response')).toMatchObject({ verdict: 'pass', summary: 'items are application/geo+json FeatureCollections and Features (7 responses)' });
  expect(result(report, '/geo/crs-query-parameter')?.details[0]).toBe('crs=http://www.opengis.net/def/crs/EPSG/0/28992: 1 lies 465 km from where CRS84 puts it (tolerance 5 m): the coordinates are CRS84, the crs was ignored; first position [5,52]');
}, 60_000);

test('11. a coordinate 1e999 (Infinity once parsed; proj4 throws on it): invalid GeoJSON, the comparisons skip with the reason', async () => {
  const server = await hostile(startHostile(oneCollection([CRS84, RD], '{"type":"Point","coordinates":[1e999,52.09]}', true)));
  const { report } = await check(server, ['--unsafe']);
  expectGeoVerdicts(report);
  const geojson = result(report, '/geo/geojson-response');
  expect(geojson?.verdict).toBe('fail');
  expect(geojson?.details).toEqual(['GET /v1/collections/wegen/items has invalid GeoJSON geometry: position [Infinity, 52.09] has a coordinate that is not a finite number (a number such as 1e999 is beyond what JSON readers hold)']);
  for (const code of ['/geo/crs-query-parameter', '/geo/bbox-query-parameter', '/geo/bbox-crs-query-parameter']) {
    expect(result(report, code)).toMatchObject({ verdict: 'skip', summary: 'nothing to compare: no feature with valid geometry (/geo/geojson-response reports it)' });
  }
  expect(result(report, '/geo/content-crs-request-header')?.verdict).toBe('skip');
}, 60_000);

test('11. a GeometryCollection nested 20,000 deep: "nested deeper than 16 levels", no recursion', async () => {
  const server = await hostile(startHostile(oneCollection([CRS84, RD], deepGeometryCollection(20_000), true)));
  const { report } = await check(server, ['--unsafe']);
  expectGeoVerdicts(report);
  expect(result(report, '/geo/geojson-response')?.details).toEqual(['GET /v1/collections/wegen/items has invalid GeoJSON geometry: geometry nested deeper than 16 levels (GeometryCollections within GeometryCollections)']);
  expect(result(report, '/geo/crs-query-parameter')?.details).toEqual(['wegen: no feature with valid geometry (geometry nested deeper than 16 levels (GeometryCollections within GeometryCollections))']);
  expect(result(report, '/geo/content-crs-request-header')?.verdict).toBe('skip');
}, 60_000);

test('11. CRS URIs ending in U+2028 and CRLF: a /geo/crs-list finding, never sent in a query or a header', async () => {
  const server = await hostile(startHostile(oneCollection([CRS84, `${ETRS89}\u2028`, `${RD}\r\n`], '{"type":"Point","coordinates":[5.1,52.09]}', true)));
  const { report } = await check(server, ['--unsafe']);
  expectGeoVerdicts(report);
  expect(result(report, '/geo/crs-list')?.details).toEqual([
    `collection "wegen" lists "${ETRS89}\u2028" (it contains U+2028: adr-check does not send it), "${RD}\\r\\n" (it contains U+000D (a control character): adr-check does not send it), expected CRS URIs such as ${CRS84}`,
  ]);
  for (const code of ['/geo/crs-query-parameter', '/geo/bbox-crs-query-parameter']) {
    expect(result(report, code)?.details).toEqual(expect.arrayContaining([
      `"${ETRS89}\u2028": not a valid CRS URI (it contains U+2028), not sent`,
      `"${RD}\\r\\n": not a valid CRS URI (it contains U+000D (a control character)), not sent`,
    ]));
  }
  expect(result(report, '/geo/content-crs-request-header')?.verdict).not.toBe('pass');
  const sent = server.requests.map((request) => `${request.url} ${String(request.headers['content-crs'] ?? '')}`);
  expect(sent.filter((line) => /%0D|%0A|%E2%80%A8|\u2028|[\r\n]/i.test(line))).toEqual([]);
  for (const request of server.requests) expect(String(request.headers['content-crs'] ?? '<none>')).toMatch(/^[\x21-\x7e]+$/);
}, 60_000);

test('a CRS value of 100,000 slashes (a trailing-slash regular expression takes quadratic time on it): a finding at once', async () => {
  const slashes = `${'/'.repeat(100_000)}x`;
  const server = await hostile(startHostile(oneCollection([CRS84, slashes], '{"type":"Point","coordinates":[5.1,52.09]}')));
  const { report } = await check(server);
  expectGeoVerdicts(report);
  expect(result(report, '/geo/crs-list')?.details).toEqual([
    `collection "wegen" lists "${'/'.repeat(120)}"… (100,001 characters) (it is 100,001 characters long (at most 2,048): adr-check does not send it), expected CRS URIs such as ${CRS84}`,
  ]);
  expect(server.requests.filter((request) => request.url.includes('////'))).toEqual([]);
}, 60_000);

test('7. 250 collections, each adding 510 CRSs of its own to #/crs: 200 judged, 500 CRSs of each, 20 problems named and the rest counted', async () => {
  const own = ['#/crs', ...Array.from({ length: 510 }, (_, index) => `x${index}`)];
  const collections = Array.from({ length: 250 }, (_, index) => ({ id: `c${index}`, itemType: 'feature', crs: own }));
  const server = await hostile(startHostile(ogcServer({ collections: collectionsText(collections, [CRS84]), geometry: '{"type":"Point","coordinates":[5.1,52.09]}' })));
  const { report } = await check(server);
  const list = result(report, '/geo/crs-list');
  expect(list?.verdict).toBe('fail');
  expect(list?.details).toHaveLength(23);
  expect(list?.details[0]).toBe(`collection "c0" lists "x0", "x1", "x2" and 496 more, expected CRS URIs such as ${CRS84}`);
  expect(list?.details.slice(20)).toEqual([
    '… and 180 more problems of the same kinds',
    'the first 200 of 250 feature collections judged',
    '200 collections list more than 500 CRSs: the first 500 of each judged',
  ]);
}, 60_000);
