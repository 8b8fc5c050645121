import type { IFunctionResult, RulesetFunctionContext } from '@stoplight/spectral-core';
import type { JsonPath } from '@stoplight/types';
import { ruleFunction } from '../lib/rule-function.js';
import { entries, isObject, type JsonObject } from '../lib/json.js';
import { resolverErrors } from '../lib/inventory.js';

const SUPPORTED_VERSION = /^3\.0\.\d+$/;
/** Data, not description: a `$ref` key inside these is not a reference. */
const DATA_KEYWORDS = new Set(['example', 'default', 'enum', 'const']);

/** /core/doc-openapi: an OpenAPI 3.0.x document with `paths` and only resolvable references. */
export default ruleFunction<null>({ input: null, options: null }, (document, _options, context) => {
  if (!isObject(document)) return [{ message: 'Document is not an OpenAPI object. Provide an OpenAPI 3.0.x description.', path: [] }];
  return [...versionFindings(document), ...pathsFindings(document), ...unresolvedReferences(document, context)];
});

function versionFindings(document: JsonObject): IFunctionResult[] {
  if (document.openapi === undefined) {
    const found = document.swagger !== undefined ? `swagger ${String(document.swagger)}` : 'no openapi field';
    const path = document.swagger !== undefined ? ['swagger'] : [];
    return [{ message: `OpenAPI version is not 3.0.x: ${found}. Describe the API in OpenAPI 3.0.x.`, path }];
  }
  const version = String(document.openapi);
  if (typeof document.openapi === 'string' && SUPPORTED_VERSION.test(version)) return [];
  return [{ message: `OpenAPI version is not 3.0.x: ${version}. Describe the API in OpenAPI 3.0.x.`, path: ['openapi'] }];
}

function pathsFindings(document: JsonObject): IFunctionResult[] {
  if (isObject(document.paths)) return [];
  return [{ message: 'Paths are not defined: no paths object. Add the paths of the API.', path: [] }];
}

/**
 * The resolver leaves a `$ref` it did not replace in place: a broken one, but also a circular
 * one, which is valid. Spectral's resolver errors say which references are broken; each place a
 * broken reference stands is reported, so one in a shared or external file is reported there.
 */
function unresolvedReferences(document: JsonObject, context: RulesetFunctionContext): IFunctionResult[] {
  const broken = brokenReferences(context);
  if (broken.size === 0) return [];
  const results: IFunctionResult[] = [];
  for (const [reference, path] of remainingReferences(document)) {
    if (!broken.has(reference)) continue;
    results.push({ message: `Reference does not resolve: ${reference}. Point the $ref at an existing definition.`, path: reportPath(context.document.data, path) });
  }
  return results;
}

/**
 * A `$ref` written in the linted file itself is reported at the `$ref` key. One reached through
 * another file is reported at its parent: Spectral maps a path inside that file by following its
 * references, and a path through the broken one would land on nothing.
 */
function reportPath(unresolvedRoot: unknown, path: JsonPath): JsonPath {
  const node = valueAt(unresolvedRoot, path);
  return isObject(node) && typeof node.$ref === 'string' ? [...path, '$ref'] : path.slice(0, -1);
}

function brokenReferences(context: RulesetFunctionContext): Set<string> {
  const broken = new Set<string>();
  const unresolved = context.document.data;
  for (const error of resolverErrors(context)) {
    const atPath = valueAt(unresolved, error.path);
    if (typeof atPath === 'string') broken.add(atPath);
    const named = /^'(.+)' does not exist/.exec(error.message);
    if (named?.[1] !== undefined) broken.add(named[1]);
  }
  return broken;
}

function valueAt(root: unknown, path: JsonPath): unknown {
  let node = root;
  for (const segment of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

/** Every `$ref` left in the resolved document, walking description, not data. */
function remainingReferences(document: JsonObject): Array<[string, JsonPath]> {
  const found: Array<[string, JsonPath]> = [];
  const seen = new WeakSet<object>();
  const stack: Array<[unknown, JsonPath, boolean]> = [[document, [], false]];
  while (stack.length > 0) {
    const [node, path, isExampleObject] = stack.pop() as [unknown, JsonPath, boolean];
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((child, index) => stack.push([child, [...path, index], false]));
      continue;
    }
    const record = node as JsonObject;
    if (typeof record.$ref === 'string') found.push([record.$ref, path]);
    for (const [key, child] of Object.entries(record)) {
      if (DATA_KEYWORDS.has(key) || key.startsWith('x-') || (isExampleObject && key === 'value')) continue;
      if (key === 'examples') {
        // A map of Example Objects (each may be a $ref); their `value` is data. A list is data.
        for (const [name, example] of entries(child)) stack.push([example, [...path, key, name], true]);
        continue;
      }
      stack.push([child, [...path, key], false]);
    }
  }
  return found;
}
