import { randomBytes, randomUUID } from 'node:crypto';
import { demandsCredentials, followLocalReference, oncePerRun, pathItemFor, pathKeyFor, type CheckContext, type LiveCheck } from '../context.js';
import type { Exchange } from '../http.js';
import { count, describeAnswer, evidenceOf, noAnswerResult, pathLabel, type CheckResult, type Evidence } from '../report.js';
import { asArray, asObject, entries, isObject, type JsonObject } from '../../lib/json.js';

/**
 * The NL GOV OAuth profile as served: the authorization server's metadata (RFC 8414), found from
 * the description's oauth2 or openIdConnect scheme on the API's own host, or given with
 * --oauth-metadata; and the protected resources' answers with and without the token.
 */

interface Metadata { url: string; exchange: Exchange; document?: JsonObject; problem?: string }

/** The metadata, or why there is none to judge. Found once per run. */
export const authorizationServer = oncePerRun((context): Promise<Metadata | string> => discover(context));

function securitySchemes(context: CheckContext): JsonObject[] {
  return entries(asObject(context.description?.components).securitySchemes).map(([, scheme]) => asObject(scheme)).filter((scheme) => scheme.type === 'oauth2' || scheme.type === 'openIdConnect');
}

export function usesOAuth(context: CheckContext): boolean {
  return context.options.oauthMetadata !== undefined || securitySchemes(context).length > 0;
}

async function discover(context: CheckContext): Promise<Metadata | string> {
  const given = context.options.oauthMetadata;
  if (given !== undefined) return fetchMetadata(context, given, undefined);
  const api = new URL(`${context.baseUrl}/`);
  const endpoints = securitySchemes(context).flatMap((scheme) => (scheme.type === 'openIdConnect'
    ? [{ url: scheme.openIdConnectUrl, direct: true }]
    : Object.values(asObject(scheme.flows)).flatMap((flow) => [asObject(flow).tokenUrl, asObject(flow).authorizationUrl].map((url) => ({ url, direct: false })))));
  const tried = new Set<string>();
  for (const endpoint of endpoints) {
    const url = urlOnApiOrigin(endpoint.url, api);
    if (url === undefined) continue;
    // An authorization server elsewhere is the one the description names: its metadata is there, not here.
    if (typeof url === 'string') return url;
    if (endpoint.direct) return fetchMetadata(context, url.href, undefined);
    for (const candidate of metadataCandidates(url).filter((each) => !tried.has(each.url))) {
      if (tried.size >= MAX_METADATA_REQUESTS) break;
      tried.add(candidate.url);
      const metadata = await fetchMetadata(context, candidate.url, candidate.issuer);
      if (metadata.document !== undefined) return metadata;
    }
  }
  return 'no authorization server metadata found at the well-known locations of the oauth2 flow URLs';
}

/** Well-known locations tried at most: a description with many flows cannot spend the run's requests. */
const MAX_METADATA_REQUESTS = 12;

/**
 * A URL of the description resolved against the API's base, when it is on the API's own origin
 * (scheme, host and port) and names no user: adr-check sends nothing to an origin its user did not
 * name, another port of the same host included. Another origin: why it is not checked. Not a URL:
 * undefined.
 */
function urlOnApiOrigin(value: unknown, api: URL): URL | string | undefined {
  if (typeof value !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(value, api);
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '') return 'the authorization server URL names a user: give --oauth-metadata <url> to check it';
  if (url.origin === api.origin) return url;
  const where = url.hostname === api.hostname && url.origin !== 'null' ? `another origin (${url.origin}; the API is on ${api.origin})` : `another host (${shown(url.host === '' ? url.href : url.host)})`;
  return `the authorization server is on ${where}: give --oauth-metadata <url> to check it`;
}

/**
 * A value of the server's in a sentence: a string as it is, anything else by its kind. Not cut
 * here: the report redacts each string before it cuts it (bounded-report.ts), so that no cut
 * leaves part of a secret the server echoed.
 */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : jsonKind(value);
}

function jsonKind(value: unknown): string {
  return value === undefined ? '(none)' : `a JSON ${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value}`;
}

/** The same, quoted where a string is: where an empty or odd value must be seen as such. */
function quoted(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(shown(value)) : shown(value);
}

