import { isObject, type JsonObject } from './json.js';
import type { JsonPath } from '@stoplight/types';
import { isOperationMethod } from './openapi.js';

export type SchemaVisitor = (schema: JsonObject, path: JsonPath) => void;

const SUBSCHEMA_LISTS = ['allOf', 'oneOf', 'anyOf'] as const;
const SUBSCHEMA_SINGLES = ['items', 'additionalProperties', 'not'] as const;

/**
 * Visits a schema and every subschema reachable through `properties`, `items`,
 * `allOf/oneOf/anyOf`, `additionalProperties` and `not`, with the exact path of each.
 * `seen` makes a schema shared through `$ref` (one object in the resolved document) visited once,
 * at the first path that reaches it, and keeps circular schemas finite.
 * Values of `example`, `examples`, `default` and `enum` are data, never walked.
 */
export function walkSchema(schema: unknown, path: JsonPath, visit: SchemaVisitor, seen: WeakSet<object>): void {
  const stack: Array<[unknown, JsonPath]> = [[schema, path]];
  while (stack.length > 0) {
    const [node, nodePath] = stack.pop() as [unknown, JsonPath];
    if (!isObject(node) || seen.has(node)) continue;
    seen.add(node);
    visit(node, nodePath);
    const children: Array<[unknown, JsonPath]> = [];
    if (isObject(node.properties)) {
      for (const [name, child] of Object.entries(node.properties)) children.push([child, [...nodePath, 'properties', name]]);
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

/**
 * Every schema root of an OpenAPI 3 document: `components.schemas` first (so a shared schema is
 * reported at its definition), then the schemas of parameters, headers, request bodies and
 * responses under `components` and `paths`.
 */
export function schemaRoots(document: unknown): Array<[unknown, JsonPath]> {
  const roots: Array<[unknown, JsonPath]> = [];
  if (!isObject(document)) return roots;
  const components = isObject(document.components) ? document.components : {};
  for (const [name, schema] of objectEntries(components.schemas)) roots.push([schema, ['components', 'schemas', name]]);
  for (const [name, parameter] of objectEntries(components.parameters)) addParameter(roots, parameter, ['components', 'parameters', name]);
  for (const [name, header] of objectEntries(components.headers)) addParameter(roots, header, ['components', 'headers', name]);
  for (const [name, body] of objectEntries(components.requestBodies)) addContent(roots, body, ['components', 'requestBodies', name]);
  for (const [name, response] of objectEntries(components.responses)) addResponse(roots, response, ['components', 'responses', name]);
  for (const [pathKey, pathItem] of objectEntries(document.paths)) {
    if (!isObject(pathItem)) continue;
    addParameterList(roots, pathItem.parameters, ['paths', pathKey, 'parameters']);
    for (const [method, operation] of Object.entries(pathItem)) {
      if (!isOperationMethod(method) || !isObject(operation)) continue;
      const base = ['paths', pathKey, method];
      addParameterList(roots, operation.parameters, [...base, 'parameters']);
      addContent(roots, operation.requestBody, [...base, 'requestBody']);
      for (const [status, response] of objectEntries(operation.responses)) addResponse(roots, response, [...base, 'responses', status]);
    }
  }
  return roots;
}

function objectEntries(value: unknown): Array<[string, unknown]> {
  return isObject(value) ? Object.entries(value) : [];
}

function addParameterList(roots: Array<[unknown, JsonPath]>, list: unknown, path: JsonPath): void {
  if (Array.isArray(list)) list.forEach((parameter, index) => addParameter(roots, parameter, [...path, index]));
}

function addParameter(roots: Array<[unknown, JsonPath]>, parameter: unknown, path: JsonPath): void {
  if (!isObject(parameter)) return;
  if (parameter.schema !== undefined) roots.push([parameter.schema, [...path, 'schema']]);
  addContent(roots, parameter, path);
}

function addContent(roots: Array<[unknown, JsonPath]>, holder: unknown, path: JsonPath): void {
  if (!isObject(holder)) return;
  for (const [mediaType, media] of objectEntries(holder.content)) {
    if (isObject(media) && media.schema !== undefined) roots.push([media.schema, [...path, 'content', mediaType, 'schema']]);
  }
}

function addResponse(roots: Array<[unknown, JsonPath]>, response: unknown, path: JsonPath): void {
  if (!isObject(response)) return;
  for (const [name, header] of objectEntries(response.headers)) addParameter(roots, header, [...path, 'headers', name]);
  addContent(roots, response, path);
}

/** Walks every schema of the document once. */
export function walkDocumentSchemas(document: unknown, visit: SchemaVisitor): void {
  const seen = new WeakSet<object>();
  for (const [schema, path] of schemaRoots(document)) walkSchema(schema, path, visit, seen);
}
