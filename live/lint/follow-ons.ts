import { asArray, asObject, isObject, valueAt, type JsonObject } from '../../lib/json.js';
import { safeDecode } from '../../lib/uri.js';

const MAX_LOCAL_HOPS = 16;

/**
 * Whether a `path-params` diagnostic (at `paths.<key>.<method>`) only follows from a reference that
 * was not read: the operation or its path item takes a parameter whose `$ref` leads (through local
 * references) to another document. That reference is reported once, by /core/doc-openapi; the
 * parameters it would have defined are not missing from the description, only unread.
 */
export function followsFromUnreadParameter(document: unknown, path: readonly (string | number)[]): boolean {
  if (path[0] !== 'paths' || path.length < 3) return false;
  const pathItem = asObject(asObject(asObject(document).paths)[String(path[1])]);
  const operation = asObject(pathItem[String(path[2])]);
  return [...asArray(pathItem.parameters), ...asArray(operation.parameters)].some((parameter) => leadsToAnotherDocument(document, parameter));
}

function leadsToAnotherDocument(document: unknown, value: unknown): boolean {
  let current: unknown = value;
  for (let hop = 0; hop < MAX_LOCAL_HOPS; hop += 1) {
    if (!isObject(current) || typeof current.$ref !== 'string') return false;
    if (!current.$ref.startsWith('#')) return true;
    current = localTarget(document, current.$ref);
  }
  return false;
}

function localTarget(document: unknown, reference: string): JsonObject | undefined {
  const segments = reference.slice(1).split('/').slice(1).map((segment) => safeDecode(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
  const target = valueAt(document, segments);
  return isObject(target) ? target : undefined;
}
