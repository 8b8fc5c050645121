import { createHash, randomBytes } from 'node:crypto';
import { createLocalJWKSet, decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify, SignJWT, type JSONWebKeySet } from 'jose';
import { loadDescription } from '../examples/reference-api/description.js';
import { CLIENT_ASSERTION_TYPE, clientAssertion, clientCredentialsToken, tokenRequest } from '../examples/reference-api/oauth-client.js';
import { startReferenceApi, type BreakSwitch, type ReferenceApi } from '../examples/reference-api/server.js';
import { createSchemaValidator } from '../examples/reference-api/validation.js';
import { closeAgents, json, postJson, send, type Answer, type Call } from './support/reference-api-client.js';

/**
 * The OAuth side of the reference API, against the real server on loopback: its authorization
 * server (oidc-provider under /oauth) as the NL GOV OAuth profile asks, RFC 8414 metadata at both
 * well-known locations, a token by the client credentials grant with a private_key_jwt client
 * assertion, and the resource server: scopes per operation as the description says, 401 with a
 * Bearer challenge and a problem without a good token, 403 insufficient_scope without the scope,
 * and a token in the query string refused. Then each OAuth --break switch and what it changes.
 */

const description = loadDescription();
const validate = createSchemaValidator(description.document);
const KIOSK = { naam: 'Kiosk', monumentType: 'object', adres: { straatnaam: 'Parkweg', woonplaats: 'Voorbeeldstad' } };
const ALL_SCOPES = ['monumenten:lezen', 'monumenten:schrijven', 'monumenten:beheren'];

let api: ReferenceApi;

const call = (target: ReferenceApi, path: string, options?: Call): Promise<Answer> => send(target.caPem, path.startsWith('https:') ? path : `${target.baseUrl}${path}`, options);
const bearer = (token: string, options: Call = {}): Call => ({ ...options, headers: { ...options.headers, Authorization: `Bearer ${token}` } });
const token = async (target: ReferenceApi, scope?: string): Promise<string> => (await clientCredentialsToken(target, scope)).access_token;

function expectProblem(answer: Answer, status: number): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/problem+json');
  expect(validate('/components/schemas/Probleem', json(answer))).toEqual([]);
  expect(json(answer).status).toBe(status);
}

const monumentCount = async (target: ReferenceApi): Promise<number> => (json(await call(target, '/monumenten?paginaGrootte=100'))._embedded as { monumenten: unknown[] }).monumenten.length;

beforeAll(async () => {
  api = await startReferenceApi();
}, 60000);

afterAll(async () => {
  closeAgents();
  await api.close();
});