/** RFC 8414 and OpenID Connect Discovery locations for every issuer a flow URL's path may sit under (nearest first, at most 3). */
function metadataCandidates(endpoint: URL): Array<{ url: string; issuer: string }> {
  const segments = endpoint.pathname.split('/').filter(Boolean).slice(0, -1);
  const prefixes = segments.map((_, index) => `/${segments.slice(0, segments.length - index).join('/')}`).concat(['']).slice(0, 3);
  return prefixes.flatMap((prefix) => [
    { url: `${endpoint.origin}/.well-known/oauth-authorization-server${prefix}`, issuer: `${endpoint.origin}${prefix}` },
    { url: `${endpoint.origin}${prefix}/.well-known/openid-configuration`, issuer: `${endpoint.origin}${prefix}` },
  ]);
}

async function fetchMetadata(context: CheckContext, url: string, issuer: string | undefined): Promise<Metadata> {
  const exchange = await context.send({ method: 'GET', url, anonymous: true, keepBody: true, headers: { accept: 'application/json' } });
  if (exchange.status !== 200) return { url, exchange, problem: `GET ${url} answered ${describeAnswer(exchange)}` };
  let document: unknown;
  try {
    document = JSON.parse(exchange.body);
  } catch {
    return { url, exchange, problem: `GET ${url} is not JSON: ${describeBody(exchange)}, expected the metadata as a JSON object` };
  }
  if (!isObject(document)) return { url, exchange, problem: `GET ${url} is not a JSON object: ${jsonKind(document)}, expected the metadata as a JSON object` };
  // RFC 8414 section 3.3: metadata whose issuer is not the one asked about must not be used.
  if (issuer !== undefined && document.issuer !== issuer) return { url, exchange, problem: `GET ${url} names issuer ${quoted(document.issuer)}, expected ${issuer}` };
  return { url, exchange, document };
}

/** A body that is not what was expected, described (its type and size), never shown: it can be anything. */
function describeBody(exchange: Exchange): string {
  const type = exchange.headers['content-type'];
  return `${count(exchange.bodyBytes, 'byte')}${exchange.bodyTruncated ? ' (cut at --max-body)' : ''} of ${type === undefined ? 'no declared type' : quoted(type)}`;
}

const strings = (value: unknown) => asArray(value).filter((item): item is string => typeof item === 'string');

/** What the profile forbids or requires in the metadata. */
function metadataProblems(document: JsonObject): string[] {
  const problems: string[] = [];
  const responseTypes = strings(document.response_types_supported);
  const withToken = responseTypes.filter((type) => type.split(' ').includes('token'));
  if (withToken.length > 0) problems.push(`response_types_supported has ${withToken.map((type) => JSON.stringify(type)).join(', ')}: the implicit flow, which the profile forbids; offer "code" only`);
  const grants = strings(document.grant_types_supported);
  for (const grant of ['implicit', 'password']) if (grants.includes(grant)) problems.push(`grant_types_supported has ${grant}, which the profile forbids; remove it`);
  const pkce = strings(document.code_challenge_methods_supported);
  if (pkce.length === 0) problems.push('lacks code_challenge_methods_supported: the profile requires PKCE with S256; advertise ["S256"]');
  else if (!pkce.includes('S256')) problems.push(`has code_challenge_methods_supported ${JSON.stringify(pkce)}, expected S256 among them (plain alone is not enough)`);
  const authMethods = strings(document.token_endpoint_auth_methods_supported);
  if (!authMethods.includes('private_key_jwt')) problems.push(`has token_endpoint_auth_methods_supported ${authMethods.length === 0 ? '(none)' : JSON.stringify(authMethods)}, expected private_key_jwt among them`);
  for (const [name, value] of Object.entries(document)) {
    if ((name === 'issuer' || name.endsWith('_endpoint') || name === 'jwks_uri') && typeof value === 'string' && !value.startsWith('https://')) problems.push(`has ${name} ${shown(value)}, expected an https URL`);
  }
  return problems;
}

