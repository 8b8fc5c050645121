import proj4 from 'proj4';

/**
 * The coordinate reference systems the reference API serves, by the URIs OGC API Features
 * part 2 uses, and the transformations between them, all done by proj4 (no formulas of our
 * own). The data is stored in RD New (EPSG:28992); every other CRS is computed from there.
 *
 * proj4 works in longitude/latitude (or x/y) order. EPSG:4258 (ETRS89) is defined by EPSG with
 * latitude first, so its positions are swapped on the way out and on the way in; CRS84 is the
 * longitude-first variant of WGS 84 that GeoJSON (RFC 7946) uses.
 */

export const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
export const RD_NEW = 'http://www.opengis.net/def/crs/EPSG/0/28992';
export const ETRS89 = 'http://www.opengis.net/def/crs/EPSG/0/4258';
export const WEB_MERCATOR = 'http://www.opengis.net/def/crs/EPSG/0/3857';

/** Every CRS the API serves; CRS84 first, the default. */
export const SUPPORTED_CRS = [CRS84, RD_NEW, ETRS89, WEB_MERCATOR] as const;
export type SupportedCrs = (typeof SUPPORTED_CRS)[number];
/** The CRS the data is stored in. */
export const STORAGE_CRS: SupportedCrs = RD_NEW;

export function isSupportedCrs(value: unknown): value is SupportedCrs {
  return typeof value === 'string' && (SUPPORTED_CRS as readonly string[]).includes(value);
}

export type Position = [number, number];
/** [min first axis, min second axis, max first axis, max second axis], in a CRS's own axis order. */
export type Envelope = [number, number, number, number];

interface CrsDefinition {
  proj4: string;
  /** The axis order of positions in this CRS, as its URI prescribes. */
  axes: 'lon-lat' | 'lat-lon' | 'x-y';
  /** Decimals of output coordinates: 7 for degrees (about 1 cm), 2 for metres (1 cm). */
  decimals: number;
  /** Where positions are valid at all, in the CRS's own axis order; outside it a bbox is refused. */
  domain: Envelope;
}

const RD_NEW_PROJ4 = '+proj=sterea +lat_0=52.15616055555555 +lon_0=5.38763888888889 +k=0.9999079 +x_0=155000 +y_0=463000 +ellps=bessel +towgs84=565.417,50.3319,465.552,-0.398957,0.343988,-1.8774,4.0725 +units=m +no_defs';
const WGS84_PROJ4 = '+proj=longlat +datum=WGS84 +no_defs';
const MERCATOR_LIMIT = 20037508.342789244;

const DEFINITIONS: Record<SupportedCrs, CrsDefinition> = {
  [CRS84]: { proj4: WGS84_PROJ4, axes: 'lon-lat', decimals: 7, domain: [-180, -90, 180, 90] },
  [RD_NEW]: { proj4: RD_NEW_PROJ4, axes: 'x-y', decimals: 2, domain: [-Infinity, -Infinity, Infinity, Infinity] },
  [ETRS89]: { proj4: '+proj=longlat +ellps=GRS80 +no_defs', axes: 'lat-lon', decimals: 7, domain: [-90, -180, 90, 180] },
  [WEB_MERCATOR]: {
    proj4: '+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +no_defs',
    axes: 'x-y',
    decimals: 2,
    domain: [-MERCATOR_LIMIT, -MERCATOR_LIMIT, MERCATOR_LIMIT, MERCATOR_LIMIT],
  },
};

/**
 * Where RD New means something: its EPSG area of use (3.2-7.22 E, 50.75-53.7 N) with a margin. A
 * bbox is clipped to it before its corners go to RD New; far away, a stereographic projection
 * centred on Amersfoort gives numbers that mean nothing (the whole world would map to nonsense).
 */
const RD_REGION_CRS84: Envelope = [2.0, 49.75, 8.5, 54.75];

const converters = new Map<string, proj4.Converter>();

