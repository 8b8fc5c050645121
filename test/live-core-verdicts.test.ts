import type { IncomingMessage, ServerResponse } from 'node:http';
import { description, startHostile, type HostileServer } from './support/hostile-servers.js';
import { adrCheck, expectBounded, jsonReport, type JsonReport } from './support/adr-check-process.js';
import { startNginxProxy } from './support/nginx-proxy.js';

/**
 * Issue 22: core verdicts on servers that behave as real frameworks and proxies do by default.
 * Each server is a real HTTP server on loopback; nginx is Debian's.
 */
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

async function server(handler: Parameters<typeof startHostile>[0]): Promise<HostileServer> {
  const started = await startHostile(handler);
  closers.push(() => started.close());
  return started;
}

const result = (report: JsonReport, code: string) => report.results.find((entry) => entry.code === code);
const GET_ONLY = { get: { responses: { 200: { description: 'ok' } } } };

/** What Express answers by default: an HTML 404 "Cannot GET", and the JSON it has whatever the Accept. */
function expressLike(text: string): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    const path = (request.url ?? '').split('?')[0];
    const headers = { 'api-version': '1.0.0', 'x-powered-by': 'Express' };
    if (path === '/v1/openapi.json') return void response.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(text);
    if (path === '/v1/items' && request.method === 'GET') return void response.writeHead(200, { ...headers, 'content-type': 'application/json' }).end('[]');
    if (path === '/v1/items' && request.method === 'HEAD') return void response.writeHead(200, { ...headers, 'content-type': 'application/json' }).end();
    response.writeHead(404, { ...headers, 'content-type': 'text/html; charset=utf-8' }).end(`<!DOCTYPE html><pre>Cannot ${request.method} ${path}</pre>`);
  };
}

describe('1. the severity of a verdict is the strength of the SPEC sentence it rests on', () => {
  test('an HTML 404 and no 406 for an unservable Accept: SHOULD and "ideally", a warn', async () => {
    const api = await server(expressLike(JSON.stringify(description({ paths: { '/items': GET_ONLY } }))));
    const outcome = await adrCheck(api.baseUrl, ['--format', 'json']);
    expectBounded(outcome);
    const check = result(jsonReport(outcome), '/core/http-response-code');
    expect(check?.verdict).toBe('warn');
    expect(check?.summary).toBe('error responses are not as the standard recommends');
    expect(check?.details).toEqual([
      'the 404 has Content-Type: text/html; charset=utf-8, expected application/problem+json (SHOULD: a warning)',
      'Accept: application/x-adr-check-unservable gives 200, expected 406 (SHOULD: a warning)',
    ]);
  }, 40000);

  test('the Accept value copied into Content-Type breaks a MUST: a fail', async () => {
    const text = JSON.stringify(description({ paths: { '/items': GET_ONLY } }));
    const api = await server((request, response) => {
      const accept = String(request.headers.accept ?? '');
      if (accept.startsWith('application/x-adr-check')) return void response.writeHead(200, { 'api-version': '1.0.0', 'content-type': accept }).end('[]');
      expressLike(text)(request, response);
    });
    const check = result(jsonReport(await adrCheck(api.baseUrl, ['--format', 'json'])), '/core/http-response-code');
    expect(check?.verdict).toBe('fail');
    expect(check?.details).toContain('the Accept value is copied into Content-Type: application/x-adr-check-unservable');
  }, 40000);
});

describe('3. a proxy-generated error MAY omit API-Version', () => {
  test("nginx's own 405 for TRACE is left out and named; the API's responses are all judged", async () => {
    const api = await server(expressLike(JSON.stringify(description({ paths: { '/items': GET_ONLY } }))));
    const proxy = await startNginxProxy(api.port);
    closers.push(() => proxy.close());
    const outcome = await adrCheck(`${proxy.origin}/v1`, ['--format', 'json']);
    expectBounded(outcome);
    const check = result(jsonReport(outcome), '/core/version-header');
    expect(check?.verdict).toBe('pass');
    expect(check?.summary).toMatch(/^all \d+ requests carry API-Version: 1\.0\.0$/);
    expect(check?.details).toHaveLength(1);
    // The description declares no `/`: only /items is probed with TRACE.
    expect(check?.details[0]).toMatch(/^left out: 1 proxy-generated error, which MAY omit API-Version \(TRACE \/v1\/items: 405 text\/html from nginx\/[\d.]+\)$/);
    // The API never saw TRACE: nginx answered it.
    expect(api.requests.some((request) => request.method === 'TRACE')).toBe(false);
  }, 40000);

  test("the API's own error without API-Version still fails", async () => {
    const text = JSON.stringify(description({ paths: { '/items': GET_ONLY } }));
    const api = await server((request, response) => {
      if (request.method === 'HEAD') return void response.writeHead(500, { server: 'nginx', 'content-type': 'application/problem+json', 'x-powered-by': 'Express' }).end();
      expressLike(text)(request, response);
    });
    const check = result(jsonReport(await adrCheck(api.baseUrl, ['--format', 'json'])), '/core/version-header');
    expect(check?.verdict).toBe('fail');
    expect(check?.details).toContain('HEAD /v1/items: lacks API-Version');
  }, 40000);
});

