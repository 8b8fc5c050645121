import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../live/main.js';
import type { Report } from '../live/report.js';
import { startGeoJsonServer, type GeoJsonFault, type GeoJsonServerOptions } from './support/geo-json-server.js';
import { startOgcFeaturesServer } from './support/ogc-features-server.js';
import type { HostileServer } from './support/hostile-servers.js';

/** The live geospatial checks against a plain-JSON geospatial API (test support), with and without each fault. */
const GEO_CODES = ['/geo/crs-list', '/geo/crs-query-parameter', '/geo/bbox-query-parameter', '/geo/bbox-crs-query-parameter', '/geo/content-crs-request-header', '/geo/geojson-response', '/geo/content-crs-response-header'];
let folder: string;
beforeAll(() => { folder = mkdtempSync(join(tmpdir(), 'adr-check-geo-')); });
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface GeoRun {
  verdicts: Record<string, string>;
  report: Report;
  /** The writes of a feature the server got, `METHOD /path`: POSTs with a body, DELETEs of a resource (not /core/http-methods' probes, which carry If-Match). */
  writes: string[];
}

/** adr-check against a test server, with --unsafe (so that /geo/content-crs-request-header POSTs) unless `safe`; the server is closed after. */
async function checkServer(server: HostileServer, name: string, safe: boolean): Promise<GeoRun> {
  try {
    const output = join(folder, `${name}.json`);
    await main([server.baseUrl, '--format', 'json', '--output', output, '--timeout', '2000', '--deadline', '20', ...(safe ? [] : ['--unsafe'])], {});
    const report = JSON.parse(readFileSync(output, 'utf8')) as Report;
    const writes = server.requests
      .filter((request) => request.headers['if-match'] === undefined)
      .filter((request) => (request.method === 'POST' && request.headers['content-type'] !== undefined) || (request.method === 'DELETE' && /^\/v1\/(gebouwen|collections\/[^/]+\/items)\/./.test(request.url)))
      .map((request) => `${request.method} ${request.url}`);
    return { verdicts: Object.fromEntries(report.results.filter((result) => result.code.startsWith('/geo/')).map((result) => [result.code, result.verdict])), report, writes };
  } finally {
    await server.close();
  }
}

async function geoVerdicts(faults: GeoJsonFault[], { safe = false, ...options }: GeoJsonServerOptions & { safe?: boolean } = {}): Promise<GeoRun> {
  return checkServer(await startGeoJsonServer(faults, options), `${faults.join('-') || 'clean'}${safe ? '-safe' : ''}-${Object.keys(options).join('-')}`, safe);
}

test('a plain-JSON geospatial API that does it right passes every geospatial check', async () => {
  const { verdicts, report, writes } = await geoVerdicts([]);
  expect(verdicts).toEqual(Object.fromEntries(GEO_CODES.map((code) => [code, 'pass'])));
  expect(report.notices).toContain('geospatial checks run: GET /crss lists CRSs');
  const crs = report.results.find((result) => result.code === '/geo/crs-query-parameter');
  expect(crs?.summary).toBe('0344100000012345 asked in CRS84, EPSG:28992 and EPSG:4258 lies within 5 m of where the answer without crs puts it; an unsupported crs gives 400');
  const post = report.results.find((result) => result.code === '/geo/content-crs-request-header');
  expect(post?.summary).toBe('copies of 0344100000012345 POSTed in EPSG:4258 with Content-Crs and in CRS84 without it read back within 5 m of it; an unsupported Content-Crs gives 400');
  // The two copies adr-check created are deleted again; the third POST was refused.
  expect(writes).toEqual(['POST /v1/gebouwen', 'POST /v1/gebouwen', 'POST /v1/gebouwen', 'DELETE /v1/gebouwen/nieuw-1', 'DELETE /v1/gebouwen/nieuw-2']);
}, 60000);

