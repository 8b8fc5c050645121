import { asArray, isObject, type JsonObject } from './json.js';
import { walkDocumentSchemas } from './schema-walk.js';

/**
 * The members RFC 7517 (JSON Web Key, section 4) and RFC 7518 (the parameters of EC, RSA and
 * symmetric keys, section 6) fix for a JWK, `oth`'s `r`, `d` and `t` included. A description
 * that embeds a JWK or a JWK Set (`keys`, a list of JWKs) keeps these names as they are.
 */
export const JWK_MEMBER_NAMES: readonly string[] = [
  'kty', 'use', 'key_ops', 'alg', 'kid', 'x5u', 'x5c', 'x5t', 'x5t#S256',
  'crv', 'x', 'y', 'd', 'n', 'e', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'r', 't', 'k',
];

const JWK_NAMES: ReadonlySet<string> = new Set(JWK_MEMBER_NAMES);

export function isJwkMemberName(name: string): boolean {
  return JWK_NAMES.has(name);
}

const COMPOSITION = ['allOf', 'oneOf', 'anyOf'] as const;

/**
 * A schema is a JWK when `kty` is among its properties: its own, or those of a part it is
 * composed of (allOf, oneOf, anyOf), at any depth. `kty` is the one member every JWK has
 * (RFC 7517, 4.1), and no other common object uses the name. A search from the schema through
 * its parts, each part looked at once; answers are kept per schema in `known`.
 */
function isJwk(schema: JsonObject, known: WeakMap<object, boolean>): boolean {
  const cached = known.get(schema);
  if (cached !== undefined) return cached;
  const result = reachesKeyType(schema, known);
  known.set(schema, result);
  return result;
}

function reachesKeyType(schema: JsonObject, known: WeakMap<object, boolean>): boolean {
  const visited = new Set<object>();
  const stack = [schema];
  while (stack.length > 0) {
    const node = stack.pop() as JsonObject;
    if (visited.has(node)) continue;
    visited.add(node);
    if (known.get(node) === true || (isObject(node.properties) && isObject(node.properties.kty))) return true;
    // A part already judged to lack `kty` leads to none below it either.
    if (known.get(node) !== false) stack.push(...partsOf(node));
  }
  return false;
}

function partsOf(schema: JsonObject): JsonObject[] {
  return COMPOSITION.flatMap((keyword) => asArray(schema[keyword]).filter(isObject));
}

/** A JWK and the parts it is composed of: a part's `key_ops` is the JWK's. */
function addWithParts(schema: JsonObject, found: WeakSet<object>): void {
  const stack = [schema];
  while (stack.length > 0) {
    const node = stack.pop() as JsonObject;
    if (found.has(node)) continue;
    found.add(node);
    stack.push(...partsOf(node));
  }
}

const jwkCache = new WeakMap<object, WeakSet<object>>();

/** The schemas of a document that are JWKs, or parts of one; worked out once per document. */
export function jwkSchemas(document: unknown): WeakSet<object> {
  const cached = isObject(document) ? jwkCache.get(document) : undefined;
  if (cached !== undefined) return cached;
  const found = new WeakSet<object>();
  const known = new WeakMap<object, boolean>();
  walkDocumentSchemas(document, (schema) => {
    if (isJwk(schema, known)) addWithParts(schema, found);
  });
  if (isObject(document)) jwkCache.set(document, found);
  return found;
}
