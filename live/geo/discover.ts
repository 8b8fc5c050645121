import { asArray, asObject, isObject, type JsonObject } from '../../lib/json.js';
import { isGeospatial } from '../../lib/geo.js';
import { oncePerRun, type CheckContext } from '../context.js';
import type { Exchange } from '../http.js';
import { CRS84, envelopeOf, toCrs84, type Envelope, type Position } from './crs.js';
import { geometryOf, identityOf, itemsOf, parseJson, positionsOf } from './geojson.js';

/**
 * What the geospatial checks need, found from the API itself: where its CRS list is (OGC API
 * Features `/collections`, or `/crss` for plain JSON APIs), its collections with their CRSs, and
 * one sample feature per collection in CRS84 to compare every other CRS with.
 */

export interface GeoCollection {
  id: string;
  /** The CRS URIs advertised for this collection (its own list, or the global one). */
  crs: string[];
  storageCrs?: string;
  /** Absolute URL of the items (OGC) or of the resource collection (plain JSON). */
  itemsUrl: string;
}

export interface GeoSample {
  collection: GeoCollection;
  /** Where the sample is fetched again in other CRSs: the feature's own URL, or the collection's. */
  url: string;
  identity: string;
  /** The feature or resource as the API gave it without `crs`: what a client would copy to create one. */
  item: JsonObject;
  /** The sample's positions in CRS84, as the API gave them without `crs`. */
  positions: Position[];
  envelope: Envelope;
}

export interface GeoTarget {
  style: 'ogc' | 'plain';
  /** The CRS list request: GET /collections or GET /crss. */
  list: Exchange;
  /** Every CRS URI the API advertises anywhere. */
  globalCrs: string[];
  collections: GeoCollection[];
  samples: GeoSample[];
  /** Why the API counts as geospatial. */
  reason: string;
}

/** Found once per run, shared by the geospatial checks. */
export const geoTarget = oncePerRun((context): Promise<GeoTarget | undefined> => discover(context));

const SAMPLED_COLLECTIONS = 3;
/** Above this size the description is not searched for GeoJSON here: /collections and /crss still count. */
const STATIC_DETECTION_BYTES = 5_000_000;

async function discover(context: CheckContext): Promise<GeoTarget | undefined> {
  // Whole bodies (up to --max-body): a collections document with dozens of collections is far over the 8 KB excerpt.
  const collections = await context.send({ method: 'GET', url: `${context.baseUrl}/collections`, headers: { accept: 'application/json' }, keepBody: true });
  const collectionsBody = collections.status === 200 ? parseJson(collections.body) : undefined;
  if (isObject(collectionsBody) && Array.isArray(collectionsBody.collections)) {
    const found = ogcCollections(context, collectionsBody);
    return { style: 'ogc', list: collections, globalCrs: unique(found.flatMap((collection) => collection.crs).concat(stringsOf(collectionsBody.crs))), collections: found, samples: await samples(context, found, 'ogc'), reason: 'GET /collections lists feature collections' };
  }
  const crss = await context.send({ method: 'GET', url: `${context.baseUrl}/crss`, headers: { accept: 'application/json' }, keepBody: true });
  const crssBody = crss.status === 200 ? parseJson(crss.body) : undefined;
  // The static detection walks every schema: on a huge description it would hold up the live requests on this thread.
  const declared = context.description !== undefined && context.descriptionBytes <= STATIC_DETECTION_BYTES && isGeospatial(context.description);
  if (isObject(crssBody) && Array.isArray(crssBody.crs)) {
    const globalCrs = stringsOf(crssBody.crs);
    const found = await plainCollections(context, globalCrs);
    return { style: 'plain', list: crss, globalCrs, collections: found, samples: await samples(context, found, 'plain'), reason: 'GET /crss lists CRSs' };
  }
  if (!declared) return undefined;
  // The description says geospatial, but neither list answered: /geo/crs-list reports what is
  // missing; a plain API's collections are still found, so that the other checks judge what they can.
  const ogc = Object.keys(asObject(context.description?.paths)).some((path) => path === '/collections');
  const found = ogc ? [] : await plainCollections(context, []);
  return { style: ogc ? 'ogc' : 'plain', list: ogc ? collections : crss, globalCrs: [], collections: found, samples: await samples(context, found, 'plain'), reason: 'the description carries geospatial data' };
}

function ogcCollections(context: CheckContext, body: JsonObject): GeoCollection[] {
  const globalCrs = stringsOf(body.crs);
  return asArray(body.collections).filter(isObject).flatMap((collection) => {
    if (typeof collection.id !== 'string') return [];
    // A collection of records (itemType other than feature) has no geometry and no CRS list (SPEC.md, media types 2).
    if (typeof collection.itemType === 'string' && collection.itemType.toLowerCase() !== 'feature') return [];
    const own = stringsOf(collection.crs);
    // `#/crs` in a collection's list stands for the global list (OGC API Features part 2).
    const crs = own.length === 0 ? globalCrs : unique(own.flatMap((uri) => (uri === '#/crs' ? globalCrs : [uri])));
    const storage = typeof collection.storageCrs === 'string' ? collection.storageCrs : typeof collection.storageCRS === 'string' ? collection.storageCRS : undefined;
    const itemsLink = asArray(collection.links).filter(isObject).find((link) => link.rel === 'items' && typeof link.href === 'string' && (link.type === undefined || /geo\+json/.test(String(link.type))));
    const itemsUrl = sameOriginHref(context, itemsLink?.href) ?? `${context.baseUrl}/collections/${encodeURIComponent(collection.id)}/items`;
    return [{ id: collection.id, crs, ...(storage === undefined ? {} : { storageCrs: storage }), itemsUrl }];
  });
}