describe('the authorization server metadata', () => {
  test('is served at the RFC 8414 location and at the OpenID Connect one, the same document', async () => {
    const rfc8414 = await call(api, api.oauth.metadataUrl);
    const discovery = await call(api, `${api.oauth.issuer}/.well-known/openid-configuration`);
    expect(api.oauth.metadataUrl).toBe(`${api.origin}/.well-known/oauth-authorization-server/oauth`);
    expect(rfc8414.status).toBe(200);
    expect(rfc8414.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json(rfc8414)).toEqual(json(discovery));
    expect(json(rfc8414).issuer).toBe(`${api.origin}/oauth`);
  });

  test('profile: code only, PKCE S256 only, private_key_jwt only, no implicit or password grant', async () => {
    const metadata = json(await call(api, api.oauth.metadataUrl));
    expect(metadata.response_types_supported).toEqual(['code']);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(['private_key_jwt']);
    expect(metadata.grant_types_supported).toEqual(['authorization_code', 'refresh_token', 'client_credentials']);
    expect(metadata.token_endpoint_auth_signing_alg_values_supported).toEqual(['PS256', 'ES256']);
  });

  test('every endpoint is https, under the issuer', async () => {
    const metadata = json(await call(api, api.oauth.metadataUrl));
    const endpoints = Object.entries(metadata).filter(([name]) => name === 'issuer' || name === 'jwks_uri' || name.endsWith('_endpoint'));
    expect(endpoints.length).toBeGreaterThan(4);
    for (const [, url] of endpoints) expect(String(url).startsWith(`${api.oauth.issuer}`)).toBe(true);
    expect(metadata.token_endpoint).toBe(api.oauth.tokenEndpoint);
  });

  test("the description's relative flow URLs resolve, as OpenAPI resolves them, to the server's endpoints", async () => {
    const metadata = json(await call(api, api.oauth.metadataUrl));
    const document = json(await call(api, '/openapi.json')) as { servers: Array<{ url: string }>; components: { securitySchemes: { oauth2: { flows: { authorizationCode: Record<string, string> } } } } };
    // OpenAPI 3.0: relative URLs are resolved against the server URL, itself relative to the document.
    const server = new URL(document.servers[0]?.url ?? '', `${api.baseUrl}/openapi.json`);
    const flow = document.components.securitySchemes.oauth2.flows.authorizationCode;
    expect(server.href).toBe(api.baseUrl);
    expect(new URL(flow.authorizationUrl ?? '', server).href).toBe(metadata.authorization_endpoint);
    expect(new URL(flow.tokenUrl ?? '', server).href).toBe(metadata.token_endpoint);
    expect(new URL(flow.refreshUrl ?? '', server).href).toBe(metadata.token_endpoint);
    expect(Object.keys(flow.scopes as unknown as Record<string, string>)).toEqual(ALL_SCOPES);
    expect(api.oauth.scopes).toEqual(ALL_SCOPES);
  });

  test('carries the headers every response of the server carries', async () => {
    const answer = await call(api, api.oauth.metadataUrl);
    expect(answer.headers['api-version']).toBe(description.version);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});

describe('the authorization endpoint', () => {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = (parameters: Record<string, string>): Promise<Answer> => {
    const query = new URLSearchParams({ client_id: api.oauth.clientId, redirect_uri: api.oauth.redirectUri, response_type: 'code', scope: 'openid monumenten:schrijven', state: 'xyz', ...parameters });
    return call(api, `${api.oauth.issuer}/auth?${query.toString()}`);
  };
  const errorOf = (answer: Answer): string | null => {
    expect(answer.status).toBe(303);
    const location = new URL(String(answer.headers.location), api.origin);
    expect(`${location.origin}${location.pathname}`).toBe(api.oauth.redirectUri);
    return new URLSearchParams(location.search || location.hash.slice(1)).get('error_description') ?? new URLSearchParams(location.search || location.hash.slice(1)).get('error');
  };

  test('requires PKCE', async () => {
    expect(errorOf(await authorize({}))).toBe('Authorization Server policy requires PKCE to be used for this request');
  });

  test('refuses the plain method', async () => {
    expect(errorOf(await authorize({ code_challenge_method: 'plain', code_challenge: verifier }))).toBe('not supported value of code_challenge_method');
  });

  test('refuses the implicit response type', async () => {
    expect(errorOf(await authorize({ response_type: 'token', code_challenge_method: 'S256', code_challenge: challenge }))).toBe('unsupported response_type requested');
  });

  test('accepts code with S256 and goes on to the (absent) login; a foreign redirect URI is refused outright', async () => {
    const accepted = await authorize({ code_challenge_method: 'S256', code_challenge: challenge });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.location).toMatch(/^\/oauth\/interaction\/[A-Za-z0-9_-]+$/);
    const foreign = await authorize({ code_challenge_method: 'S256', code_challenge: challenge, redirect_uri: 'https://evil.example.com/callback' });
    expect(foreign.status).toBe(400);
    expect(foreign.headers.location).toBeUndefined();
    expect(json(foreign).error).toBe('invalid_redirect_uri');
  });
});

describe('the token endpoint', () => {
  test('gives a client credentials token, authenticated with private_key_jwt: an RFC 9068 JWT for this API, no refresh token', async () => {
    const response = await clientCredentialsToken(api, 'monumenten:schrijven');
    expect(response).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 900, scope: 'monumenten:schrijven' });
    expect('refresh_token' in response).toBe(false);
    const metadata = json(await call(api, api.oauth.metadataUrl));
    // The keys as a resource server on another host would find them: at the metadata's jwks_uri.
    const keys = createLocalJWKSet(json(await call(api, String(metadata.jwks_uri))) as unknown as JSONWebKeySet);
    expect(decodeProtectedHeader(response.access_token)).toMatchObject({ typ: 'at+jwt', alg: 'ES256' });
    const { payload } = await jwtVerify(response.access_token, keys, { issuer: api.oauth.issuer, audience: api.baseUrl, typ: 'at+jwt' });
    expect(payload).toMatchObject({ client_id: api.oauth.clientId, sub: api.oauth.clientId, scope: 'monumenten:schrijven' });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(900);
  });

  test('refuses any other client authentication, a replayed assertion, one signed with another key, and the password grant', async () => {
    const grant = { grant_type: 'client_credentials', scope: 'monumenten:lezen' };
    expect(await tokenRequest(api, { ...grant, client_id: api.oauth.clientId })).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(await tokenRequest(api, { ...grant, client_id: api.oauth.clientId, client_secret: 'geheim' })).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const assertion = await clientAssertion(api);
    expect((await tokenRequest(api, { ...grant, client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: assertion })).status).toBe(200);
    expect(await tokenRequest(api, { ...grant, client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: assertion })).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const stranger = await clientAssertion({ ...api, oauth: { ...api.oauth, clientPrivateJwk: { ...(await exportJWK(privateKey)), alg: 'ES256', kid: 'client-1' } } });
    expect(await tokenRequest(api, { ...grant, client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: stranger })).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const password = { grant_type: 'password', username: 'beheerder', password: 'geheim', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: await clientAssertion(api) };
    expect(await tokenRequest(api, password)).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
  });

  test('gives tokens for this API only', async () => {
    const other = { grant_type: 'client_credentials', resource: 'https://elders.example.nl/v1', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: await clientAssertion(api) };
    expect(await tokenRequest(api, other)).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
  });
});

