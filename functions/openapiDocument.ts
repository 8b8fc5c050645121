import type { IFunctionResult, RulesetFunctionContext } from '@stoplight/spectral-core';
import type { JsonPath } from '@stoplight/types';
import { ruleFunction } from '../lib/rule-function.js';
import { entries, isObject, printedValue, valueAt, type JsonObject } from '../lib/json.js';
import { resolverErrors, type ResolverError } from '../lib/inventory.js';
import { followReference, isRemoteFile, placeKey, type DescriptionFiles, type ReferenceOutcome, type WrittenReference } from '../lib/references.js';
import { isUnresolvedReference } from '../lib/openapi.js';
import { describeFetchFailure } from '../lib/fetch-failure.js';

const SUPPORTED_VERSION = /^3\.0\.\d+$/;
/** Data, not description: a `$ref` key inside these is not a reference. */
const DATA_KEYWORDS = new Set(['example', 'default', 'enum', 'const']);

/** /core/doc-openapi: an OpenAPI 3.0.x document with `paths` and only resolvable references. */
export default ruleFunction<null>({ input: null, options: null }, (document, _options, context) => {
  if (!isObject(document)) return [{ message: 'Document is not an OpenAPI object. Provide an OpenAPI 3.0.x description.', path: [] }];
  // package.json, docker-compose.yaml, action.yml: every JSON/YAML file an editor lints is not an
  // API description. Only one that names a version or has what only descriptions have is judged.
  if (!looksLikeDescription(document)) return [];
  return [...versionFindings(document), ...pathsFindings(document), ...unresolvedReferences(document, context)];
});

function looksLikeDescription(document: JsonObject): boolean {
  return document.openapi !== undefined || document.swagger !== undefined || document.paths !== undefined || isObject(document.info);
}

function versionFindings(document: JsonObject): IFunctionResult[] {
  if (document.openapi === undefined) {
    if (document.swagger !== undefined) {
      return [{ message: `OpenAPI version is not 3.0.x: swagger ${String(document.swagger)}. Describe the API in OpenAPI 3.0.x.`, path: ['swagger'] }];
    }
    return [{ message: 'OpenAPI version is missing. Add openapi: 3.0.3 at the top of the description.', path: [] }];
  }
  const version = String(document.openapi);
  if (typeof document.openapi === 'string' && SUPPORTED_VERSION.test(version)) return [];
  return [{ message: `OpenAPI version is not 3.0.x: ${version}. Describe the API in OpenAPI 3.0.x.`, path: ['openapi'] }];
}

function pathsFindings(document: JsonObject): IFunctionResult[] {
  if (isObject(document.paths)) return [];
  if (document.paths === undefined) return [{ message: 'Paths are not defined. Add the paths of the API as an object.', path: [] }];
  const found = Array.isArray(document.paths) ? 'an array' : printedValue(document.paths);
  return [{ message: `Paths are not an object: ${found}. Give the paths of the API as an object, each path a key.`, path: ['paths'] }];
}

/**
 * The resolver leaves a `$ref` it did not replace in place: a broken one, but also a circular
 * one, which is valid. Each one left is followed from where it is written: a broken `$ref`, and
 * `$ref`s that only point at each other, are reported where they stand. A remote file that
 * could not be fetched is reported once, with the resolver's reason: its `$ref`s are not wrong
 * one by one, and the fix (a reachable URL, or a local copy) is one for all of them.
 */
function unresolvedReferences(document: JsonObject, context: RulesetFunctionContext): IFunctionResult[] {
  const remaining = remainingReferences(document);
  if (remaining.length === 0) return [];
  const files = descriptionFiles(context);
  const findings = new Map<string, IFunctionResult>();
  const unfetched = new Map<string, UnfetchedUse[]>();
  for (const [value, resolvedPath] of remaining) {
    const start = writtenPlace(context, files, resolvedPath, value);
    const outcome = followReference(files, start);
    if (outcome.kind === 'unloaded' && isRemoteFile(outcome.file)) {
      const uses = unfetched.get(outcome.file) ?? [];
      uses.push({ broken: outcome.broken, path: brokenPath(outcome, start, resolvedPath, context), detail: writtenElsewhere(outcome, start, context) });
      unfetched.set(outcome.file, uses);
      continue;
    }
    for (const finding of findingsOf(outcome, start, resolvedPath, context)) findings.set(findingKey(finding), finding);
  }
  const errors = resolverErrors(context);
  for (const [file, uses] of unfetched) {
    const finding = unfetchedFile(file, uses, errors, context);
    findings.set(findingKey(finding), finding);
  }
  return [...findings.values()];
}

