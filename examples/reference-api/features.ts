import {
  bboxInStorage, bboxProblem, CRS84, crs84Extent, crsOfContentCrs, envelopeOf, geometryIn, intersects, isSupportedCrs, positionProblem, positionsOf,
  STORAGE_CRS, SUPPORTED_CRS, toStorage, type BboxSelection, type Envelope, type Position, type StoredGeometry, type SupportedCrs,
} from './crs.js';
import { besluitenVan, deletePerceel, hasRoomFor, monumentHref, recordPerceel, statusOf, storeFullDetail, type MonumentRecord, type Store } from './data.js';
import { MONUMENT_LOCATIONS, PERCELEN, rightHandRings, type PerceelGegevens, type PerceelRecord } from './geodata.js';
import type { Handler, HandlerContext } from './handlers.js';
import { PROBLEMS, problem, type Reply } from './http.js';
import type { InvalidParam } from './validation.js';

/**
 * The OGC API Features side of the register (parts 1 and 2): the conformance declaration, the
 * collections with their CRSs, and the features of each collection as GeoJSON, in the CRS the
 * client asks for (`crs`), filtered by a bounding box in the CRS the client names (`bbox`,
 * `bbox-crs`), a page at a time (`limit`, `offset`); and parcels that clients record, their
 * geometry in the CRS of the Content-Crs request header, and delete again. The server has already
 * validated every query and header parameter and the request body against the description (an
 * unsupported `crs`, `bbox-crs` or Content-Crs is not in the enum there, so it gets 400 before a
 * handler runs); what a schema cannot say, a handler checks here.
 */

export const GEO_JSON = 'application/geo+json';
const JSON_TYPE = 'application/json';

/** The faults of the geospatial module that the server can be started with, one per break switch. */
export interface GeoFaults {
  /** `geo-storage-crs-not-listed`: storageCrs of percelen is a CRS its crs list lacks. */
  storageCrsNotListed: boolean;
  /** `geo-no-content-crs`: no Content-Crs header on responses with geometry. */
  noContentCrs: boolean;
  /** `geo-crs-ignored`: Content-Crs echoes `crs`, but the coordinates stay CRS84. */
  crsIgnored: boolean;
  /** `geo-swapped-axes`: EPSG:4258 comes in lon/lat instead of lat/lon. */
  swappedAxes: boolean;
  /** `geo-bbox-crs-ignored`: the bbox is always read as CRS84. */
  bboxCrsIgnored: boolean;
  /** `geo-bbox-ignored`: every feature is returned whatever the bbox. */
  bboxIgnored: boolean;
  /** `geo-bbox-within`: only features that lie wholly within the bbox are returned, not those it intersects. */
  bboxWithin: boolean;
  /** `geo-items-as-json`: features and feature collections come as application/json. */
  itemsAsJson: boolean;
  /** `geo-content-crs-ignored`: Content-Crs is accepted, but the geometry of a request body is always read as CRS84. */
  contentCrsIgnored: boolean;
}

export const NO_GEO_FAULTS: GeoFaults = {
  storageCrsNotListed: false, noContentCrs: false, crsIgnored: false, swappedAxes: false, bboxCrsIgnored: false, bboxIgnored: false, bboxWithin: false, itemsAsJson: false,
  contentCrsIgnored: false,
};

/** The conformance classes the API implements. */
export const CONFORMANCE_CLASSES = [
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
  'http://www.opengis.net/spec/ogcapi-features-2/1.0/conf/crs',
];

/** RD New with NAP heights: what the `geo-storage-crs-not-listed` fault claims the parcels are stored in. */
const UNLISTED_STORAGE_CRS = 'http://www.opengis.net/def/crs/EPSG/0/7415';

const DEFAULT_LIMIT = 10;
/** A larger `limit` is no error (OGC API Features part 1, 7.15.3): it gives this many. */
export const MAX_LIMIT = 100;

interface Link {
  href: string;
  rel: string;
  type: string;
  title?: string;
}

interface GeoFeature {
  id: string;
  geometry: StoredGeometry;
  properties: Record<string, unknown>;
  /** Links beside self and collection, to the JSON resources the feature belongs with. */
  related: Link[];
}

