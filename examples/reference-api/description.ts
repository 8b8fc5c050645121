import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/**
 * The OpenAPI description is the single source of the reference API: the routes, the methods
 * each one allows, the media types it produces and consumes, the query parameters and the
 * schemas the server validates against all come from openapi.yaml. What the server serves can
 * therefore not drift from what the description says.
 */

export type JsonObject = { [key: string]: unknown };
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export function isHttpMethod(value: string): value is HttpMethod {
  return (METHODS as readonly string[]).includes(value);
}

export const DESCRIPTION_PATH = fileURLToPath(new URL('./openapi.yaml', import.meta.url));

export type ParameterLocation = 'query' | 'header' | 'path';

export interface Parameter {
  name: string;
  /** JSON pointer (into the description) of the parameter's schema. */
  schemaPointer: string;
  schema: JsonObject;
}

export interface Operation {
  method: HttpMethod;
  operationId: string;
  /** Media type of the success response body; undefined when it has none (204). */
  produces: string | undefined;
  /** Media type and schema pointer of the request body, when the operation takes one. */
  requestBody: { mediaType: string; schemaPointer: string } | undefined;
  queryParameters: Parameter[];
  headerParameters: Parameter[];
  /**
   * The path parameters in effect: the path item's, each replaced by the operation's own of the
   * same name where it declares one (OpenAPI). An operation that narrows one (`collectionId` to
   * `percelen` only) does not serve the values it leaves out.
   */
  pathParameters: Parameter[];
  /** Whether the operation needs credentials: none of its security requirements is the empty `{}`. */
  requiresCredentials: boolean;
  /**
   * The scopes each non-empty security requirement asks for (all its schemes' lists together);
   * a token is good for the operation when it has every scope of one of them.
   */
  scopeSets: string[][];
}

export type Segment = { literal: string } | { parameter: string };

export interface Route {
  /** The path as written in the description, `/monumenten/{monumentId}`. */
  template: string;
  segments: Segment[];
  operations: Map<HttpMethod, Operation>;
}

export interface Description {
  document: JsonObject;
  /** The YAML exactly as written; /openapi.yaml serves it verbatim. */
  yamlText: string;
  title: string;
  version: string;
  routes: Route[];
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function pointerGet(document: JsonObject, pointer: string): unknown {
  const parts = pointer.replace(/^#?\//, '').split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = document;
  for (const part of parts) node = isObject(node) ? node[part] : Array.isArray(node) ? node[Number(part)] : undefined;
  return node;
}

/** Follows local `$ref`s; the pointer says where the value really lives, for schema refs from there. */
function resolve(document: JsonObject, value: unknown, pointer: string): { value: unknown; pointer: string } {
  let current = { value, pointer };
  for (let hops = 0; hops < 16 && isObject(current.value) && typeof current.value.$ref === 'string'; hops += 1) {
    const target = current.value.$ref;
    if (!target.startsWith('#/')) throw new Error(`only local $refs are supported: ${target}`);
    current = { value: pointerGet(document, target), pointer: target.slice(1) };
  }
  return current;
}

function firstMediaType(content: unknown): string | undefined {
  return isObject(content) ? Object.keys(content)[0] : undefined;
}

function successResponse(document: JsonObject, responses: unknown): JsonObject | undefined {
  if (!isObject(responses)) return undefined;
  const code = Object.keys(responses).find((key) => /^2/.test(key));
  const found = code === undefined ? undefined : resolve(document, responses[code], '').value;
  return isObject(found) ? found : undefined;
}

function parametersOf(document: JsonObject, list: unknown, pointer: string, location: ParameterLocation): Parameter[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry, index) => {
    const { value, pointer: at } = resolve(document, entry, `${pointer}/${index}`);
    if (!isObject(value) || value.in !== location || typeof value.name !== 'string' || !isObject(value.schema)) return [];
    return [{ name: value.name, schemaPointer: `${at}/schema`, schema: value.schema }];
  });
}

/**
 * The parameters of one location in effect for an operation: the path item's and the
 * operation's, the operation's winning where both declare one (OpenAPI; header names compare
 * case-insensitively).
 */
function parametersInEffect(document: JsonObject, pathItem: JsonObject, operation: JsonObject, pointers: { pathItem: string; operation: string }, location: ParameterLocation): Parameter[] {
  const key = (parameter: Parameter): string => (location === 'header' ? parameter.name.toLowerCase() : parameter.name);
  const own = parametersOf(document, operation.parameters, `${pointers.operation}/parameters`, location);
  const overridden = new Set(own.map(key));
  const inherited = parametersOf(document, pathItem.parameters, `${pointers.pathItem}/parameters`, location).filter((parameter) => !overridden.has(key(parameter)));
  return [...inherited, ...own];
}

function requestBodyOf(document: JsonObject, body: unknown, pointer: string): Operation['requestBody'] {
  const { value, pointer: at } = resolve(document, body, pointer);
  if (!isObject(value)) return undefined;
  const mediaType = firstMediaType(value.content);
  return mediaType === undefined ? undefined : { mediaType, schemaPointer: `${at}/content/${escapePointer(mediaType)}/schema` };
}

/**
 * OpenAPI: the operation's own `security`, else the document's. Credentials are needed when there
 * is at least one requirement and none of them is `{}`, the requirement that asks for nothing.
 */
