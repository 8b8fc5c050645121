import { adrCheck, expectBounded, jsonReport, type JsonReport } from './support/adr-check-process.js';
import { startQgisLike } from './support/hostile-lab.js';
import { description, servingDescription, startHostile, type HostileServer } from './support/hostile-servers.js';

/**
 * Issue 22: the wrong verdicts and texts the lab showed on QGIS Server 3.22 (test/lab/), each as the
 * general rule it stands for, on a loopback server that does what QGIS does (test/support/hostile-lab.ts).
 */
const servers: HostileServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

const DEADLINE = 15;

async function check(baseUrl: string): Promise<JsonReport> {
  const outcome = await adrCheck(baseUrl, ['--format', 'json'], { deadline: DEADLINE, killAfterMs: (DEADLINE + 15) * 1000 });
  expectBounded(outcome, DEADLINE);
  return jsonReport(outcome);
}

const result = (report: JsonReport, code: string) => report.results.find((entry) => entry.code === code);
const lines = (report: JsonReport, code: string) => [result(report, code)?.summary ?? '', ...(result(report, code)?.details ?? [])];

/** The QGIS-like server, checked at http://127.0.0.1:PORT/wfs3, its service-desc link naming the host given. */
async function checkQgisLike(serviceDescHost: '127.0.0.1' | 'localhost'): Promise<{ server: HostileServer; report: JsonReport }> {
  const server = await startQgisLike({ serviceDescHost });
  servers.push(server);
  return { server, report: await check(`${server.origin}/wfs3`) };
}

describe('an OGC API that answers /openapi.json with its landing page and links its description at /wfs3/api', () => {
  let server: HostileServer;
  let report: JsonReport;
  beforeAll(async () => {
    ({ server, report } = await checkQgisLike('127.0.0.1'));
  }, 60000);

  test('/core/publish-openapi fails because /openapi.json is no description, naming where the description is; /openapi.json is not judged as the linked one', () => {
    expect(result(report, '/core/publish-openapi')?.verdict).toBe('fail');
    expect(result(report, '/core/publish-openapi')?.details).toEqual([
      "GET /openapi.json is not an OpenAPI description (200 application/json: a JSON object without an openapi member (a landing page: it has links)), expected the API's description in JSON",
      `the description is published at ${server.origin}/wfs3/api (the landing page's service-desc link): serve it at /openapi.json too`,
    ]);
    // Two landing pages are not compared as descriptions, nor is the page held to the description's CORS header.
    expect(server.requests.some((request) => request.url === '/wfs3/openapi.yaml')).toBe(false);
  });

  test('/core/version-header: an empty info.version is no value to expect; every response is judged for a full version', () => {
    const version = result(report, '/core/version-header');
    expect(version?.verdict).toBe('fail');
    expect(version?.summary).toMatch(/^(\d+) of \1 requests lack API-Version with a full version \(info\.version is empty: nothing to compare with\)$/);
    expect(version?.details).toContain('GET /wfs3/collections: lacks API-Version');
    expect(lines(report, '/core/version-header').filter((line) => /API-Version: ?($|\))/.test(line))).toEqual([]);
    // The static lint reports the empty version itself.
    expect(report.staticFindings.filter((finding) => finding.code === '/core/semver').map((finding) => finding.message)).toEqual(['API version is not SemVer 2.0.0: "". Use major.minor.patch, for example 1.0.0.']);
  });

  test('/core/http-response-code fails for the 200 of an unknown path, without judging that 200 as an error body', () => {
    const code = result(report, '/core/http-response-code');
    expect(code?.verdict).toBe('fail');
    expect(code?.details).toContain('an unknown path gives 200, expected 404');
    expect(lines(report, '/core/http-response-code').filter((line) => /the 200 (has|lacks) Content-Type/.test(line))).toEqual([]);
  });

  test('/geo/crs-list passes without claiming a storageCrs the API does not give', () => {
    expect(result(report, '/geo/crs-list')).toMatchObject({ verdict: 'pass', summary: 'GET /collections lists CRS URIs (1 collection, 2 CRSs), CRS84 in every list; no collection gives a storageCrs' });
  });
});

describe('the same API checked by address while its service-desc link names it localhost', () => {
  let server: HostileServer;
  let report: JsonReport;
  beforeAll(async () => {
    ({ server, report } = await checkQgisLike('localhost'));
  }, 60000);

  test('the report names the linked description and why it was not read: another origin, and where to check the API instead', () => {
    const unread = `the landing page links a description at http://localhost:${server.port}/wfs3/api (rel=service-desc), not read: another origin than the base URL's (${server.origin}); adr-check reads a description only from the API's own origin. If that is this API under another name, check it there: adr-check http://localhost:${server.port}/wfs3`;
    expect(report.notices).toContain(unread);
    expect(result(report, '/core/publish-openapi')?.details).toContain(unread);
    // Nothing was sent to the other origin.
    expect(server.requests.some((request) => request.url === '/wfs3/api')).toBe(false);
  });
});

describe('/openapi.yaml answered with an HTML page beside a right /openapi.json', () => {
  test('/core/publish-openapi says the page is no YAML description, not that it "differs"', async () => {
    const text = JSON.stringify(description());
    const server = await startHostile(servingDescription(text, (request, response) => {
      if ((request.url ?? '').startsWith('/v1/openapi.yaml')) return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'api-version': '1.0.0' }).end('<!DOCTYPE html><html><body>Swagger UI</body></html>');
      response.writeHead(404, { 'content-type': 'application/problem+json', 'api-version': '1.0.0' }).end('{"status":404,"title":"Not Found"}');
    }));
    servers.push(server);
    const report = await check(server.baseUrl);
    expect(result(report, '/core/publish-openapi')).toMatchObject({
      verdict: 'fail',
      details: ['/openapi.yaml answers 200 with a page (text/html; charset=utf-8), not the description in YAML: serve the description there, or 404'],
    });
  }, 60000);
});

describe('/openapi.json that is a Swagger 2.0 description', () => {
  test('/core/publish-openapi names it as Swagger, not as "openapi: undefined"', async () => {
    const server = await startHostile(servingDescription(JSON.stringify({ swagger: '2.0', info: { title: 'Oud', version: '1.0.0' }, paths: {} })));
    servers.push(server);
    const report = await check(server.baseUrl);
    expect(result(report, '/core/publish-openapi')).toMatchObject({
      verdict: 'fail',
      details: ['/openapi.json is a Swagger 2.0 description, expected OpenAPI 3.0.x'],
    });
  }, 60000);
});
