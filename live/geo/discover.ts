import { asArray, asObject, isObject, type JsonObject } from '../../lib/json.js';
import { isGeospatial } from '../../lib/geo.js';
import { headOf, oncePerRun, type CheckContext } from '../context.js';
import type { Exchange } from '../http.js';
import { CRS84, envelopeOf, toCrs84, type Envelope, type Position } from './crs.js';
import { firstGeometry, geometryOf, geometryProblem, identityOf, itemsOf, parseJson, positionsOf } from './geojson.js';

/**
 * What the geospatial checks need, found from the API itself: where its CRS list is (OGC API
 * Features `/collections`, or `/crss` for plain JSON APIs), its collections with their CRSs, and
 * one sample feature per collection in CRS84 to compare every other CRS with.
 */

export interface GeoCollection {
  id: string;
  /**
   * The CRS URIs advertised for this collection (its own list, or the global one), at most
   * MAX_LISTED_CRS. Collections that list only `#/crs` share the global list itself: one array,
   * never a copy per collection.
   */
  crs: string[];
  /** How many CRSs the server listed here, when more than `crs` holds. */
  crsListed?: number;
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
  /** Every CRS URI the API advertises anywhere (within the bounds below). */
  globalCrs: string[];
  /** The top-level list of /collections (`#/crs`), or /crss's list; the same array the collections that refer to it hold. */
  sharedCrs: string[];
  collections: GeoCollection[];
  /** What discovery left out to stay bounded (collections beyond MAX_COLLECTIONS, CRSs beyond MAX_LISTED_CRS). */
  leftOut: string[];
  samples: GeoSample[];
  /** Why a collection's features could not serve as a sample (invalid geometry). */
  unusable: string[];
  /** Why the API counts as geospatial. */
  reason: string;
}

/** Found once per run, shared by the geospatial checks. */
export const geoTarget = oncePerRun((context): Promise<GeoTarget | undefined> => discover(context));

/** Collections a sample is looked for in. */
export const SAMPLED_COLLECTIONS = 3;
/** Collections judged: a /collections document may list tens of thousands; the rest is named as left out. */
export const MAX_COLLECTIONS = 200;
/** CRSs kept of one list: far more than any API supports; the rest is named as left out. */
export const MAX_LISTED_CRS = 500;
/** Above this size the description is not searched for GeoJSON here: /collections and /crss still count. */
const STATIC_DETECTION_BYTES = 5_000_000;

async function discover(context: CheckContext): Promise<GeoTarget | undefined> {
  // Whole bodies (up to --max-body): a collections document with dozens of collections is far over the 8 KB excerpt.
  const collections = await context.send({ method: 'GET', url: `${context.baseUrl}/collections`, headers: { accept: 'application/json' }, keepBody: true });
  const collectionsBody = collections.status === 200 ? parseJson(collections.body) : undefined;
  if (isObject(collectionsBody) && Array.isArray(collectionsBody.collections)) {
    const leftOut: string[] = [];
    const sharedCrs = boundedCrsList(collectionsBody.crs, 'the crs list of /collections', leftOut);
    const found = ogcCollections(context, collectionsBody, sharedCrs, leftOut);
    const { samples: sampled, unusable } = await samples(context, found, 'ogc');
    return { style: 'ogc', list: collections, globalCrs: everyCrs(sharedCrs, found), sharedCrs, collections: found, leftOut, samples: sampled, unusable, reason: 'GET /collections lists feature collections' };
  }
  const crss = await context.send({ method: 'GET', url: `${context.baseUrl}/crss`, headers: { accept: 'application/json' }, keepBody: true });
  const crssBody = crss.status === 200 ? parseJson(crss.body) : undefined;
  // The static detection walks every schema: on a huge description it would hold up the live requests on this thread.
  const declared = context.description !== undefined && context.descriptionBytes <= STATIC_DETECTION_BYTES && isGeospatial(context.description);
  if (isObject(crssBody) && Array.isArray(crssBody.crs)) {
    const leftOut: string[] = [];
    const globalCrs = boundedCrsList(crssBody.crs, 'the list of /crss', leftOut);
    const found = await plainCollections(context, globalCrs);
    return { style: 'plain', list: crss, globalCrs, sharedCrs: globalCrs, collections: found, leftOut, ...(await samples(context, found, 'plain')), reason: 'GET /crss lists CRSs' };
  }
  if (!declared) return undefined;
  // The description says geospatial, but neither list answered: /geo/crs-list reports what is
  // missing; a plain API's collections are still found, so that the other checks judge what they can.
  const ogc = Object.keys(asObject(context.description?.paths)).some((path) => path === '/collections');
  const found = ogc ? [] : await plainCollections(context, []);
  return { style: ogc ? 'ogc' : 'plain', list: ogc ? collections : crss, globalCrs: [], sharedCrs: [], collections: found, leftOut: [], ...(await samples(context, found, 'plain')), reason: 'the description carries geospatial data' };
}