function requiresCredentials(document: JsonObject, operation: JsonObject): boolean {
  const requirements = operation.security ?? document.security;
  return Array.isArray(requirements) && requirements.length > 0 && requirements.every((requirement) => isObject(requirement) && Object.keys(requirement).length > 0);
}

function scopeSetsOf(document: JsonObject, operation: JsonObject): string[][] {
  const requirements = operation.security ?? document.security;
  if (!Array.isArray(requirements)) return [];
  return requirements.filter((requirement): requirement is JsonObject => isObject(requirement) && Object.keys(requirement).length > 0)
    .map((requirement) => Object.values(requirement).flatMap((scopes) => (Array.isArray(scopes) ? scopes.filter((scope): scope is string => typeof scope === 'string') : [])));
}

/** The scopes the oauth2 schemes of the description define, each once. */
export function definedScopes(document: JsonObject): string[] {
  const schemes = isObject(document.components) && isObject(document.components.securitySchemes) ? Object.values(document.components.securitySchemes) : [];
  const scopes = schemes.filter((scheme): scheme is JsonObject => isObject(scheme) && scheme.type === 'oauth2' && isObject(scheme.flows))
    .flatMap((scheme) => Object.values(scheme.flows as JsonObject))
    .flatMap((flow) => (isObject(flow) && isObject(flow.scopes) ? Object.keys(flow.scopes) : []));
  return [...new Set(scopes)];
}

function operationOf(document: JsonObject, pathItem: JsonObject, method: HttpMethod, pointer: string): Operation | undefined {
  const operation = pathItem[method.toLowerCase()];
  if (!isObject(operation) || typeof operation.operationId !== 'string') return undefined;
  const at = `${pointer}/${method.toLowerCase()}`;
  const pointers = { pathItem: pointer, operation: at };
  return {
    method,
    operationId: operation.operationId,
    produces: firstMediaType(successResponse(document, operation.responses)?.content),
    requestBody: operation.requestBody === undefined ? undefined : requestBodyOf(document, operation.requestBody, `${at}/requestBody`),
    queryParameters: parametersInEffect(document, pathItem, operation, pointers, 'query'),
    headerParameters: parametersInEffect(document, pathItem, operation, pointers, 'header'),
    pathParameters: parametersInEffect(document, pathItem, operation, pointers, 'path'),
    requiresCredentials: requiresCredentials(document, operation),
    scopeSets: scopeSetsOf(document, operation),
  };
}

export function segmentsOf(template: string): Segment[] {
  if (template === '/') return [];
  return template.slice(1).split('/').map((part) => {
    const parameter = /^\{(.+)\}$/.exec(part)?.[1];
    return parameter === undefined ? { literal: part } : { parameter };
  });
}

function routesOf(document: JsonObject): Route[] {
  const paths = isObject(document.paths) ? document.paths : {};
  return Object.entries(paths).flatMap(([template, item]) => {
    if (!isObject(item)) return [];
    const pointer = `/paths/${escapePointer(template)}`;
    const operations = new Map<HttpMethod, Operation>();
    for (const method of METHODS) {
      const operation = operationOf(document, item, method, pointer);
      if (operation !== undefined) operations.set(method, operation);
    }
    return [{ template, segments: segmentsOf(template), operations }];
  });
}

export function parseDescription(yamlText: string): Description {
  const document: unknown = parse(yamlText);
  if (!isObject(document) || !isObject(document.info)) throw new Error('the description has no info object');
  const { title, version } = document.info;
  if (typeof title !== 'string' || typeof version !== 'string') throw new Error('the description lacks info.title or info.version');
  return { document, yamlText, title, version, routes: routesOf(document) };
}

export function loadDescription(path = DESCRIPTION_PATH): Description {
  return parseDescription(readFileSync(path, 'utf8'));
}

export interface RouteMatch {
  route: Route;
  parameters: Record<string, string>;
}

function matchSegments(segments: Segment[], parts: string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const parameters: Record<string, string> = {};
  for (const [index, segment] of segments.entries()) {
    const part = parts[index] ?? '';
    if ('literal' in segment) {
      if (segment.literal !== part) return undefined;
    } else {
      if (part === '') return undefined;
      parameters[segment.parameter] = part;
    }
  }
  return parameters;
}

function literalCount(route: Route): number {
  return route.segments.filter((segment) => 'literal' in segment).length;
}

/**
 * The route for a path below the base URL ('' is the base itself). As OpenAPI prescribes, a
 * concrete path wins over a templated one, so the route with the most literal segments is tried
 * first.
 */
export function matchRoute(routes: Route[], apiPath: string): RouteMatch | undefined {
  let parts: string[];
  try {
    parts = apiPath === '' ? [] : apiPath.slice(1).split('/').map(decodeURIComponent);
  } catch {
    return undefined;
  }
  const ordered = [...routes].sort((a, b) => literalCount(b) - literalCount(a));
  for (const route of ordered) {
    const parameters = matchSegments(route.segments, parts);
    if (parameters !== undefined) return { route, parameters };
  }
  return undefined;
}

/**
 * The methods a route answers: the declared ones, HEAD wherever GET is, and OPTIONS. With
 * `serves`, only the operations it accepts count: those that serve the path's values.
 */
export function allowedMethods(route: Route, serves: (operation: Operation) => boolean = () => true): string[] {
  const declared = [...route.operations.values()].filter(serves).map((operation) => operation.method);
  return [...declared, ...(declared.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
}
