import { adrCheck, expectBounded, jsonReport, startOffTarget, type OffTarget, type Outcome } from './support/adr-check-process.js';
import { startFeatureServer, startNoteStoreServer, startUndeclaredWritesServer, type PostAnswer, type StatefulServer } from './support/hostile-unsafe.js';

/**
 * What `adr-check --unsafe` may write and delete (docs/live/unsafe.md), against servers that
 * keep real state: nothing adr-check did not create is deleted or changed, no request leaves the
 * base URL or the target, and the run ends within its deadline.
 */

const DEADLINE = 10;
const TOKEN = 'geheim-schrijf-token-123';

interface Run { server: StatefulServer; offTarget: OffTarget; outcome: Outcome }

async function run(server: StatefulServer, extra: string[] = []): Promise<Run> {
  const offTarget = await startOffTarget(server.port);
  try {
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--unsafe', ...extra], { deadline: DEADLINE });
    return { server, offTarget, outcome };
  } finally {
    await offTarget.close();
    await server.close();
  }
}

/** Within the deadline, nothing sent off the target or outside /v1. */
function expectContained({ server, offTarget, outcome }: Run): void {
  expectBounded(outcome, DEADLINE);
  expect(outcome.seconds).toBeLessThan(DEADLINE + 5);
  expect(offTarget.requests).toEqual([]);
  expect(server.requests.map((request) => `${request.method} ${request.url}`).filter((line) => !/^\S+ \/v1(\/|$|\?)/.test(line) || /\.\.|%2e|%5c|\\/i.test(line))).toEqual([]);
}

function result(outcome: Outcome, code: string) {
  return jsonReport(outcome).results.find((found) => found.code === code);
}

describe('undeclared-method probes (/core/http-methods)', () => {
  test('a server that implements undeclared POST, PUT, PATCH and DELETE for real loses nothing; path keys that climb out of /v1 are never requested', async () => {
    const server = await startUndeclaredWritesServer(TOKEN);
    const before = server.records();
    const outcome = await run(server, ['--header', `Authorization: Bearer ${TOKEN}`]);
    expectContained(outcome);
    expect(server.changes).toEqual([]);
    expect(server.records()).toEqual(before);
    const methods = result(outcome.outcome, '/core/http-methods');
    expect(methods?.verdict).toBe('fail');
    // The body no parser takes is refused (400 is no 405): judged, and nothing was made of it. The vault gives 405 once the token is sent.
    expect(methods?.details).toEqual([
      // The description declares no `/`: the base URL is not probed as a resource.
      ...['/v1/dingen', '/v1/dingen/d1'].flatMap((path) => ['POST', 'PUT', 'PATCH'].map((method) => `${method} ${path} (undeclared): 400, expected 405`)),
      'undeclared DELETE not sent to /v1/dingen, /v1/dingen/d1, /v1/kluis: they exist, and a server that deletes without declaring DELETE (or ignores If-Match) would lose them; TRACE, POST, PUT and PATCH judge the 405 there',
    ]);
    // The user's token goes with a write probe only where it is needed to reach the 405: /kluis answers 401 without it.
    const writes = server.requests.filter((request) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(request.method));
    expect(writes.filter((request) => request.headers.authorization !== undefined).map((request) => `${request.method} ${request.url}`).sort()).toEqual(['PATCH /v1/kluis', 'POST /v1/kluis', 'PUT /v1/kluis']);
    expect(writes.every((request) => request.headers['if-match'] !== undefined)).toBe(true);
  }, 60000);

  test('an API that keeps any body a POST sends: nothing it had is touched, and the failure names what it made of the probe', async () => {
    const server = await startNoteStoreServer();
    const outcome = await run(server);
    expectContained(outcome);
    expect(server.records().n0).toBe('de eerste notitie');
    expect(server.changes).toEqual(['POST n1']);
    expect(result(outcome.outcome, '/core/http-methods')?.details).toEqual([
      'POST /v1/notities (undeclared): 201, expected 405; the API took a body that is no document and names /v1/notities/n1 (Location) as what it made: see whether to delete it',
      'undeclared DELETE not sent to /v1, /v1/notities: they exist, and a server that deletes without declaring DELETE (or ignores If-Match) would lose them; TRACE, POST, PUT and PATCH judge the 405 there',
    ]);
  }, 60000);
});

