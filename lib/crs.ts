/** The CRS URI namespace of the OGC definitions server (the `{crs_base}` of SPEC.md). */
export const CRS_URI = /^https?:\/\/www\.opengis\.net\/def\/crs\/[^\s]+$/;

/** The values legacy CRS negotiation used (SPEC.md, deprecated, informative only); any case. */
const LEGACY_EPSG_VALUES = new Set(['epsg:4326', 'epsg:3857', 'epsg:4258', 'epsg:28992']);

export function isLegacyEpsgValue(value: string): boolean {
  return LEGACY_EPSG_VALUES.has(value.trim().toLowerCase());
}

/** OGC API Features part 2 writes the Content-Crs header value as a URI in angle brackets. */
export function isCrsUri(value: string, isContentCrs: boolean): boolean {
  const uri = isContentCrs ? value.trim().replace(/^<(.*)>$/, '$1') : value;
  return CRS_URI.test(uri);
}

/** Query parameters and headers whose values are CRSs. */
export const CRS_QUERY_PARAMETERS = new Set(['crs', 'bbox-crs', 'filter-crs']);
export const CONTENT_CRS = 'content-crs';
