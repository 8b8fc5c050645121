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

interface Metadata {
  url: string;
  exchange: Exchange;
  document?: JsonObject;
  /** Why the metadata cannot be used: empty when `document` is there. */
  problems: string[];
  /** Not at a well-known location: whether its issuer is right cannot be told, which is not the server's fault. */
  unverifiable?: boolean;
}

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
  if (given !== undefined) return fetchMetadata(context, given);
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
    if (endpoint.direct) return fetchMetadata(context, url.href);
    for (const candidate of metadataCandidates(url).filter((each) => !tried.has(each))) {
      if (tried.size >= MAX_METADATA_REQUESTS) break;
      tried.add(candidate);
      const metadata = await fetchMetadata(context, candidate);
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
function metadataCandidates(endpoint: URL): string[] {
  const segments = endpoint.pathname.split('/').filter(Boolean).slice(0, -1);
  const prefixes = segments.map((_, index) => `/${segments.slice(0, segments.length - index).join('/')}`).concat(['']).slice(0, 3);
  return prefixes.flatMap((prefix) => [
    `${endpoint.origin}/.well-known/oauth-authorization-server${prefix}`,
    `${endpoint.origin}${prefix}/.well-known/openid-configuration`,
  ]);
}

const WELL_KNOWN = '/.well-known/';

/**
 * The issuer identifiers whose metadata lives at `url`: RFC 8414 section 3.1 inserts the well-known
 * segment between the issuer's host and path (`/.well-known/oauth-authorization-server/tenant`),
 * OpenID Connect Discovery 4 appends it to the issuer (`/tenant/.well-known/openid-configuration`);
 * both remove a terminating "/" of the issuer first, so `/tenant` and `/tenant/` both fit. Empty
 * when the URL is no well-known location: its issuer cannot be checked.
 */
export function issuersOfMetadataUrl(url: URL): string[] {
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') return [];
  const at = url.pathname.indexOf(WELL_KNOWN);
  if (at < 0) return [];
  const before = url.pathname.slice(0, at);
  const [suffix = '', ...path] = url.pathname.slice(at + WELL_KNOWN.length).split('/');
  if (suffix === '' || (before !== '' && (path.length > 0 || suffix !== 'openid-configuration'))) return [];
  const issuer = `${url.origin}${before}${path.length === 0 ? '' : `/${path.join('/')}`}`;
  return [issuer, `${issuer}/`];
}

/**
 * Whether `issuer` is one of `issuers`, which come from a parsed URL: the same string, or the same
 * once its scheme and host are lowercased and a default port dropped (what URL parsing does to the
 * URL it was fetched from), so that no spelling of one server fails against itself.
 */
export function isIssuerOf(issuer: unknown, issuers: string[]): boolean {
  if (typeof issuer !== 'string') return false;
  if (issuers.includes(issuer)) return true;
  try {
    const url = new URL(issuer);
    return issuers.includes(`${url.origin}${url.pathname === '/' && !issuer.endsWith('/') ? '' : url.pathname}${url.search}${url.hash}`);
  } catch {
    return false;
  }
}

async function fetchMetadata(context: CheckContext, url: string): Promise<Metadata> {
  const exchange = await context.send({ method: 'GET', url, anonymous: true, keepBody: true, headers: { accept: 'application/json' } });
  if (exchange.status !== 200) return { url, exchange, problems: [`GET ${url} answered ${describeAnswer(exchange)}`] };
  let document: unknown;
  try {
    document = JSON.parse(exchange.body);
  } catch {
    return { url, exchange, problems: [`GET ${url} is not JSON: ${describeBody(exchange)}, expected the metadata as a JSON object`] };
  }
  if (!isObject(document)) return { url, exchange, problems: [`GET ${url} is not a JSON object: ${jsonKind(document)}, expected the metadata as a JSON object`] };
  const issuers = issuersOfMetadataUrl(new URL(url));
  if (issuers.length === 0) return { url, exchange, unverifiable: true, problems: [`${url} is not a well-known metadata location (RFC 8414 section 3, OpenID Connect Discovery 4), so the issuer ${quoted(document.issuer)} it names cannot be checked against it (RFC 8414 section 3.3)`] };
  // RFC 8414 section 3.3: metadata whose issuer is not the one its location was made from MUST NOT be used.
  if (!isIssuerOf(document.issuer, issuers)) return { url, exchange, problems: [`GET ${url} names issuer ${quoted(document.issuer)}, expected ${issuers[0]}: RFC 8414 section 3.3 forbids using metadata whose issuer is not the one its well-known URL was made from. Serve it at its own issuer's well-known URL, or name that issuer`, ...transportProblems(url)] };
  return { url, exchange, document, problems: [] };
}

/** A body that is not what was expected, described (its type and size), never shown: it can be anything. */
function describeBody(exchange: Exchange): string {
  const type = exchange.headers['content-type'];
  return `${count(exchange.bodyBytes, 'byte')}${exchange.bodyTruncated ? ' (cut at --max-body)' : ''} of ${type === undefined ? 'no declared type' : quoted(type)}`;
}

const strings = (value: unknown) => asArray(value).filter((item): item is string => typeof item === 'string');

/** The members RFC 8414 section 2 gives a default: what metadata that leaves them out says. */
const RFC8414_DEFAULTS = {
  grant_types_supported: ['authorization_code', 'implicit'],
  token_endpoint_auth_methods_supported: ['client_secret_basic'],
} as const;

/**
 * A member as RFC 8414 reads it: its strings, or, when left out, the default section 2 gives it
 * (`defaulted` says which; an explicit value that is not an array counts as empty).
 */
function member(document: JsonObject, name: keyof typeof RFC8414_DEFAULTS): { values: string[]; defaulted: boolean } {
  if (document[name] === undefined) return { values: [...RFC8414_DEFAULTS[name]], defaulted: true };
  return { values: strings(document[name]), defaulted: false };
}

const listed = (values: readonly string[]) => (values.length === 0 ? '(none)' : JSON.stringify(values));

/** What the profile forbids or requires in the metadata, read with RFC 8414's defaults. */
function metadataProblems(document: JsonObject): string[] {
  const problems: string[] = [];
  if (!Array.isArray(document.response_types_supported)) problems.push(`lacks response_types_supported, which RFC 8414 section 2 requires: found ${jsonKind(document.response_types_supported)}. List ["code"]`);
  const responseTypes = strings(document.response_types_supported);
  const withToken = responseTypes.filter((type) => type.split(' ').includes('token'));
  if (withToken.length > 0) problems.push(`response_types_supported has ${withToken.map((type) => JSON.stringify(type)).join(', ')}: the implicit flow, which the profile forbids; offer "code" only`);
  const grants = member(document, 'grant_types_supported');
  if (grants.defaulted) problems.push(`lacks grant_types_supported, so RFC 8414 section 2's default ${listed(grants.values)} holds: the implicit grant, which the profile forbids. List the grants, without implicit`);
  else for (const grant of ['implicit', 'password']) if (grants.values.includes(grant)) problems.push(`grant_types_supported has ${grant}, which the profile forbids; remove it`);
  const pkce = strings(document.code_challenge_methods_supported);
  if (pkce.length === 0) problems.push('lacks code_challenge_methods_supported: the profile requires PKCE with S256; advertise ["S256"]');
  else if (!pkce.includes('S256')) problems.push(`has code_challenge_methods_supported ${JSON.stringify(pkce)}, expected S256 among them (plain alone is not enough)`);
  const authMethods = member(document, 'token_endpoint_auth_methods_supported');
  if (!authMethods.values.includes('private_key_jwt')) {
    problems.push(authMethods.defaulted
      ? `lacks token_endpoint_auth_methods_supported, so RFC 8414 section 2's default ${listed(authMethods.values)} holds, expected private_key_jwt among them`
      : `has token_endpoint_auth_methods_supported ${listed(authMethods.values)}, expected private_key_jwt among them`);
  }
  for (const [name, value] of Object.entries(document)) {
    if ((name === 'issuer' || name.endsWith('_endpoint') || name === 'jwks_uri') && typeof value === 'string' && !value.startsWith('https://')) problems.push(`has ${name} ${shown(value)}, expected an https URL`);
  }
  return problems;
}

/** SPEC, Transport 1: "All information is exchanged over TLS, everywhere and always"; the metadata too. */
function transportProblems(url: string): string[] {
  return url.startsWith('https://') ? [] : [`GET ${url} came over plain HTTP, expected https: the metadata tells clients where to send credentials and is exchanged over TLS like all information`];
}

export const oauthFlows: LiveCheck = {
  code: 'nlgov:oauth-flows',
  applies: async (context) => usesOAuth(context) || 'the description has no oauth2 or openIdConnect scheme and no --oauth-metadata was given',
  async run(context: CheckContext): Promise<CheckResult> {
    const metadata = await authorizationServer(context);
    if (typeof metadata === 'string') return { code: this.code, verdict: 'skip', summary: `not judged: ${metadata}`, details: [], evidence: [] };
    const evidence = [evidenceOf(metadata.exchange, ['Content-Type'])];
    if (metadata.unverifiable) return { code: this.code, verdict: 'error', summary: 'not judged: the metadata is not at a well-known location, so whose it is cannot be checked', details: [`${metadata.problems.join('; ')}. Give --oauth-metadata the issuer's well-known URL: <issuer>/.well-known/openid-configuration, or /.well-known/oauth-authorization-server followed by the issuer's path`], evidence };
    if (metadata.document === undefined) {
      if (metadata.exchange.status === undefined) return noAnswerResult(this.code, [`GET ${metadata.url}: no answer (${metadata.exchange.error ?? 'unknown'})`]);
      return { code: this.code, verdict: 'fail', summary: 'the authorization server metadata is not usable', details: metadata.problems, evidence };
    }
    const problems = [...transportProblems(metadata.url), ...metadataProblems(metadata.document)];
    if (problems.length > 0) return { code: this.code, verdict: 'fail', summary: `the authorization server at ${shown(metadata.document.issuer)} is not as the NL GOV OAuth profile requires`, details: problems, evidence };
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
    const item = pathItemFor(context.description, candidate, context.pathKeyPrefix);
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
    if (pathKeyFor(context.description, path, context.pathKeyPrefix) === key) return { method: 'DELETE', path, headers: { 'if-match': `"adr-check-${run}"` } };
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

const challengeOf = (exchange: Exchange) => exchange.headers['www-authenticate'] ?? '';

/**
 * Whether a WWW-Authenticate value (several fields arrive joined with ", ") has a Bearer challenge
 * among its challenges: RFC 9110 11.6.1 lets a 401 offer several (`DPoP …, Bearer …`). Quoted
 * strings are left out first, so that a parameter value never reads as a scheme.
 */
export function hasBearerChallenge(value: string): boolean {
  return /(?:^|,)\s*Bearer(?:\s|,|$)/i.test(value.replace(/"(?:[^"\\]|\\.)*"/g, '""'));
}

/**
 * Refused as RFC 6750 section 3.1 has a resource refuse a request without a usable token: 401, or
 * 400 with the Bearer challenge's invalid_request.
 */
function refusedAsRfc6750Says(exchange: Exchange): boolean {
  if (exchange.status === 401) return true;
  return exchange.status === 400 && hasBearerChallenge(challengeOf(exchange)) && /\berror\s*=\s*"?invalid_request\b/i.test(challengeOf(exchange));
}

function bearerToken(context: CheckContext): string | undefined {
  const header = context.client.options.headers.authorization;
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1];
}

/** What a part of the check found: a FAIL, a WARN, a note (not judged), or a phrase for the summary. */
interface Findings { problems: string[]; warnings: string[]; notes: string[]; said: string[]; evidence: Evidence[] }

/**
 * The answer without a token. RFC 6750 section 3 (and RFC 9110 11.6.1 for a 401) requires the
 * Bearer challenge; SPEC's "Error responses SHOULD use the media type application/problem+json"
 * makes its type a WARN at most.
 */
function judgeAnonymous(label: string, anonymous: Exchange, found: Findings): void {
  const challenge = anonymous.headers['www-authenticate'];
  const type = anonymous.headers['content-type'];
  if (anonymous.status !== 401) found.problems.push(`${label} without a token answers ${describeAnswer(anonymous)}, expected 401`);
  else if (!hasBearerChallenge(challenge ?? '')) found.problems.push(`${label} without a token: the 401 ${challenge === undefined ? 'lacks WWW-Authenticate' : `has WWW-Authenticate: ${challenge}`}, expected Bearer`);
  else {
    const problemJson = /^application\/problem\+json/i.test(type ?? '');
    if (!problemJson) found.warnings.push(`${label} without a token: the 401 has Content-Type: ${type ?? '(none)'}, expected application/problem+json (SPEC: error responses SHOULD use it); its Bearer challenge is right`);
    found.said.push(`401 Bearer${problemJson ? ' problem+json' : ''} without a token`);
  }
  if (found.problems.length + found.warnings.length > 0) found.evidence.push(evidenceOf(anonymous, ['WWW-Authenticate', 'Content-Type']));
}

/** How the resource took the token in the Authorization header. */
type HeaderOutcome = 'honoured' | 'read-not-granted' | 'invalid' | 'refused' | 'no-answer';

/**
 * The token in the Authorization header, which SPEC says a resource MUST accept. A 401 with
 * error="invalid_token" says the token itself is bad (RFC 6750 section 3.1): the user's to fix,
 * not the API's. A 403 says it was read and lacks the rights (insufficient_scope).
 */
function judgeHeader(label: string, authorized: Exchange, found: Findings): HeaderOutcome {
  const challenge = challengeOf(authorized);
  if (authorized.status === undefined) {
    found.problems.push(`${label} with the given token: no answer (${authorized.error ?? 'unknown'})`);
    return 'no-answer';
  }
  if (authorized.status === 401 && /\berror\s*=\s*"?invalid_token\b/i.test(challenge)) {
    found.notes.push(`with a token not judged: the given token is refused as invalid (401, WWW-Authenticate: ${challenge}), as RFC 6750 section 3.1 has it for an expired or unknown token; give a valid one with --header "Authorization: Bearer <token>"`);
    return 'invalid';
  }
  if (authorized.status === 401) {
    found.problems.push(`${label} with the given token in the Authorization header answers 401${challenge === '' ? '' : ` (WWW-Authenticate: ${challenge})`}: the token is not accepted there, where a protected resource MUST accept it (an invalid token gets error="invalid_token", RFC 6750 section 3.1)`);
    found.evidence.push(evidenceOf(authorized, ['WWW-Authenticate']));
    return 'refused';
  }
  if (authorized.status === 403) {
    found.said.push(`the token in the Authorization header is read but does not grant access (403${challenge === '' ? '' : `, ${challenge}`})`);
    return 'read-not-granted';
  }
  found.said.push('the token works in the Authorization header');
  return 'honoured';
}

/**
 * The same token in ?access_token=, which SPEC says a protected resource MUST NOT accept. Accepted:
 * a success, or the answer the token got in the header where the header got past the token check.
 * Refused: anything else where the header got past it, or a 401 (or RFC 6750's 400 invalid_request)
 * in any case. Refused with another status is still refused: a WARN says what RFC 6750 would send.
 */
function judgeQuery(label: string, inQuery: Exchange, authorized: Exchange, header: HeaderOutcome, found: Findings): void {
  const answer = describeAnswer(inQuery);
  const evidence = () => found.evidence.push(evidenceOf(inQuery, ['WWW-Authenticate', 'Content-Type']));
  if (inQuery.status === undefined) {
    found.notes.push(`the token in ?access_token= not judged: no answer (${inQuery.error ?? 'unknown'})`);
    return;
  }
  const granted = inQuery.status < 400;
  const asInHeader = !granted && header === 'honoured' && inQuery.status === authorized.status;
  if (granted || asInHeader) {
    found.problems.push(`${label} with the token in ?access_token= answers ${answer}${asInHeader ? ', as with the token in the Authorization header' : ''}: the token is accepted in the query string, where a protected resource MUST NOT accept it. Ignore ?access_token= (a request without a token: 401 with the Bearer challenge)`);
    evidence();
    return;
  }
  if (refusedAsRfc6750Says(inQuery)) {
    found.said.push(`is refused in the query string${inQuery.status === 401 ? '' : ` (${inQuery.status} invalid_request)`}`);
    return;
  }
  if (header !== 'honoured') {
    found.notes.push(`the token in ?access_token= not judged: it answers ${answer}, and the token in the Authorization header was not let through either${header === 'read-not-granted' ? ' (403)' : ''}, so whether the query token is read cannot be told; give a token that grants access`);
    return;
  }
  found.said.push(`is refused in the query string (${inQuery.status})`);
  found.warnings.push(`${label} with the token in ?access_token= answers ${answer}: refused, as SPEC requires, but RFC 6750 section 3.1 answers a request without a usable token 401 with a Bearer challenge (or 400 with error="invalid_request"); answer it so`);
  evidence();
}

function summaryOf(label: string, found: Findings): string {
  const [anonymous, ...token] = found.said;
  return `${label}: ${[anonymous, token.join(' and ')].filter((part) => part !== undefined && part !== '').join('; ')}`;
}

export const oauthNoTokenInQuery: LiveCheck = {
  code: 'nlgov:oauth-no-token-in-query',
  applies: async (context) => usesOAuth(context) || 'the description has no oauth2 or openIdConnect scheme and no --oauth-metadata was given',
  async run(context: CheckContext): Promise<CheckResult> {
    const operation = protectedOperation(context);
    if (operation === undefined) return { code: this.code, verdict: 'skip', summary: context.options.unsafe ? 'no concrete GET the description protects, and no protected DELETE on a path with variables to probe on a resource that cannot exist (adr-check never writes to a resource it did not create)' : 'no concrete GET the description protects (--unsafe also probes a protected DELETE, on a resource that cannot exist)', details: [], evidence: [] };
    const url = `${context.baseUrl}${operation.path}`;
    const label = `${operation.method} ${pathLabel(context.baseUrl, operation.path)}`;
    const body = { headers: operation.headers };
    if (operation.method === 'DELETE') {
      const present = await context.send({ method: 'GET', url });
      if (present.status === undefined) return noAnswerResult(this.code, [`GET ${pathLabel(context.baseUrl, operation.path)}, before the DELETE: no answer (${present.error ?? 'unknown'})`]);
      if (present.status < 400) return { code: this.code, verdict: 'skip', summary: `not judged: GET ${pathLabel(context.baseUrl, operation.path)} answered ${describeAnswer(present)} for a resource made up by adr-check, so it may exist: no DELETE is sent there`, details: [], evidence: [evidenceOf(present)] };
    }
    const found: Findings = { problems: [], warnings: [], notes: [], said: [], evidence: [] };
    const anonymous = await context.send({ method: operation.method, url, anonymous: true, ...body });
    if (anonymous.status === undefined) return noAnswerResult(this.code, [`${label} without a token: no answer (${anonymous.error ?? 'unknown'})`]);
    judgeAnonymous(label, anonymous, found);
    const token = bearerToken(context);
    if (token === undefined) found.notes.push('with a token not tested: give --header "Authorization: Bearer <token>"');
    else {
      const authorized = await context.send({ method: operation.method, url, ...body });
      const header = judgeHeader(label, authorized, found);
      if (header !== 'invalid') {
        const inQuery = await context.send({ method: operation.method, url: `${url}${url.includes('?') ? '&' : '?'}access_token=${encodeURIComponent(token)}`, anonymous: true, ...body });
        judgeQuery(label, inQuery, authorized, header, found);
      }
    }
    const details = [...found.problems, ...found.warnings, ...found.notes];
    if (found.problems.length > 0) return { code: this.code, verdict: 'fail', summary: 'the protected resource does not handle tokens as the profile requires', details, evidence: found.evidence };
    if (found.warnings.length > 0) return { code: this.code, verdict: 'warn', summary: `${summaryOf(label, found)}; not as RFC 6750 and SPEC recommend`, details, evidence: found.evidence };
    return { code: this.code, verdict: 'pass', summary: summaryOf(label, found), details, evidence: [] };
  },
};
