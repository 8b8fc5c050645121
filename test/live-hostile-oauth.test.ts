import { adrCheck, expectBounded, jsonReport, startOffTarget, type JsonReport, type OffTarget } from './support/adr-check-process.js';
import { startHostile, type HostileServer } from './support/hostile-servers.js';
import { oauthApi, TOKEN } from './support/hostile-output.js';

/**
 * Issue 21, items 2 and 3: the OAuth checks against servers that try to make adr-check change what
 * it did not create, send requests to origins nobody named, or print what they answer.
 */
const servers: HostileServer[] = [];
const offTargets: OffTarget[] = [];

afterAll(async () => {
  await Promise.all([...servers, ...offTargets].map((server) => server.close()));
});

async function hostile(handler: Parameters<typeof startHostile>[0]): Promise<HostileServer> {
  const server = await startHostile(handler);
  servers.push(server);
  return server;
}

async function offTarget(port: number): Promise<OffTarget> {
  const listeners = await startOffTarget(port);
  offTargets.push(listeners);
  return listeners;
}

const WITH_TOKEN = ['--format', 'json', '--header', `Authorization: Bearer ${TOKEN}`];
const result = (report: JsonReport, code: string) => report.results.find((entry) => entry.code === code);
const flow = (tokenUrl: string, authorizationUrl: string) => ({ type: 'oauth2', flows: { authorizationCode: { tokenUrl, authorizationUrl, scopes: {} } } });

test.each<[string, (off: OffTarget) => Record<string, unknown>, (off: OffTarget, server: HostileServer) => string]>([
  ['openIdConnectUrl on another port of the same host', (off) => ({ oidc: { type: 'openIdConnect', openIdConnectUrl: `${off.otherPort}/.well-known/openid-configuration` } }),
    (off, server) => `another origin (${off.otherPort}; the API is on ${server.origin})`],
  ['flow URLs on another port of the same host', (off) => ({ oauth2: flow(`${off.otherPort}/oauth/token`, `${off.otherPort}/oauth/authorize`) }),
    (off, server) => `another origin (${off.otherPort}; the API is on ${server.origin})`],
])('%s: nothing is sent there; the check says how to name it', async (_name, schemes, where) => {
  let off: OffTarget | undefined;
  const server = await hostile((request, response, self) => oauthApi({ schemes: schemes(off as OffTarget) })(request, response, self));
  off = await offTarget(server.port);
  const outcome = await adrCheck(server.baseUrl, WITH_TOKEN);
  expectBounded(outcome);
  expect(off.requests).toEqual([]);
  expect(result(jsonReport(outcome), 'nlgov:oauth-flows')).toEqual(expect.objectContaining({
    verdict: 'skip',
    summary: `not judged: the authorization server is on ${where(off, server)}: give --oauth-metadata <url> to check it`,
  }));
}, 60000);

test('metadata that is not JSON is described, never printed; it is fetched without the token', async () => {
  const markup = '<html><script>alert("metadata-markup")</script></html>';
  const server = await hostile(oauthApi({
    schemes: { oidc: { type: 'openIdConnect', openIdConnectUrl: '/.well-known/openid-configuration' } },
    answers: { '/.well-known/openid-configuration': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(markup) },
  }));
  const outcome = await adrCheck(server.baseUrl, WITH_TOKEN);
  expectBounded(outcome);
  const flows = result(jsonReport(outcome), 'nlgov:oauth-flows');
  expect(flows).toEqual(expect.objectContaining({
    verdict: 'fail',
    summary: 'the authorization server metadata is not usable',
    details: [`GET ${server.origin}/.well-known/openid-configuration is not JSON: ${markup.length} bytes of "text/html", expected the metadata as a JSON object`],
  }));
  expect(flows?.evidence.map((evidence) => evidence.bodyExcerpt)).toEqual([undefined]);
  expect(outcome.stdout).not.toContain('metadata-markup');
  const metadataRequests = server.requests.filter((request) => request.url === '/.well-known/openid-configuration');
  expect(metadataRequests.map((request) => request.headers.authorization)).toEqual([undefined]);
}, 60000);