describe('4. a trailing-slash 404 counts only where the path exists without it', () => {
  test('paths that repeat the server URL version: probed where the API serves them; /openapi.json/ answering 307 fails', async () => {
    // FastAPI's default: a redirect to the path without the slash, and /v1/v1/items 404 both ways.
    const text = JSON.stringify(description({ servers: [{ url: 'https://api.example.nl/v1' }], paths: { '/v1/items': GET_ONLY } }));
    const api = await server((request, response) => {
      const path = (request.url ?? '').split('?')[0] ?? '';
      const headers = { 'api-version': '1.0.0', 'content-type': 'application/json' };
      if (path === '/v1/openapi.json') return void response.writeHead(200, headers).end(text);
      if (path === '/v1/items') return void response.writeHead(200, headers).end('[]');
      if (path.endsWith('/') && path !== '/v1/v1/items/') return void response.writeHead(307, { ...headers, location: path.slice(0, -1) }).end();
      response.writeHead(404, { ...headers, 'content-type': 'application/problem+json' }).end('{"detail":"Not Found"}');
    });
    const check = result(jsonReport(await adrCheck(api.baseUrl, ['--format', 'json'])), '/core/no-trailing-slash');
    expect(check?.verdict).toBe('fail');
    expect(check?.summary).toBe('2 paths with a trailing slash do not give 404');
    expect(check?.details).toEqual(['GET /v1/items/: 307 (Location: /v1/items), expected 404', 'GET /v1/openapi.json/: 307 (Location: /v1/openapi.json), expected 404']);
  }, 40000);
});

describe('8. without a description, judge what was observed', () => {
  test('a landing page links to /collections: its trailing slash and the missing API-Version are judged', async () => {
    // Flask's default: /collections/ is the route, /collections redirects to it; no description.
    const api = await server((request, response) => {
      const path = (request.url ?? '').split('?')[0] ?? '';
      const json = { 'content-type': 'application/json' };
      if (path === '/v1' || path === '/v1/') return void response.writeHead(200, json).end(JSON.stringify({ links: [{ rel: 'data', href: '/v1/collections/' }, { rel: 'elsewhere', href: 'http://other.example/x' }] }));
      if (path === '/v1/collections/') return void response.writeHead(200, json).end('{"collections":[]}');
      if (path === '/v1/collections') return void response.writeHead(308, { location: '/v1/collections/' }).end();
      response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>');
    });
    const report = jsonReport(await adrCheck(api.baseUrl, ['--format', 'json']));
    const slash = result(report, '/core/no-trailing-slash');
    expect(slash?.verdict).toBe('fail');
    expect(slash?.details).toContain('GET /v1/collections/: 200, expected 404');
    const version = result(report, '/core/version-header');
    expect(version?.verdict).toBe('fail');
    expect(version?.summary).toMatch(/^\d+ of \d+ requests lack API-Version with a full version$/);
    expect(api.requests.some((request) => request.url.includes('other.example'))).toBe(false);
  }, 40000);

  test('every response carries a full API-Version: a pass that says it was not compared', async () => {
    const api = await server((request, response) => {
      const headers = { 'content-type': 'application/json', 'api-version': '2.1.0' };
      if ((request.url ?? '') === '/v1') return void response.writeHead(200, headers).end('{"links":[]}');
      response.writeHead(404, { ...headers, 'content-type': 'application/problem+json' }).end('{"status":404}');
    });
    const version = result(jsonReport(await adrCheck(api.baseUrl, ['--format', 'json'])), '/core/version-header');
    expect(version?.verdict).toBe('pass');
    expect(version?.summary).toMatch(/^all \d+ requests carry API-Version: 2\.1\.0 \(no description: not compared with info\.version\)$/);
  }, 40000);
});