export const oauthFlows: LiveCheck = {
  code: 'nlgov:oauth-flows',
  applies: async (context) => usesOAuth(context) || 'the description has no oauth2 or openIdConnect scheme and no --oauth-metadata was given',
  async run(context: CheckContext): Promise<CheckResult> {
    const metadata = await authorizationServer(context);
    if (typeof metadata === 'string') return { code: this.code, verdict: 'skip', summary: `not judged: ${metadata}`, details: [], evidence: [] };
    if (metadata.document === undefined) {
      if (metadata.exchange.status === undefined) return noAnswerResult(this.code, [`GET ${metadata.url}: no answer (${metadata.exchange.error ?? 'unknown'})`]);
      return { code: this.code, verdict: 'fail', summary: 'the authorization server metadata is not usable', details: [metadata.problem ?? ''], evidence: [evidenceOf(metadata.exchange, ['Content-Type'])] };
    }
    const problems = metadataProblems(metadata.document);
    if (problems.length > 0) return { code: this.code, verdict: 'fail', summary: `the authorization server at ${shown(metadata.document.issuer)} is not as the NL GOV OAuth profile requires`, details: problems, evidence: [evidenceOf(metadata.exchange, ['Content-Type'])] };
    return { code: this.code, verdict: 'pass', summary: `${shown(metadata.document.issuer)}: code flow only, PKCE S256, private_key_jwt, every endpoint https (${metadata.url})`, details: [], evidence: [] };
  },
};

interface Probe {
  method: string;
  /** Relative to the base URL. */
  path: string;
  /** What makes a write change nothing even where the resource exists. */
  headers: Record<string, string>;
}

/**
 * A protected GET of a concrete path; with --unsafe and none, a protected DELETE of a resource that
 * cannot exist (probeOnAbsentResource). A write to an existing resource is never a probe: the
 * check needs an answer past the token check, not a change. Undefined when there is neither.
 */
function protectedOperation(context: CheckContext): Probe | undefined {
  const security = (operation: unknown) => demandsCredentials(asObject(operation).security ?? context.description?.security);
  const path = context.getPaths.find((candidate) => {
    const item = pathItemFor(context.description, candidate);
    return item.get !== undefined && security(item.get);
  });
  if (path !== undefined) return { method: 'GET', path, headers: {} };
  return context.options.unsafe ? probeOnAbsentResource(context, security) : undefined;
}

/** Path keys looked at for a DELETE to probe: a description cannot make this search long. */
const MAX_PATH_KEYS = 1000;

/**
 * A protected DELETE on a path with variables, each variable a value made up for this run (no
 * resource has it), with an If-Match no entity tag matches: a server that honours either deletes
 * nothing (RFC 9110 13.1.1). Only plain path keys, which the description matches to themselves.
 */
function probeOnAbsentResource(context: CheckContext, protectedBy: (operation: unknown) => boolean): Probe | undefined {
  const paths = asObject(context.description?.paths);
  const run = randomBytes(6).toString('hex');
  for (const [key, item] of Object.entries(paths).slice(0, MAX_PATH_KEYS)) {
    if (!/^(\/([\w~-][\w.~-]*|\{[\w.-]+\}))+$/.test(key) || !key.includes('{') || key.length > 500) continue;
    const operation = asObject(item).delete;
    if (operation === undefined || !protectedBy(operation)) continue;
    const parameters = [...asArray(asObject(item).parameters), ...asArray(asObject(operation).parameters)].map((parameter) => followLocalReference(context.description, asObject(parameter)));
    const path = key.replace(/\{([\w.-]+)\}/g, (_, name: string) => absentValue(parameters.find((parameter) => parameter.in === 'path' && parameter.name === name), run));
    if (pathKeyFor(context.description, path) === key) return { method: 'DELETE', path, headers: { 'if-match': `"adr-check-${run}"` } };
  }
  return undefined;
}

/** A path value no resource has, in the parameter's type: an identifier made up for this run. */
function absentValue(parameter: JsonObject | undefined, run: string): string {
  const schema = asObject(parameter?.schema);
  if (schema.type === 'integer' || schema.type === 'number') return String(BigInt(`0x${run}`) + 900_000_000_000_000n);
  if (schema.format === 'uuid') return randomUUID();
  return `adr-check-absent-${run}`;
}

/**
 * Refused: 401, or 400 with the bearer challenge's invalid_request (RFC 6750 3.1). Any other answer,
 * a 400 from validating the request body included, means the token got the request past the check.
 */
