import { asObject, entries, isObject, type JsonObject } from './json.js';

/** The operations the standard allows; they are also the ones the rules look into. */
export const OPERATION_METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;
/** Methods OpenAPI can declare but /core/http-methods forbids. */
export const FORBIDDEN_METHODS = ['head', 'options', 'trace'] as const;


/**
 * An object still holding a `$ref` in Spectral's resolved document: a reference that did not
 * resolve. /core/doc-openapi reports it; rules that judge what it should have pointed at skip it.
 */
export function isUnresolvedReference(value: unknown): boolean {
  return isObject(value) && typeof value.$ref === 'string';
}

/**
 * The media type and schema of a parameter or header declared with `content` (one media type)
 * instead of `schema`; undefined when it has no `content`.
 */
export function contentSchemaOf(declaration: JsonObject): [string, unknown] | undefined {
  const [entry] = Object.entries(asObject(declaration.content));
  return entry === undefined ? undefined : [entry[0], asObject(entry[1]).schema];
}

/** Status keys are codes (`200`) or ranges (`2XX`); the class is the first digit. */
export function statusClass(statusKey: string): number | undefined {
  const match = /^([1-5])(\d\d|xx)$/i.exec(statusKey);
  return match ? Number(match[1]) : undefined;
}

export function isOperationMethod(key: string): boolean {
  return (OPERATION_METHODS as readonly string[]).includes(key);
}

/** Any method OpenAPI can declare on a path item, allowed or not. */
export function isAnyOperationMethod(key: string): boolean {
  return isOperationMethod(key) || (FORBIDDEN_METHODS as readonly string[]).includes(key);
}

/** Media type names compare case-insensitively and without parameters (`; charset=utf-8`). */
export function mediaTypeName(key: string): string {
  return (key.split(';')[0] ?? '').trim().toLowerCase();
}

export function isJsonMediaType(key: string): boolean {
  const name = mediaTypeName(key);
  return name === 'application/json' || /^application\/[a-z0-9.+-]*\+json$/.test(name);
}

/** Case-insensitive lookup of a header in a resolved `headers` map. */
export function findHeader(headers: unknown, name: string): [string, JsonObject] | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of entries(headers)) {
    if (key.toLowerCase() === wanted) return [key, asObject(value)];
  }
  return undefined;
}

export interface OperationRef {
  pathKey: string;
  method: string;
  operation: JsonObject;
  pathItem: JsonObject;
}

export function operationsOf(document: unknown): OperationRef[] {
  const found: OperationRef[] = [];
  for (const [pathKey, pathItem] of entries(asObject(document).paths)) {
    if (!isObject(pathItem) || pathKey.startsWith('x-')) continue;
    for (const method of OPERATION_METHODS) {
      const operation = pathItem[method];
      if (isObject(operation)) found.push({ pathKey, method, operation, pathItem });
    }
  }
  return found;
}

/** Path-level and operation-level parameters; an operation-level one overrides by name + in. */
export function effectiveParameters(pathItem: JsonObject, operation: JsonObject): JsonObject[] {
  const byKey = new Map<string, JsonObject>();
  for (const list of [pathItem.parameters, operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const parameter of list) {
      if (!isObject(parameter)) continue;
      // An unresolved `$ref` has no name yet; keyed by the reference, it cannot hide another.
      byKey.set(typeof parameter.$ref === 'string' ? parameter.$ref : `${String(parameter.in)}:${String(parameter.name)}`, parameter);
    }
  }
  return [...byKey.values()];
}