function findingKey(finding: IFunctionResult): string {
  return `${finding.path?.join('\u0000') ?? ''}\u0000${finding.message}`;
}

/** A `$ref` into a remote file that was not fetched: the one written, where it is reported, and what to add to its value. */
interface UnfetchedUse {
  broken: WrittenReference;
  path: JsonPath;
  detail: string;
}

/**
 * One finding for a remote file that was not fetched, at the `$ref` where the resolver met the
 * failure (Spectral's `invalid-ref` stands there too), or else at the first `$ref` into it in
 * the linted file. The cause is the resolver's error for that place, or one that names the URL.
 */
function unfetchedFile(file: string, uses: UnfetchedUse[], errors: ResolverError[], context: RulesetFunctionContext): IFunctionResult {
  const linted = lintedFile(context);
  const errorAt = (use: UnfetchedUse) => errors.find((error) =>
    (error.source ?? linted) === use.broken.file && placeKey('', error.path) === placeKey('', [...use.broken.path, '$ref']));
  const line = (use: UnfetchedUse) => context.document.getRangeForJsonPath(use.path, true)?.start.line ?? Number.MAX_SAFE_INTEGER;
  const byPlace = [...uses].sort((a, b) => line(a) - line(b));
  const chosen = byPlace.find((use) => errorAt(use) !== undefined) ?? (byPlace[0] as UnfetchedUse);
  const error = errorAt(chosen) ?? errors.find((candidate) => candidate.message.includes(file));
  const failure = error === undefined ? undefined : describeFetchFailure(error.message, file);
  const count = new Set(uses.map((use) => placeKey(use.broken.file, use.broken.path))).size;
  const stay = count === 1 ? 'Its $ref stays unresolved' : `Its ${count} $refs stay unresolved`;
  const fix = failure?.kind === 'network'
    ? 'lint where its host can be reached, or keep a copy beside the description and refer to it by a relative path'
    : 'check that the URL is right and the file is published there, or keep a copy beside the description and refer to it by a relative path';
  const cause = failure === undefined ? '' : ` (${failure.cause})`;
  return { message: `Referenced file cannot be fetched${cause}: ${file}${chosen.detail}. ${stay}: ${fix}.`, path: chosen.path };
}

function descriptionFiles(context: RulesetFunctionContext): DescriptionFiles {
  const documents = new Map<string, unknown>();
  for (const [name, referenced] of Object.entries(context.documentInventory.referencedDocuments)) documents.set(name, referenced.data);
  documents.set(lintedFile(context), context.document.data);
  return { documents, resolverFailed: resolverErrors(context).length > 0 };
}

function lintedFile(context: RulesetFunctionContext): string {
  return context.document.source ?? '';
}

/**
 * Where the `$ref` left at a path of the resolved document is written. Its parent is placed as
 * Spectral places findings, following the references on the way (the `$ref` itself would be
 * followed to where it points). The resolver may have put a reference from further down a chain
 * there; the one written in the file is the one to follow.
 */
function writtenPlace(context: RulesetFunctionContext, files: DescriptionFiles, path: JsonPath, value: string): WrittenReference {
  const parent = path.length === 0 ? null : context.documentInventory.findAssociatedItemForPath(path.slice(0, -1), true);
  const file = parent?.document.source ?? lintedFile(context);
  const writtenPath = parent === null ? path : [...parent.path, path[path.length - 1] as string | number];
  const written = valueAt(files.documents.get(file), writtenPath);
  if (isObject(written) && typeof written.$ref === 'string') return { file, path: writtenPath, value: written.$ref };
  return { file, path: parent === null || file !== lintedFile(context) ? writtenPath : path, value };
}

