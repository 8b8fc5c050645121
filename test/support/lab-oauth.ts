import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { OAuth2Server } from 'oauth2-mock-server';
import type { LabPki } from './lab/tls.js';

/**
 * The OAuth lab (issue 23): an authorization server nobody here wrote, `oauth2-mock-server` from
 * npm, started as its README shows (its TLS key and certificate, one RS256 key, its issuer URL
 * set through its `issuer.url` option), alone or behind a thin proxy that changes what its
 * metadata says; and a resource server written with Express 5 that validates the tokens it issues
 * with node:crypto against its JWKS, at Express's defaults wherever the team wrote nothing.
 */

export interface Closable { close(): Promise<void> }

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

async function listen(server: http.Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

type Json = Record<string, unknown>;

/** A GET or POST over https to a lab server, trusting the lab's CA; the body parsed as JSON. */
export async function labRequest(pki: LabPki, url: string, form?: Record<string, string>): Promise<{ status: number; body: Json }> {
  const body = form === undefined ? undefined : new URLSearchParams(form).toString();
  const request = https.request(url, { method: body === undefined ? 'GET' : 'POST', ca: readFileSync(pki.caCertificate), headers: body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' } });
  request.end(body);
  const [response] = (await once(request, 'response')) as [http.IncomingMessage];
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return { status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json };
}

export interface AuthorizationServer extends Closable {
  /** Its issuer identifier, as its metadata names it. */
  issuer: string;
  /** Where the metadata is asked for: the mock itself, or the proxy in front of it. */
  metadataUrl: string;
  /** Where its JWKS and token endpoint answer (https, the mock itself). */
  mockOrigin: string;
  /** A token the mock signs as its token endpoint would, expired `secondsAgo` ago. */
  expiredToken(scope: string, secondsAgo: number): Promise<string>;
}

export interface MockSetup {
  /** In front of the mock: none, or a thin proxy over https or plain http. */
  proxy: 'none' | 'https' | 'http';
  /** The issuer the mock is told it is (its `issuer.url` option): the proxy's origin, or its own. */
  issuerAt: 'proxy' | 'mock';
  /** What the proxy changes in the metadata it passes on. */
  rewrite?: (metadata: Json) => Json;
  /** The mock's `shouldIssuerUrlBeSuffixedWithATralingSlash` option: an issuer ending in "/", as Auth0's do. */
  issuerWithSlash?: boolean;
}

/** The mock's own metadata (token_endpoint_auth_methods_supported ["none"], password and client_credentials grants) made what the NL GOV profile asks. */
export function profileMetadata(metadata: Json): Json {
  return { ...metadata, grant_types_supported: ['authorization_code', 'refresh_token'], token_endpoint_auth_methods_supported: ['private_key_jwt'], code_challenge_methods_supported: ['S256'] };
}

const METADATA_PATH = '/.well-known/openid-configuration';

/**
 * A thin reverse proxy to the mock: every request passed on as it is, the answer passed back, the
 * metadata changed by `rewrite` on its way.
 */
async function startProxy(pki: LabPki, scheme: 'https' | 'http', target: string, rewrite: (metadata: Json) => Json): Promise<{ origin: string; server: http.Server }> {
  const ca = readFileSync(pki.caCertificate);
  const handler: http.RequestListener = (request, response) => {
    const upstream = https.request(`${target}${request.url ?? '/'}`, { method: request.method, headers: { ...request.headers, host: new URL(target).host }, ca }, (answer) => {
      const isMetadata = (request.url ?? '').split('?')[0] === METADATA_PATH && answer.statusCode === 200;
      if (!isMetadata) {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const text = JSON.stringify(rewrite(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json));
        const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) };
        delete headers.etag;
        response.writeHead(200, headers).end(text);
      });
    });
    upstream.on('error', () => response.writeHead(502).end());
    request.pipe(upstream);
  };
  const server = scheme === 'https' ? https.createServer({ key: readFileSync(pki.leafKey), cert: readFileSync(pki.leafCertificate) }, handler) : http.createServer(handler);
  const port = await listen(server);
  return { origin: `${scheme}://127.0.0.1:${port}`, server };
}

