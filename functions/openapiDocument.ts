import type { IFunctionResult, RulesetFunctionContext } from '@stoplight/spectral-core';
import type { JsonPath } from '@stoplight/types';
import { ruleFunction } from '../lib/rule-function.js';
import { entries, isObject, valueAt, type JsonObject } from '../lib/json.js';
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
  const found = document.paths === undefined ? 'no paths object' : `paths is ${Array.isArray(document.paths) ? 'an array' : JSON.stringify(document.paths)}`;
  return [{ message: `Paths are not defined: ${found}. Add the paths of the API as an object.`, path: document.paths === undefined ? [] : ['paths'] }];
}

/**
 * The resolver leaves a `$ref` it did not replace in place: a broken one, but also a circular
 * one, which is valid. Spectral's resolver errors say which references are broken; each place a
 * broken reference stands is reported, so one in a shared or external file is reported there.
 */
function unresolvedReferences(document: JsonObject, context: RulesetFunctionContext): IFunctionResult[] {
  const broken = brokenReferences(context);
  if (broken.exact.size === 0 && broken.targets.length === 0) return [];
  const results: IFunctionResult[] = [];
  for (const [reference, path] of remainingReferences(document)) {
    const place = placeOf(context, path);
    if (!isBroken(reference, place.writtenIn, broken)) continue;
    results.push({ message: `Reference does not resolve: ${reference}. Point the $ref at an existing definition.`, path: reportPath(context.document.data, place.path) });
  }
  return results;
}

/**
 * A `$ref` written in the linted file itself is reported at the `$ref` key, where it is written
 * (the walk may have reached it through another `$ref`). One in another file is reported at its
 * parent: Spectral maps a path inside that file by following its references, and a path through
 * the broken one would land on nothing.
 */
function reportPath(unresolvedRoot: unknown, path: JsonPath): JsonPath {
  const node = valueAt(unresolvedRoot, path);
  return isObject(node) && typeof node.$ref === 'string' ? [...path, '$ref'] : path.slice(0, -1);
}

interface BrokenTarget {
  /** `#/components/x`, or undefined where the whole file is missing. */
  pointer?: string;
  /** Absolute path of the file the pointer was looked up in, when the resolver says. */
  file?: string;
  /**
   * The file the failed `$ref` is written in. Spectral names the linted file as the source of
   * every resolver error; the error's path, looked up in the linted file, tells the two apart.
   * Known for pointers only: a missing file is matched by its name.
   */
  where?: WrittenIn;
}

interface BrokenReferences {
  /** `$ref` values, as written in the linted file, that failed. */
  exact: Set<string>;
  targets: BrokenTarget[];
}

const POINTER_ERROR = /^'(.*)' (?:does not exist|JSON pointer is invalid)(?: @ '(.*)')?/;
const MISSING_FILE = /open '(.+)'/;

/** Resolver errors name the pointer and file that failed, or the missing file. */
function brokenReferences(context: RulesetFunctionContext): BrokenReferences {
  const broken: BrokenReferences = { exact: new Set(), targets: [] };
  for (const error of resolverErrors(context)) {
    const written = valueAt(context.document.data, error.path);
    if (typeof written === 'string') broken.exact.add(written);
    const pointer = POINTER_ERROR.exec(error.message);
    if (pointer !== null) {
      const [, target, file] = pointer;
      const where: WrittenIn = file !== undefined ? (file === context.document.source ? 'linted file' : 'other file') : written === target ? 'linted file' : 'other file';
      broken.targets.push({ pointer: target, file, where });
    }
    const file = MISSING_FILE.exec(error.message);
    if (file !== null) broken.targets.push({ file: file[1] });
  }
  return broken;
}

/** Where a remaining reference is written: in the linted file, or in a file it references. */
type WrittenIn = 'linted file' | 'other file';

/**
 * Where the `$ref` at a path of the resolved document is written. Its parent is placed as
 * Spectral places findings, following the references on the way (the `$ref` itself would be
 * followed to where it points): the file, and in the linted file the path where it is written.
 */