/** A link the API gave, only if it stays on the API's own origin: adr-check never follows a server elsewhere. */
export function sameOriginHref(context: CheckContext, href: unknown, relativeTo = `${context.baseUrl}/`): string | undefined {
  if (typeof href !== 'string') return undefined;
  try {
    const url = new URL(href, relativeTo);
    return url.origin === new URL(context.baseUrl).origin ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Plain JSON APIs: the concrete GET paths whose answer is a list of resources with embedded
 * GeoJSON geometry; only when there is none, those that answer one such resource (a collection's
 * paths come first wherever the description lists them: a bbox needs a list to select from).
 */
async function plainCollections(context: CheckContext, globalCrs: string[]): Promise<GeoCollection[]> {
  const lists: GeoCollection[] = [];
  const single: GeoCollection[] = [];
  for (const path of context.getPaths) {
    if (path === '' || path.startsWith('/openapi.') || path === '/crss' || lists.length >= SAMPLED_COLLECTIONS) continue;
    // The whole body (up to --max-body): a list of resources is seldom within the excerpt a shared GET keeps.
    const answer = await context.send({ method: 'GET', url: `${context.baseUrl}${path}`, headers: { accept: 'application/json' }, keepBody: true });
    const body = answer.status === 200 ? parseJson(answer.body) : undefined;
    const collection = { id: path, crs: globalCrs, itemsUrl: `${context.baseUrl}${path}` };
    if (itemsOf(body).some((item) => geometryOf(item) !== undefined)) lists.push(collection);
    else if (geometryOf(body) !== undefined) single.push(collection);
  }
  return lists.length > 0 ? lists : single.slice(0, SAMPLED_COLLECTIONS);
}

async function samples(context: CheckContext, collections: GeoCollection[], style: 'ogc' | 'plain'): Promise<GeoSample[]> {
  const found: GeoSample[] = [];
  for (const collection of collections.slice(0, SAMPLED_COLLECTIONS)) {
    const sample = await sampleOf(context, collection, style);
    if (sample !== undefined) found.push(sample);
  }
  return found;
}

/** The first feature (or resource) of a collection that has geometry, fetched without `crs`. */
export async function sampleOf(context: CheckContext, collection: GeoCollection, style: GeoTarget['style']): Promise<GeoSample | undefined> {
  const { body } = await getGeometry(context, style, collection.itemsUrl, 'items', style === 'ogc' ? { limit: '10' } : {});
  const items = itemsOf(body);
  const item = items.find((candidate) => geometryOf(candidate) !== undefined) ?? (geometryOf(body) !== undefined ? asObject(body) : undefined);
  if (item === undefined) return undefined;
  const positions = positionsOf(geometryOf(item)).map((position) => toCrs84(CRS84, position) as Position);
  if (positions.length === 0) return undefined;
  const identity = identityOf(item);
  const featureUrl = style === 'ogc' && (typeof item.id === 'string' || typeof item.id === 'number') ? childUrl(collection.itemsUrl, String(item.id)) : undefined;
  return { collection, url: featureUrl ?? collection.itemsUrl, identity, item, positions, envelope: envelopeOf(positions) };
}

/** `{itemsUrl}/{id}` with the items link's own query (ldproxy, pygeoapi: `?f=json`) kept after the path. */
function childUrl(itemsUrl: string, id: string): string {
  const url = new URL(itemsUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${encodeURIComponent(id)}`;
  return url.href;
}

export function withQuery(url: string, query: Record<string, string>): string {
  const target = new URL(url);
  for (const [name, value] of Object.entries(query)) target.searchParams.set(name, value);
  return target.href;
}

function stringsOf(value: unknown): string[] {
  return asArray(value).filter((item): item is string => typeof item === 'string');
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** A response the geospatial checks caused that carries geometry, with the CRS it must be in. */
export interface GeometryResponse {
  exchange: Exchange;
  /** The requested `crs`, or CRS84 when none was requested. */
  expectedCrs: string;
  kind: 'items' | 'feature' | 'plain';
  /** Asked of a collection: an empty selection is an answer too. */
  selection: boolean;
}

const responses = new WeakMap<CheckContext, GeometryResponse[]>();

export function geometryResponses(context: CheckContext): GeometryResponse[] {
  let list = responses.get(context);
  if (list === undefined) {
    list = [];
    responses.set(context, list);
  }
  return list;
}

/**
 * GET of a geometry resource, recorded for /geo/content-crs-response-header and
 * /geo/geojson-response: the Accept the API's style calls for, `crs` when one is asked for.
 */
export async function getGeometry(context: CheckContext, style: GeoTarget['style'], url: string, kind: GeometryResponse['kind'], query: Record<string, string> = {}): Promise<{ exchange: Exchange; body: unknown }> {
  const exchange = await context.send({ method: 'GET', url: withQuery(url, query), headers: { accept: style === 'ogc' ? 'application/geo+json' : 'application/json' }, keepBody: true });
  const body = exchange.status === 200 ? parseJson(exchange.body) : undefined;
  if (exchange.status === 200) geometryResponses(context).push({ exchange, expectedCrs: query.crs ?? CRS84, kind: style === 'plain' ? 'plain' : kind, selection: kind === 'items' });
  return { exchange, body };
}
