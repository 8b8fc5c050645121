import proj4 from 'proj4';

/**
 * The CRSs adr-check can transform, by URI, with the axis order the URI prescribes. proj4 works
 * in longitude/latitude (or x/y) order, so a lat/lon CRS (EPSG:4326, EPSG:4258 as EPSG defines
 * them) is swapped on the way in and out: that is exactly what catches a server with swapped axes.
 */

export const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
/** CRS84 with ellipsoidal height: the default instead of CRS84 for 3D data (SPEC.md, geospatial behaviour 6). */
export const CRS84H = 'http://www.opengis.net/def/crs/OGC/0/CRS84h';

/** CRS84, or CRS84h for 3D data: what a response without `crs` is in. */
export function isDefaultCrs(uri: string): boolean {
  return sameCrs(uri, CRS84) || sameCrs(uri, CRS84H);
}

interface KnownCrs {
  proj4: string;
  /** Order of the two axes in the CRS's coordinates. */
  axes: 'lon-lat' | 'lat-lon' | 'x-y';
}

const RD_NEW = '+proj=sterea +lat_0=52.15616055555555 +lon_0=5.38763888888889 +k=0.9999079 +x_0=155000 +y_0=463000 +ellps=bessel +towgs84=565.417,50.3319,465.552,-0.398957,0.343988,-1.8774,4.0725 +units=m +no_defs';

const KNOWN: Record<string, KnownCrs> = {
  [CRS84]: { proj4: '+proj=longlat +datum=WGS84 +no_defs', axes: 'lon-lat' },
  'http://www.opengis.net/def/crs/EPSG/0/4326': { proj4: '+proj=longlat +datum=WGS84 +no_defs', axes: 'lat-lon' },
  'http://www.opengis.net/def/crs/EPSG/0/4258': { proj4: '+proj=longlat +ellps=GRS80 +no_defs', axes: 'lat-lon' },
  'http://www.opengis.net/def/crs/EPSG/0/28992': { proj4: RD_NEW, axes: 'x-y' },
  'http://www.opengis.net/def/crs/EPSG/0/3857': { proj4: '+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +no_defs', axes: 'x-y' },
  'http://www.opengis.net/def/crs/EPSG/0/3035': { proj4: '+proj=laea +lat_0=52 +lon_0=10 +x_0=4321000 +y_0=3210000 +ellps=GRS80 +units=m +no_defs', axes: 'x-y' },
};

/** Longer than any CRS URI: a value this long is not sent, not compared and not shown whole. */
export const MAX_CRS_URI_LENGTH = 2048;

/**
 * A CRS URI as servers write it: in angle brackets (OGC API Features part 2), over https, with a
 * trailing slash. A value longer than any CRS URI is left as it is (it equals no known CRS), and
 * trailing slashes are cut by a loop: `/\/+$/` takes quadratic time on a long run of slashes.
 */
export function normalCrsUri(value: string): string {
  if (value.length > MAX_CRS_URI_LENGTH) return value;
  const uri = value.trim().replace(/^<(.*)>$/, '$1').replace(/^https:/i, 'http:');
  let end = uri.length;
  while (end > 1 && uri[end - 1] === '/') end -= 1;
  return withoutRegistryVersion(uri.slice(0, end));
}

const OGC_CRS_BASE = 'http://www.opengis.net/def/crs/';

/**
 * One spelling per CRS: an EPSG code is the same CRS in every version of the registry
 * (`.../EPSG/9.6.2/4326` is `.../EPSG/0/4326`, as SPEC.md's URIs may carry a version), the OGC URN
 * forms (`urn:ogc:def:crs:EPSG::4326`, `urn:ogc:def:crs:OGC:1.3:CRS84`) are the URIs they name,
 * and CRS84 and CRS84h are each one CRS whatever OGC version the URI names.
 */