describe('the protected resources', () => {
  test('a write with a token that has its scope works', async () => {
    const created = await call(api, '/monumenten', bearer(await token(api, 'monumenten:schrijven'), postJson(KIOSK)));
    expect(created.status).toBe(201);
    const removed = await call(api, String(created.headers.location), bearer(await token(api, 'monumenten:beheren'), { method: 'DELETE' }));
    expect(removed.status).toBe(204);
  });

  test('without a token: 401, a Bearer challenge and a problem', async () => {
    const answer = await call(api, '/monumenten', postJson(KIOSK));
    expectProblem(answer, 401);
    expect(answer.headers['www-authenticate']).toBe('Bearer realm="monumenten"');
  });

  test('a token without the scope: 403 insufficient_scope naming the scope needed, and nothing changes', async () => {
    const before = await monumentCount(api);
    const reading = await token(api, 'monumenten:lezen');
    const post = await call(api, '/monumenten', bearer(reading, postJson(KIOSK)));
    expectProblem(post, 403);
    expect(post.headers['www-authenticate']).toBe('Bearer realm="monumenten", error="insufficient_scope", scope="monumenten:schrijven"');
    // Deleting asks for monumenten:beheren, which writing does not give.
    const remove = await call(api, '/monumenten/GM-0101', bearer(await token(api, 'monumenten:schrijven'), { method: 'DELETE' }));
    expectProblem(remove, 403);
    expect(remove.headers['www-authenticate']).toBe('Bearer realm="monumenten", error="insufficient_scope", scope="monumenten:beheren"');
    const scopeless = await call(api, '/monumenten', bearer(await token(api), postJson(KIOSK)));
    expectProblem(scopeless, 403);
    expect(await monumentCount(api)).toBe(before);
  });

  test('a token in the query string is refused with 401, even a good one, even beside a good header', async () => {
    const before = await monumentCount(api);
    const writing = await token(api, 'monumenten:schrijven');
    const inQuery = await call(api, `/monumenten?access_token=${writing}`, postJson(KIOSK));
    expectProblem(inQuery, 401);
    expect(inQuery.headers['www-authenticate']).toBe('Bearer realm="monumenten"');
    expect(json(inQuery).detail).toMatch(/query string wordt nooit aanvaard/);
    expectProblem(await call(api, `/monumenten?access_token=${writing}`, bearer(writing, postJson(KIOSK))), 401);
    expectProblem(await call(api, `/monumenten/GM-9999?access_token=${api.writeToken}`, { method: 'DELETE' }), 401);
    expect(await monumentCount(api)).toBe(before);
  });

  test('a token not of this server is invalid: from another server, altered, or signed by someone else', async () => {
    const other = await startReferenceApi();
    try {
      const foreign = await token(other, 'monumenten:schrijven');
      const [header, payload, signature] = (await token(api, 'monumenten:lezen')).split('.');
      const widened = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()), scope: 'monumenten:schrijven' })).toString('base64url');
      const { privateKey } = await generateKeyPair('ES256');
      const forged = await new SignJWT({ scope: 'monumenten:schrijven', client_id: api.oauth.clientId })
        .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'as-1' }).setIssuer(api.oauth.issuer).setAudience(api.baseUrl).setIssuedAt().setExpirationTime('5m').sign(privateKey);
      for (const bad of [foreign, `${header}.${widened}.${signature}`, forged]) {
        const answer = await call(api, '/monumenten', bearer(bad, postJson(KIOSK)));
        expectProblem(answer, 401);
        expect(answer.headers['www-authenticate']).toBe('Bearer realm="monumenten", error="invalid_token"');
      }
    } finally {
      closeAgents();
      await other.close();
    }
  });

  test('reads stay open, with or without a token', async () => {
    expect((await call(api, '/monumenten/GM-0123')).status).toBe(200);
    expect((await call(api, '/monumenten/GM-0123', bearer(await token(api, 'monumenten:lezen')))).status).toBe(200);
  });

  test('the configured write token still stands for a token with every scope', async () => {
    const created = await call(api, '/monumenten', bearer(api.writeToken, postJson(KIOSK)));
    expect(created.status).toBe(201);
    expect((await call(api, String(created.headers.location), bearer(api.writeToken, { method: 'DELETE' }))).status).toBe(204);
  });
});

