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