interface FeatureSource {
  id: string;
  title: string;
  description: string;
  /** The features in id order, lazily. */
  features(store: Store, base: string): Iterable<GeoFeature>;
  feature(store: Store, base: string, id: string): GeoFeature | undefined;
  /** CRS84 extent of every feature the dataset holds. */
  extent(store: Store): Envelope;
}

// ---------------------------------------------------------------------------------------------
// The two collections

function adresOf(record: MonumentRecord): string {
  const { straatnaam, huisnummer, huisletter, huisnummertoevoeging, postcode, woonplaats } = record.adres;
  const nummer = huisnummer === undefined ? '' : ` ${huisnummer}${huisletter ?? ''}${huisnummertoevoeging === undefined ? '' : `-${huisnummertoevoeging}`}`;
  return `${straatnaam}${nummer}, ${postcode === undefined ? '' : `${postcode} `}${woonplaats}`;
}

function monumentFeature(store: Store, base: string, record: MonumentRecord): GeoFeature | undefined {
  const location = MONUMENT_LOCATIONS[record.monumentId];
  if (location === undefined) return undefined;
  const { monumentId, naam, monumentType, bouwjaar, wijk } = record;
  return {
    id: monumentId,
    geometry: { type: 'Point', coordinates: location },
    properties: {
      naam,
      monumentType,
      status: statusOf(besluitenVan(store, monumentId)),
      ...(bouwjaar === undefined ? {} : { bouwjaar }),
      ...(wijk === undefined ? {} : { wijk }),
      adres: adresOf(record),
    },
    related: [{ href: monumentHref(base, monumentId), rel: 'alternate', type: JSON_TYPE, title: 'Het monument in het register' }],
  };
}

function perceelFeature(base: string, perceel: PerceelRecord): GeoFeature {
  const { perceelId, kadastraleGemeentecode, sectie, perceelnummer, kadastraleGrootte, monumentId, omschrijving } = perceel;
  return {
    id: perceelId,
    geometry: perceel.geometry,
    properties: {
      kadastraleAanduiding: `${kadastraleGemeentecode} ${sectie} ${perceelnummer}`,
      kadastraleGemeentecode,
      sectie,
      perceelnummer,
      kadastraleGrootte,
      ...(omschrijving === undefined ? {} : { omschrijving }),
      monumentId,
    },
    related: [{ href: monumentHref(base, monumentId), rel: 'related', type: JSON_TYPE, title: 'Het monument op dit perceel' }],
  };
}

const PERCELEN_BY_ID = new Map(PERCELEN.map((perceel) => [perceel.perceelId, perceel]));
const SEEDED_PERCELEN_EXTENT = crs84Extent(PERCELEN.flatMap((perceel) => positionsOf(perceel.geometry)));
const MONUMENTEN_EXTENT = crs84Extent(Object.values(MONUMENT_LOCATIONS));

/** A record never changes, so its extent is computed once, not on every request for the collection. */
const recordedExtents = new WeakMap<PerceelRecord, Envelope>();

function recordedExtent(perceel: PerceelRecord): Envelope {
  let extent = recordedExtents.get(perceel);
  if (extent === undefined) {
    extent = crs84Extent(positionsOf(perceel.geometry));
    recordedExtents.set(perceel, extent);
  }
  return extent;
}

function unionOf(first: Envelope, others: Iterable<Envelope>): Envelope {
  let [minA, minB, maxA, maxB] = first;
  for (const [a, b, c, d] of others) [minA, minB, maxA, maxB] = [Math.min(minA, a), Math.min(minB, b), Math.max(maxA, c), Math.max(maxB, d)];
  return [minA, minB, maxA, maxB];
}

/** The seeded parcels, then those clients recorded, each in id order. */
function* allPercelen(store: Store): Generator<PerceelRecord> {
  yield* PERCELEN;
  yield* store.percelen.values();
}