/** The metadata with the origin taken out, to compare two servers' documents. */
async function metadataOf(target: ReferenceApi): Promise<Record<string, unknown>> {
  const answer = await call(target, target.oauth.metadataUrl);
  return JSON.parse(answer.body.replaceAll(target.origin, 'https://origin')) as Record<string, unknown>;
}

describe.each<[BreakSwitch, Record<string, unknown>]>([
  ['implicit-grant-in-metadata', { response_types_supported: ['code', 'id_token token'], grant_types_supported: ['authorization_code', 'implicit', 'refresh_token', 'client_credentials'] }],
  ['pkce-plain-only', { code_challenge_methods_supported: ['plain'] }],
])('--break %s', (fault, changed) => {
  let broken: ReferenceApi;

  beforeAll(async () => {
    broken = await startReferenceApi({ breaks: [fault] });
  }, 60000);

  afterAll(async () => {
    closeAgents();
    await broken.close();
  });

  test('changes exactly that in the metadata, at both locations', async () => {
    const conformant = await metadataOf(api);
    const metadata = await metadataOf(broken);
    expect(metadata).toEqual({ ...conformant, ...changed });
    expect(json(await call(broken, `${broken.oauth.issuer}/.well-known/openid-configuration`))).toEqual(json(await call(broken, broken.oauth.metadataUrl)));
  });

  test('and nothing of the resource server', async () => {
    const writing = await token(broken, 'monumenten:schrijven');
    expectProblem(await call(broken, `/monumenten?access_token=${writing}`, postJson(KIOSK)), 401);
    expect((await call(broken, '/monumenten/GM-9999', bearer(writing, { method: 'DELETE' }))).status).toBe(403);
  });
});

describe('--break token-in-query-accepted', () => {
  let broken: ReferenceApi;

  beforeAll(async () => {
    broken = await startReferenceApi({ breaks: ['token-in-query-accepted'] });
  }, 60000);

  afterAll(async () => {
    closeAgents();
    await broken.close();
  });

  test('a good token in ?access_token= is accepted; a bad one or none is still refused', async () => {
    const writing = await token(broken, 'monumenten:schrijven');
    const created = await call(broken, `/monumenten?access_token=${writing}`, postJson(KIOSK));
    expect(created.status).toBe(201);
    expect((await call(broken, `/monumenten/GM-9999?access_token=${broken.writeToken}`, { method: 'DELETE' })).status).toBe(404);
    expect((await call(broken, '/monumenten?access_token=ongeldig-token-123', postJson(KIOSK))).headers['www-authenticate']).toBe('Bearer realm="monumenten", error="invalid_token"');
    expectProblem(await call(broken, '/monumenten', postJson(KIOSK)), 401);
  });

  test('and nothing of the authorization server', async () => {
    expect(await metadataOf(broken)).toEqual(await metadataOf(api));
  });
});
