import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../live/main.js';
import type { Report } from '../live/report.js';
import { description, startHostile, type HostileServer } from './support/hostile-servers.js';

/**
 * The live OAuth checks against an API and authorization server metadata written here (the
 * reference API's own authorization server is tested in test/live-checks.test.ts).
 */
type Fault = 'implicit' | 'password-grant' | 'plain-only' | 'no-private-key-jwt' | 'token-in-query' | 'no-bearer-challenge';
let folder: string;
const servers: HostileServer[] = [];
beforeAll(() => { folder = mkdtempSync(join(tmpdir(), 'adr-check-oauth-')); });
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  rmSync(folder, { recursive: true, force: true });
});

const TOKEN = 'goed-token-1234';

async function api(faults: Fault[], tokenUrl = '/oauth/token'): Promise<HostileServer> {
  const has = (fault: Fault) => faults.includes(fault);
  const server = await startHostile((request, response, self) => {
    const url = new URL(request.url ?? '/', self.origin);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => response.writeHead(status, { 'content-type': 'application/json', 'api-version': '1.0.0', ...headers }).end(JSON.stringify(body));
    if (url.pathname === '/v1/openapi.json') {
      return json(200, description({
        paths: { '/geheim': { get: { security: [{ oauth2: ['lezen'] }], responses: { 200: { description: 'ok' } } } } },
        components: { securitySchemes: { oauth2: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: '/oauth/auth', tokenUrl, scopes: { lezen: 'lezen' } } } } } },
      }));
    }
    if (url.pathname === '/.well-known/oauth-authorization-server/oauth') {
      const issuer = `${self.origin}/oauth`;
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        response_types_supported: has('implicit') ? ['code', 'token'] : ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token', ...(has('password-grant') ? ['password'] : [])],
        code_challenge_methods_supported: has('plain-only') ? ['plain'] : ['S256'],
        token_endpoint_auth_methods_supported: has('no-private-key-jwt') ? ['client_secret_basic'] : ['private_key_jwt'],
      });
    }
    if (url.pathname === '/metadata/good') {
      const issuer = 'https://login.example.nl';
      return json(200, { issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks`, response_types_supported: ['code'], grant_types_supported: ['authorization_code'], code_challenge_methods_supported: ['S256'], token_endpoint_auth_methods_supported: ['private_key_jwt'] });
    }
    if (url.pathname === '/v1/geheim') {
      const header = request.headers.authorization === `Bearer ${TOKEN}`;
      const query = has('token-in-query') && url.searchParams.get('access_token') === TOKEN;
      if (header || query) return json(200, {});
      return response.writeHead(401, { 'content-type': 'application/problem+json', ...(has('no-bearer-challenge') ? {} : { 'www-authenticate': 'Bearer realm="test"' }) }).end('{"status":401}');
    }
    json(404, { status: 404 });
  });
  servers.push(server);
  return server;
}

async function oauthResults(server: HostileServer, extra: string[] = [`--header`, `Authorization: Bearer ${TOKEN}`]): Promise<Report> {
  const output = join(folder, `report-${Date.now()}-${Math.random()}.json`);
  await main([server.baseUrl, '--format', 'json', '--output', output, '--timeout', '1000', '--deadline', '20', ...extra], {});
  return JSON.parse(readFileSync(output, 'utf8')) as Report;
}

const result = (report: Report, code: string) => report.results.find((entry) => entry.code === code);

test('metadata found from the flow URLs; its http endpoints fail; the resource handles tokens as it should', async () => {
  // This test server speaks plain HTTP, so its metadata comes over http and names http endpoints: exactly what the profile forbids.
  const server = await api([]);
  const report = await oauthResults(server);
  expect(result(report, 'nlgov:oauth-flows')?.verdict).toBe('fail');
  expect(result(report, 'nlgov:oauth-flows')?.details).toEqual([
    `GET ${server.origin}/.well-known/oauth-authorization-server/oauth came over plain HTTP, expected https: the metadata tells clients where to send credentials and is exchanged over TLS like all information`,
    ...['issuer', 'authorization_endpoint', 'token_endpoint'].map((name) => expect.stringMatching(new RegExp(`^has ${name} http://127\\.0\\.0\\.1:\\d+/oauth\\S*, expected an https URL$`))),
  ]);
  expect(result(report, 'nlgov:oauth-no-token-in-query')).toEqual(expect.objectContaining({ verdict: 'pass', summary: 'GET /v1/geheim: 401 Bearer problem+json without a token; the token works in the Authorization header and is refused in the query string' }));
}, 60000);

