import type { IFunctionResult } from '@stoplight/spectral-core';
import { ruleFunction } from '../lib/rule-function.js';
import type { JsonPath } from '@stoplight/types';
import { isObject } from '../lib/json.js';

const SUPPORTED_VERSION = /^3\.0\.\d+$/;
/** Data, not description: a `$ref` key inside these is not a reference. */
const DATA_KEYWORDS = new Set(['example', 'examples', 'default', 'enum', 'const']);

/** /core/doc-openapi: an OpenAPI 3.0.x document with `paths` and only resolvable references. */
export default ruleFunction<null>({ input: null, options: null }, (document) => {
  if (!isObject(document)) return [{ message: 'Document is not an OpenAPI object. Provide an OpenAPI 3.0.x description.', path: [] }];
  return [...versionFindings(document), ...pathsFindings(document), ...unresolvedReferences(document)];
});

function versionFindings(document: Record<string, unknown>): IFunctionResult[] {
  if (document.openapi === undefined) {
    const found = document.swagger !== undefined ? `swagger ${String(document.swagger)}` : 'no openapi field';
    const path = document.swagger !== undefined ? ['swagger'] : [];
    return [{ message: `OpenAPI version is not 3.0.x: ${found}. Describe the API in OpenAPI 3.0.x.`, path }];
  }
  const version = String(document.openapi);
  if (typeof document.openapi === 'string' && SUPPORTED_VERSION.test(version)) return [];
  return [{ message: `OpenAPI version is not 3.0.x: ${version}. Describe the API in OpenAPI 3.0.x.`, path: ['openapi'] }];
}

function pathsFindings(document: Record<string, unknown>): IFunctionResult[] {
  if (isObject(document.paths)) return [];
  return [{ message: 'Paths are not defined: no paths object. Add the paths of the API.', path: [] }];
}

/** The resolver leaves a `$ref` it could not follow in place; find each, once. */
function unresolvedReferences(document: Record<string, unknown>): IFunctionResult[] {
  const results: IFunctionResult[] = [];
  const seen = new WeakSet<object>();
  const stack: Array<[unknown, JsonPath]> = [[document, []]];
  while (stack.length > 0) {
    const [node, path] = stack.pop() as [unknown, JsonPath];
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((child, index) => stack.push([child, [...path, index]]));
      continue;
    }
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === 'string') {
      results.push({ message: `Reference does not resolve: ${record.$ref}. Point the $ref at an existing definition.`, path: [...path, '$ref'] });
    }
    for (const [key, child] of Object.entries(record)) {
      if (!DATA_KEYWORDS.has(key) && !key.startsWith('x-')) stack.push([child, [...path, key]]);
    }
  }
  return results;
}