/**
 * A `$ref` in the linted file is reported at its `$ref` key. One in another file is reported at
 * its parent, through the resolved document: Spectral maps a path inside that file by following
 * its references, and a path through the broken one would land on nothing. When the broken
 * `$ref` is the whole of what another one points at, no path reaches inside it; it is reported
 * at the `$ref` that leads there.
 */
function findingsOf(outcome: ReferenceOutcome, start: WrittenReference, resolvedPath: JsonPath, context: RulesetFunctionContext): IFunctionResult[] {
  if (outcome.kind === 'resolves') return [];
  const linted = lintedFile(context);
  const startPath = start.file === linted ? [...start.path, '$ref'] : resolvedPath.slice(0, -1);
  if (outcome.kind === 'loop') {
    const inLinted = outcome.members.filter((member) => member.file === linted);
    if (inLinted.length > 0) {
      return inLinted.map((member) => ({ message: loopsWithout(loopFrom(outcome.members, member)), path: [...member.path, '$ref'] }));
    }
    // The loop lies in another file, which the message names beside the $ref that leads there.
    const first = outcome.members[0] as WrittenReference;
    return [{ message: loopsWithout(`${loopFrom(outcome.members, first)} (written in ${shownFile(first.file, linted)}, reached through ${start.value})`), path: startPath }];
  }
  return [{ message: notResolving(`${outcome.broken.value}${writtenElsewhere(outcome, start, context)}`), path: brokenPath(outcome, start, resolvedPath, context) }];
}

type BrokenOutcome = Extract<ReferenceOutcome, { kind: 'broken' | 'unloaded' }>;

/** Where a broken `$ref` is reported (see findingsOf). */
function brokenPath(outcome: BrokenOutcome, start: WrittenReference, resolvedPath: JsonPath, context: RulesetFunctionContext): JsonPath {
  const linted = lintedFile(context);
  if (outcome.broken.file === linted) return [...outcome.broken.path, '$ref'];
  return start.file === linted ? [...start.path, '$ref'] : resolvedPath.slice(0, -1);
}

/** Where a broken `$ref` reached through others is written, for a message placed at the first of them. */
function writtenElsewhere(outcome: BrokenOutcome, start: WrittenReference, context: RulesetFunctionContext): string {
  const linted = lintedFile(context);
  if (outcome.broken.file === linted || outcome.through.length === 0) return '';
  return ` (written in ${shownFile(outcome.broken.file, linted)}, reached through ${start.value})`;
}

function loopsWithout(what: string): string {
  return `Reference loops without reaching a definition: ${what}. Point one of these $refs at a definition.`;
}

function notResolving(what: string): string {
  return `Reference does not resolve: ${what}. Point the $ref at an existing definition.`;
}

/** The loop as its values, starting at one member and back to it. */
function loopFrom(members: WrittenReference[], first: WrittenReference): string {
  const at = members.indexOf(first);
  const rotated = [...members.slice(at), ...members.slice(0, at)];
  return [...rotated, first].map((member) => member.value).join(' -> ');
}

/** A file named relative to the linted file's folder when it lies below it. */
function shownFile(file: string, linted: string): string {
  const folder = linted.replace(/[^/\\]*$/, '');
  return folder !== '' && file.startsWith(folder) ? `./${file.slice(folder.length)}` : file;
}

/**
 * The extension in which OpenAPI 3.0 descriptions (GitHub's among them) describe webhooks, as
 * 3.1's `webhooks`: path items, not data. The schema walk and the example rules read it too.
 */
const X_WEBHOOKS = 'x-webhooks';

/** Keys whose value is a map from names to things: its keys are names, never keywords. */
const NAME_MAPS = new Set([
  'paths', 'properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas', 'schemas', 'responses',
  'parameters', 'headers', 'content', 'securitySchemes', 'callbacks', 'links', 'requestBodies', 'variables',
  'encoding', 'webhooks', 'scopes', 'mapping',
]);

/** `link`: a Link Object, whose `parameters` and `requestBody` are values or runtime expressions. */
type Role = 'keywords' | 'names' | 'example' | 'link';

/** The members of a Link Object that hold data, not description. */
const LINK_DATA = new Set(['parameters', 'requestBody']);