function converter(from: string, to: string): proj4.Converter {
  const key = `${from}\u0000${to}`;
  let found = converters.get(key);
  if (found === undefined) {
    found = proj4(from, to);
    converters.set(key, found);
  }
  return found;
}

function transform(from: SupportedCrs, to: SupportedCrs, position: Position): Position {
  if (from === to) return position;
  const [a, b] = converter(DEFINITIONS[from].proj4, DEFINITIONS[to].proj4).forward([position[0], position[1]]);
  return [a as number, b as number];
}

/** A position in proj4's order (lon/lat or x/y) in the axis order of `crs`, or back: a swap for lat/lon CRSs. */
function axisOrder(crs: SupportedCrs, position: Position): Position {
  return DEFINITIONS[crs].axes === 'lat-lon' ? [position[1], position[0]] : position;
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  // + 0 turns -0 into 0.
  return Math.round(value * factor) / factor + 0;
}

export interface OutputOptions {
  /** The `geo-swapped-axes` fault: lat/lon CRSs come out in lon/lat order. */
  swapAxes?: boolean;
}

/** A stored (RD New) position in `crs`, in that CRS's axis order, rounded. */
export function fromStorage(crs: SupportedCrs, position: Position, options: OutputOptions = {}): Position {
  const [a, b] = transform(STORAGE_CRS, crs, position);
  const ordered: Position = options.swapAxes === true ? [a, b] : axisOrder(crs, [a, b]);
  const { decimals } = DEFINITIONS[crs];
  return [round(ordered[0], decimals), round(ordered[1], decimals)];
}

/**
 * The CRS a Content-Crs request header names: a CRS URI, in angle brackets as OGC API Features
 * part 2 writes it, or bare (one pair of brackets is stripped); undefined for a CRS the API does
 * not support.
 */
export function crsOfContentCrs(value: string): SupportedCrs | undefined {
  const trimmed = value.trim();
  const uri = trimmed.startsWith('<') && trimmed.endsWith('>') ? trimmed.slice(1, -1) : trimmed;
  return isSupportedCrs(uri) ? uri : undefined;
}

/**
 * Why a position a client sends in `crs` (in that CRS's axis order) cannot be stored, or
 * undefined when it can: it lies in the CRS's domain, and where RD New means something
 * (RD_REGION_CRS84), since far from Amersfoort the projection gives numbers that mean nothing.
 */
export function positionProblem(crs: SupportedCrs, position: Position): string | undefined {
  const [lowA, lowB, highA, highB] = DEFINITIONS[crs].domain;
  const [a, b] = position;
  if (!Number.isFinite(a) || !Number.isFinite(b) || a < lowA || a > highA || b < lowB || b > highB) return `ligt buiten het domein van ${crs}`;
  const [lon, lat] = transform(crs, CRS84, axisOrder(crs, position));
  const [minLon, minLat, maxLon, maxLat] = RD_REGION_CRS84;
  const inRegion = lon >= minLon && lon <= maxLon && lat >= minLat && lat <= maxLat;
  return inRegion ? undefined : `ligt buiten het gebied waar ${STORAGE_CRS} geldt (lengte ${minLon} tot ${maxLon}, breedte ${minLat} tot ${maxLat} graden)`;
}

/**
 * A position a client sends in `crs`, in that CRS's axis order, in the storage CRS, rounded as
 * the stored data is (1 cm): the inverse of fromStorage. The position must have passed
 * positionProblem.
 */
export function toStorage(crs: SupportedCrs, position: Position): Position {
  const [x, y] = transform(crs, STORAGE_CRS, axisOrder(crs, position));
  const { decimals } = DEFINITIONS[STORAGE_CRS];
  return [round(x, decimals), round(y, decimals)];
}

export type StoredGeometry = { type: 'Point'; coordinates: Position } | { type: 'Polygon'; coordinates: Position[][] };

export function geometryIn(crs: SupportedCrs, geometry: StoredGeometry, options: OutputOptions = {}): StoredGeometry {
  if (geometry.type === 'Point') return { type: 'Point', coordinates: fromStorage(crs, geometry.coordinates, options) };
  return { type: 'Polygon', coordinates: geometry.coordinates.map((ring) => ring.map((position) => fromStorage(crs, position, options))) };
}