/** oauth2-mock-server over TLS with the lab's certificate, as `setup` puts it behind a proxy or not. */
export async function startAuthorizationServer(pki: LabPki, setup: MockSetup): Promise<AuthorizationServer> {
  const mock = new OAuth2Server(pki.leafKey, pki.leafCertificate, setup.issuerWithSlash === true ? { shouldIssuerUrlBeSuffixedWithATralingSlash: true } : undefined);
  await mock.issuer.keys.generate('RS256');
  await mock.start(0, '127.0.0.1');
  const mockOrigin = `https://127.0.0.1:${mock.address().port}`;
  // Its default issuer names "localhost"; the lab's clients connect to the address.
  mock.issuer.url = mockOrigin;
  let proxy: { origin: string; server: http.Server } | undefined;
  if (setup.proxy !== 'none') {
    proxy = await startProxy(pki, setup.proxy, mockOrigin, setup.rewrite ?? ((metadata) => metadata));
    if (setup.issuerAt === 'proxy') mock.issuer.url = proxy.origin;
  }
  const issuer = mock.issuer.url;
  return {
    issuer,
    metadataUrl: `${proxy?.origin ?? mockOrigin}${METADATA_PATH}`,
    mockOrigin,
    expiredToken: (scope, secondsAgo) => mock.issuer.buildToken({ scopesOrTransform: scope, expiresIn: -secondsAgo }),
    close: async () => {
      if (proxy !== undefined) await closeServer(proxy.server);
      await mock.stop();
    },
  };
}