const SOURCES: readonly FeatureSource[] = [
  {
    id: 'monumenten',
    title: 'Monumenten',
    description: 'De ligging van de gemeentelijke monumenten van Voorbeeldstad, als punt.',
    *features(store, base) {
      for (const record of store.monumenten.values()) {
        const feature = monumentFeature(store, base, record);
        if (feature !== undefined) yield feature;
      }
    },
    feature(store, base, id) {
      const record = store.monumenten.get(id);
      return record === undefined ? undefined : monumentFeature(store, base, record);
    },
    extent: () => MONUMENTEN_EXTENT,
  },
  {
    id: 'percelen',
    title: 'Percelen',
    description: 'De kadastrale percelen waarop gemeentelijke monumenten staan, als vlak.',
    *features(store, base) {
      for (const perceel of allPercelen(store)) yield perceelFeature(base, perceel);
    },
    feature(store, base, id) {
      const perceel = PERCELEN_BY_ID.get(id) ?? store.percelen.get(id);
      return perceel === undefined ? undefined : perceelFeature(base, perceel);
    },
    extent: (store) => unionOf(SEEDED_PERCELEN_EXTENT, [...store.percelen.values()].map(recordedExtent)),
  },
];

const SOURCES_BY_ID = new Map(SOURCES.map((source) => [source.id, source]));

// ---------------------------------------------------------------------------------------------
// Representations

function collectionHref(base: string, collectionId: string): string {
  return `${base}/collections/${encodeURIComponent(collectionId)}`;
}

function featureHref(base: string, collectionId: string, featureId: string): string {
  return `${collectionHref(base, collectionId)}/items/${encodeURIComponent(featureId)}`;
}

function collectionResource(source: FeatureSource, store: Store, base: string, faults: GeoFaults): Record<string, unknown> {
  const self = collectionHref(base, source.id);
  const storageCrs = source.id === 'percelen' && faults.storageCrsNotListed ? UNLISTED_STORAGE_CRS : STORAGE_CRS;
  return {
    id: source.id,
    title: source.title,
    description: source.description,
    links: [
      { href: self, rel: 'self', type: JSON_TYPE, title: `De collectie ${source.id}` },
      { href: `${self}/items`, rel: 'items', type: GEO_JSON, title: `De features van ${source.id}` },
    ],
    extent: { spatial: { bbox: [source.extent(store)], crs: CRS84 } },
    itemType: 'feature',
    crs: [...SUPPORTED_CRS],
    storageCrs,
  };
}

interface Output {
  /** The CRS named in Content-Crs: the one asked for. */
  crs: SupportedCrs;
  /** The CRS the coordinates are in: the one asked for, unless the `geo-crs-ignored` fault. */
  coordinates: SupportedCrs;
  swapAxes: boolean;
}

function featureResource(feature: GeoFeature, collectionId: string, base: string, output: Output): Record<string, unknown> {
  const self = featureHref(base, collectionId, feature.id);
  return {
    type: 'Feature',
    id: feature.id,
    geometry: geometryIn(output.coordinates, feature.geometry, { swapAxes: output.swapAxes }),
    properties: feature.properties,
    links: [
      { href: self, rel: 'self', type: GEO_JSON, title: 'Deze feature' },
      { href: collectionHref(base, collectionId), rel: 'collection', type: JSON_TYPE, title: `De collectie ${collectionId}` },
      ...feature.related,
    ],
  };
}

function geoReply(context: HandlerContext, json: unknown, output: Output, status = 200, extraHeaders: Record<string, string> = {}): Reply {
  const headers: Record<string, string> = context.geo.noContentCrs ? { ...extraHeaders } : { ...extraHeaders, 'Content-Crs': `<${output.crs}>` };
  return { status, json, mediaType: context.geo.itemsAsJson ? JSON_TYPE : GEO_JSON, headers };
}

