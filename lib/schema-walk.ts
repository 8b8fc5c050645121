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
  const stack: Array<[unknown, JsonPath]> = [[schema, path]];
  while (stack.length > 0) {
    const [node, nodePath] = stack.pop() as [unknown, JsonPath];
    if (!isObject(node) || seen.has(node)) continue;
    seen.add(node);
    visit(node, nodePath);
    const children: Array<[unknown, JsonPath]> = [];
    for (const key of SUBSCHEMA_MAPS) {
      const map = node[key];
      if (isObject(map)) for (const [name, child] of Object.entries(map)) children.push([child, [...nodePath, key, name]]);
    }
    for (const key of SUBSCHEMA_SINGLES) {
      if (isObject(node[key])) children.push([node[key], [...nodePath, key]]);
    }
    for (const key of SUBSCHEMA_LISTS) {
      const list = node[key];
      if (Array.isArray(list)) list.forEach((child, index) => children.push([child, [...nodePath, key, index]]));
    }
    // Reverse so that the first child is visited first: paths then follow document order.
    for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index] as [unknown, JsonPath]);
  }
}

type Roots = Array<[unknown, JsonPath]>;

/**
 * Every schema root of an OpenAPI 3 document: `components.schemas` first (so a shared schema is
 * reported at its definition), then the schemas of parameters, headers, request bodies and
 * responses under `components`, `paths` (callbacks included) and `webhooks`.
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
  for (const [name, pathItem] of objectEntries(document.webhooks)) addPathItem(roots, pathItem, ['webhooks', name], seenPathItems);
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
  const seen = new WeakSet<object>();
  for (const [schema, path] of schemaRoots(document)) walkSchema(schema, path, visit, seen);
}
