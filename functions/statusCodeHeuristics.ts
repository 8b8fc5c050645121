import type { IFunctionResult } from '@stoplight/spectral-core';
import { ruleFunction } from '../lib/rule-function.js';
import { asObject, entries, isObject, type JsonObject } from '../lib/json.js';
import { mediaTypeName, statusClass } from '../lib/openapi.js';
import { containsGeometry, geoKindOf } from '../lib/geo.js';
import { declaredProperties } from '../lib/schema-shape.js';

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
    ...createWithout201(pathKey, method, operation, collectionsOf(context.document.data)),
    ...onlyOk(pathKey, method, statuses),
    ...deleteWithoutSuccess(pathKey, method, statuses),
  ];
});

/** /core/resource-operations names search resources `/search` or `/_search`; `_zoek` is the legacy form. */
const SEARCH_SEGMENTS = new Set(['search', 'zoek', 'zoeken']);
/** A search resource written onto the last segment (`/monumenten_zoek`) is one too. */
const SEARCH_SUFFIXES = ['_search', '_zoek'];

/**
 * A POST on a collection (last segment neither `{id}`, `_action` nor a search) creates a member.
 * That it is a collection shows in a member path below it (`/monumenten/{monumentId}`): an action
 * resource may be named with a verb without underscore (`/monumenten/{id}/verplaatsen`), and in
 * Dutch a verb and a plural noun both end in -en, so the name alone cannot tell. A POST that
 * searches the collection instead (SPEC.md: POST may serve exceptional cases) creates nothing:
 * it answers with a collection, or its body is a search filter.
 */
function createWithout201(pathKey: string, method: string, operation: JsonObject, collections: ReadonlySet<string>): IFunctionResult[] {
  if (method !== 'post') return [];
  const last = pathKey.split('/').filter(Boolean).pop() ?? '';
  if (last === '' || last.startsWith('{') || last.startsWith('_') || SEARCH_SEGMENTS.has(last)) return [];
  if (SEARCH_SUFFIXES.some((suffix) => last.endsWith(suffix))) return [];
  if (!collections.has(pathKey.replace(/\/$/, ''))) return [];
  const statuses = Object.keys(asObject(operation.responses));
  if (statuses.some((status) => ['201', '202', '2XX'].includes(status.toUpperCase()))) return [];
  if (answersWithCollection(operation) || bodyIsSearch(operation)) return [];
  const successes = statuses.filter((status) => statusClass(status) === 2);
  const advice = 'Answer a create with 201 Created and a Location header';
  if (successes.length === 0) return [{ message: `POST on collection ${pathKey} declares no 201 response. ${advice}.`, path: ['responses'] }];
  return [{ message: `POST on collection ${pathKey} has a success response other than 201: ${successes.join(', ')}. ${advice}.`, path: ['responses'] }];
}

/**
 * Whether a 2xx response is a list: an array, a HAL collection (`_embedded`), an object with an
 * `items` list, or a GeoJSON FeatureCollection. A create answers with the member it made.
 */
function answersWithCollection(operation: JsonObject): boolean {
  return entries(operation.responses)
    .filter(([status]) => statusClass(status) === 2)
    .some(([, response]) => mediaSchemas(response).some(isCollectionSchema));
}

function isCollectionSchema(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  if (schema.type === 'array' || (schema.items !== undefined && schema.properties === undefined)) return true;
  if (geoKindOf(schema) === 'FeatureCollection') return true;
  const properties = declaredProperties(schema, []);
  const items = properties.get('items')?.[0];
  return properties.has('_embedded') || (items !== undefined && (items.type === 'array' || items.items !== undefined));
}

/** The spatial operators of a geometry filter (the deprecated `_geo` of SPEC.md, CQL's s_intersects ...). */
const SPATIAL_OPERATORS = ['intersects', 'contains', 'within'];
/** OGC API Features part 3: a filter in CQL2 JSON. */
const FILTER_MEDIA_TYPES = new Set(['application/cql2+json', 'application/cql2-text']);

/**
 * Whether the request body is a search filter rather than a resource: a bare geometry (the
 * area to search), a `_geo` filter, a spatial operator whose operand is a geometry, or a CQL2
 * filter. A resource that embeds a geometry among its properties is created, not searched with.
 */
function bodyIsSearch(operation: JsonObject): boolean {
  const content = entries(asObject(operation.requestBody).content);
  if (content.some(([mediaType]) => FILTER_MEDIA_TYPES.has(mediaTypeName(mediaType)))) return true;
  return content.some(([, media]) => {
    const schema = asObject(media).schema;
    if (geoKindOf(schema) === 'Geometry') return true;
    const properties = declaredProperties(schema, []);
    return properties.has('_geo') || SPATIAL_OPERATORS.some((operator) => containsGeometry(properties.get(operator)?.[0]));
  });
}

function mediaSchemas(holder: unknown): unknown[] {
  return entries(asObject(holder).content).map(([, media]) => asObject(media).schema);
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
    message: `${method.toUpperCase()} ${pathKey} declares only a 200 response. Describe the error responses too (400, 404, ...), with problem details.`,
    path: ['responses'],
  }];
}

function deleteWithoutSuccess(pathKey: string, method: string, statuses: string[]): IFunctionResult[] {
  if (method !== 'delete') return [];
  if (statuses.some((status) => ['200', '202', '204', '2XX'].includes(status.toUpperCase()))) return [];
  const advice = 'Answer a delete with 204 No Content (or 200/202)';
  const others = statuses.filter((status) => statusClass(status) === 2);
  if (others.length === 0) return [{ message: `DELETE ${pathKey} declares no 200, 202 or 204 response. ${advice}.`, path: ['responses'] }];
  return [{ message: `DELETE ${pathKey} has a success response other than 200, 202 or 204: ${others.join(', ')}. ${advice}.`, path: ['responses'] }];
}