/** An API whose resource 42 (the description's example) can be deleted with the token, and whose other ids do not exist. */
function deletableApi(anyIdExists: boolean) {
  const existing = new Set(['42']);
  const deleted: string[] = [];
  const resource = (request: Parameters<Parameters<typeof startHostile>[0]>[0], response: Parameters<Parameters<typeof startHostile>[0]>[1]) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const id = decodeURIComponent(url.pathname.slice('/v1/dingen/'.length));
    const exists = anyIdExists || existing.has(id);
    const json = (status: number, body: unknown) => response.writeHead(status, { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', 'api-version': '1.0.0' }).end(JSON.stringify(body));
    if (request.method === 'GET' || request.method === 'HEAD') return exists ? json(200, { id }) : json(404, { status: 404 });
    if (request.method !== 'DELETE') return json(405, { status: 405 });
    // Deliberately careless: the token in the query is taken too, and If-Match is ignored.
    const token = url.searchParams.get('access_token') ?? /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (token !== TOKEN) return response.writeHead(401, { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer realm="api"', 'api-version': '1.0.0' }).end('{"status":401}');
    if (!exists) return json(404, { status: 404 });
    existing.delete(id);
    deleted.push(id);
    response.writeHead(204, { 'api-version': '1.0.0' }).end();
  };
  const paths = {
    '/dingen/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, example: '42' }],
      get: { security: [], responses: { 200: { description: 'ok' } } },
      delete: { security: [{ oauth2: [] }], responses: { 204: { description: 'deleted' } } },
    },
  };
  const handler = (request: Parameters<Parameters<typeof startHostile>[0]>[0], response: Parameters<Parameters<typeof startHostile>[0]>[1], self: HostileServer) => {
    if ((request.url ?? '').startsWith('/v1/dingen/')) return resource(request, response);
    return oauthApi({ schemes: { oauth2: flow('https://login.example.nl/token', 'https://login.example.nl/authorize') }, paths })(request, response, self);
  };
  return { handler, existing, deleted };
}

test('--unsafe: the protected write is a DELETE of a resource made up for the run, never of the example resource', async () => {
  const api = deletableApi(false);
  const server = await hostile(api.handler);
  const outcome = await adrCheck(server.baseUrl, [...WITH_TOKEN, '--unsafe']);
  expectBounded(outcome);
  expect(api.deleted).toEqual([]);
  expect(api.existing.has('42')).toBe(true);
  const deletes = server.requests.filter((request) => request.method === 'DELETE' && request.url.startsWith('/v1/dingen/'));
  expect(deletes.map((request) => request.url.split('?')[0])).toEqual(Array(3).fill(expect.stringMatching(/^\/v1\/dingen\/adr-check-absent-[0-9a-f]{12}$/)));
  expect(deletes.every((request) => /^"adr-check-[0-9a-f]{12}"$/.test(String(request.headers['if-match'])))).toBe(true);
  const check = result(jsonReport(outcome), 'nlgov:oauth-no-token-in-query');
  expect(check?.verdict).toBe('fail');
  expect(check?.details).toEqual([expect.stringMatching(/^DELETE \/v1\/dingen\/adr-check-absent-[0-9a-f]{12} with the token in \?access_token= answers 404, as with the token in the Authorization header: the token is accepted in the query string, where a protected resource MUST NOT accept it\. Ignore \?access_token= \(a request without a token: 401 with the Bearer challenge\)$/)]);
}, 60000);

test('--unsafe: a server that claims the made-up resource exists gets no DELETE at all', async () => {
  const api = deletableApi(true);
  const server = await hostile(api.handler);
  const outcome = await adrCheck(server.baseUrl, [...WITH_TOKEN, '--unsafe']);
  expectBounded(outcome);
  expect(server.requests.filter((request) => request.method === 'DELETE' && request.url.startsWith('/v1/dingen/'))).toEqual([]);
  expect(api.deleted).toEqual([]);
  expect(result(jsonReport(outcome), 'nlgov:oauth-no-token-in-query')).toEqual(expect.objectContaining({
    verdict: 'skip',
    summary: expect.stringMatching(/^not judged: GET \/v1\/dingen\/adr-check-absent-[0-9a-f]{12} answered 200 for a resource made up by adr-check, so it may exist: no DELETE is sent there$/),
  }));
}, 60000);
