/** The CRS URI namespace of the OGC definitions server (the `{crs_base}` of SPEC.md); https accepted. */
const CRS_NAMESPACE = /^https?:\/\/www\.opengis\.net\/def\/crs(?:\/|$)/;

/**
 * A CRS URI: `{crs_base}/{authority}/{version}/{code}`, each part non-empty, as in
 * `http://www.opengis.net/def/crs/EPSG/0/28992`. SPEC.md: CRS URIs contain a version number of
 * the CRS registry, so `.../EPSG/28992` (no version) and `.../EPSG/0/` (no code) are none.
 */
export const CRS_URI = /^https?:\/\/www\.opengis\.net\/def\/crs\/[^\s/]+\/[^\s/]+\/[^\s/]+$/;

/** The values legacy CRS negotiation used (SPEC.md, deprecated, informative only); any case. */
const LEGACY_EPSG_VALUES = new Set(['epsg:4326', 'epsg:3857', 'epsg:4258', 'epsg:28992']);

export function isLegacyEpsgValue(value: string): boolean {
  return LEGACY_EPSG_VALUES.has(value.trim().toLowerCase());
}

/** OGC API Features part 2 writes the Content-Crs header value as a URI in angle brackets. */
function bareUri(value: string, isContentCrs: boolean): string {
  return isContentCrs ? value.trim().replace(/^<(.*)>$/, '$1') : value;
}

export function isCrsUri(value: string, isContentCrs: boolean): boolean {
  return CRS_URI.test(bareUri(value, isContentCrs));
}

/** A URI in the CRS namespace that is not `{authority}/{version}/{code}` (a part missing or extra). */
export function isMalformedCrsUri(value: string, isContentCrs: boolean): boolean {
  const uri = bareUri(value, isContentCrs);
  return CRS_NAMESPACE.test(uri) && !CRS_URI.test(uri);
}

/** Query parameters and headers whose values are CRSs. */
export const CRS_QUERY_PARAMETERS = new Set(['crs', 'bbox-crs', 'filter-crs']);
export const CONTENT_CRS = 'content-crs';

/** The CRS URI namespace itself, for building a URI. */
const CRS_BASE = 'http://www.opengis.net/def/crs';
const CRS84_URI = `${CRS_BASE}/OGC/1.3/CRS84`;
const CRS84H_URI = `${CRS_BASE}/OGC/0/CRS84h`;

/**
 * The CRS URI a CRS written another way stands for, so that a message can name the fix:
 * `EPSG:4326` (any case) and `urn:ogc:def:crs:EPSG::4326` (any registry version) are
 * `.../EPSG/0/4326`, a bare EPSG code `28992` too; `CRS84` and `CRS84h` (bare, `OGC:`, or as a
 * URN) are the OGC's own URIs (SPEC.md); a URI in the namespace without the registry version
 * (`.../EPSG/28992`) gets version 0, the version EPSG codes are published under. Undefined when
 * the value names no CRS this can tell.
 */
export function crsUriFor(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = String(value).trim().replace(/^<(.*)>$/, '$1');
  const epsg = /^(?:epsg:{1,2}|urn:ogc:def:crs:epsg:[^:]*:)(\d+)$/i.exec(text)
    ?? /^https?:\/\/www\.opengis\.net\/def\/crs\/epsg\/(\d{4,6})$/i.exec(text)
    ?? /^(\d{4,6})$/.exec(text);
  if (epsg !== null) return `${CRS_BASE}/EPSG/0/${Number(epsg[1])}`;
  const ogc = /^(?:ogc:{1,2}|urn:ogc:def:crs:ogc:[^:]*:)?(crs84h?)$/i.exec(text);
  if (ogc !== null) return (ogc[1] as string).toLowerCase() === 'crs84h' ? CRS84H_URI : CRS84_URI;
  return undefined;
}