function refusesToken(exchange: Exchange): boolean {
  if (exchange.status === 401) return true;
  return exchange.status === 400 && /^Bearer\b.*invalid_request/i.test(exchange.headers['www-authenticate'] ?? '');
}

function bearerToken(context: CheckContext): string | undefined {
  const header = context.client.options.headers.authorization;
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1];
}

export const oauthNoTokenInQuery: LiveCheck = {
  code: 'nlgov:oauth-no-token-in-query',
  applies: async (context) => usesOAuth(context) || 'the description has no oauth2 or openIdConnect scheme and no --oauth-metadata was given',
  async run(context: CheckContext): Promise<CheckResult> {
    const operation = protectedOperation(context);
    if (operation === undefined) return { code: this.code, verdict: 'skip', summary: context.options.unsafe ? 'no concrete GET the description protects, and no protected DELETE on a path with variables to probe on a resource that cannot exist (adr-check never writes to a resource it did not create)' : 'no concrete GET the description protects (--unsafe also probes a protected DELETE, on a resource that cannot exist)', details: [], evidence: [] };
    const url = `${context.baseUrl}${operation.path}`;
    const label = `${operation.method} ${pathLabel(operation.path)}`;
    const body = { headers: operation.headers };
    if (operation.method === 'DELETE') {
      const present = await context.send({ method: 'GET', url });
      if (present.status === undefined) return noAnswerResult(this.code, [`GET ${pathLabel(operation.path)}, before the DELETE: no answer (${present.error ?? 'unknown'})`]);
      if (present.status < 400) return { code: this.code, verdict: 'skip', summary: `not judged: GET ${pathLabel(operation.path)} answered ${describeAnswer(present)} for a resource made up by adr-check, so it may exist: no DELETE is sent there`, details: [], evidence: [evidenceOf(present)] };
    }
    const problems: string[] = [];
    const evidence: Evidence[] = [];
    const anonymous = await context.send({ method: operation.method, url, anonymous: true, ...body });
    if (anonymous.status === undefined) return noAnswerResult(this.code, [`${label} without a token: no answer (${anonymous.error ?? 'unknown'})`]);
    if (anonymous.status !== 401) problems.push(`${label} without a token answers ${describeAnswer(anonymous)}, expected 401`);
    else {
      if (!/^Bearer\b/i.test(anonymous.headers['www-authenticate'] ?? '')) problems.push(`${label} without a token: the 401 ${anonymous.headers['www-authenticate'] === undefined ? 'lacks WWW-Authenticate' : `has WWW-Authenticate: ${anonymous.headers['www-authenticate']}`}, expected Bearer`);
      if (!/^application\/problem\+json/i.test(anonymous.headers['content-type'] ?? '')) problems.push(`${label} without a token: the 401 has Content-Type: ${anonymous.headers['content-type'] ?? '(none)'}, expected application/problem+json`);
    }
    if (problems.length > 0) evidence.push(evidenceOf(anonymous, ['WWW-Authenticate', 'Content-Type']));
    const token = bearerToken(context);
    const notes: string[] = [];
    if (token === undefined) notes.push('with a token not tested: give --header "Authorization: Bearer <token>"');
    else {
      const authorized = await context.send({ method: operation.method, url, ...body });
      if (authorized.status === 401 || authorized.status === undefined) problems.push(`${label} with the given token answers ${describeAnswer(authorized)}: the token is not accepted`);
      const inQuery = await context.send({ method: operation.method, url: `${url}${url.includes('?') ? '&' : '?'}access_token=${encodeURIComponent(token)}`, anonymous: true, ...body });
      if (!refusesToken(inQuery)) { problems.push(`${label} with the token in ?access_token= answers ${describeAnswer(inQuery)}: a token in the query string must be refused (401)`); evidence.push(evidenceOf(inQuery, ['WWW-Authenticate'])); }
    }
    if (problems.length > 0) return { code: this.code, verdict: 'fail', summary: 'the protected resource does not handle tokens as the profile requires', details: [...problems, ...notes], evidence };
    return { code: this.code, verdict: 'pass', summary: `${label}: 401 Bearer problem+json without a token${token === undefined ? '' : '; the token works in the Authorization header and is refused in the query string'}`, details: notes, evidence: [] };
  },
};