describe('/geo/content-crs-request-header deletes only what it proves it created', () => {
  /** Every feature the server had is there afterwards, unchanged; nothing deleted but `deleted`. */
  async function judged(answer: PostAnswer): Promise<{ run: Run; before: Record<string, unknown> }> {
    const server = await startFeatureServer(answer);
    const before = server.records();
    const outcome = await run(server);
    expectContained(outcome);
    for (const [id, record] of Object.entries(before)) expect(server.records()[id]).toEqual(record);
    return { run: outcome, before };
  }

  const check = (run: Run) => result(run.outcome, '/geo/content-crs-request-header');

  const LOCATION = 'http:\\/\\/127\\.0\\.0\\.1:\\d+\\/v1\\/collections\\/gebouwen\\/items\\/';
  test.each([
    ['listed', ['f2\\.json', 'f2, listed before the POST'], ['f3', 'f3, listed before the POST']],
    ['sample-with-query', ['f1\\?copy=1', 'f1 itself'], ['f1\\?copy=2', 'f1 itself']],
    ['sample-percent-encoded', ['%66%31', 'f1 itself'], ['f%31', 'f1 itself']],
    ['sample-disguised', ['F1\\/', 'f1 itself'], ['f1;v=2', 'f1 itself']],
  ] as const)('a Location that names an existing feature (%s): a failure, and nothing is deleted', async (answer, [first, firstNames], [second, secondNames]) => {
    const { run } = await judged(answer);
    expect(run.server.changes).toEqual([]);
    expect(run.server.requests.filter((request) => request.method === 'DELETE')).toEqual([]);
    expect(check(run)?.verdict).toBe('fail');
    const named = (location: string, names: string) => `${LOCATION}${location}, which names ${names}`;
    expect(check(run)?.details).toEqual([
      expect.stringMatching(new RegExp(`^a copy of f1 in CRS84 without Content-Crs: 201 with Location ${named(first, firstNames)}, expected the new resource's URI$`)),
      expect.stringMatching(new RegExp(`^a copy of f1 in EPSG:4258 with Content-Crs: <http://www\\.opengis\\.net/def/crs/EPSG/0/4258>: 201 with Location ${named(second, secondNames)}, expected the new resource's URI$`)),
      expect.stringMatching(new RegExp(`^2 Locations not deleted, as adr-check cannot prove it created what they name: ${LOCATION}${first} \\(names ${firstNames}\\), ${LOCATION}${second} \\(names ${secondNames}\\)$`)),
    ]);
  }, 60000);

  test('a Location on the API\'s origin outside its base path is neither read nor deleted', async () => {
    const { run } = await judged('outside-base');
    expect(run.server.requests.filter((request) => request.method === 'DELETE')).toEqual([]);
    expect(check(run)?.verdict).toBe('fail');
    const outside = (copy: string, number: number) => expect.stringMatching(new RegExp(`^a copy of f1 ${copy}: 201 with Location http://127\\.0\\.0\\.1:\\d+/admin/users/${number}, outside the API's base URL http://127\\.0\\.0\\.1:\\d+/v1 \\(not followed\\), expected the new resource's URI$`));
    expect(check(run)?.details).toEqual([
      outside('in CRS84 without Content-Crs', 1),
      outside('in EPSG:4258 with Content-Crs: <http://www\\.opengis\\.net/def/crs/EPSG/0/4258>', 2),
      expect.stringMatching(/^2 Locations not deleted, as adr-check cannot prove it created what they name: http:\/\/127\.0\.0\.1:\d+\/admin\/users\/1 \(outside the base URL\), http:\/\/127\.0\.0\.1:\d+\/admin\/users\/2 \(outside the base URL\)$/),
    ]);
  }, 60000);

  test('an upsert API: the copies carry a new identificatie, never the sample\'s, so no feature is overwritten; the copies it created are deleted again', async () => {
    const { run } = await judged('upsert');
    expect(run.server.changes).toEqual(['POST n1', 'POST n2', 'DELETE n1', 'DELETE n2']);
    expect(check(run)?.verdict).toBe('pass');
    expect(check(run)?.details).toEqual([]);
  }, 60000);

  test.each([
    ['a listing of 4 of 8 features that calls itself whole, then a Location of a hidden one', 'listing-lies', ['f7', 'f8'], 'it reads back unlike the copy: most of the members adr-check sent have other values there, or none is there'],
    ['a Location of a feature beyond the pages adr-check lists (60, 10 a page)', 'unlisted', ['f59', 'f60'], 'it may have existed before the POST: adr-check could not list the whole collection before it \\(5 pages at most, each feature named\\), and no URL adr-check made up answered 404 there'],
  ] as const)('%s: not deleted, and the details say which and why', async (_name, answer, [first, second], why) => {
    const { run } = await judged(answer);
    expect(run.server.changes).toEqual([]);
    expect(run.server.requests.filter((request) => request.method === 'DELETE')).toEqual([]);
    expect(check(run)?.details).toContainEqual(expect.stringMatching(new RegExp(`^2 Locations not deleted, as adr-check cannot prove it created what they name: ${LOCATION}${first} \\(${why}\\), ${LOCATION}${second} \\(${why}\\)$`)));
  }, 60000);
});