function withoutRegistryVersion(uri: string): string {
  const urn = /^urn:ogc:def:crs:(EPSG|OGC):[^:]*:([A-Za-z0-9]+)$/i.exec(uri);
  const path = urn !== null ? `${urn[1]?.toUpperCase()}/x/${urn[2]}` : uri.startsWith(OGC_CRS_BASE) ? uri.slice(OGC_CRS_BASE.length) : undefined;
  if (path === undefined) return uri;
  const [authority, , code, ...rest] = path.split('/');
  if (rest.length > 0 || code === undefined) return uri;
  if (authority === 'EPSG' && /^\d+$/.test(code)) return `${OGC_CRS_BASE}EPSG/0/${code}`;
  if (authority === 'OGC' && code === 'CRS84') return CRS84;
  if (authority === 'OGC' && code === 'CRS84h') return CRS84H;
  return uri;
}

export function sameCrs(a: string, b: string): boolean {
  return normalCrsUri(a) === normalCrsUri(b);
}

/**
 * What makes a CRS value from the server unfit to send in a query or a header, or undefined when
 * it is fit: a CRS URI is printable ASCII without spaces (in angle brackets or not). A control
 * character, CR, LF or U+2028 would end a header line or make the request fail; it is never sent.
 */
export function crsUriDefect(value: string): string | undefined {
  if (value.length > MAX_CRS_URI_LENGTH) return `it is ${value.length.toLocaleString('en')} characters long (at most ${MAX_CRS_URI_LENGTH.toLocaleString('en')})`;
  const unfit = /[^\x21-\x7e]/.exec(value);
  if (unfit === null) return value === '' ? 'it is empty' : undefined;
  const point = unfit[0].codePointAt(0) as number;
  const control = point < 0x20 || (point >= 0x7f && point <= 0x9f);
  return point === 0x20 ? 'it contains a space' : `it contains U+${point.toString(16).toUpperCase().padStart(4, '0')}${control ? ' (a control character)' : ''}`;
}

/** A server's value (a CRS, a collection id) as a message shows it: quoted, escaped, and cut after 120 characters. */
export function quoted(value: string): string {
  const shown = JSON.stringify(value.length > 120 ? value.slice(0, 120) : value);
  return value.length > 120 ? `${shown}… (${value.length.toLocaleString('en')} characters)` : shown;
}

/** A CRS adr-check knows how to transform, given by a value fit to send (crsUriDefect). */
export function isTransformable(uri: string): boolean {
  return crsUriDefect(uri) === undefined && KNOWN[normalCrsUri(uri)] !== undefined;
}

/** Whether the CRS's coordinates are latitude first (EPSG:4326, EPSG:4258). */
export function isLatitudeFirst(uri: string): boolean {
  return KNOWN[normalCrsUri(uri)]?.axes === 'lat-lon';
}

export type Position = [number, number];

/** Where a position cannot be transformed (not finite, outside the CRS): measured as infinitely far. */
const NOWHERE: Position = [Number.NaN, Number.NaN];

/**
 * proj4 on a server's numbers: it throws on a non-finite coordinate (`1e999` parses as Infinity)
 * and may on others; such a position is NOWHERE, never an exception.
 */
function transform(from: string, to: string, position: Position | undefined): Position {
  if (position === undefined || !Number.isFinite(position[0]) || !Number.isFinite(position[1])) return NOWHERE;
  try {
    const [a, b] = proj4(from, to, [position[0], position[1]]);
    return [a as number, b as number];
  } catch {
    return NOWHERE;
  }
}

/** A position in `uri` to CRS84 (lon, lat); undefined for a CRS adr-check does not know; NaNs where it cannot be transformed. */
export function toCrs84(uri: string, position: Position): Position | undefined {
  const crs = KNOWN[normalCrsUri(uri)];
  if (crs === undefined) return undefined;
  const ordered: Position | undefined = position === undefined ? undefined : crs.axes === 'lat-lon' ? [position[1], position[0]] : position;
  return transform(crs.proj4, KNOWN[CRS84]?.proj4 as string, ordered);
}