describe('6. security headers as browsers read them, on the API only', () => {
  const SECURE = { 'cache-control': 'no-store', 'content-security-policy': "frame-ancestors 'none'", 'api-version': '1.0.0' };

  test('X-Content-Type-Options and X-Frame-Options sent twice (app and proxy) read as the one value', async () => {
    const text = JSON.stringify(description({ paths: { '/items': GET_ONLY } }));
    const api = await server((request, response) => {
      const path = (request.url ?? '').split('?')[0];
      response.setHeader('X-Content-Type-Options', ['nosniff', 'nosniff']);
      response.setHeader('X-Frame-Options', ['DENY', 'deny']);
      for (const [name, value] of Object.entries(SECURE)) response.setHeader(name, value);
      if (path === '/v1/openapi.json') return void response.writeHead(200, { 'content-type': 'application/json' }).end(text);
      if (path === '/v1/items' && (request.method === 'GET' || request.method === 'HEAD')) return void response.writeHead(200, { 'content-type': 'application/json' }).end(request.method === 'GET' ? '[]' : undefined);
      response.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"status":404}');
    });
    const check = result(jsonReport(await adrCheck(api.baseUrl, ['--format', 'json'])), '/core/transport/security-headers');
    expect(check?.verdict).toBe('pass');
  }, 40000);

  test('X-Frame-Options with two different values is wrong', async () => {
    const text = JSON.stringify(description({ paths: { '/items': GET_ONLY } }));
    const api = await server((request, response) => {
      response.setHeader('X-Content-Type-Options', 'nosniff');
      response.setHeader('X-Frame-Options', ['DENY', 'SAMEORIGIN']);
      for (const [name, value] of Object.entries(SECURE)) response.setHeader(name, value);
      response.writeHead(200, { 'content-type': 'application/json' }).end((request.url ?? '').startsWith('/v1/openapi.json') ? text : '[]');
    });
    const check = result(jsonReport(await adrCheck(api.baseUrl, ['--format', 'json'])), '/core/transport/security-headers');
    expect(check?.verdict).toBe('warn');
    expect(check?.details[0]).toMatch(/^has X-Frame-Options: DENY, SAMEORIGIN, expected DENY \(first on GET \/v1\/openapi\.json\)$/);
  }, 40000);

  test('the plain-HTTP redirect is not judged as an API response', async () => {
    const { startReferenceApi } = await import('../examples/reference-api/server.js');
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const api = await startReferenceApi();
    closers.push(() => api.close());
    // What a default nginx on port 80 sends: a bare redirect, none of the API's headers.
    const plain = await server((_request, response) => response.writeHead(301, { location: 'https://127.0.0.1/', 'content-type': 'text/html', server: 'nginx' }).end('<html>301</html>'));
    const folder = mkdtempSync(join(tmpdir(), 'adr-check-ca-'));
    writeFileSync(join(folder, 'ca.pem'), api.caPem);
    const outcome = await adrCheck(api.baseUrl, ['--format', 'json', '--ca', join(folder, 'ca.pem'), '--plain-http-port', String(plain.port), '--max-body', '5000000', '--tls-deadline', '2']);
    rmSync(folder, { recursive: true, force: true });
    expect(plain.requests.map((request) => request.url)).toContain('/v1/openapi.json');
    const report = jsonReport(outcome);
    expect(result(report, '/core/transport/security-headers')?.verdict).toBe('pass');
    expect(result(report, '/core/version-header')?.verdict).toBe('pass');
  }, 60000);
});

describe('5. plain HTTP is tried on the API\'s paths', () => {
  test('a plain-HTTP port that is 404 at the base but serves /openapi.json and the resources: fail', async () => {
    const { startReferenceApi } = await import('../examples/reference-api/server.js');
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const api = await startReferenceApi();
    closers.push(() => api.close());
    const plain = await server((request, response) => {
      const path = (request.url ?? '').split('?')[0] ?? '';
      if (path === '/v1' || path === '/v1/') return void response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>404</h1>');
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"openapi":"3.0.3"}');
    });
    const folder = mkdtempSync(join(tmpdir(), 'adr-check-ca-'));
    writeFileSync(join(folder, 'ca.pem'), api.caPem);
    const outcome = await adrCheck(api.baseUrl, ['--format', 'json', '--ca', join(folder, 'ca.pem'), '--plain-http-port', String(plain.port), '--max-body', '5000000', '--tls-deadline', '2']);
    rmSync(folder, { recursive: true, force: true });
    const tls = result(jsonReport(outcome), '/core/transport/tls');
    expect(tls?.verdict).toBe('fail');
    expect(tls?.details).toContain(`plain HTTP serves API content: GET http://127.0.0.1:${plain.port}/v1/openapi.json: 200 application/json`);
  }, 60000);
});

