import { isObject, type JsonObject } from './json.js';
import type { JsonPath } from '@stoplight/types';
import { isAnyOperationMethod } from './openapi.js';

export type SchemaVisitor = (schema: JsonObject, path: JsonPath) => void;

/** Keywords whose value is one subschema, a list of them, or a map of them (JSON Schema 2020-12 included, for OpenAPI 3.1). */
const SUBSCHEMA_SINGLES = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'additionalItems', 'unevaluatedItems', 'unevaluatedProperties', 'propertyNames'] as const;
const SUBSCHEMA_LISTS = ['allOf', 'oneOf', 'anyOf', 'prefixItems', 'items'] as const;
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;

/**
 * Visits a schema and every subschema reachable through the keywords above, with the exact path
 * of each. `seen` makes a schema shared through `$ref` (one object in the resolved document)
 * visited once, at the first path that reaches it, and keeps circular schemas finite.
 * Values of `example`, `examples`, `default`, `enum` and `const` are data, never walked.
 */
export function walkSchema(schema: unknown, path: JsonPath, visit: SchemaVisitor, seen: WeakSet<object>): void {
  if (!isObject(schema) || seen.has(schema)) return;
  seen.add(schema);
  visit(schema, path);
  walkBelow(schema, path, visit, seen);
}

/** The subschemas of a schema already visited, each once. */
function walkBelow(schema: JsonObject, path: JsonPath, visit: SchemaVisitor, seen: WeakSet<object>): void {
  const stack: Array<[JsonObject, JsonPath]> = [];
  pushChildren(stack, schema, path, seen);
  while (stack.length > 0) {
    const [node, nodePath] = stack.pop() as [JsonObject, JsonPath];
    if (seen.has(node)) continue;
    seen.add(node);
    visit(node, nodePath);
    pushChildren(stack, node, nodePath, seen);
  }
}

/**
 * Pushes the subschemas of `node` last one first, so that the first is visited first and paths
 * follow document order: the maps' entries, then the single subschemas, then the lists' items.
 * Indexed loops and no intermediate lists: the walk meets tens of thousands of schemas. A child
 * already visited is not pushed (it would be skipped when popped), which spares building its path:
 * shared schemas are reached again at every `$ref` (a third less time on GitHub's description).
 */
function pushChildren(stack: Array<[JsonObject, JsonPath]>, node: JsonObject, nodePath: JsonPath, seen: WeakSet<object>): void {
  for (let k = SUBSCHEMA_LISTS.length - 1; k >= 0; k -= 1) {
    const key = SUBSCHEMA_LISTS[k] as string;
    const list = node[key];
    if (!Array.isArray(list)) continue;
    for (let index = list.length - 1; index >= 0; index -= 1) {
      const child: unknown = list[index];
      if (isObject(child) && !seen.has(child)) stack.push([child, [...nodePath, key, index]]);
    }
  }
  for (let k = SUBSCHEMA_SINGLES.length - 1; k >= 0; k -= 1) {
    const key = SUBSCHEMA_SINGLES[k] as string;
    const child = node[key];
    if (isObject(child) && !seen.has(child)) stack.push([child, [...nodePath, key]]);
  }
  for (let k = SUBSCHEMA_MAPS.length - 1; k >= 0; k -= 1) {
    const key = SUBSCHEMA_MAPS[k] as string;
    const map = node[key];
    if (!isObject(map)) continue;
    const names = Object.keys(map);
    for (let index = names.length - 1; index >= 0; index -= 1) {
      const name = names[index] as string;
      const child = map[name];
      if (isObject(child) && !seen.has(child)) stack.push([child, [...nodePath, key, name]]);
    }
  }
}

type Roots = Array<[unknown, JsonPath]>;

/**
 * Every schema root of an OpenAPI 3 document: `components.schemas` first (so a shared schema is
 * reported at its definition), then the schemas of parameters, headers, request bodies and
 * responses under `components`, `paths` (callbacks included), `webhooks` (3.1) and `x-webhooks`
 * (where 3.0 descriptions such as GitHub's write theirs).
 */
export function schemaRoots(document: unknown): Roots {
  const roots: Roots = [];
  if (!isObject(document)) return roots;
  const components = isObject(document.components) ? document.components : {};
  const seenPathItems = new WeakSet<object>();
  for (const [name, schema] of objectEntries(components.schemas)) roots.push([schema, ['components', 'schemas', name]]);
  for (const [name, parameter] of objectEntries(components.parameters)) addParameter(roots, parameter, ['components', 'parameters', name]);
  for (const [name, header] of objectEntries(components.headers)) addParameter(roots, header, ['components', 'headers', name]);
  for (const [name, body] of objectEntries(components.requestBodies)) addContent(roots, body, ['components', 'requestBodies', name]);
  for (const [name, response] of objectEntries(components.responses)) addResponse(roots, response, ['components', 'responses', name]);
  for (const [name, callback] of objectEntries(components.callbacks)) addCallback(roots, callback, ['components', 'callbacks', name], seenPathItems);
  for (const [pathKey, pathItem] of objectEntries(document.paths)) {
    if (!pathKey.startsWith('x-')) addPathItem(roots, pathItem, ['paths', pathKey], seenPathItems);
  }
  for (const key of ['webhooks', 'x-webhooks']) {
    for (const [name, pathItem] of objectEntries(document[key])) addPathItem(roots, pathItem, [key, name], seenPathItems);
  }
  return roots;
}