test('HAL with an empty selection left out, items without an identifier, the single-resource path listed first: every geospatial check passes', async () => {
  // Each of these once failed a clean API: an empty `_embedded` read as "embeds no geometry", the
  // single resource taken for the collection, an identity that held the coordinates.
  const { verdicts, report } = await geoVerdicts([], { hal: true });
  expect(verdicts).toEqual(Object.fromEntries(GEO_CODES.map((code) => [code, 'pass'])));
  expect(report.results.find((result) => result.code === '/geo/crs-query-parameter')?.summary).toBe('{"code":"0344100000012345","naam":"Domtoren"} asked in CRS84, EPSG:28992 and EPSG:4258 lies within 5 m of where the answer without crs puts it; an unsupported crs gives 400');
}, 60000);

test('a collection that answers a top-level JSON array: every geospatial check passes', async () => {
  // The array was once not read as a list, and the single resource became the collection.
  const { verdicts } = await geoVerdicts([], { array: true });
  expect(verdicts).toEqual(Object.fromEntries(GEO_CODES.map((code) => [code, 'pass'])));
}, 60000);

test('an API that takes the client\'s identifier (409 for one that exists, 400 without one): the copies carry new ones adr-check made up, never the sample\'s, and pass', async () => {
  const { verdicts, report, writes } = await geoVerdicts([], { clientIds: true });
  expect(verdicts).toEqual(Object.fromEntries(GEO_CODES.map((code) => [code, 'pass'])));
  expect(report.results.find((result) => result.code === '/geo/content-crs-request-header')?.details).toEqual([]);
  // Two copies with new identifiers (each answered 404 before its POST), the unsupported CRS (400); both copies deleted.
  expect(writes.map((write) => write.replace(/\/0344100000\d{6}$/, '/<new>'))).toEqual(['POST /v1/gebouwen', 'POST /v1/gebouwen', 'POST /v1/gebouwen', 'DELETE /v1/gebouwen/<new>', 'DELETE /v1/gebouwen/<new>']);
}, 60000);

test('where the description declares no DELETE, the copies stay and the details say where and why', async () => {
  const { verdicts, report, writes } = await geoVerdicts([], { noDelete: true });
  expect(verdicts['/geo/content-crs-request-header']).toBe('pass');
  expect(report.results.find((result) => result.code === '/geo/content-crs-request-header')?.details).toEqual([
    expect.stringMatching(/^2 features adr-check created remain: http:\/\/127\.0\.0\.1:\d+\/v1\/gebouwen\/nieuw-1 \(not deleted: the description declares no DELETE there\), http:\/\/127\.0\.0\.1:\d+\/v1\/gebouwen\/nieuw-2 \(not deleted: the description declares no DELETE there\)$/),
  ]);
  expect(writes.filter((write) => write.startsWith('DELETE'))).toEqual([]);
}, 60000);

test('3D data in CRS84h without crs, CRS84 on request: every geospatial check passes', async () => {
  const { verdicts } = await geoVerdicts([], { threeD: true });
  expect(verdicts).toEqual(Object.fromEntries(GEO_CODES.map((code) => [code, 'pass'])));
}, 60000);

test('without --unsafe nothing is POSTed: /geo/content-crs-request-header is skipped and says why', async () => {
  const { verdicts, report, writes } = await geoVerdicts([], { safe: true });
  expect(verdicts['/geo/content-crs-request-header']).toBe('skip');
  expect(report.results.find((result) => result.code === '/geo/content-crs-request-header')?.summary).toBe('not tested: creating a feature changes data; --unsafe lets adr-check POST one (and delete it again where the API allows)');
  expect(writes).toEqual([]);
}, 60000);

test('where the description declares no POST of features, --unsafe POSTs none', async () => {
  const { verdicts, report, writes } = await geoVerdicts([], { readOnly: true });
  expect(verdicts['/geo/content-crs-request-header']).toBe('skip');
  expect(report.results.find((result) => result.code === '/geo/content-crs-request-header')?.summary).toBe('not tested: the description declares no POST on a collection with geometry');
  expect(writes).toEqual([]);
}, 60000);