/** A CRS84 position (lon, lat) in `uri`'s own axis order; NaNs where it cannot be transformed. */
export function fromCrs84(uri: string, position: Position): Position | undefined {
  const crs = KNOWN[normalCrsUri(uri)];
  if (crs === undefined) return undefined;
  const [a, b] = transform(KNOWN[CRS84]?.proj4 as string, crs.proj4, position);
  return crs.axes === 'lat-lon' ? [b, a] : [a, b];
}

/** Great-circle distance between two CRS84 positions, in metres (haversine on a 6,371 km sphere). */
export function distanceMetres(a: Position, b: Position): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(b[1] - a[1]);
  const dLon = radians(b[0] - a[0]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a[1])) * Math.cos(radians(b[1])) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The largest distance, in metres, between CRS84 positions paired by index (lists of equal
 * length); a pair that cannot be measured (a coordinate outside its CRS gives NaN) counts as
 * infinitely far.
 */
export function worstDistance(positions: Position[], reference: Position[]): number {
  // A loop, not Math.max(...): a spread of a long list overflows the call stack.
  let worst = -Infinity;
  positions.forEach((position, index) => {
    const other = reference[index];
    const distance = position === undefined || other === undefined ? Number.NaN : distanceMetres(position, other);
    worst = Math.max(worst, Number.isFinite(distance) ? distance : Infinity);
  });
  return worst;
}

/** [minLon, minLat, maxLon, maxLat] */
export type Envelope = [number, number, number, number];

/** The envelope, in `uri`'s axis order, of a CRS84 envelope's four corners transformed. */
export function envelopeIn(uri: string, envelope: Envelope): Envelope | undefined {
  const [minX, minY, maxX, maxY] = envelope;
  const corners = ([[minX, minY], [minX, maxY], [maxX, minY], [maxX, maxY]] as Position[]).map((corner) => fromCrs84(uri, corner));
  if (corners.some((corner) => corner === undefined || !corner.every(Number.isFinite))) return undefined;
  return envelopeOf(corners as Position[]);
}

/** The CRS84 envelope of an envelope given in `uri`'s axis order. */
export function envelopeToCrs84(uri: string, envelope: Envelope): Envelope | undefined {
  const [minA, minB, maxA, maxB] = envelope;
  const corners = ([[minA, minB], [minA, maxB], [maxA, minB], [maxA, maxB]] as Position[]).map((corner) => toCrs84(uri, corner));
  if (corners.some((corner) => corner === undefined)) return undefined;
  return envelopeOf(corners as Position[]);
}

/** The envelope of positions; a loop, not Math.min(...): a spread of a long list overflows the call stack. */
export function envelopeOf(positions: Position[]): Envelope {
  const envelope: Envelope = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of positions) {
    envelope[0] = Math.min(envelope[0], x);
    envelope[1] = Math.min(envelope[1], y);
    envelope[2] = Math.max(envelope[2], x);
    envelope[3] = Math.max(envelope[3], y);
  }
  return envelope;
}

const METRES_PER_DEGREE = 111_320;

/** A CRS84 envelope grown (or, negative, shrunk) by about `metres` on every side, at its own latitude. */
export function grownBy(envelope: Envelope, metres: number): Envelope {
  const latitude = (envelope[1] + envelope[3]) / 2;
  const dLat = metres / METRES_PER_DEGREE;
  const dLon = metres / (METRES_PER_DEGREE * Math.max(0.01, Math.cos((latitude * Math.PI) / 180)));
  return [envelope[0] - dLon, envelope[1] - dLat, envelope[2] + dLon, envelope[3] + dLat];
}

/** A CRS84 box of about `metres` on every side of a position. */
export function boxAround(position: Position, metres: number): Envelope {
  return grownBy([position[0], position[1], position[0], position[1]], metres);
}

/** Width and height of a CRS84 envelope, in metres. */
export function sizeMetres(envelope: Envelope): [number, number] {
  const middle = (envelope[1] + envelope[3]) / 2;
  return [distanceMetres([envelope[0], middle], [envelope[2], middle]), distanceMetres([envelope[0], envelope[1]], [envelope[0], envelope[3]])];
}

export function envelopesIntersect(a: Envelope, b: Envelope): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}
