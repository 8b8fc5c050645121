import type { IFunctionResult } from '@stoplight/spectral-core';
import { ruleFunction } from '../lib/rule-function.js';
import { asObject, isObject } from '../lib/json.js';

/**
 * nlgov:http-status-codes: heuristics for /core/http-response-code (a functional rule) on one
 * operation. Only patterns that are nearly always a mistake: a conformant description stays silent.
 */
export default ruleFunction<null>({ input: null, options: null }, (operation, _options, context) => {
  if (!isObject(operation) || !isObject(operation.responses)) return [];
  const pathKey = String(context.path[1] ?? '');
  const method = String(context.path[2] ?? '');
  const statuses = Object.keys(operation.responses);
  return [
    ...createWithout201(pathKey, method, statuses, collectionsOf(context.document.data)),
    ...onlyOk(pathKey, method, statuses),
    ...deleteWithoutSuccess(method, statuses),
  ];
});

/** /core/resource-operations names search resources `/search` or `/_search`; `_zoek` is the legacy form. */
const SEARCH_SEGMENTS = new Set(['search', 'zoek', 'zoeken']);

/**
 * A POST on a collection (last segment neither `{id}`, `_action` nor a search) creates a member.
 * That it is a collection shows in a member path below it (`/monumenten/{monumentId}`): an action
 * resource may be named with a verb without underscore (`/monumenten/{id}/verplaatsen`), and in
 * Dutch a verb and a plural noun both end in -en, so the name alone cannot tell.
 */
function createWithout201(pathKey: string, method: string, statuses: string[], collections: ReadonlySet<string>): IFunctionResult[] {
  if (method !== 'post') return [];
  const last = pathKey.split('/').filter(Boolean).pop() ?? '';
  if (last === '' || last.startsWith('{') || last.startsWith('_') || SEARCH_SEGMENTS.has(last)) return [];
  if (!collections.has(pathKey.replace(/\/$/, ''))) return [];
  if (statuses.some((status) => ['201', '202', '2XX'].includes(status.toUpperCase()))) return [];
  return [{
    message: `POST on collection ${pathKey} has no 201 response: ${listed(statuses)}. Answer a create with 201 Created and a Location header.`,
    path: ['responses'],
  }];
}

/**
 * The paths with a member path below them (`/monumenten` for `/monumenten/{monumentId}/...`),
 * listed once per document: the rule runs for every operation.
 */
const collectionsCache = new WeakMap<object, ReadonlySet<string>>();

function collectionsOf(document: unknown): ReadonlySet<string> {
  const paths = asObject(asObject(document).paths);
  const cached = collectionsCache.get(paths);
  if (cached !== undefined) return cached;
  const collections = new Set<string>();
  for (const key of Object.keys(paths)) {
    for (let at = key.indexOf('/{', 1); at > 0; at = key.indexOf('/{', at + 1)) collections.add(key.slice(0, at));
  }
  collectionsCache.set(paths, collections);
  return collections;
}

/** The documentation endpoints cannot fail in a way a client handles, so they are exempt. */
const DOCUMENTATION_PATHS = new Set(['/openapi.json', '/openapi.yaml']);

function onlyOk(pathKey: string, method: string, statuses: string[]): IFunctionResult[] {
  if (DOCUMENTATION_PATHS.has(pathKey) || statuses.length !== 1 || statuses[0] !== '200') return [];
  return [{
    message: `${method.toUpperCase()} declares 200 as its only response: 200. Describe the error responses too (400, 404, ...), with problem details.`,
    path: ['responses'],
  }];
}

function deleteWithoutSuccess(method: string, statuses: string[]): IFunctionResult[] {
  if (method !== 'delete') return [];
  if (statuses.some((status) => ['200', '202', '204', '2XX'].includes(status.toUpperCase()))) return [];
  return [{
    message: `DELETE has no 200, 202 or 204 response: ${listed(statuses)}. Answer a delete with 204 No Content (or 200/202).`,
    path: ['responses'],
  }];
}


function listed(statuses: string[]): string {
  return statuses.length === 0 ? 'none' : statuses.join(', ');
}
