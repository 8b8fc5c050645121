import type { JWK } from 'jose';
import { EXCERPT_BYTES, type HttpClient, type Exchange, type RequestSpec } from './http.js';
import { pathLabel, type CheckResult } from './report.js';
import { asArray, asObject, entries, isObject, valueAt, type JsonObject } from '../lib/json.js';
import { matchPathKey } from '../lib/path-template.js';
import { isUnderBase } from '../lib/url-scope.js';
import { detachedPrefix, safeDecode } from '../lib/uri.js';

export interface CheckOptions {
  unsafe: boolean;
  insecure: boolean;
  /** An Origin the API is configured to allow (CORS allowlist), when known. */
  allowedOrigin?: string;
  /** Port where plain HTTP would be served on the same host. */
  plainHttpPort: number;
  /** The TLS enumeration's own budget, within the run's deadline; default TLS_DEADLINE_MS. */
  tlsDeadlineMs?: number;
  /** Keys to verify signatures with (--signing-jwks), instead of the x5c certificate. */
  signingJwks?: JWK[];
  /** PEM of the CA the signing certificates must be issued under (--signing-ca). */
  signingCa?: string;
  /** The authorization server's metadata URL (--oauth-metadata), when the user names it. */
  oauthMetadata?: string;
}

/** A slow server must not spend the whole run on TLS probes: about 200 handshakes fit easily. */
export const TLS_DEADLINE_MS = 20_000;

export interface CheckContext {
  client: HttpClient;
  /** `https://host/v1`, without a trailing slash. */
  baseUrl: string;
  description?: JsonObject;
  /** Where the description was found when not at /openapi.json (the landing page's service-desc link). */
  descriptionFoundAt?: string;
  /** Size of the description's text, for work that must stay bounded on this thread. */
  descriptionBytes: number;
  /** Concrete paths (relative to the base) with a GET operation. */
  getPaths: string[];
  /**
   * The base URL's path, where the description's path keys repeat it (`/v1` for `/v1/items` under
   * `https://host/v1`): a concrete path is looked up among the keys with it too. '' otherwise.
   */
  pathKeyPrefix: string;
  options: CheckOptions;
  /** Every exchange with the API (under the base URL) so far, for checks that judge all its responses: their heads and a body excerpt, never whole bodies. */
  exchanges: Exchange[];
  /** Whether the user gave credentials (--header, ADR_CHECK_TOKEN). */
  hasCredentials: boolean;
  /** Paths the description protects that answered 401 without credentials: not judged, named in the report. */
  needCredentials: Set<string>;
  send(spec: RequestSpec): Promise<Exchange>;
  /** GET of a path relative to the base, shared between checks so each is sent once. */
  get(path: string): Promise<Exchange>;
}

/** One area of live checks; later areas (TLS enumeration, CRS, signatures, OAuth) add theirs. */
export interface LiveCheck {
  code: string;
  /** For a module's checks: true when the API is in the module's scope, else why it is not (the check is then left out and the reason noted). */
  applies?(context: CheckContext): Promise<true | string>;
  run(context: CheckContext): Promise<CheckResult>;
}

