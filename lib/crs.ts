/** The CRS URI namespace of the OGC definitions server (the `{crs_base}` of SPEC.md). */
export const CRS_URI = /^https?:\/\/www\.opengis\.net\/def\/crs\/[^\s]+$/;

/** The values legacy CRS negotiation used (SPEC.md, deprecated, informative only). */
export const LEGACY_EPSG_VALUES = new Set(['EPSG:4326', 'EPSG:3857', 'EPSG:4258', 'EPSG:28992']);

/** Query parameters and headers whose values are CRSs. */
export const CRS_QUERY_PARAMETERS = new Set(['crs', 'bbox-crs', 'filter-crs']);
export const CONTENT_CRS = 'content-crs';