function placeOf(context: RulesetFunctionContext, path: JsonPath): { writtenIn: WrittenIn; path: JsonPath } {
  if (path.length === 0) return { writtenIn: 'linted file', path };
  const parent = context.documentInventory.findAssociatedItemForPath(path.slice(0, -1), true);
  if (parent === null) return { writtenIn: 'linted file', path };
  if (parent.document.source !== context.document.source) return { writtenIn: 'other file', path };
  const written = [...parent.path, path[path.length - 1] as string | number];
  return { writtenIn: 'linted file', path: isObject(valueAt(context.document.data, written)) ? written : path };
}

/**
 * A local pointer (`#/components/schemas/Boom`) is looked up in the file it is written in: a
 * pointer broken in another file says nothing about the same pointer in the linted file, where
 * it may be a valid circular reference.
 */
function isBroken(reference: string, where: WrittenIn, broken: BrokenReferences): boolean {
  if (where === 'linted file' && broken.exact.has(reference)) return true;
  const hash = reference.indexOf('#');
  const filePart = hash < 0 ? reference : reference.slice(0, hash);
  const pointer = hash < 0 ? undefined : reference.slice(hash);
  const fileTail = filePart.replace(/^(\.\.?\/)+/, '');
  return broken.targets.some((target) => {
    if (target.pointer !== undefined && target.pointer !== pointer) return false;
    if (filePart === '') return target.pointer !== undefined && target.where === where;
    if (target.file === undefined) return target.pointer !== undefined;
    return target.file.endsWith(`/${fileTail}`) || target.file === fileTail;
  });
}

/** Keys whose value is a map from names to things: its keys are names, never keywords. */
const NAME_MAPS = new Set([
  'paths', 'properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas', 'schemas', 'responses',
  'parameters', 'headers', 'content', 'securitySchemes', 'callbacks', 'links', 'requestBodies', 'variables',
  'encoding', 'webhooks', 'scopes', 'mapping',
]);

type Role = 'keywords' | 'names' | 'example';

/**
 * Of the maps from names, only the Paths Object and an operation's Responses Object also take
 * `x-` extensions (data); in the others (`properties`, `components.responses`, ...) `x-foo` is a name.
 */
function isExtensionOf(mapPath: JsonPath, key: string): boolean {
  if (!key.startsWith('x-')) return false;
  const map = mapPath[mapPath.length - 1];
  return (map === 'paths' && mapPath.length === 1) || (map === 'responses' && !(mapPath.length === 2 && mapPath[0] === 'components'));
}

/** Every `$ref` left in the resolved document, walking description, not data. */
function remainingReferences(document: JsonObject): Array<[string, JsonPath]> {
  const found: Array<[string, JsonPath]> = [];
  const seen = new WeakSet<object>();
  const stack: Array<[unknown, JsonPath, Role]> = [[document, [], 'keywords']];
  while (stack.length > 0) {
    const [node, path, role] = stack.pop() as [unknown, JsonPath, Role];
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((child, index) => stack.push([child, [...path, index], 'keywords']));
      continue;
    }
    const record = node as JsonObject;
    if (role !== 'names' && typeof record.$ref === 'string') found.push([record.$ref, path]);
    for (const [key, child] of Object.entries(record)) {
      stack.push(...childrenOf(key, child, path, role));
    }
  }
  return found;
}

function childrenOf(key: string, child: unknown, path: JsonPath, role: Role): Array<[unknown, JsonPath, Role]> {
  if (role === 'names') return isExtensionOf(path, key) ? [] : [[child, [...path, key], 'keywords']];
  if (DATA_KEYWORDS.has(key) || key.startsWith('x-') || (role === 'example' && key === 'value')) return [];
  // A map of Example Objects (each may be a $ref) whose `value` is data; a list of examples is data.
  if (key === 'examples') return entries(child).map(([name, example]) => [example, [...path, key, name], 'example']);
  return [[child, [...path, key], NAME_MAPS.has(key) && isObject(child) ? 'names' : 'keywords']];
}