export function createContext(client: HttpClient, baseUrl: string, options: CheckOptions): CheckContext {
  const base = baseUrl.replace(/\/+$/, '');
  const exchanges: Exchange[] = [];
  const cache = new Map<string, Promise<Exchange>>();
  const send = async (spec: RequestSpec) => {
    const refusal = outOfScope(base, spec);
    const exchange = refusal === undefined ? await client.send(spec) : refused(spec, refusal);
    // Only the API's own answers are judged as API responses: plain HTTP on another port, the
    // authorization server's metadata or a landing page above the base are evidence for their own check.
    if (isUnderBase(base, spec.url)) exchanges.push(headOf(exchange));
    return exchange;
  };
  return {
    client,
    baseUrl: base,
    getPaths: [],
    pathKeyPrefix: '',
    descriptionBytes: 0,
    options,
    exchanges,
    hasCredentials: Object.keys(client.options.headers).length > 0,
    needCredentials: new Set(),
    send,
    get(path: string) {
      const existing = cache.get(path);
      if (existing !== undefined) return existing;
      const pending = send({ method: 'GET', url: `${base}${path}` });
      cache.set(path, pending);
      return pending;
    },
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/**
 * Why a request must not be sent: on the API's origin but outside its base URL as a server would
 * read it (`..`, encoded dots, slashes, backslashes), while it changes something or carries the
 * user's credentials. An anonymous read outside the base path stays allowed: the description, the
 * landing page and `/.well-known/` metadata live there. Other origins are the checks' own decision
 * (the authorization server, plain HTTP), each made where it is sent.
 */
function outOfScope(base: string, spec: RequestSpec): string | undefined {
  let target: URL;
  try {
    target = new URL(spec.url);
  } catch {
    return undefined;
  }
  if (target.origin !== new URL(base).origin) return undefined;
  const risky = !SAFE_METHODS.has(spec.method.toUpperCase()) || spec.anonymous !== true;
  if (!risky || isUnderBase(base, spec.url)) return undefined;
  return `not sent: ${spec.method} ${spec.url} leaves the API's base URL ${base} (as a server would read the path)`;
}

function refused(spec: RequestSpec, reason: string): Exchange {
  return { method: spec.method, url: spec.url, requestHeaders: {}, headers: {}, headerNames: {}, headerCounts: {}, body: '', bodyBytes: 0, bodyTruncated: false, error: reason, durationMs: 0 };
}

/** What the run keeps of an exchange for the checks that judge every response: no whole bodies. */
export function headOf(exchange: Exchange): Exchange {
  const { rawBody: _raw, ...rest } = exchange;
  return exchange.body.length <= EXCERPT_BYTES ? rest : { ...rest, body: detachedPrefix(exchange.body, EXCERPT_BYTES) };
}

/**
 * A path of the API itself, not of its documentation; one that needs no credentials when none
 * were given (a 401 there would say nothing about the check); the base URL when there is none.
 */
export function resourcePath(context: CheckContext): string {
  // The base URL is a resource only where the description declares `/`: many APIs answer 404 there.
  const resources = context.getPaths.filter((candidate) => !candidate.startsWith('/openapi.') && (candidate !== '' || declaresRoot(context.description)));
  const open = resources.find((candidate) => context.hasCredentials || !requiresCredentials(context.description, candidate, context.pathKeyPrefix));
  return open ?? resources[0] ?? '';
}

function declaresRoot(description: JsonObject | undefined): boolean {
  return isObject(asObject(description?.paths)['/']);
}

/** `find` computed once per run and shared by the checks that ask for it (a module's discovery). */
export function oncePerRun<T>(find: (context: CheckContext) => Promise<T>): (context: CheckContext) => Promise<T> {
  const found = new WeakMap<CheckContext, Promise<T>>();
  return (context) => {
    let result = found.get(context);
    if (result === undefined) {
      result = find(context);
      found.set(context, result);
    }
    return result;
  };
}

/**
 * The description's path item for a concrete path (`''` is the base URL, the description's `/`):
 * a literal path wins over a template that also fits it, as OpenAPI matches them.
 */
export function pathItemFor(description: JsonObject | undefined, concretePath: string, keyPrefix = ''): JsonObject {
  const key = pathKeyFor(description, concretePath, keyPrefix);
  return asObject(key === undefined ? undefined : asObject(description?.paths)[key]);
}

/**
 * The description's path key (`/a/{id}`) a concrete path matches, as pathItemFor finds it; where
 * the keys repeat the base URL's path (`keyPrefix`), also with it in front.
 */
export function pathKeyFor(description: JsonObject | undefined, concretePath: string, keyPrefix = ''): string | undefined {
  const paths = asObject(description?.paths);
  const path = concretePath === '' ? '/' : concretePath;
  return matchPathKey(paths, path) ?? (keyPrefix === '' ? undefined : matchPathKey(paths, concretePath === '' ? keyPrefix : `${keyPrefix}${concretePath}`));
}

/**
 * The base URL's path where every path key of the description starts with it (`/v1` of
 * `https://host/v1` and keys `/v1/items`, `/v1/items/{id}`): a description written for the host,
 * or one whose server URL repeats its paths' version. '' otherwise.
 */
export function repeatedBasePath(baseUrl: string, description: JsonObject | undefined): string {
  let basePath = '';
  try {
    basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
  const keys = Object.keys(asObject(description?.paths)).filter((key) => key !== '/');
  const repeats = keys.length > 0 && keys.every((key) => key === basePath || key.startsWith(`${basePath}/`));
  return basePath !== '' && repeats ? basePath : '';
}

/** The GET of the path requires credentials: its security (or the document's) has no empty requirement. */
export function requiresCredentials(description: JsonObject | undefined, concretePath: string, keyPrefix = ''): boolean {
  const operation = asObject(pathItemFor(description, concretePath, keyPrefix).get);
  return demandsCredentials(operation.security ?? description?.security);
}

/** A security list that every requirement of needs something: no empty `{}` among them. */
export function demandsCredentials(security: unknown): boolean {
  const requirements = asArray(security);
  return requirements.length > 0 && requirements.every((requirement) => isObject(requirement) && Object.keys(requirement).length > 0);
}

/**
 * A 401 on a path the description protects, when the user gave no credentials: the API did what it
 * should. The path is remembered for the report and the answer is not judged as a failure.
 */
export function answeredNeedsCredentials(context: CheckContext, path: string, exchange: Exchange): boolean {
  if (exchange.status !== 401 || context.hasCredentials || !requiresCredentials(context.description, path, context.pathKeyPrefix)) return false;
  context.needCredentials.add(pathLabel(context.baseUrl, path));
  return true;
}

const MAX_PATHS = 25;

/**
 * Paths to probe: those with a GET and no variables, and those whose every variable has an
 * example in the description (parameter or schema example), plus the ones given with --path.
 */
export function concreteGetPaths(description: JsonObject | undefined, extra: string[]): string[] {
  const found: string[] = [];
  for (const [pathKey, pathItem] of entries(description?.paths)) {
    if (!isObject(pathItem) || !isObject(pathItem.get) || !pathKey.startsWith('/')) continue;
    const parameters = [...parameterList(pathItem.parameters), ...parameterList(pathItem.get.parameters)].map((parameter) => followLocalReference(description, parameter));
    const concrete = fillVariables(pathKey, parameters);
    // The description's `/` is the base URL itself: `https://host/v1`, not `https://host/v1/`.
    if (concrete !== undefined && staysUnderBase(concrete)) found.push(concrete === '/' ? '' : concrete);
  }
  return [...new Set([...found, ...extra.map((path) => (path.startsWith('/') ? path : `/${path}`))])].slice(0, MAX_PATHS);
}

/** A path key that, appended to any base URL, stays under it (`/../admin`, `/%2e%2e/x` do not). */
function staysUnderBase(path: string): boolean {
  return isUnderBase('http://base.invalid/b', `http://base.invalid/b${path}`);
}

/** Parameters are often shared as `#/components/parameters/...`; the downloaded description is unresolved. */
export function followLocalReference(description: JsonObject | undefined, parameter: JsonObject): JsonObject {
  if (typeof parameter.$ref !== 'string' || !parameter.$ref.startsWith('#/')) return parameter;
  const segments = parameter.$ref.slice(2).split('/').map((segment) => safeDecode(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
  const target = valueAt(description, segments);
  return isObject(target) ? target : parameter;
}

function parameterList(value: unknown): JsonObject[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function fillVariables(pathKey: string, parameters: JsonObject[]): string | undefined {
  let missing = false;
  const filled = pathKey.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const parameter = parameters.find((candidate) => candidate.in === 'path' && candidate.name === name);
    const example = parameter?.example ?? asObject(parameter?.schema).example ?? firstExample(parameter?.examples);
    if (example === undefined || example === null || typeof example === 'object') {
      missing = true;
      return '';
    }
    const encoded = encodeSegment(String(example));
    if (encoded === undefined) missing = true;
    return encoded ?? '';
  });
  return missing ? undefined : filled;
}

/** A path segment for an example value; undefined for a string no URL can carry (a lone surrogate). */
function encodeSegment(value: string): string | undefined {
  try {
    return encodeURIComponent(value);
  } catch {
    return undefined;
  }
}

function firstExample(examples: unknown): unknown {
  const [first] = entries(examples);
  return first === undefined ? undefined : asObject(first[1]).value;
}