/** The date-time of a response, ISO 8601 in UTC, to the second. */
function timeStamp(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

// ---------------------------------------------------------------------------------------------
// Query parameters, already valid against their schemas

function sourceOf(context: HandlerContext): FeatureSource | undefined {
  return SOURCES_BY_ID.get(context.params.collectionId ?? '');
}

function collectionNotFound(context: HandlerContext): Reply {
  return problem(PROBLEMS.nietGevonden, `Er is geen collectie met deze identificatie; de collecties zijn ${SOURCES.map((source) => source.id).join(' en ')}.`, context.instance);
}

/**
 * OGC API Features part 1 (7.15.2, /req/core/query-param-unknown): a query parameter the
 * description does not declare for the operation gets 400, so a misspelt `bbox` is no silent
 * "everything".
 */
function undeclaredQuery(context: HandlerContext): Reply | undefined {
  if (context.undeclaredQuery.length === 0) return undefined;
  const invalid = context.undeclaredQuery.map((name) => ({ name, reason: 'is geen parameter van deze operatie' }));
  return problem(PROBLEMS.ongeldigVerzoek, 'Het verzoek bevat een onbekende query parameter.', context.instance, invalid);
}

function crsOf(context: HandlerContext, name: 'crs' | 'bbox-crs'): SupportedCrs {
  const value = context.query[name];
  return isSupportedCrs(value) ? value : CRS84;
}

function outputOf(context: HandlerContext): Output {
  const crs = crsOf(context, 'crs');
  return { crs, coordinates: context.geo.crsIgnored ? CRS84 : crs, swapAxes: context.geo.swappedAxes };
}

function integerOf(context: HandlerContext, name: string, fallback: number): number {
  const value = context.query[name];
  return typeof value === 'number' ? value : fallback;
}

interface BboxFilter {
  given: number[];
  crs: SupportedCrs;
  selection: BboxSelection;
}

function bboxOf(context: HandlerContext): BboxFilter | undefined | Reply {
  const given = context.query.bbox;
  if (!Array.isArray(given)) return undefined;
  const numbers = given as number[];
  const crs = crsOf(context, 'bbox-crs');
  const wrong = bboxProblem(numbers, crs);
  if (wrong !== undefined) return problem(PROBLEMS.ongeldigVerzoek, 'De bbox is ongeldig.', context.instance, [{ name: 'bbox', reason: wrong }]);
  // The `geo-bbox-crs-ignored` fault: the numbers are read as CRS84, whatever bbox-crs says.
  const selection = bboxInStorage(numbers, context.geo.bboxCrsIgnored ? CRS84 : crs);
  if (selection.kind === 'invalid') return problem(PROBLEMS.ongeldigVerzoek, 'De bbox is ongeldig.', context.instance, [{ name: 'bbox', reason: selection.reason }]);
  return { given: numbers, crs, selection };
}

function selects(filter: BboxFilter | undefined, feature: GeoFeature, faults: GeoFaults): boolean {
  if (filter === undefined || faults.bboxIgnored) return true;
  if (filter.selection.kind !== 'envelope') return false;
  const extent = envelopeOf(positionsOf(feature.geometry));
  return faults.bboxWithin ? within(extent, filter.selection.envelope) : intersects(extent, filter.selection.envelope);
}

function within(inner: Envelope, outer: Envelope): boolean {
  return inner[0] >= outer[0] && inner[1] >= outer[1] && inner[2] <= outer[2] && inner[3] <= outer[3];
}

/** The items URL with the query a page link needs; values as the client gave them, defaults left out. */
function itemsHref(base: string, collectionId: string, query: { crs: SupportedCrs; bbox: BboxFilter | undefined; limit: number; offset: number }): string {
  const parts: string[] = [];
  if (query.bbox !== undefined) {
    parts.push(`bbox=${query.bbox.given.join(',')}`);
    if (query.bbox.crs !== CRS84) parts.push(`bbox-crs=${encodeURIComponent(query.bbox.crs)}`);
  }
  if (query.crs !== CRS84) parts.push(`crs=${encodeURIComponent(query.crs)}`);
  parts.push(`limit=${query.limit}`);
  if (query.offset > 0) parts.push(`offset=${query.offset}`);
  return `${collectionHref(base, collectionId)}/items?${parts.join('&')}`;
}

// ---------------------------------------------------------------------------------------------
// Handlers, one per operationId

const raadpleegConformance: Handler = () => ({ status: 200, json: { conformsTo: CONFORMANCE_CLASSES }, mediaType: JSON_TYPE });

const raadpleegCollecties: Handler = (context) => ({
  status: 200,
  mediaType: JSON_TYPE,
  json: {
    links: [{ href: `${context.base}/collections`, rel: 'self', type: JSON_TYPE, title: 'De collecties' }],
    crs: [...SUPPORTED_CRS],
    collections: SOURCES.map((source) => collectionResource(source, context.store, context.base, context.geo)),
  },
});

const raadpleegCollectie: Handler = (context) => {
  const source = sourceOf(context);
  if (source === undefined) return collectionNotFound(context);
  return { status: 200, json: collectionResource(source, context.store, context.base, context.geo), mediaType: JSON_TYPE };
};

const raadpleegFeatures: Handler = (context) => {
  const source = sourceOf(context);
  if (source === undefined) return collectionNotFound(context);
  const refused = undeclaredQuery(context);
  if (refused !== undefined) return refused;
  const bbox = bboxOf(context);
  if (bbox !== undefined && 'status' in bbox) return bbox;
  const output = outputOf(context);
  const limit = Math.min(integerOf(context, 'limit', DEFAULT_LIMIT), MAX_LIMIT);
  const offset = integerOf(context, 'offset', 0);
  // One walk: the page's features are kept, the rest only counted.
  const page: GeoFeature[] = [];
  let matched = 0;
  for (const feature of source.features(context.store, context.base)) {
    if (!selects(bbox, feature, context.geo)) continue;
    if (matched >= offset && matched < offset + limit) page.push(feature);
    matched += 1;
  }
  const href = (at: number): string => itemsHref(context.base, source.id, { crs: output.crs, bbox, limit, offset: at });
  const links: Link[] = [{ href: href(offset), rel: 'self', type: GEO_JSON, title: 'Deze pagina' }];
  if (offset > 0) links.push({ href: href(Math.max(0, offset - limit)), rel: 'prev', type: GEO_JSON, title: 'De vorige pagina' });
  if (offset + limit < matched) links.push({ href: href(offset + limit), rel: 'next', type: GEO_JSON, title: 'De volgende pagina' });
  links.push({ href: collectionHref(context.base, source.id), rel: 'collection', type: JSON_TYPE, title: `De collectie ${source.id}` });
  return geoReply(context, {
    type: 'FeatureCollection',
    timeStamp: timeStamp(),
    numberMatched: matched,
    numberReturned: page.length,
    features: page.map((feature) => featureResource(feature, source.id, context.base, output)),
    links,
  }, output);
};

const raadpleegFeature: Handler = (context) => {
  const source = sourceOf(context);
  if (source === undefined) return collectionNotFound(context);
  const refused = undeclaredQuery(context);
  if (refused !== undefined) return refused;
  const feature = source.feature(context.store, context.base, context.params.featureId ?? '');
  if (feature === undefined) return problem(PROBLEMS.nietGevonden, `De collectie ${source.id} heeft geen feature met deze identificatie.`, context.instance);
  const output = outputOf(context);
  return geoReply(context, featureResource(feature, source.id, context.base, output), output);
};

// ---------------------------------------------------------------------------------------------
// Recording and deleting parcels

/** The request body of legPerceelVast, already valid against PerceelInvoer; other members are ignored. */
interface PerceelInvoer {
  geometry: { type: 'Polygon'; coordinates: Position[][] };
  properties: PerceelGegevens;
}

/**
 * The CRS of the body's geometry: the one Content-Crs names (already valid against its enum),
 * CRS84 without the header (SPEC.md, geospatial behaviour 5). The `geo-content-crs-ignored`
 * fault reads it as CRS84 whatever the header says.
 */
function bodyCrsOf(context: HandlerContext): SupportedCrs {
  const given = context.headers['Content-Crs'];
  const named = given === undefined ? CRS84 : crsOfContentCrs(given) ?? CRS84;
  return context.geo.contentCrsIgnored ? CRS84 : named;
}

function firstPositionProblem(ring: readonly Position[], crs: SupportedCrs): { index: number; reason: string } | undefined {
  for (const [index, position] of ring.entries()) {
    const reason = positionProblem(crs, position);
    if (reason !== undefined) return { index, reason };
  }
  return undefined;
}

/** What is wrong with one ring as sent: not closed, or a position that cannot be stored (the first, so a long ring gives one finding). */
function ringProblems(ring: readonly Position[], ringIndex: number, crs: SupportedCrs): InvalidParam[] {
  const name = `geometry.coordinates.${ringIndex}`;
  const [first, last] = [ring[0], ring[ring.length - 1]];
  const closed = first !== undefined && last !== undefined && first[0] === last[0] && first[1] === last[1];
  const outside = firstPositionProblem(ring, crs);
  return [
    ...(closed ? [] : [{ name, reason: 'is geen gesloten ring: de eerste positie moet ook de laatste zijn' }]),
    ...(outside === undefined ? [] : [{ name: `${name}.${outside.index}`, reason: outside.reason }]),
  ];
}

/** What a schema cannot say about a parcel: closed rings, positions that can be stored, a monument that exists. */
function perceelProblems(context: HandlerContext, invoer: PerceelInvoer, crs: SupportedCrs): InvalidParam[] {
  const geometry = invoer.geometry.coordinates.flatMap((ring, index) => ringProblems(ring, index, crs));
  const monumentKnown = context.store.monumenten.has(invoer.properties.monumentId);
  return [...geometry, ...(monumentKnown ? [] : [{ name: 'properties.monumentId', reason: 'is geen monument in het register' }])];
}

const legPerceelVast: Handler = (context) => {
  // The description narrows collectionId to percelen; monumenten got 405 before the handler, any other value is no collection.
  if (context.params.collectionId !== 'percelen') return collectionNotFound(context);
  const refused = undeclaredQuery(context);
  if (refused !== undefined) return refused;
  // 507, as for monuments (handlers.ts, storeFull).
  if (!hasRoomFor(context.store, 'percelen')) return problem(PROBLEMS.registerVol, storeFullDetail(context.store, 'percelen'), context.instance);
  const invoer = context.body as PerceelInvoer;
  const crs = bodyCrsOf(context);
  const invalid = perceelProblems(context, invoer, crs);
  if (invalid.length > 0) return problem(PROBLEMS.ongeldigVerzoek, 'Het perceel kan zo niet worden vastgelegd; invalidParams zegt waarom.', context.instance, invalid);
  const rings = rightHandRings(invoer.geometry.coordinates.map((ring) => ring.map((position) => toStorage(crs, position))));
  const record = recordPerceel(context.store, invoer.properties, rings);
  const output = outputOf(context);
  const location = featureHref(context.base, 'percelen', record.perceelId);
  return geoReply(context, featureResource(perceelFeature(context.base, record), 'percelen', context.base, output), output, 201, { Location: location });
};

/**
 * Only a parcel a client recorded can be deleted. A seeded parcel comes from the registration of
 * the Kadaster, which this register follows and does not own: 409, and it stays.
 */
const verwijderPerceel: Handler = (context) => {
  if (context.params.collectionId !== 'percelen') return collectionNotFound(context);
  const perceelId = context.params.featureId ?? '';
  if (PERCELEN_BY_ID.has(perceelId)) {
    return problem(PROBLEMS.conflict, 'Dit perceel komt uit de registratie van het Kadaster en kan hier niet worden verwijderd; alleen percelen die via deze API zijn vastgelegd (VP-...) kunnen dat.', context.instance);
  }
  if (!deletePerceel(context.store, perceelId)) return problem(PROBLEMS.nietGevonden, 'De collectie percelen heeft geen feature met deze identificatie.', context.instance);
  return { status: 204 };
};

export const GEO_HANDLERS: Record<string, Handler> = {
  raadpleegConformance,
  raadpleegCollecties,
  raadpleegCollectie,
  raadpleegFeatures,
  raadpleegFeature,
  legPerceelVast,
  verwijderPerceel,
};

/** The OGC links of the landing page (OGC API Features part 1, 7.2). */
export function landingPageLinks(base: string): Link[] {
  return [
    { href: base, rel: 'self', type: JSON_TYPE, title: 'Dit beginpunt' },
    { href: `${base}/openapi.json`, rel: 'service-desc', type: 'application/vnd.oai.openapi+json;version=3.0', title: 'De OpenAPI-beschrijving van deze API' },
    { href: `${base}/conformance`, rel: 'conformance', type: JSON_TYPE, title: 'De conformiteitsklassen die deze API implementeert' },
    { href: `${base}/collections`, rel: 'data', type: JSON_TYPE, title: 'De collecties met geodata' },
  ];
}
