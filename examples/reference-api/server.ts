import { createServer as createHttpServer, maxHeaderSize, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { JWK } from 'jose';
import { stringify } from 'yaml';
import { accessRefusal, BEARER_CHALLENGE, generateWriteToken, tokenVerifier, writeTokenProblem, type TokenVerifier } from './auth.js';
import { createStore, type Store, type StoreLimits } from './data.js';
import { allowedMethods, definedScopes, isHttpMethod, isObject, loadDescription, matchRoute, type Description, type Operation, type Parameter, type Route, type RouteMatch } from './description.js';
import type { GeoFaults } from './features.js';
import { HANDLERS, type HandlerContext } from './handlers.js';
import { accepts, essence, PROBLEM_JSON, PROBLEMS, problem, type Reply } from './http.js';
import { OAUTH_MOUNT, RFC8414_PATH, startAuthorizationServer, type AuthorizationServer, type OAuthFaults } from './oauth.js';
import { PayloadSigner, signingIdentity, signingKeyPair, type SigningFaults } from './signing.js';
import { certificatesFor, suppliedCertificates, tlsServerOptions, type CertificateSet } from './tls.js';
import { createSchemaValidator, type InvalidParam, type SchemaValidator } from './validation.js';

/**
 * The reference API: the monument register of examples/reference-api/openapi.yaml, served over
 * HTTPS so that it passes every live check of adr-check. Each fault switch makes it violate
 * exactly one rule, so a checker can be shown to catch that violation and nothing else.
 */

export const BREAK_SWITCHES = [
  'no-api-version',
  'wrong-api-version',
  'trailing-slash-redirect',
  'undeclared-method-200',
  '405-without-allow',
  'cors-echo-any-origin',
  'cors-wildcard-everywhere',
  'text-errors-with-stack',
  'missing-security-header',
  'openapi-yaml-differs',
  'openapi-json-auth',
  'accept-echoed',
  'no-hsts',
  'http-serves-api',
  'geo-storage-crs-not-listed',
  'geo-no-content-crs',
  'geo-crs-ignored',
  'geo-swapped-axes',
  'geo-unsupported-crs-200',
  'geo-bbox-crs-ignored',
  'geo-bbox-ignored',
  'geo-bbox-within',
  'geo-items-as-json',
  'geo-content-crs-ignored',
  'signature-other-data',
  'digest-mismatch',
  'signature-rs256',
  'two-signature-headers',
  'token-in-query-accepted',
  'implicit-grant-in-metadata',
  'pkce-plain-only',
] as const;

export type BreakSwitch = (typeof BREAK_SWITCHES)[number];

/** What each fault switch breaks, for `--help`; the README's table says the same. */
export const BREAK_DESCRIPTIONS: Record<BreakSwitch, string> = {
  'no-api-version': 'no API-Version header on any response',
  'wrong-api-version': 'API-Version differs from info.version (patch + 1)',
  'trailing-slash-redirect': 'a known path with / appended redirects (301) instead of 404',
  'undeclared-method-200': 'an undeclared method gets 200',
  '405-without-allow': 'the 405 has no Allow header',
  'cors-echo-any-origin': 'every Origin is echoed in Access-Control-Allow-Origin',
  'cors-wildcard-everywhere': 'Access-Control-Allow-Origin: * on every response',
  'text-errors-with-stack': '404 and 500 come as text/plain with a stack trace',
  'missing-security-header': 'no X-Content-Type-Options',
  'openapi-yaml-differs': '/openapi.yaml has another info.title than /openapi.json',
  'openapi-json-auth': '/openapi.json answers 401 without an Authorization header',
  'accept-echoed': 'an unservable Accept gets 200 with that value as Content-Type',
  'no-hsts': 'no Strict-Transport-Security',
  'http-serves-api': 'the plain HTTP listener serves the API instead of redirecting',
  'geo-storage-crs-not-listed': 'storageCrs of percelen (EPSG:7415) is not in its crs list',
  'geo-no-content-crs': 'no Content-Crs header on responses with geometry',
  'geo-crs-ignored': 'crs is echoed in Content-Crs, but the coordinates are always CRS84',
  'geo-swapped-axes': 'EPSG:4258 coordinates come in lon/lat instead of lat/lon',
  'geo-unsupported-crs-200': 'an unsupported crs gets 200 with CRS84 data instead of 400',
  'geo-bbox-crs-ignored': 'bbox-crs is accepted, but the bbox is always read as CRS84',
  'geo-bbox-ignored': 'bbox is accepted, but every feature is returned',
  'geo-bbox-within': 'bbox selects only features wholly within it, not those it intersects',
  'geo-items-as-json': 'features and feature collections come as application/json, not application/geo+json',
  'geo-content-crs-ignored': 'Content-Crs is accepted, but the geometry of a request body is always read as CRS84',
  'signature-other-data': 'Payload-Signature signs the Digest value alone, not the JAdES data "digest: <value>"',
  'digest-mismatch': 'Digest (and the signature over it) is the SHA-256 of the body plus a newline',
  'signature-rs256': 'Payload-Signature uses alg RS256 instead of PS256',
  'two-signature-headers': 'every signed response carries two Payload-Signature fields',
  'token-in-query-accepted': 'a protected operation accepts the access token in ?access_token= without an Authorization header',
  'implicit-grant-in-metadata': 'the authorization server offers response type "id_token token": the metadata lists it and the implicit grant',
  'pkce-plain-only': 'the authorization server metadata says code_challenge_methods_supported ["plain"]',
};

export function isBreakSwitch(value: string): value is BreakSwitch {
  return (BREAK_SWITCHES as readonly string[]).includes(value);
}

export interface ReferenceApiOptions {
  /** Listen address; default 127.0.0.1. */
  host?: string;
  /** HTTPS port; default 0, a free port. */
  port?: number;
  /** When set, a plain HTTP listener on this port (0: a free one) that only redirects to HTTPS. */
  httpPort?: number;
  breaks?: BreakSwitch[];
  /** Origins whose browser requests are allowed (CORS); default ['https://app.example.nl']. */
  corsAllowlist?: string[];
  /** Own certificate and key (PEM); `ca` is what clients should trust, default `cert`. */
  tls?: { key: string; cert: string; ca?: string };
  /** The bearer token writes need; default a random one, made at start. */
  writeToken?: string;
  /** Store limits below MAX_MONUMENTEN and MAX_BESLUITEN, for tests; higher ones are refused. */
  storeLimits?: Partial<StoreLimits>;
}

export interface ReferenceApi {
  /** `https://127.0.0.1:PORT/v1` */
  baseUrl: string;
  /** `https://127.0.0.1:PORT` */
  origin: string;
  /** PEM of the certificate a client should trust. */
  caPem: string;
  /** `http://127.0.0.1:PORT` of the plain HTTP listener, when `httpPort` was given. */
  httpOrigin?: string;
  /** A token with every scope, for POST, PUT, PATCH and DELETE: `Authorization: Bearer <writeToken>`. */
  writeToken: string;
  /** PEM of the CA that issued the payload signing certificate (x5c): for `adr-check --signing-ca`. The TLS root when the TLS certificate was generated. */
  signingCaPem: string;
  /** PEM of the payload signing certificate. */
  signingCertPem: string;
  /** The authorization server mounted at /oauth, and the client registered with it. */
  oauth: {
    /** `https://127.0.0.1:PORT/oauth` */
    issuer: string;
    /** RFC 8414 metadata: `https://127.0.0.1:PORT/.well-known/oauth-authorization-server/oauth`. */
    metadataUrl: string;
    tokenEndpoint: string;
    /** The audience of its access tokens: the base URL. */
    resource: string;
    clientId: string;
    /** The client's private key (ES256 JWK): it signs the private_key_jwt client assertions. */
    clientPrivateJwk: JWK;
    redirectUri: string;
    /** The scopes the description defines; a client may ask for any of them. */
    scopes: string[];
  };
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_ALLOWLIST = ['https://app.example.nl'];
// Content-Crs: a browser sends a parcel in another CRS than CRS84 with it.
const PREFLIGHT_HEADERS = 'Accept, Authorization, Content-Crs, Content-Type';
const EXPOSED_HEADERS = 'API-Version, Content-Crs, Location, Digest, Payload-Signature';
const DOCUMENT_PATHS = new Set(['/openapi.json', '/openapi.yaml']);

// The headers /core/transport/security-headers asks for. default-src 'none' as well, since a
// JSON API never needs to load anything; Referrer-Policy as SPEC.md recommends.
const SECURITY_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Strict-Transport-Security': 'max-age=31536000',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

interface App {
  description: Description;
  basePath: string;
  base: string;
  store: Store;
  breaks: ReadonlySet<BreakSwitch>;
  allowlist: ReadonlySet<string>;
  validate: SchemaValidator;
  documents: { json: string; yaml: string };
  writeToken: string;
  geo: GeoFaults;
  signer: PayloadSigner;
  /** Checks tokens; knows the authorization server's keys once it runs (after listening). */
  verifier: TokenVerifier;
  /** The authorization server, set once the server listens and its issuer URL is known. */
  authorizationServer?: AuthorizationServer;
  /** Per connection the responses not yet finished, so a parse error never cuts into one under way. */
  responses: WeakMap<Duplex, Set<ServerResponse>>;
}

/** The path of the first server URL, `/v1`; the description's servers say where the API lives. */
function basePathOf(description: Description): string {
  const servers = description.document.servers;
  const first: unknown = Array.isArray(servers) ? servers[0] : undefined;
  const url = isObject(first) && typeof first.url === 'string' ? first.url : '/';
  return new URL(url, 'https://localhost').pathname.replace(/\/$/, '');
}

/** A version that is valid SemVer but not info.version: a plausible, subtle mistake. */
export function differentVersion(version: string): string {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  return match === null ? `${version}-1` : `${match[1]}.${match[2]}.${Number(match[3]) + 1}`;
}

function documentsFor(description: Description, breaks: ReadonlySet<BreakSwitch>): App['documents'] {
  const json = JSON.stringify(description.document, null, 2);
  if (!breaks.has('openapi-yaml-differs')) return { json, yaml: description.yamlText };
  const info = isObject(description.document.info) ? description.document.info : {};
  return { json, yaml: stringify({ ...description.document, info: { ...info, title: `${description.title} (concept)` } }) };
}

function geoFaultsOf(breaks: ReadonlySet<BreakSwitch>): GeoFaults {
  return {
    storageCrsNotListed: breaks.has('geo-storage-crs-not-listed'),
    noContentCrs: breaks.has('geo-no-content-crs'),
    crsIgnored: breaks.has('geo-crs-ignored'),
    swappedAxes: breaks.has('geo-swapped-axes'),
    bboxCrsIgnored: breaks.has('geo-bbox-crs-ignored'),
    bboxIgnored: breaks.has('geo-bbox-ignored'),
    bboxWithin: breaks.has('geo-bbox-within'),
    itemsAsJson: breaks.has('geo-items-as-json'),
    contentCrsIgnored: breaks.has('geo-content-crs-ignored'),
  };
}

function signingFaultsOf(breaks: ReadonlySet<BreakSwitch>): SigningFaults {
  return {
    otherData: breaks.has('signature-other-data'),
    digestMismatch: breaks.has('digest-mismatch'),
    rs256: breaks.has('signature-rs256'),
    twoHeaders: breaks.has('two-signature-headers'),
  };
}

function oauthFaultsOf(breaks: ReadonlySet<BreakSwitch>): OAuthFaults {
  return { implicitInMetadata: breaks.has('implicit-grant-in-metadata'), pkcePlainOnly: breaks.has('pkce-plain-only') };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

// ---------------------------------------------------------------------------------------------
// Response headers every response carries

function versionHeaders(app: App): Record<string, string> {
  if (app.breaks.has('no-api-version')) return {};
  const version = app.breaks.has('wrong-api-version') ? differentVersion(app.description.version) : app.description.version;
  return { 'API-Version': version };
}

function securityHeaders(app: App, overTls: boolean): Record<string, string> {
  const headers = { ...SECURITY_HEADERS };
  if (app.breaks.has('missing-security-header')) delete headers['X-Content-Type-Options'];
  // RFC 6797 7.2: HSTS is not sent over plain HTTP.
  if (app.breaks.has('no-hsts') || !overTls) delete headers['Strict-Transport-Security'];
  return headers;
}

/** The Access-Control-Allow-Origin value for a request, or undefined for none. */
function allowedOrigin(app: App, origin: string | undefined, isDocument: boolean): string | undefined {
  if (app.breaks.has('cors-wildcard-everywhere') || isDocument) return '*';
  if (origin === undefined) return undefined;
  return app.allowlist.has(origin) || app.breaks.has('cors-echo-any-origin') ? origin : undefined;
}

function corsHeaders(app: App, origin: string | undefined, isDocument: boolean): Record<string, string> {
  const allowed = allowedOrigin(app, origin, isDocument);
  // The answer depends on Origin wherever it is not a constant `*`; caches must know that.
  const vary: Record<string, string> = allowed === '*' ? {} : { Vary: 'Origin' };
  return allowed === undefined ? vary : { ...vary, 'Access-Control-Allow-Origin': allowed, 'Access-Control-Expose-Headers': EXPOSED_HEADERS };
}

// ---------------------------------------------------------------------------------------------
// Errors

/** The `text-errors-with-stack` fault: what a framework's default error page looks like. */
function asStackTrace(reply: Reply, error: unknown): Reply {
  const trace = error instanceof Error ? error : new Error(`${reply.status} ${String(isObject(reply.json) ? reply.json.title : '')}`);
  return { status: reply.status, text: `${trace.stack ?? trace.message}\n`, mediaType: 'text/plain; charset=utf-8', headers: reply.headers };
}

// ---------------------------------------------------------------------------------------------
// Request steps, each either a Reply that ends the request or the input for the next step

type Target = { kind: 'api'; apiPath: string; search: string } | { kind: 'outside' };

function targetOf(app: App, rawUrl: string | undefined): Target {
  if (rawUrl === undefined || !rawUrl.startsWith('/')) return { kind: 'outside' };
  const url = new URL(rawUrl, 'https://localhost');
  if (url.pathname === app.basePath) return { kind: 'api', apiPath: '', search: url.search };
  if (!url.pathname.startsWith(`${app.basePath}/`)) return { kind: 'outside' };
  return { kind: 'api', apiPath: url.pathname.slice(app.basePath.length), search: url.search };
}

function trailingSlashReply(app: App, apiPath: string, search: string, instance: string): Reply {
  const stripped = apiPath.slice(0, -1);
  if (app.breaks.has('trailing-slash-redirect') && matchRoute(app.description.routes, stripped) !== undefined) {
    return { status: 301, headers: { Location: `${app.base}${stripped}${search}` } };
  }
  return problem(PROBLEMS.nietGevonden, 'Er is geen resource op deze URI. Paden eindigen nooit op een slash.', instance);
}

function methodNotAllowed(app: App, allow: string[], method: string, instance: string): Reply {
  const reply = problem(PROBLEMS.methodeNietToegestaan, `De methode ${method} is niet toegestaan op deze resource.`, instance);
  return app.breaks.has('405-without-allow') ? reply : { ...reply, headers: { Allow: allow.join(', ') } };
}

function undeclaredMethod(app: App, route: Route, method: string, instance: string): Reply {
  if (app.breaks.has('undeclared-method-200')) return { status: 200, json: {}, mediaType: 'application/json' };
  return methodNotAllowed(app, allowedMethods(route), method, instance);
}

/** Whether every path parameter in effect for the operation accepts its value in this path. */
function servesPath(operation: Operation, values: Record<string, string>, validate: SchemaValidator): boolean {
  return operation.pathParameters.every((parameter) => validate(parameter.schemaPointer, values[parameter.name] ?? '', parameter.name).length === 0);
}

/**
 * An operation that narrows a path parameter (POST .../items for percelen only) where another
 * method of the path serves the value: that method is not allowed on this resource, 405 with the
 * methods that are. Undefined when the operation serves the path, or when no operation does: then
 * the resource does not exist, and the handler says so (404).
 */
function narrowedOut(app: App, match: RouteMatch, operation: Operation, method: string, instance: string): Reply | undefined {
  const serves = (candidate: Operation): boolean => servesPath(candidate, match.parameters, app.validate);
  if (serves(operation) || ![...match.route.operations.values()].some(serves)) return undefined;
  return methodNotAllowed(app, allowedMethods(match.route, serves), method, instance);
}

function optionsReply(app: App, route: Route, request: IncomingMessage, isDocument: boolean): Reply {
  const allow = allowedMethods(route).join(', ');
  const preflight = header(request, 'access-control-request-method') !== undefined;
  const allowed = allowedOrigin(app, header(request, 'origin'), isDocument) !== undefined;
  const cors: Record<string, string> = preflight && allowed
    ? { 'Access-Control-Allow-Methods': allow, 'Access-Control-Allow-Headers': PREFLIGHT_HEADERS, 'Access-Control-Max-Age': '600' }
    : {};
  return { status: 204, headers: { Allow: allow, ...cors } };
}

interface Query {
  values: Record<string, unknown>;
  invalid: InvalidParam[];
  /** Names in the request that the operation does not declare. */
  undeclared: string[];
}

/**
 * The declared query parameters, validated against their schemas, defaults filled in. `lenient`
 * names parameters whose invalid value is replaced by the default instead of refused: the
 * `geo-unsupported-crs-200` fault, for `crs`.
 */
function queryOf(operation: Operation, search: string, validate: SchemaValidator, lenient: ReadonlySet<string>): Query {
  const given = new URLSearchParams(search);
  const values: Record<string, unknown> = {};
  const invalid: InvalidParam[] = [];
  for (const parameter of operation.queryParameters) {
    const all = given.getAll(parameter.name);
    if (all.length > 1) {
      invalid.push({ name: parameter.name, reason: 'mag maar één keer voorkomen' });
      continue;
    }
    let value = all[0] === undefined ? parameter.schema.default : coerce(parameter.schema, all[0]);
    if (value === undefined) continue;
    // A finding inside an array (`bbox`) is named by the parameter, not by the item's index.
    const wrong = uniqueFindings(validate(parameter.schemaPointer, value, parameter.name).map((finding) => ({ ...finding, name: parameter.name })));
    if (wrong.length > 0 && lenient.has(parameter.name)) value = parameter.schema.default;
    else invalid.push(...wrong);
    if (value !== undefined) values[parameter.name] = value;
  }
  const declared = new Set(operation.queryParameters.map((parameter) => parameter.name));
  const undeclared = [...new Set(given.keys())].filter((name) => !declared.has(name));
  return { values, invalid, undeclared };
}

/**
 * The declared header parameters the request carries, each validated against its schema and
 * named as the description names it. An absent header is no finding: the description makes none
 * of them required.
 */
function headersOf(operation: Operation, request: IncomingMessage, validate: SchemaValidator): { values: Record<string, string>; invalid: InvalidParam[] } {
  const values: Record<string, string> = {};
  const invalid: InvalidParam[] = [];
  for (const parameter of operation.headerParameters) {
    const value = header(request, parameter.name.toLowerCase());
    if (value === undefined) continue;
    const wrong = validate(parameter.schemaPointer, value, parameter.name);
    if (wrong.length > 0) invalid.push(...wrong.map((finding) => ({ ...finding, name: parameter.name })));
    else values[parameter.name] = value;
  }
  return { values, invalid };
}

function uniqueFindings(findings: InvalidParam[]): InvalidParam[] {
  const seen = new Set<string>();
  return findings.filter((finding) => {
    const key = `${finding.name}\u0000${finding.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * Query values are strings on the wire; numbers are compared as numbers by the schema. An array
 * is the `form` style without explode that the description uses for them (`bbox=1,2,3,4`): its
 * items are split at the commas and coerced in turn.
 */
function coerce(schema: Parameter['schema'], raw: string): unknown {
  if (schema.type === 'array') {
    const items = isObject(schema.items) ? schema.items : {};
    return raw.split(',').map((item) => coerce(items, item));
  }
  const numeric = schema.type === 'integer' || schema.type === 'number';
  return numeric && NUMBER.test(raw) ? Number(raw) : raw;
}

type BodyResult = { kind: 'ok'; text: string } | { kind: 'too-large' };

function readBody(request: IncomingMessage): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > MAX_BODY_BYTES ? { kind: 'too-large' } : { kind: 'ok', text: Buffer.concat(chunks).toString('utf8') }));
    request.on('error', reject);
  });
}

async function bodyOf(app: App, operation: Operation, request: IncomingMessage, instance: string): Promise<{ body: unknown } | Reply> {
  const expected = operation.requestBody;
  if (expected === undefined) {
    request.resume();
    return { body: undefined };
  }
  if (essence(header(request, 'content-type')) !== essence(expected.mediaType)) {
    request.resume();
    return problem(PROBLEMS.mediaTypeNietOndersteund, `Stuur de request body als ${expected.mediaType}.`, instance);
  }
  const read = await readBody(request);
  if (read.kind === 'too-large') return problem(PROBLEMS.teGroot, 'De request body mag hoogstens 1 MiB groot zijn.', instance);
  let body: unknown;
  try {
    body = JSON.parse(read.text);
  } catch {
    return problem(PROBLEMS.ongeldigVerzoek, 'De request body is geen geldige JSON.', instance);
  }
  const invalid = app.validate(expected.schemaPointer, body);
  return invalid.length === 0 ? { body } : problem(PROBLEMS.ongeldigVerzoek, 'De request body voldoet niet aan het schema.', instance, invalid);
}

const LENIENT_CRS: ReadonlySet<string> = new Set(['crs']);
const NOTHING_LENIENT: ReadonlySet<string> = new Set();

function needsCredentials(app: App, operation: Operation, request: IncomingMessage): boolean {
  return app.breaks.has('openapi-json-auth') && operation.operationId === 'raadpleegOpenapiJson' && header(request, 'authorization') === undefined;
}

/** RFC 9112 3.2: an HTTP/1.1 request without Host gets 400; the server checks it itself to answer with a problem. */
function lacksHost(request: IncomingMessage): boolean {
  return request.httpVersion === '1.1' && request.headers.host === undefined;
}

async function route(app: App, request: IncomingMessage): Promise<{ reply: Reply; isDocument: boolean }> {
  const method = request.method ?? 'GET';
  const instance = (request.url ?? '/').split('?')[0] ?? '/';
  if (lacksHost(request)) {
    request.resume();
    return { reply: problem(PROBLEMS.ongeldigVerzoek, 'Een HTTP/1.1-verzoek moet een Host-header hebben.', instance), isDocument: false };
  }
  const target = targetOf(app, request.url);
  const notFound = { reply: problem(PROBLEMS.nietGevonden, 'Er is geen resource op deze URI.', instance), isDocument: false };
  if (target.kind === 'outside') return notFound;
  if (target.apiPath.endsWith('/')) return { reply: trailingSlashReply(app, target.apiPath, target.search, instance), isDocument: false };
  const match = matchRoute(app.description.routes, target.apiPath);
  if (match === undefined) return notFound;
  const isDocument = DOCUMENT_PATHS.has(match.route.template);
  const done = (reply: Reply): { reply: Reply; isDocument: boolean } => ({ reply, isDocument });
  if (method === 'OPTIONS') return done(optionsReply(app, match.route, request, isDocument));
  const declared = method === 'HEAD' ? 'GET' : method;
  const operation = isHttpMethod(declared) ? match.route.operations.get(declared) : undefined;
  if (operation === undefined) return done(undeclaredMethod(app, match.route, method, instance));
  const notServed = narrowedOut(app, match, operation, method, instance);
  if (notServed !== undefined) return done(notServed);
  if (needsCredentials(app, operation, request)) {
    const reply = problem(PROBLEMS.nietGeauthenticeerd, 'Stuur een access token in de Authorization-header.', instance);
    return done({ ...reply, headers: { 'WWW-Authenticate': BEARER_CHALLENGE } });
  }
  // Before the body is read or validated: a client without the token learns nothing about it.
  if (operation.requiresCredentials) {
    const credentials = { authorization: header(request, 'authorization'), queryToken: new URLSearchParams(target.search).get('access_token') ?? undefined };
    const refusal = await accessRefusal(credentials, operation.scopeSets, app.verifier, instance, app.breaks.has('token-in-query-accepted'));
    if (refusal !== undefined) {
      request.resume();
      return done(refusal);
    }
  }
  const accept = header(request, 'accept');
  const acceptable = operation.produces === undefined || accepts(accept, operation.produces);
  if (!acceptable && !app.breaks.has('accept-echoed')) {
    return done(problem(PROBLEMS.nietAanvaardbaar, `Deze resource is alleen leverbaar als ${operation.produces ?? ''}.`, instance));
  }
  const query = queryOf(operation, target.search, app.validate, app.breaks.has('geo-unsupported-crs-200') ? LENIENT_CRS : NOTHING_LENIENT);
  if (query.invalid.length > 0) return done(problem(PROBLEMS.ongeldigVerzoek, 'Een of meer query parameters zijn ongeldig.', instance, query.invalid));
  const headers = headersOf(operation, request, app.validate);
  if (headers.invalid.length > 0) return done(problem(PROBLEMS.ongeldigVerzoek, 'Een of meer request headers zijn ongeldig.', instance, headers.invalid));
  const body = await bodyOf(app, operation, request, instance);
  if ('status' in body) return done(body);
  const handler = HANDLERS[operation.operationId];
  if (handler === undefined) throw new Error(`no handler for operation ${operation.operationId}`);
  const context: HandlerContext = {
    store: app.store, base: app.base, params: match.parameters, query: query.values, headers: headers.values, body: body.body, instance, validate: app.validate, documents: app.documents,
    geo: app.geo, undeclaredQuery: query.undeclared,
  };
  const reply = handler(context);
  // The `accept-echoed` fault: the unknown Accept value becomes the Content-Type.
  return done(acceptable ? reply : { ...reply, mediaType: accept ?? reply.mediaType });
}

// ---------------------------------------------------------------------------------------------
// Writing the response

/** Digest and Payload-Signature for a body; none for an empty one. A HEAD gets those of the GET. */
async function signatureHeaders(app: App, body: Buffer | undefined): Promise<Record<string, string | string[]>> {
  return body === undefined || body.length === 0 ? {} : app.signer.headersFor(body);
}

async function send(app: App, request: IncomingMessage, response: ServerResponse, reply: Reply, isDocument: boolean, overTls: boolean): Promise<void> {
  const text = reply.text ?? (reply.json === undefined ? undefined : JSON.stringify(reply.json));
  const body = text === undefined ? undefined : Buffer.from(text, 'utf8');
  const signature = await signatureHeaders(app, body);
  const headers: Record<string, string | string[]> = {
    ...versionHeaders(app),
    ...securityHeaders(app, overTls),
    ...corsHeaders(app, header(request, 'origin'), isDocument),
    ...(reply.mediaType === undefined || body === undefined ? {} : { 'Content-Type': reply.mediaType }),
    ...(reply.status === 204 || reply.status === 304 ? {} : { 'Content-Length': String(body?.length ?? 0) }),
    ...signature,
    ...reply.headers,
  };
  // The client may have gone while the body was signed.
  if (response.destroyed) return;
  response.writeHead(reply.status, headers);
  response.end(request.method === 'HEAD' ? undefined : body);
}

function withFaults(app: App, reply: Reply, error?: unknown): Reply {
  const isError = reply.status === 404 || reply.status === 500;
  return app.breaks.has('text-errors-with-stack') && isError && reply.mediaType === PROBLEM_JSON ? asStackTrace(reply, error) : reply;
}

function track(app: App, request: IncomingMessage, response: ServerResponse): void {
  const open = app.responses.get(request.socket) ?? new Set<ServerResponse>();
  open.add(response);
  app.responses.set(request.socket, open);
  // 'close' comes once the response is finished or its connection is gone.
  response.once('close', () => open.delete(response));
}

/** Whether the authorization server answers this request: /oauth and its RFC 8414 metadata. */
function forAuthorizationServer(app: App, request: IncomingMessage): AuthorizationServer | undefined {
  const path = (request.url ?? '').split('?')[0] ?? '';
  const mounted = path === OAUTH_MOUNT || path.startsWith(`${OAUTH_MOUNT}/`) || path === RFC8414_PATH;
  // A request without Host goes on to route(), which refuses it with a problem.
  return mounted && !lacksHost(request) ? app.authorizationServer : undefined;
}

function handle(app: App, overTls: boolean): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    track(app, request, response);
    if (forAuthorizationServer(app, request)?.handle(request, response) === true) return;
    route(app, request)
      .then(({ reply, isDocument }) => send(app, request, response, withFaults(app, reply), isDocument, overTls))
      .catch(async (error: unknown) => {
        if (response.headersSent) return void response.destroy();
        // Generic on purpose: the exception text and stack stay in the server.
        const reply = problem(PROBLEMS.serverfout, 'Probeer het later opnieuw.', (request.url ?? '/').split('?')[0] ?? '/');
        await send(app, request, response, withFaults(app, reply, error), false, overTls);
      })
      .catch(() => response.destroy());
  };
}

/** The plain HTTP listener: a bodiless redirect to the same path over HTTPS, never API content. */
function redirectToHttps(app: App, httpsOrigin: string): (request: IncomingMessage, response: ServerResponse) => void {
  if (app.breaks.has('http-serves-api')) return handle(app, false);
  return (request, response) => {
    track(app, request, response);
    request.resume();
    // Only path and query are taken from the request, so the redirect cannot point elsewhere.
    const url = new URL(request.url?.startsWith('/') ? request.url : '/', 'http://localhost');
    response.writeHead(301, {
      ...versionHeaders(app),
      ...securityHeaders(app, false),
      Location: `${httpsOrigin}${url.pathname}${url.search}`,
      'Content-Length': '0',
    });
    response.end();
  };
}

// ---------------------------------------------------------------------------------------------
// Requests Node answers itself unless told otherwise: its answers are a bare status line, with
// no API-Version, no security headers and no problem body.

function errorCode(error: Error): string | undefined {
  return 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** The answer to a request the HTTP parser refused; the codes Node's own handler tells apart, else 400. */
function parseErrorReply(error: Error): Reply {
  switch (errorCode(error)) {
    case 'HPE_HEADER_OVERFLOW':
      return problem(PROBLEMS.headersTeGroot, `De request headers mogen samen hoogstens ${maxHeaderSize / 1024} KiB groot zijn.`, undefined);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return problem(PROBLEMS.teGroot, 'De chunk-extensies in de request body zijn te groot.', undefined);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return problem(PROBLEMS.teTraag, 'Het verzoek kwam niet op tijd helemaal binnen.', undefined);
    default:
      return problem(PROBLEMS.ongeldigVerzoek, 'Het verzoek is geen geldig HTTP/1.1-bericht.', undefined);
  }
}

/** A whole HTTP/1.1 response as bytes, for a connection no ServerResponse can write to. */
function rawResponse(status: number, headers: Record<string, string | string[]>, body: Buffer | undefined): Buffer {
  const all = { ...headers, 'Content-Length': String(body?.length ?? 0), Connection: 'close' };
  const lines = Object.entries(all).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((one) => `${name}: ${one}`));
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`, ...lines, '', ''].join('\r\n');
  return Buffer.concat([Buffer.from(head, 'latin1'), body ?? Buffer.alloc(0)]);
}

/**
 * The server's 'clientError': a malformed request still gets a problem, written raw since no
 * ServerResponse exists for it, and the connection is closed, its framing being lost. Nothing is
 * written where nothing can be: a reset or closed connection, or one in the middle of a response.
 * `bodiless` for the plain HTTP listener, which never sends content.
 */
function answerParseError(app: App, overTls: boolean, bodiless: boolean): (error: Error, socket: Duplex) => void {
  const answered = new WeakSet<Duplex>();
  return (error, socket) => {
    // The failed parser reports again for each further chunk; the first answer is on its way.
    if (answered.has(socket)) return;
    // A second status line within a response would be read as part of its body. A response not
    // yet begun is given up (as Node's own handler does): the connection closes after the answer.
    const midResponse = [...(app.responses.get(socket) ?? [])].some((response) => response.headersSent && !response.writableFinished);
    if (!socket.writable || errorCode(error) === 'ECONNRESET' || midResponse) {
      socket.destroy();
      return;
    }
    answered.add(socket);
    const reply = parseErrorReply(error);
    const body = bodiless ? undefined : Buffer.from(JSON.stringify(reply.json), 'utf8');
    signatureHeaders(app, body).then((signature) => {
      if (!socket.writable) return void socket.destroy();
      const headers = { ...versionHeaders(app), ...securityHeaders(app, overTls), ...(body === undefined ? {} : { 'Content-Type': PROBLEM_JSON }), ...signature };
      socket.end(rawResponse(reply.status, headers, body), () => socket.destroy());
    }, () => socket.destroy());
  };
}

/** The server's 'checkExpectation': an Expect other than 100-continue, which Node would answer with a bare 417. */
function expectationFailed(app: App, overTls: boolean): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    track(app, request, response);
    request.resume();
    const instance = (request.url ?? '/').split('?')[0] ?? '/';
    send(app, request, response, problem(PROBLEMS.verwachtingNietMogelijk, 'Deze server kent alleen Expect: 100-continue.', instance), false, overTls)
      .catch(() => response.destroy());
  };
}

// ---------------------------------------------------------------------------------------------
// Starting and stopping

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error === undefined ? resolve() : reject(error)));
    server.closeAllConnections();
  });
}