describe('10. an OGC API names its description on the landing page', () => {
  test('/openapi.json absent, rel=service-desc present: linted and used; /core/publish-openapi still fails', async () => {
    const text = JSON.stringify(description({ paths: { '/collections': GET_ONLY, '/conformance': GET_ONLY } }));
    const api = await server((request, response) => {
      const url = request.url ?? '';
      const headers = { 'api-version': '1.0.0' };
      if (url === '/v1') return void response.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify({ links: [{ rel: 'service-doc', type: 'text/html', href: '/v1/api?f=html' }, { rel: 'service-desc', type: 'application/vnd.oai.openapi+json;version=3.0', href: '/v1/api?f=json' }] }));
      if (url === '/v1/api?f=json') return void response.writeHead(200, { ...headers, 'content-type': 'application/vnd.oai.openapi+json;version=3.0' }).end(text);
      if (url === '/v1/collections' || url === '/v1/conformance') return void response.writeHead(200, { ...headers, 'content-type': 'application/json' }).end('{}');
      response.writeHead(404, { ...headers, 'content-type': 'application/problem+json' }).end('{"status":404}');
    });
    const outcome = await adrCheck(api.baseUrl, ['--format', 'json']);
    expectBounded(outcome);
    const report = jsonReport(outcome) as ReturnType<typeof jsonReport> & { document?: string };
    expect(report.document).toBe(`${api.baseUrl}/api?f=json`);
    expect(report.notices).toContain(`the description was found at ${api.baseUrl}/api?f=json (the landing page's service-desc link), not at ${api.baseUrl}/openapi.json: it is linted and the checks use it`);
    expect(report.lint.status).toBe('done');
    expect(result(report, '/core/publish-openapi')?.verdict).toBe('fail');
    expect(result(report, '/core/publish-openapi')?.details).toContain(`the description is published at ${api.baseUrl}/api?f=json (the landing page's service-desc link): serve it at /openapi.json too`);
    // The description's paths are probed.
    expect(api.requests.map((request) => `${request.method} ${request.url}`)).toContain('HEAD /v1/conformance');
  }, 40000);
});

describe('issue 23 item 12: core checks see only the API', () => {
  test("the authorization server's metadata on the API's host is not judged as an API response", async () => {
    const flows = { authorizationCode: { authorizationUrl: '/oauth/authorize', tokenUrl: '/oauth/token', scopes: {} } };
    const text = JSON.stringify(description({ paths: { '/items': GET_ONLY }, components: { securitySchemes: { oauth: { type: 'oauth2', flows } } } }));
    const api = await server((request, response) => {
      const path = (request.url ?? '').split('?')[0] ?? '';
      if (path.startsWith('/.well-known/')) {
        // An authorization server of its own make: no API-Version, none of the API's security headers.
        const origin = `http://${request.headers.host ?? ''}`;
        return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issuer: origin, authorization_endpoint: `${origin}/oauth/authorize`, token_endpoint: `${origin}/oauth/token`, response_types_supported: ['code'] }));
      }
      expressLike(text)(request, response);
    });
    const report = jsonReport(await adrCheck(api.baseUrl, ['--format', 'json']));
    expect(api.requests.some((request) => request.url.startsWith('/.well-known/'))).toBe(true);
    const version = result(report, '/core/version-header');
    expect(version?.verdict).toBe('pass');
    expect(JSON.stringify(result(report, '/core/transport/security-headers'))).not.toContain('.well-known');
  }, 40000);
});

describe('12. a next link adr-check does not follow leaves the selection unjudged', () => {
  test('a bbox selection that goes on at another origin: the missing sample is not judged, nothing is fetched there', async () => {
    const { offOriginNextServer } = await import('./support/hostile-run.js');
    const { startOffTarget } = await import('./support/adr-check-process.js');
    const placeholder = await server(() => undefined);
    const offTarget = await startOffTarget(placeholder.port);
    closers.push(() => offTarget.close());
    const api = await server(offOriginNextServer(offTarget.otherPort));
    const report = jsonReport(await adrCheck(api.baseUrl, ['--format', 'json']));
    expect(offTarget.requests).toEqual([]);
    const bbox = result(report, '/geo/bbox-query-parameter');
    expect(bbox?.verdict).toBe('error');
    expect(bbox?.details).toContain("f1 is not among the first 1 features read; its next link leads off the API's origin or is no URL, which adr-check does not follow");
  }, 40000);
});

