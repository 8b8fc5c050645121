import { asArray, asObject, entries, isObject, type JsonObject } from './json.js';
import { isAnyOperationMethod } from './openapi.js';
import { matchesPathTemplate } from './path-template.js';
import { walkSchema } from './schema-walk.js';
import { expandServerUrl } from './server-url.js';

/**
 * The names the OAuth RFCs fix for the parameters and members of the payloads of the token,
 * revocation and introspection endpoints: snake_case by standard, so no API renames them.
 * The NL GOV profile has clients authenticate with private_key_jwt (RFC 7523), hence the
 * assertion parameters of RFC 7521.
 */
export const OAUTH_PAYLOAD_NAMES: ReadonlyMap<string, readonly string[]> = new Map([
  ['RFC 6749', [
    'grant_type', 'code', 'redirect_uri', 'client_id', 'client_secret', 'username', 'password', 'scope', 'state', 'response_type',
    'refresh_token', 'access_token', 'token_type', 'expires_in', 'error', 'error_description', 'error_uri',
  ]],
  ['RFC 7636', ['code_verifier', 'code_challenge', 'code_challenge_method']],
  ['RFC 7521/7523', ['client_assertion', 'client_assertion_type', 'assertion']],
  ['RFC 8693', [
    'resource', 'audience', 'requested_token_type', 'subject_token', 'subject_token_type', 'actor_token', 'actor_token_type', 'issued_token_type',
  ]],
  ['RFC 7009', ['token', 'token_type_hint']],
  ['RFC 7662', ['active', 'exp', 'iat', 'nbf', 'sub', 'aud', 'iss', 'jti']],
]);

const OAUTH_NAMES: ReadonlySet<string> = new Set([...OAUTH_PAYLOAD_NAMES.values()].flat());

export function isOAuthPayloadName(name: string): boolean {
  return OAUTH_NAMES.has(name);
}

/**
 * The extension that marks a path item or an operation as an OAuth endpoint of the
 * authorization server: OpenAPI has a field for the token endpoint (a flow's `tokenUrl`), none
 * for the revocation (RFC 7009) and introspection (RFC 7662) endpoints.
 */
export const OAUTH_ENDPOINT_MARKER = 'x-oauth-endpoint';
export const OAUTH_ENDPOINT_KINDS: readonly string[] = ['token', 'revocation', 'introspection'];

/** The flow fields that name the token endpoint: a refresh token is exchanged there too. */
const TOKEN_URL_FIELDS = ['tokenUrl', 'refreshUrl'];

/** Where relative server URLs are parsed: only their path counts. */
const RELATIVE_BASE = 'https://relative.invalid';

function isMarked(node: JsonObject): boolean {
  const marker = node[OAUTH_ENDPOINT_MARKER];
  return typeof marker === 'string' && OAUTH_ENDPOINT_KINDS.includes(marker);
}

/** The `tokenUrl`s and `refreshUrl`s of every oauth2 scheme's flows. */
function tokenUrls(document: JsonObject): string[] {
  return entries(asObject(document.components).securitySchemes)
    .filter(([, scheme]) => asObject(scheme).type === 'oauth2')
    .flatMap(([, scheme]) => entries(asObject(scheme).flows))
    .flatMap(([, flow]) => TOKEN_URL_FIELDS.map((field) => asObject(flow)[field]))
    .filter((url): url is string => typeof url === 'string' && url.trim() !== '');
}

interface ServerBase {
  /** Undefined for a relative server URL: the host is the description's, unknown here. */
  origin?: string;
  /** Without a trailing slash: `/monumenten/v1`, or `` for the root. */
  path: string;
}

/** The root servers' URLs (variables at their defaults); `/` when the description has none. */
function serverBases(document: JsonObject): ServerBase[] {
  const urls = asArray(document.servers).map(expandServerUrl).filter((url): url is string => url !== undefined);
  const bases = (urls.length > 0 ? urls : ['/']).flatMap((url): ServerBase[] => {
    const absolute = /^[a-z][a-z0-9+.-]*:/i.test(url);
    try {
      const parsed = new URL(url, RELATIVE_BASE);
      return [{ origin: absolute ? parsed.origin : undefined, path: parsed.pathname.replace(/\/+$/, '') }];
    } catch {
      return [];
    }
  });
  return bases;
}

/**
 * The description paths a token URL can name. Relative to a server URL, the server URL is the
 * base it extends (`oauth/token` below `https://host/v1` is `/v1/oauth/token`, as clients join
 * them); a path below the server's base path is the rest of it (`/v1/oauth/token` is
 * `/oauth/token`). A URL relative to the host (`/oauth/token`) is read the way its author most
 * likely meant it, too: as the description's path itself.
 */
function candidatePaths(tokenUrl: string, bases: ServerBase[]): string[] {
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(tokenUrl);
  const candidates = new Set<string>();
  for (const base of bases) {
    if (absolute && base.origin !== undefined && !sameOrigin(tokenUrl, base.origin)) continue;
    let resolved: URL;
    try {
      resolved = new URL(tokenUrl, `${base.origin ?? RELATIVE_BASE}${base.path}/`);
    } catch {
      continue;
    }
    const path = safeDecode(resolved.pathname).replace(/(.)\/+$/, '$1');
    if (path.startsWith(`${base.path}/`)) candidates.add(path.slice(base.path.length));
    if (!absolute) candidates.add(path);
  }
  return [...candidates];
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

function safeDecode(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

function namesPath(pathKey: string, candidates: string[]): boolean {
  const key = pathKey.replace(/(.)\/+$/, '$1');
  return candidates.some((candidate) => candidate === key || (key.includes('{') && matchesPathTemplate(key, candidate)));
}

/**
 * The operations of the description that are OAuth endpoints: those on a path a flow's
 * `tokenUrl` or `refreshUrl` names, those marked with `x-oauth-endpoint`, and every operation
 * of a path item so marked.
 */
export function oauthEndpointOperations(document: unknown): JsonObject[] {
  if (!isObject(document)) return [];
  const bases = serverBases(document);
  const candidates = tokenUrls(document).flatMap((url) => candidatePaths(url, bases));
  const operations: JsonObject[] = [];
  for (const [pathKey, pathItem] of entries(document.paths)) {
    if (!isObject(pathItem) || pathKey.startsWith('x-')) continue;
    const wholePath = isMarked(pathItem) || namesPath(pathKey, candidates);
    for (const [method, operation] of Object.entries(pathItem)) {
      if (isAnyOperationMethod(method) && isObject(operation) && (wholePath || isMarked(operation))) operations.push(operation);
    }
  }
  return operations;
}

const payloadCache = new WeakMap<object, WeakSet<object>>();

/**
 * Every schema of the request bodies and responses of the OAuth endpoints, at any depth, as the
 * objects of the resolved document: a token response shared through `components` is the same
 * object there. Worked out once per document.
 */
export function oauthPayloadSchemas(document: unknown): WeakSet<object> {
  const cached = isObject(document) ? payloadCache.get(document) : undefined;
  if (cached !== undefined) return cached;
  const schemas = new WeakSet<object>();
  const collect = (holder: unknown) => {
    for (const [, media] of entries(asObject(holder).content)) walkSchema(asObject(media).schema, [], () => undefined, schemas);
  };
  for (const operation of oauthEndpointOperations(document)) {
    collect(operation.requestBody);
    for (const [, response] of entries(operation.responses)) collect(response);
  }
  if (isObject(document)) payloadCache.set(document, schemas);
  return schemas;
}