test.each<[Fault, string, RegExp]>([
  ['implicit', 'nlgov:oauth-flows', /^response_types_supported has "token": the implicit flow, which the profile forbids; offer "code" only$/],
  ['password-grant', 'nlgov:oauth-flows', /^grant_types_supported has password, which the profile forbids; remove it$/],
  ['plain-only', 'nlgov:oauth-flows', /^has code_challenge_methods_supported \["plain"\], expected S256 among them \(plain alone is not enough\)$/],
  ['no-private-key-jwt', 'nlgov:oauth-flows', /^has token_endpoint_auth_methods_supported \["client_secret_basic"\], expected private_key_jwt among them$/],
  ['token-in-query', 'nlgov:oauth-no-token-in-query', /^GET \/v1\/geheim with the token in \?access_token= answers 200: the token is accepted in the query string, where a protected resource MUST NOT accept it\. Ignore \?access_token= \(a request without a token: 401 with the Bearer challenge\)$/],
  ['no-bearer-challenge', 'nlgov:oauth-no-token-in-query', /^GET \/v1\/geheim without a token: the 401 lacks WWW-Authenticate, expected Bearer$/],
])('%s is caught by %s', async (fault, code, detail) => {
  const report = await oauthResults(await api([fault]));
  expect(result(report, code)?.verdict).toBe('fail');
  expect(result(report, code)?.details).toContainEqual(expect.stringMatching(detail));
}, 60000);

test('--oauth-metadata at no well-known location: whose metadata it is cannot be checked, so it is not judged', async () => {
  const server = await api([]);
  const report = await oauthResults(server, ['--oauth-metadata', `${server.origin}/metadata/good`]);
  expect(result(report, 'nlgov:oauth-flows')).toEqual(expect.objectContaining({
    verdict: 'error',
    summary: 'not judged: the metadata is not at a well-known location, so whose it is cannot be checked',
    details: [`${server.origin}/metadata/good is not a well-known metadata location (RFC 8414 section 3, OpenID Connect Discovery 4), so the issuer "https://login.example.nl" it names cannot be checked against it (RFC 8414 section 3.3). Give --oauth-metadata the issuer's well-known URL: <issuer>/.well-known/openid-configuration, or /.well-known/oauth-authorization-server followed by the issuer's path`],
  }));
}, 60000);

test('an authorization server on another host is not contacted without --oauth-metadata', async () => {
  const elsewhere = await startHostile((_request, response) => response.writeHead(404).end());
  servers.push(elsewhere);
  const report = await oauthResults(await api([], `http://localhost:${elsewhere.port}/oauth/token`));
  expect(result(report, 'nlgov:oauth-flows')).toEqual(expect.objectContaining({ verdict: 'skip', summary: `not judged: the authorization server is on another host (localhost:${elsewhere.port}): give --oauth-metadata <url> to check it` }));
  expect(elsewhere.requests).toEqual([]);
}, 60000);

test('the token never appears in the report', async () => {
  const server = await api(['token-in-query']);
  const output = join(folder, 'text.txt');
  await main([server.baseUrl, '--output', output, '--header', `Authorization: Bearer ${TOKEN}`, '--timeout', '1000'], {});
  const text = readFileSync(output, 'utf8');
  expect(text).toContain('access_token=[REDACTED]');
  expect(text).not.toContain(TOKEN);
}, 60000);