/** Where a node stands: its key under its parent. The path is built only for a `$ref` found. */
interface Place {
  parent: Place | undefined;
  key: string | number;
  depth: number;
  /** The first key of the path (`components`, `paths`, ...). */
  top: string | number | undefined;
}

const ROOT: Place = { parent: undefined, key: '', depth: 0, top: undefined };

function placeBelow(parent: Place, key: string | number): Place {
  return { parent, key, depth: parent.depth + 1, top: parent.depth === 0 ? key : parent.top };
}

function pathOf(place: Place): JsonPath {
  const path: JsonPath = [];
  for (let at: Place | undefined = place; at !== undefined && at.depth > 0; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * Of the maps from names, only the Paths Object and an operation's Responses Object also take
 * `x-` extensions (data); in the others (`properties`, `components.responses`, ...) `x-foo` is a name.
 */
function isExtensionOf(map: Place, key: string): boolean {
  if (!key.startsWith('x-')) return false;
  return (map.key === 'paths' && map.depth === 1) || (map.key === 'responses' && !(map.depth === 2 && map.top === 'components'));
}

interface Visit {
  node: unknown;
  place: Place;
  role: Role;
}

/**
 * Every `$ref` left in the resolved document, walking description, not data. The walk meets
 * every node of the document once (about 80,000 objects on GitHub's description), so a node's
 * path is kept as a link to its parent and built only where a `$ref` is found.
 */
function remainingReferences(document: JsonObject): Array<[string, JsonPath]> {
  const found: Array<[string, JsonPath]> = [];
  const seen = new WeakSet<object>();
  const stack: Visit[] = [{ node: document, place: ROOT, role: 'keywords' }];
  while (stack.length > 0) {
    const { node, place, role } = stack.pop() as Visit;
    if (typeof node !== 'object' || node === null) continue;
    // A `$ref` left unresolved is met at every place that reaches it (a broken whole-file alias
    // used by two responses): each place is followed, and reported where it leads.
    if (seen.has(node) && !isUnresolvedReference(node)) continue;
    const firstVisit = !seen.has(node);
    seen.add(node);
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index += 1) pushUnseen(stack, node[index], placeBelow(place, index), 'keywords', seen);
      continue;
    }
    const record = node as JsonObject;
    // Also in a map of names: a `$ref` in place of the whole map (`schemas: {$ref: ./schemas.yaml}`)
    // is a reference; a property named `$ref` would have a schema, not a string.
    if (typeof record.$ref === 'string') found.push([record.$ref, pathOf(place)]);
    if (!firstVisit) continue;
    for (const key of Object.keys(record)) pushChildren(stack, key, record[key], place, role, seen);
  }
  return found;
}

function isUnvisited(node: unknown, seen: WeakSet<object>): node is object {
  return typeof node === 'object' && node !== null && (!seen.has(node) || isUnresolvedReference(node));
}

function pushUnseen(stack: Visit[], node: unknown, place: Place, role: Role, seen: WeakSet<object>): void {
  if (isUnvisited(node, seen)) stack.push({ node, place, role });
}

function pushChildren(stack: Visit[], key: string, child: unknown, place: Place, role: Role, seen: WeakSet<object>): void {
  if (!isUnvisited(child, seen)) return;
  if (role === 'names') {
    if (!isExtensionOf(place, key)) stack.push({ node: child, place: placeBelow(place, key), role: place.key === 'links' ? 'link' : 'keywords' });
    return;
  }
  if (role === 'link' && LINK_DATA.has(key)) return;
  const isWebhooks = place.depth === 0 && key === X_WEBHOOKS;
  if (DATA_KEYWORDS.has(key) || (key.startsWith('x-') && !isWebhooks) || (role === 'example' && key === 'value')) return;
  const childPlace = placeBelow(place, key);
  // A map of Example Objects (each may be a $ref) whose `value` is data; a list of examples is data.
  if (key === 'examples') {
    for (const [name, example] of entries(child)) pushUnseen(stack, example, placeBelow(childPlace, name), 'example', seen);
    return;
  }
  stack.push({ node: child, place: childPlace, role: (NAME_MAPS.has(key) || isWebhooks) && isObject(child) ? 'names' : 'keywords' });
}