/** A token from the mock's token endpoint (client credentials, which the mock grants to anyone). */
export async function issueToken(pki: LabPki, server: AuthorizationServer, scope: string): Promise<string> {
  const answer = await labRequest(pki, `${server.mockOrigin}/token`, { grant_type: 'client_credentials', scope, client_id: 'lab-client' });
  if (answer.status !== 200 || typeof answer.body.access_token !== 'string') throw new Error(`the mock's token endpoint answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.access_token;
}

/** How the resource server's team wrote what Express does not do for them. */
export interface ResourceStyle {
  /** The 401 without a token: problem+json, or `res.status(401).json(...)` as authlib and most frameworks send it. */
  unauthorized: 'problem+json' | 'json';
  /** A request with ?access_token=: not looked at (so it is a request without a token), refused by a guard with Express's `res.sendStatus(400)` or with a 403 problem, or taken as the token. */
  queryToken: 'ignored' | 'refused-400' | 'refused-403' | 'accepted';
}

export interface ResourceServer extends Closable { baseUrl: string }

const SCOPE = 'gebouwen:lezen';
export const REQUIRED_SCOPE = SCOPE;

const VERSION = '1.0.0';

/** The description the resource server publishes: one GET it protects with the mock's scheme. */
function resourceDescription(issuer: string): Json {
  return {
    openapi: '3.0.3',
    info: { title: 'Gebouwen', description: 'Gebouwen.', version: VERSION, contact: { name: 'Team Gebouwen', url: 'https://gebouwen.example.nl', email: 'team@example.nl' } },
    servers: [{ url: '/v1' }],
    security: [{ oauth2: [SCOPE] }],
    paths: {
      '/openapi.json': { get: { security: [], responses: { 200: { description: 'Deze beschrijving.' } } } },
      '/gebouwen': { get: { operationId: 'listGebouwen', responses: { 200: { description: 'De gebouwen.' }, 401: { description: 'Geen geldig token.' } } } },
    },
    components: {
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: `${issuer}/authorize`, tokenUrl: `${issuer}/token`, scopes: { [SCOPE]: 'Gebouwen lezen.' } } } },
      },
    },
  };
}

type TokenCheck = { ok: true; scopes: string[] } | { ok: false; reason: string };

/** An RS256 JWT checked against the JWKS: signature, issuer, expiry and not-before, with node:crypto alone. */
function validate(token: string, keys: JsonWebKey[], issuer: string): TokenCheck {
  const [header, payload, signature] = token.split('.');
  if (header === undefined || payload === undefined || signature === undefined) return { ok: false, reason: 'malformed' };
  let head: Json;
  let claims: Json;
  try {
    head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Json;
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Json;
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const key = keys.find((candidate) => candidate.kid === head.kid);
  if (head.alg !== 'RS256' || key === undefined) return { ok: false, reason: 'unknown key' };
  if (!verify('sha256', Buffer.from(`${header}.${payload}`), createPublicKey({ key, format: 'jwk' }), Buffer.from(signature, 'base64url'))) return { ok: false, reason: 'bad signature' };
  const now = Date.now() / 1000;
  if (claims.iss !== issuer) return { ok: false, reason: 'wrong issuer' };
  if (typeof claims.exp !== 'number' || claims.exp <= now) return { ok: false, reason: 'expired' };
  if (typeof claims.nbf === 'number' && claims.nbf > now + 5) return { ok: false, reason: 'not yet valid' };
  return { ok: true, scopes: typeof claims.scope === 'string' ? claims.scope.split(' ') : [] };
}

/**
 * The resource server: Express 5 on plain HTTP (`app.listen()`), API-Version on every answer, its
 * description at /v1/openapi.json, and GET /v1/gebouwen behind a bearer guard written as RFC 6750
 * has it (401 with the Bearer challenge, error="invalid_token" for a bad token, 403
 * insufficient_scope), with `style` for what teams write differently.
 */
export async function startResourceServer(pki: LabPki, authorizationServer: AuthorizationServer, style: ResourceStyle): Promise<ResourceServer> {
  const jwks = await labRequest(pki, `${authorizationServer.mockOrigin}/jwks`);
  const keys = jwks.body.keys as JsonWebKey[];
  const app = express();
  app.use((_request, response, next) => {
    response.set('API-Version', VERSION);
    next();
  });
  const problem = (response: express.Response, status: number, title: string, challenge?: string) => {
    if (challenge !== undefined) response.set('WWW-Authenticate', challenge);
    response.status(status).type('application/problem+json').send(JSON.stringify({ type: 'about:blank', title, status }));
  };
  app.get('/v1/openapi.json', (_request, response) => {
    response.set('Access-Control-Allow-Origin', '*').json(resourceDescription(authorizationServer.issuer));
  });
  app.get('/v1/gebouwen', (request, response) => {
    const inQuery = typeof request.query.access_token === 'string' ? request.query.access_token : undefined;
    if (inQuery !== undefined && style.queryToken === 'refused-400') return void response.sendStatus(400);
    if (inQuery !== undefined && style.queryToken === 'refused-403') return problem(response, 403, 'Tokens horen niet in de URL');
    const header = /^Bearer (\S+)$/i.exec(request.get('authorization') ?? '')?.[1];
    const token = header ?? (style.queryToken === 'accepted' ? inQuery : undefined);
    if (token === undefined) {
      response.set('WWW-Authenticate', 'Bearer realm="gebouwen"');
      if (style.unauthorized === 'json') return void response.status(401).json({ error: 'missing_authorization', error_description: 'Missing "Authorization" in headers.' });
      return problem(response, 401, 'Unauthorized');
    }
    const verdict = validate(token, keys, authorizationServer.issuer);
    if (!verdict.ok) return problem(response, 401, 'Unauthorized', `Bearer realm="gebouwen", error="invalid_token", error_description="${verdict.reason}"`);
    if (!verdict.scopes.includes(SCOPE)) return problem(response, 403, 'Forbidden', `Bearer realm="gebouwen", error="insufficient_scope", scope="${SCOPE}"`);
    response.json([{ id: 1, naam: 'Koppelpoort' }]);
  });
  const server = http.createServer(app);
  const port = await listen(server);
  return { baseUrl: `http://127.0.0.1:${port}/v1`, close: () => closeServer(server) };
}