/** Each fault that gives a verdict, and the check that must be the only one to fail; a fault that leaves nothing to observe has its own test. */
const CAUGHT_BY: Record<Exclude<GeoJsonFault, 'unsupported-content-crs-no-answer' | 'huge-sample'>, [string, RegExp]> = {
  'swap-axes': ['/geo/crs-query-parameter', /crs=http:\/\/www\.opengis\.net\/def\/crs\/EPSG\/0\/4258: 0344100000012345 lies [\d,]+ km from where CRS84 puts it \(tolerance 5 m\): its axes are swapped/],
  'ignore-crs': ['/geo/crs-query-parameter', /crs=http:\/\/www\.opengis\.net\/def\/crs\/EPSG\/0\/28992: 0344100000012345 lies .+: the coordinates are CRS84, the crs was ignored/],
  'unsupported-crs-200': ['/geo/crs-query-parameter', /^an unsupported crs \(http:\/\/www\.opengis\.net\/def\/crs\/EPSG\/0\/0\) gives 200, expected 400$/],
  'no-content-crs': ['/geo/content-crs-response-header', /^GET \/v1\/gebouwen lacks Content-Crs \(expected <http:\/\/www\.opengis\.net\/def\/crs\/OGC\/1\.3\/CRS84>\)$/],
  'ignore-bbox': ['/geo/bbox-query-parameter', /^bbox=-150\.001,-45\.001,-150,-45, away from every feature, selects 4 \(.+\): the bbox is not applied$/],
  'ignore-bbox-crs': ['/geo/bbox-crs-query-parameter', /^bbox=[\d.,]+&bbox-crs=http:\/\/www\.opengis\.net\/def\/crs\/EPSG\/0\/28992, around 0344100000012345, misses it: bbox-crs is not applied as EPSG:28992 in its axis order$/],
  'geojson-media-type': ['/geo/geojson-response', /^GET \/v1\/gebouwen has Content-Type: application\/geo\+json, expected application\/json with embedded geometry$/],
  'crs84-not-listed': ['/geo/crs-list', /^the list lacks http:\/\/www\.opengis\.net\/def\/crs\/OGC\/1\.3\/CRS84, the default CRS$/],
  'ignore-content-crs': ['/geo/content-crs-request-header', /^a copy of 0344100000012345 in EPSG:4258 with Content-Crs: <http:\/\/www\.opengis\.net\/def\/crs\/EPSG\/0\/4258> reads back 6,759 km from where it was placed \(tolerance 5 m\): its coordinates were read as CRS84, not as Content-Crs says; first position \[52\.\d+,5\.\d+\]$/],
  'no-content-crs-as-rd': ['/geo/content-crs-request-header', /^a copy of 0344100000012345 in CRS84 without Content-Crs reads back 476 km from where it was placed \(tolerance 5 m\): its coordinates were read as EPSG:28992, not as CRS84, the default without Content-Crs; first position/],
  'crs84-by-name-400': ['/geo/crs-query-parameter', /^crs=http:\/\/www\.opengis\.net\/def\/crs\/OGC\/1\.3\/CRS84: 400, expected 200$/],
  'no-crss': ['/geo/crs-list', /^GET \/crss answered 404, expected 200 with an object with a crs array$/],
  'rd-without-datum-shift': ['/geo/crs-query-parameter', /^crs=http:\/\/www\.opengis\.net\/def\/crs\/EPSG\/0\/28992: 0344100000012345 lies 1\d\d m from where CRS84 puts it \(tolerance 5 m\); first position/],
  'ignore-bbox-with-bbox-crs': ['/geo/bbox-crs-query-parameter', /^bbox=[\d.,]+&bbox-crs=http:\/\/www\.opengis\.net\/def\/crs\/EPSG\/0\/28992 selects 0344100000023456, 0344100000045678, more than 150 m outside the same box in CRS84: bbox-crs is not applied$/],
  'location-of-existing': ['/geo/content-crs-request-header', /^a copy of 0344100000012345 in CRS84 without Content-Crs: 201 with Location http:\/\/127\.0\.0\.1:\d+\/v1\/gebouwen\/0344100000012345, which names 0344100000012345 itself, expected the new resource's URI$/],
  'unsupported-content-crs-201': ['/geo/content-crs-request-header', /^a feature with Content-Crs: <http:\/\/www\.opengis\.net\/def\/crs\/EPSG\/0\/0> \(no such CRS\) gives 201, expected 400$/],
};

test('no answer to the POST with an unsupported Content-Crs: not judged, not passed', async () => {
  const { verdicts, report } = await geoVerdicts(['unsupported-content-crs-no-answer']);
  expect(verdicts['/geo/content-crs-request-header']).toBe('error');
  expect(report.results.find((result) => result.code === '/geo/content-crs-request-header')?.summary).toMatch(/^not judged: POST with an unsupported Content-Crs got no answer \(.+\)$/);
}, 60000);

test('a list far over the 8 KB excerpt is still found as the collection; a sample of over a megabyte is not copied', async () => {
  const { verdicts, report, writes } = await geoVerdicts(['huge-sample']);
  // Discovery once read the list from an 8 KB excerpt and missed it: the single resource became the collection.
  expect(Object.entries(verdicts).filter(([, verdict]) => verdict !== 'pass')).toEqual([['/geo/content-crs-request-header', 'skip']]);
  expect(report.results.find((result) => result.code === '/geo/content-crs-request-header')?.summary).toBe('nothing to copy: 0344100000012345 is 1,100,172 bytes of JSON; adr-check POSTs copies of at most 1,000,000');
  expect(writes).toEqual([]);
}, 60000);

test('a Location that names an existing resource is neither trusted nor deleted', async () => {
  const { writes } = await geoVerdicts(['location-of-existing']);
  expect(writes.filter((write) => write.startsWith('DELETE'))).toEqual([]);
}, 60000);

test.each(Object.entries(CAUGHT_BY))('fault %s is caught by exactly %s', async (fault, [code, detail]) => {
  const { verdicts, report } = await geoVerdicts([fault as GeoJsonFault]);
  const failing = Object.entries(verdicts).filter(([, verdict]) => verdict !== 'pass').map(([name]) => name);
  expect(failing).toEqual([code]);
  expect(verdicts[code]).toBe('fail');
  const result = report.results.find((entry) => entry.code === code);
  expect(result?.details).toContainEqual(expect.stringMatching(detail));
  expect(existsSync(result?.docs ?? 'no docs')).toBe(true);
}, 60000);

test('an OGC API stored in CRS84, /collections far over the 8 KB excerpt, ?f=json items links, an empty collection and one of records first: every geospatial check passes', async () => {
  // Each of these once failed a clean API: /collections parsed from the excerpt (no collections
  // found); the feature URL built as items?f=json/101; the records asked for a CRS list and for
  // geo+json; the POST tried only on the first (empty) collection.
  const { verdicts, report, writes } = await checkServer(await startOgcFeaturesServer(), 'ogc-crs84', false);
  expect(verdicts).toEqual(Object.fromEntries(GEO_CODES.map((code) => [code, 'pass'])));
  expect(report.results.find((result) => result.code === '/geo/crs-list')?.summary).toBe('GET /collections lists CRS URIs (39 collections, 3 CRSs), CRS84 in every list, each storageCrs listed');
  expect(writes).toEqual([
    'POST /v1/collections/bomen/items', 'POST /v1/collections/bomen/items', 'POST /v1/collections/bomen/items', 'DELETE /v1/collections/bomen/items/901', 'DELETE /v1/collections/bomen/items/902',
  ]);
}, 60000);

test('a server that ignores crs is not said to swap the axes of EPSG:4258, where the CRS84 positions read as swapped ones', async () => {
  const { report } = await geoVerdicts(['ignore-crs']);
  const details = report.results.find((result) => result.code === '/geo/crs-query-parameter')?.details ?? [];
  expect(details).toContainEqual(expect.stringMatching(/^crs=http:\/\/www\.opengis\.net\/def\/crs\/EPSG\/0\/4258: 0344100000012345 lies [\d,]+ km from where CRS84 puts it \(tolerance 5 m\): the coordinates are CRS84, the crs was ignored \(as with EPSG:28992\); first position/));
  expect(details.join('\n')).not.toContain('its axes are swapped');
}, 60000);
