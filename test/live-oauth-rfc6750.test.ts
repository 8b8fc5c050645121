import type { IncomingMessage, ServerResponse } from 'node:http';
import { hasBearerChallenge } from '../live/checks/oauth.js';
import { adrCheck, expectBounded, jsonReport } from './support/adr-check-process.js';
import { startHostile, type HostileServer } from './support/hostile-servers.js';
import { oauthApi, TOKEN } from './support/hostile-output.js';

/**
 * Issue 23, items 9 to 11: the protected resource judged as RFC 6750 and SPEC judge it, on the
 * answers the lab's Express server does not give (test/lab-oauth.test.ts has the rest).
 */
const servers: HostileServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

test.each<[string, boolean]>([
  ['Bearer', true],
  ['Bearer realm="api"', true],
  ['bearer realm="api", error="invalid_token"', true],
  // RFC 9110 11.6.1: several challenges in one field, or in several fields (joined with ", ").
  ['DPoP algs="ES256", Bearer realm="api"', true],
  ['Basic realm="x", Bearer', true],
  ['Basic realm="Bearer realm"', false],
  ['Newauth realm="apps", type=1, title="Login to \\"apps, Bearer x\\"", Basic realm="simple"', false],
  ['Bearerish realm="x"', false],
  ['', false],
])('WWW-Authenticate: %s has a Bearer challenge: %s', (value, expected) => {
  expect(hasBearerChallenge(value)).toBe(expected);
});

type Answer = (request: IncomingMessage, response: ServerResponse) => void;

/** The 401 problem the profile asks for, with these challenges (one WWW-Authenticate field each). */
const unauthorized = (challenges: string[], response: ServerResponse) => response.writeHead(401, [['content-type', 'application/problem+json'], ['api-version', '1.0.0'], ...challenges.map((challenge) => ['www-authenticate', challenge])]).end('{"status":401}');

/** GET /geheim answered by `answer`; the check's result. */
async function judged(answer: Answer) {
  const server = await startHostile(oauthApi({
    schemes: { oauth2: { type: 'oauth2', flows: { authorizationCode: { tokenUrl: 'https://login.example.nl/token', authorizationUrl: 'https://login.example.nl/authorize', scopes: {} } } } },
    answers: { '/v1/geheim': answer },
  }));
  servers.push(server);
  const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--header', `Authorization: Bearer ${TOKEN}`]);
  expectBounded(outcome);
  return jsonReport(outcome).results.find((result) => result.code === 'nlgov:oauth-no-token-in-query');
}

const headerToken = (request: IncomingMessage) => request.headers.authorization === `Bearer ${TOKEN}`;
const ok = (response: ServerResponse) => response.writeHead(200, { 'content-type': 'application/json', 'api-version': '1.0.0' }).end('{}');

test('item 9: a 401 that offers DPoP and Bearer in two fields has the Bearer challenge', async () => {
  const result = await judged((request, response) => (headerToken(request) ? ok(response) : unauthorized(['DPoP algs="ES256"', 'Bearer realm="api"'], response)));
  expect(result).toEqual(expect.objectContaining({
    verdict: 'pass',
    summary: 'GET /v1/geheim: 401 Bearer problem+json without a token; the token works in the Authorization header and is refused in the query string',
  }));
}, 60000);

test('item 10: a query token refused with 400 and the Bearer challenge\'s invalid_request passes; the header token works', async () => {
  const result = await judged((request, response) => {
    if ((request.url ?? '').includes('access_token=')) return void response.writeHead(400, { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer error="invalid_request", error_description="no tokens in the URL"', 'api-version': '1.0.0' }).end('{"status":400}');
    return headerToken(request) ? ok(response) : unauthorized(['Bearer realm="api"'], response);
  });
  expect(result).toEqual(expect.objectContaining({
    verdict: 'pass',
    summary: 'GET /v1/geheim: 401 Bearer problem+json without a token; the token works in the Authorization header and is refused in the query string (400 invalid_request)',
  }));
}, 60000);

test('item 11: the header token refused with a 401 that does not call it invalid fails, and says what a resource MUST do', async () => {
  const result = await judged((_request, response) => unauthorized(['Bearer realm="api"'], response));
  expect(result?.verdict).toBe('fail');
  expect(result?.details).toEqual(['GET /v1/geheim with the given token in the Authorization header answers 401 (WWW-Authenticate: Bearer realm="api"): the token is not accepted there, where a protected resource MUST accept it (an invalid token gets error="invalid_token", RFC 6750 section 3.1)']);
}, 60000);

test('item 11: a 403 for the header token and for the query token: the query is not judged, nothing says "works"', async () => {
  const result = await judged((request, response) => {
    if (headerToken(request) || (request.url ?? '').includes('access_token=')) return void response.writeHead(403, { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer error="insufficient_scope"', 'api-version': '1.0.0' }).end('{"status":403}');
    unauthorized(['Bearer realm="api"'], response);
  });
  expect(result).toEqual(expect.objectContaining({
    verdict: 'pass',
    summary: 'GET /v1/geheim: 401 Bearer problem+json without a token; the token in the Authorization header is read but does not grant access (403, Bearer error="insufficient_scope")',
    details: ['the token in ?access_token= not judged: it answers 403, and the token in the Authorization header was not let through either (403), so whether the query token is read cannot be told; give a token that grants access'],
  }));
}, 60000);