export function envelopeOf(positions: readonly Position[]): Envelope {
  const xs = positions.map((position) => position[0]);
  const ys = positions.map((position) => position[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

export function positionsOf(geometry: StoredGeometry): Position[] {
  return geometry.type === 'Point' ? [geometry.coordinates] : geometry.coordinates.flat();
}

export function intersects(a: Envelope, b: Envelope): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

function cornersOf([minA, minB, maxA, maxB]: Envelope): Position[] {
  return [[minA, minB], [minA, maxB], [maxA, minB], [maxA, maxB]];
}

/** The envelope of `crs`'s envelope after transforming its four corners to `to`. */
function envelopeIn(crs: SupportedCrs, envelope: Envelope, to: SupportedCrs): Envelope {
  return envelopeOf(cornersOf(envelope).map((corner) => transform(crs, to, axisOrder(crs, corner))));
}

export type BboxSelection =
  | { kind: 'envelope'; envelope: Envelope }
  /** The bbox lies where no stored geometry can be: nothing is selected. */
  | { kind: 'nothing' }
  | { kind: 'invalid'; reason: string };

/**
 * Whether a bbox is well formed for its CRS: minimum before maximum on both axes, inside the
 * CRS's domain (latitude within ±90 degrees, say). Checked in the CRS the client named.
 */
export function bboxProblem(bbox: readonly number[], crs: SupportedCrs): string | undefined {
  if (bbox.length !== 4 || !bbox.every(Number.isFinite)) return 'moet uit vier getallen bestaan';
  const [minA, minB, maxA, maxB] = bbox as Envelope;
  if (minA > maxA || minB > maxB) return 'de ondergrens moet voor de bovengrens komen, per as (minimum eerst, dan maximum)';
  const [lowA, lowB, highA, highB] = DEFINITIONS[crs].domain;
  if (minA < lowA || maxA > highA || minB < lowB || maxB > highB) return `ligt buiten het domein van ${crs}`;
  return undefined;
}

/**
 * The bbox, given in `crs` and its axis order, as an envelope in the storage CRS: RD New as is;
 * any other CRS first to a CRS84 envelope (for these CRSs its edges stay parallels and
 * meridians), clipped to where RD New is defined, then its four corners to RD New and their
 * envelope. The bbox must have passed bboxProblem.
 */
export function bboxInStorage(bbox: readonly number[], crs: SupportedCrs): BboxSelection {
  const envelope = bbox as Envelope;
  if (crs === STORAGE_CRS) return { kind: 'envelope', envelope };
  const inCrs84 = envelopeIn(crs, envelope, CRS84);
  const clipped: Envelope = [
    Math.max(inCrs84[0], RD_REGION_CRS84[0]), Math.max(inCrs84[1], RD_REGION_CRS84[1]),
    Math.min(inCrs84[2], RD_REGION_CRS84[2]), Math.min(inCrs84[3], RD_REGION_CRS84[3]),
  ];
  if (clipped[0] > clipped[2] || clipped[1] > clipped[3]) return { kind: 'nothing' };
  const inStorage = envelopeIn(CRS84, clipped, STORAGE_CRS);
  return inStorage.every(Number.isFinite) ? { kind: 'envelope', envelope: inStorage } : { kind: 'invalid', reason: `kan niet naar ${STORAGE_CRS} worden omgerekend` };
}

/** The CRS84 envelope of stored positions, rounded outwards, for a collection's extent. */
export function crs84Extent(positions: readonly Position[]): Envelope {
  const [minLon, minLat, maxLon, maxLat] = envelopeOf(positions.map((position) => transform(STORAGE_CRS, CRS84, position)));
  const factor = 1e7;
  return [Math.floor(minLon * factor) / factor, Math.floor(minLat * factor) / factor, Math.ceil(maxLon * factor) / factor, Math.ceil(maxLat * factor) / factor];
}