/** The strings of a CRS list, at most MAX_LISTED_CRS of them; what is left out is noted. */
function boundedCrsList(value: unknown, name: string, leftOut: string[]): string[] {
  const list = asArray(value);
  const kept: string[] = [];
  for (let index = 0; index < list.length && kept.length < MAX_LISTED_CRS; index += 1) {
    const item = list[index];
    if (typeof item === 'string') kept.push(item);
  }
  const strings = kept.length < MAX_LISTED_CRS ? kept.length : list.filter((item) => typeof item === 'string').length;
  if (strings > kept.length) leftOut.push(`${name}: the first ${MAX_LISTED_CRS} of ${strings.toLocaleString('en')} CRSs judged`);
  return kept;
}

/** The distinct CRSs of the shared list and every collection's own, each distinct list read once. */
function everyCrs(sharedCrs: string[], collections: GeoCollection[]): string[] {
  const lists = new Set<string[]>([sharedCrs, ...collections.map((collection) => collection.crs)]);
  const found = new Set<string>();
  for (const list of lists) for (const uri of list) found.add(uri);
  return [...found];
}

/**
 * The feature collections of /collections, at most MAX_COLLECTIONS. `#/crs` in a collection's
 * list stands for the global list (OGC API Features part 2): a collection that lists only it (or
 * nothing) holds the shared array itself; one that adds its own gets its own list, bounded too.
 */
function ogcCollections(context: CheckContext, body: JsonObject, sharedCrs: string[], leftOut: string[]): GeoCollection[] {
  const listed = asArray(body.collections);
  const found: GeoCollection[] = [];
  let features = 0;
  for (const collection of listed) {
    if (!isObject(collection) || typeof collection.id !== 'string') continue;
    // A collection of records (itemType other than feature) has no geometry and no CRS list (SPEC.md, media types 2).
    if (typeof collection.itemType === 'string' && collection.itemType.toLowerCase() !== 'feature') continue;
    features += 1;
    if (found.length < MAX_COLLECTIONS) found.push(ogcCollection(context, collection, sharedCrs));
  }
  if (features > found.length) leftOut.push(`the first ${MAX_COLLECTIONS} of ${features.toLocaleString('en')} feature collections judged`);
  const long = found.filter((collection) => collection.crsListed !== undefined);
  if (long.length > 0) leftOut.push(`${long.length === 1 ? `collection ${JSON.stringify(long[0]?.id.slice(0, 120))} lists` : `${long.length} collections list`} more than ${MAX_LISTED_CRS} CRSs: the first ${MAX_LISTED_CRS} of each judged`);
  return found;
}