describe('9. CRS URIs in every spelling the registry allows', () => {
  test('EPSG:4326 with a registry version, its bbox read longitude first: a failure, not "no other CRS advertised"', async () => {
    const { crsListServer } = await import('./support/hostile-run.js');
    const api = await server(crsListServer(['http://www.opengis.net/def/crs/EPSG/9.6.2/4326']));
    const bbox = result(jsonReport(await adrCheck(api.baseUrl, ['--format', 'json'])), '/geo/bbox-crs-query-parameter');
    expect(bbox?.verdict).toBe('fail');
    expect(bbox?.details.join('\n')).toMatch(/bbox-crs=http:\/\/www\.opengis\.net\/def\/crs\/EPSG\/9\.6\.2\/4326, around p0, misses it: bbox-crs is not applied as EPSG:4326 in its axis order/);
  }, 40000);

  test('a CRS adr-check cannot transform is named as not judged, never read as none advertised', async () => {
    const { crsListServer } = await import('./support/hostile-run.js');
    const api = await server(crsListServer(['http://www.opengis.net/def/crs/EPSG/0/2154']));
    const bbox = result(jsonReport(await adrCheck(api.baseUrl, ['--format', 'json'])), '/geo/bbox-crs-query-parameter');
    expect(bbox?.verdict).toBe('error');
    expect(bbox?.summary).toBe('not judged: punten lists 1 CRS besides CRS84, none of which adr-check could compare');
    expect(bbox?.details).toContain('"http://www.opengis.net/def/crs/EPSG/0/2154": no transformation known to adr-check, not compared');
  }, 40000);
});

describe('messages: features of two collections are named with their collection', () => {
  test('the bbox around a point of one collection and over part of a polygon of another: each with its collection', async () => {
    const { twoCollectionsServer } = await import('./support/geo-two-collections.js');
    const api = await server(twoCollectionsServer());
    const bbox = result(jsonReport(await adrCheck(api.baseUrl, ['--format', 'json'])), '/geo/bbox-query-parameter');
    expect(bbox?.verdict).toBe('pass');
    expect(bbox?.summary).toBe('a bbox around 1 of collection "punten" selects it (1 in all), one over part of 1 of collection "vlakken" selects it; a bbox away from all features selects none');
  }, 40000);
});

describe('2 and 7. paths that repeat the base URL\'s path are probed where the API serves them', () => {
  test('keys /v1/items under a base URL /v1: /v1/v1/items is 404, /v1/items answers, so the checks probe /v1/items and say why', async () => {
    const api = await server(expressLike(JSON.stringify(description({ paths: { '/v1/items': GET_ONLY } }))));
    const report = jsonReport(await adrCheck(api.baseUrl, ['--format', 'json']));
    expect(report.notices).toContain("the description's paths repeat /v1, the base URL's path: GET /v1/v1/items answered 404 and GET /v1/items answered 200, so the checks probe the paths as the API serves them (the static finding of /core/uri-version names the repetition)");
    const methods = result(report, '/core/http-methods');
    expect(JSON.stringify(methods)).not.toContain('/v1/v1/items');
    expect(methods?.verdict).toBe('fail');
    expect(methods?.details).toContainEqual(expect.stringMatching(/^TRACE \/v1\/items \(undeclared\): 404, expected 405/));
    expect(JSON.stringify(result(report, '/core/transport/cors'))).not.toContain('/v1/v1/items');
  }, 40000);

  test('where the API answers the repeated path too, it is probed as declared and no notice is given', async () => {
    const both = (text: string) => {
      const handler = expressLike(text);
      return (request: IncomingMessage, response: ServerResponse) => {
        if ((request.url ?? '').startsWith('/v1/v1/')) request.url = (request.url ?? '').slice(3);
        handler(request, response);
      };
    };
    const api = await server(both(JSON.stringify(description({ paths: { '/v1/items': GET_ONLY } }))));
    const report = jsonReport(await adrCheck(api.baseUrl, ['--format', 'json']));
    expect(report.notices.join('\n')).not.toContain('repeat /v1');
    expect(result(report, '/core/http-methods')?.details).toContainEqual(expect.stringMatching(/^TRACE \/v1\/v1\/items \(undeclared\): 404, expected 405/));
  }, 40000);
});