function addPathItem(roots: Roots, pathItem: unknown, path: JsonPath, seen: WeakSet<object>): void {
  if (!isObject(pathItem) || seen.has(pathItem)) return;
  seen.add(pathItem);
  addParameterList(roots, pathItem.parameters, [...path, 'parameters']);
  for (const [method, operation] of Object.entries(pathItem)) {
    if (!isAnyOperationMethod(method) || !isObject(operation)) continue;
    const base = [...path, method];
    addParameterList(roots, operation.parameters, [...base, 'parameters']);
    addContent(roots, operation.requestBody, [...base, 'requestBody']);
    for (const [status, response] of objectEntries(operation.responses)) addResponse(roots, response, [...base, 'responses', status]);
    for (const [name, callback] of objectEntries(operation.callbacks)) addCallback(roots, callback, [...base, 'callbacks', name], seen);
  }
}

function addCallback(roots: Roots, callback: unknown, path: JsonPath, seen: WeakSet<object>): void {
  for (const [expression, pathItem] of objectEntries(callback)) addPathItem(roots, pathItem, [...path, expression], seen);
}

function objectEntries(value: unknown): Array<[string, unknown]> {
  return isObject(value) ? Object.entries(value) : [];
}

function addParameterList(roots: Roots, list: unknown, path: JsonPath): void {
  if (Array.isArray(list)) list.forEach((parameter, index) => addParameter(roots, parameter, [...path, index]));
}

function addParameter(roots: Roots, parameter: unknown, path: JsonPath): void {
  if (!isObject(parameter)) return;
  if (parameter.schema !== undefined) roots.push([parameter.schema, [...path, 'schema']]);
  addContent(roots, parameter, path);
}

/** Media types' schemas, and the headers of their multipart encodings. */
function addContent(roots: Roots, holder: unknown, path: JsonPath): void {
  if (!isObject(holder)) return;
  for (const [mediaType, media] of objectEntries(holder.content)) {
    if (!isObject(media)) continue;
    const mediaPath = [...path, 'content', mediaType];
    if (media.schema !== undefined) roots.push([media.schema, [...mediaPath, 'schema']]);
    for (const [property, encoding] of objectEntries(media.encoding)) {
      for (const [name, header] of objectEntries(asRecord(encoding).headers)) addParameter(roots, header, [...mediaPath, 'encoding', property, 'headers', name]);
    }
  }
}

function asRecord(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

function addResponse(roots: Roots, response: unknown, path: JsonPath): void {
  if (!isObject(response)) return;
  for (const [name, header] of objectEntries(response.headers)) addParameter(roots, header, [...path, 'headers', name]);
  addContent(roots, response, path);
}

/** Walks every schema of the document once. */
export function walkDocumentSchemas(document: unknown, visit: SchemaVisitor): void {
  for (const [schema, path] of documentSchemas(document)) visit(schema, path);
}

type Visits = ReadonlyArray<readonly [JsonObject, JsonPath]>;

/**
 * The schemas of a document with their paths, listed once per frozen document (Spectral's
 * resolved document is frozen, so the list cannot go stale): several rules walk them all
 * (property names, geospatial detection), and on a large description one walk costs a second.
 */
const visitsCache = new WeakMap<object, Visits>();

function documentSchemas(document: unknown): Visits {
  const cached = isObject(document) ? visitsCache.get(document) : undefined;
  if (cached !== undefined) return cached;
  const visits: Array<readonly [JsonObject, JsonPath]> = [];
  const seen = new WeakSet<object>();
  const visit: SchemaVisitor = (node, nodePath) => visits.push([node, nodePath]);
  const roots = schemaRoots(document);
  // Every schema under components.schemas is visited at its definition before any walk goes
  // below one: reached first through another schema's `$ref`, it would be placed there, and a
  // finding on it would be mapped back through that `$ref` to the wrong node.
  const named: Array<[JsonObject, JsonPath]> = [];
  for (const [schema, path] of roots) {
    if (path[0] !== 'components' || path[1] !== 'schemas' || !isObject(schema) || seen.has(schema)) continue;
    seen.add(schema);
    visit(schema, path);
    named.push([schema, path]);
  }
  for (const [schema, path] of named) walkBelow(schema, path, visit, seen);
  for (const [schema, path] of roots) walkSchema(schema, path, visit, seen);
  if (isObject(document) && Object.isFrozen(document)) visitsCache.set(document, visits);
  return visits;
}