function ogcCollection(context: CheckContext, collection: JsonObject, sharedCrs: string[]): GeoCollection {
  const id = collection.id as string;
  const own = asArray(collection.crs);
  // Only `#/crs`, or nothing that is a string (as before: a list without strings falls back on the global one).
  const onlyShared = own.every((uri) => typeof uri !== 'string' || uri === '#/crs');
  let crs = sharedCrs;
  let crsListed: number | undefined;
  if (!onlyShared) {
    const merged = new Set<string>();
    let strings = 0;
    for (const uri of own) {
      if (typeof uri !== 'string') continue;
      strings += uri === '#/crs' ? sharedCrs.length : 1;
      for (const member of uri === '#/crs' ? sharedCrs : [uri]) if (merged.size < MAX_LISTED_CRS) merged.add(member);
    }
    crs = [...merged];
    if (strings > MAX_LISTED_CRS) crsListed = strings;
  }
  const storage = typeof collection.storageCrs === 'string' ? collection.storageCrs : typeof collection.storageCRS === 'string' ? collection.storageCRS : undefined;
  const itemsLink = asArray(collection.links).filter(isObject).find((link) => link.rel === 'items' && typeof link.href === 'string' && (link.type === undefined || /geo\+json/.test(String(link.type))));
  const itemsUrl = sameOriginHref(context, itemsLink?.href) ?? `${context.baseUrl}/collections/${encodeURIComponent(id)}/items`;
  return { id, crs, ...(crsListed === undefined ? {} : { crsListed }), ...(storage === undefined ? {} : { storageCrs: storage }), itemsUrl };
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

async function samples(context: CheckContext, collections: GeoCollection[], style: 'ogc' | 'plain'): Promise<{ samples: GeoSample[]; unusable: string[] }> {
  const found: GeoSample[] = [];
  const unusable: string[] = [];
  for (const collection of collections.slice(0, SAMPLED_COLLECTIONS)) {
    const sample = await sampleOrProblem(context, collection, style);
    if (typeof sample === 'string') unusable.push(`${collection.id}: ${sample}`);
    else if (sample !== undefined) found.push(sample);
  }
  return { samples: found, unusable };
}

/** The first feature (or resource) of a collection that has valid geometry, fetched without `crs`. */
export async function sampleOf(context: CheckContext, collection: GeoCollection, style: GeoTarget['style']): Promise<GeoSample | undefined> {
  const sample = await sampleOrProblem(context, collection, style);
  return typeof sample === 'string' ? undefined : sample;
}

/** Features checked for valid geometry before the collection is given up as a source of samples. */
const MAX_SAMPLE_CANDIDATES = 10;

/** The sample, or why the features found cannot be one (their geometry is invalid: what /geo/geojson-response reports). */
async function sampleOrProblem(context: CheckContext, collection: GeoCollection, style: GeoTarget['style']): Promise<GeoSample | string | undefined> {
  const { body } = await getGeometry(context, style, collection.itemsUrl, 'items', style === 'ogc' ? { limit: '10' } : {});
  const items = itemsOf(body);
  const withGeometry = items.filter((candidate) => geometryOf(candidate) !== undefined).slice(0, MAX_SAMPLE_CANDIDATES);
  if (withGeometry.length === 0 && geometryOf(body) !== undefined) withGeometry.push(asObject(body));
  let problem: string | undefined;
  for (const item of withGeometry) {
    problem = geometryProblem(geometryOf(item), CRS84);
    if (problem !== undefined) continue;
    const positions = positionsOf(geometryOf(item)).map((position) => toCrs84(CRS84, position) as Position);
    if (positions.length === 0) continue;
    const identity = identityOf(item);
    const featureUrl = style === 'ogc' && (typeof item.id === 'string' || typeof item.id === 'number') ? childUrl(collection.itemsUrl, String(item.id)) : undefined;
    return { collection, url: featureUrl ?? collection.itemsUrl, identity, item, positions, envelope: envelopeOf(positions) };
  }
  return problem === undefined ? undefined : `no feature with valid geometry (${problem})`;
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

/** A response the geospatial checks caused that carries geometry, with the CRS it must be in. */
export interface GeometryResponse {
  exchange: Exchange;
  /** The requested `crs`, or CRS84 when none was requested. */
  expectedCrs: string;
  kind: 'items' | 'feature' | 'plain';
  /** Asked of a collection: an empty selection is an answer too. */
  selection: boolean;
  /** What the checks that judge every response need of its body, read once when it came (a body of megabytes is not parsed again per check). */
  facts: BodyFacts;
}

export interface BodyFacts {
  /** The body's own `type` member (FeatureCollection, Feature), when it is a JSON object that has one. */
  type?: string;
  /** The number of items (features, or a plain API's resources). */
  items: number;
  /** The resource, or one of its items, has geometry. */
  hasGeometry: boolean;
  /** Some GeoJSON geometry is embedded somewhere (plain JSON APIs). */
  embedsGeometry: boolean;
  /** What makes a geometry of the body invalid GeoJSON in the CRS it must be in. */
  invalid?: string;
}

/** Items whose geometry is checked per response: a page of thousands is judged on its first ones. */
const MAX_CHECKED_ITEMS = 100;

function factsOf(body: unknown, expectedCrs: string): BodyFacts {
  const items = itemsOf(body);
  const resources = items.length > 0 ? items.slice(0, MAX_CHECKED_ITEMS) : [body];
  let invalid: string | undefined;
  for (const resource of resources) {
    const geometry = geometryOf(resource);
    invalid = geometry === undefined ? undefined : geometryProblem(geometry, expectedCrs);
    if (invalid !== undefined) break;
  }
  const type = isObject(body) && body.type !== undefined ? String(body.type) : undefined;
  return {
    ...(type === undefined ? {} : { type }),
    items: items.length,
    hasGeometry: geometryOf(body) !== undefined || items.some((item) => geometryOf(item) !== undefined),
    embedsGeometry: firstGeometry(body) !== undefined,
    ...(invalid === undefined ? {} : { invalid }),
  };
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
  if (exchange.status === 200) {
    const expectedCrs = query.crs ?? CRS84;
    // Kept for the run: the head and an excerpt, the facts read from the body; never the body itself.
    geometryResponses(context).push({ exchange: headOf(exchange), expectedCrs, kind: style === 'plain' ? 'plain' : kind, selection: kind === 'items', facts: factsOf(body, expectedCrs) });
  }
  return { exchange, body };
}
