import { safeDecode } from '../../lib/uri.js';
import { asObject, isObject, valueAt, type JsonObject } from '../../lib/json.js';

/**
 * What the description says of a response header, read through local `$ref`s (a response shared
 * in components.responses, a header in components.headers), as OpenAPI resolves them.
 */

/** A chain of references longer than this is a loop or an attack, not a description. */
const MAX_REFERENCE_HOPS = 16;

/** The object a local `$ref` chain ends at; the value itself when it is no reference. */
export function throughReferences(description: JsonObject | undefined, value: unknown): JsonObject {
  let current = value;
  for (let hop = 0; hop < MAX_REFERENCE_HOPS && isObject(current) && typeof current.$ref === 'string'; hop += 1) {
    const reference = current.$ref;
    if (!reference.startsWith('#/')) return {};
    current = valueAt(description, reference.slice(2).split('/').map((segment) => safeDecode(segment).replace(/~1/g, '/').replace(/~0/g, '~')));
  }
  return isObject(current) && typeof current.$ref !== 'string' ? current : {};
}

/** The response object for a status: the exact code, then its range (`2XX`), then `default`. */
export function responseFor(description: JsonObject | undefined, operation: JsonObject, status: number): JsonObject {
  const responses = throughReferences(description, operation.responses);
  const range = `${String(status).charAt(0)}XX`;
  const key = [String(status), range, range.toLowerCase(), 'default'].find((candidate) => responses[candidate] !== undefined);
  return key === undefined ? {} : throughReferences(description, responses[key]);
}

export type Declaration = 'required' | 'declared' | 'undeclared';

/** Whether the response declares the header, and with `required: true`. */
export function headerDeclaration(description: JsonObject | undefined, response: JsonObject, header: string): Declaration {
  const lower = header.toLowerCase();
  const entry = Object.entries(asObject(response.headers)).find(([name]) => name.toLowerCase() === lower);
  if (entry === undefined) return 'undeclared';
  return throughReferences(description, entry[1]).required === true ? 'required' : 'declared';
}