/** The host as it appears in a URL: IPv6 in brackets, a wildcard address as localhost. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

function writeTokenOf(options: ReferenceApiOptions): string {
  if (options.writeToken === undefined) return generateWriteToken();
  const refused = writeTokenProblem(options.writeToken);
  if (refused !== undefined) throw new Error(refused);
  return options.writeToken;
}

export async function startReferenceApi(options: ReferenceApiOptions = {}): Promise<ReferenceApi> {
  const host = options.host ?? '127.0.0.1';
  const breaks = new Set(options.breaks ?? []);
  const writeToken = writeTokenOf(options);
  const description = loadDescription();
  const scopes = definedScopes(description.document);
  // The signing key is made beside the TLS keys, in the thread pool; both once per process.
  void signingKeyPair();
  const certificates: CertificateSet = options.tls === undefined ? await certificatesFor(host) : suppliedCertificates(options.tls);
  const signing = await signingIdentity(certificates.issuer);
  const basePath = basePathOf(description);
  // The base URL is only known after listening; the app is completed then.
  const app: App = {
    description,
    basePath,
    base: '',
    store: createStore(options.storeLimits),
    breaks,
    allowlist: new Set(options.corsAllowlist ?? DEFAULT_ALLOWLIST),
    validate: createSchemaValidator(description.document),
    documents: documentsFor(description, breaks),
    writeToken,
    geo: geoFaultsOf(breaks),
    signer: new PayloadSigner(signing, signingFaultsOf(breaks)),
    verifier: tokenVerifier(writeToken, scopes, undefined),
    responses: new WeakMap(),
  };
  // requireHostHeader off: route() refuses a request without Host itself, with a problem.
  const https = createHttpsServer({ ...tlsServerOptions(certificates), requireHostHeader: false }, handle(app, true));
  https.on('clientError', answerParseError(app, true, false));
  https.on('checkExpectation', expectationFailed(app, true));
  const port = await listen(https, options.port ?? 0, host);
  const origin = `https://${urlHost(host)}:${port}`;
  app.base = `${origin}${basePath}`;
  const servers: Server[] = [https];
  let authorizationServer: AuthorizationServer;
  try {
    authorizationServer = await startAuthorizationServer({
      issuer: `${origin}${OAUTH_MOUNT}`,
      resource: app.base,
      scopes,
      faults: oauthFaultsOf(breaks),
      commonHeaders: (secure) => ({ ...versionHeaders(app), ...securityHeaders(app, secure) }),
    });
  } catch (error) {
    await closeServer(https);
    throw error;
  }
  app.authorizationServer = authorizationServer;
  app.verifier = tokenVerifier(writeToken, scopes, {
    issuer: authorizationServer.issuer, resource: app.base, jwks: authorizationServer.jwks, clientIds: [authorizationServer.client.clientId],
  });
  let httpOrigin: string | undefined;
  if (options.httpPort !== undefined) {
    const http = createHttpServer(redirectToHttps(app, origin));
    http.on('clientError', answerParseError(app, false, !breaks.has('http-serves-api')));
    try {
      httpOrigin = `http://${urlHost(host)}:${await listen(http, options.httpPort, host)}`;
    } catch (error) {
      await closeServer(https);
      throw error;
    }
    servers.push(http);
  }
  return {
    baseUrl: app.base,
    origin,
    caPem: certificates.caPem,
    ...(httpOrigin === undefined ? {} : { httpOrigin }),
    writeToken,
    signingCaPem: signing.caPem,
    signingCertPem: signing.certPem,
    oauth: {
      issuer: authorizationServer.issuer,
      metadataUrl: `${origin}${RFC8414_PATH}`,
      tokenEndpoint: `${authorizationServer.issuer}/token`,
      resource: app.base,
      clientId: authorizationServer.client.clientId,
      clientPrivateJwk: authorizationServer.client.privateJwk,
      redirectUri: authorizationServer.client.redirectUri,
      scopes,
    },
    close: async () => {
      await Promise.all(servers.map(closeServer));
    },
  };
}
