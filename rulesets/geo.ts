import { oas3 } from '@stoplight/spectral-formats';
import requiredPath from '../functions/requiredPath.js';
import requiredParameter from '../functions/requiredParameter.js';
import requiredResponseHeader from '../functions/requiredResponseHeader.js';
import geojsonMediaType from '../functions/geojsonMediaType.js';
import crsUris from '../functions/crsUris.js';
import deprecatedGeo from '../functions/deprecatedGeo.js';
import { ANY_OPERATION_PATHS, OPERATION_PATHS, PARAMETERS_GIVEN, RESPONSES_GIVEN, RESPONSE_HEADERS_GIVEN, rule, type NlgovRule } from './rule.js';

/** The geospatial module 1.0: silent unless the API carries geospatial data (lib/geo.ts). */
export const geoRules: Record<string, NlgovRule> = {
  '/geo/crs-list': rule('/geo/crs-list', {
    description: 'A geospatial API describes /collections (OGC API Features) or /crss, where clients discover the supported CRSs.',
    severity: 'error',
    formats: [oas3],
    given: '$.paths',
    then: {
      function: requiredPath,
      functionOptions: { anyOf: ['/collections', '/crss'], onlyWhenGeospatial: true, advice: 'Describe GET /collections (OGC API Features) or GET /crss with the supported CRS URIs' },
    },
  }),
  '/geo/crs-query-parameter': rule('/geo/crs-query-parameter', {
    description: 'An operation that returns geometry declares the crs query parameter.',
    severity: 'warn',
    formats: [oas3],
    given: OPERATION_PATHS,
    // Any method: SPEC.md's CRS scenarios have the client send crs whenever the response carries
    // geometry, also beside Content-Crs (geometry in the body) or bbox-crs/filter-crs (a filter).
    then: {
      function: requiredParameter,
      functionOptions: { name: 'crs', in: 'query', whenReturnsGeometry: true, onlyWhenGeospatial: true, why: 'it returns geometry' },
    },
  }),
  '/geo/content-crs-response-header': rule('/geo/content-crs-response-header', {
    description: 'A 2xx response that carries geometry declares the Content-Crs header.',
    severity: 'error',
    formats: [oas3],
    given: RESPONSES_GIVEN,
    then: {
      function: requiredResponseHeader,
      functionOptions: { header: 'Content-Crs', statusClasses: [2], onlyWithGeometry: true, advice: 'Declare Content-Crs with the CRS URI of the geometry in the body' },
    },
  }),
  '/geo/content-crs-request-header': rule('/geo/content-crs-request-header', {
    description: 'A POST, PUT or PATCH whose body carries geometry declares the Content-Crs header parameter.',
    severity: 'error',
    formats: [oas3],
    given: OPERATION_PATHS,
    then: {
      function: requiredParameter,
      functionOptions: { name: 'Content-Crs', in: 'header', methods: ['post', 'put', 'patch'], whenBodyHasGeometry: true, onlyWhenGeospatial: true, why: 'its request body carries geometry' },
    },
  }),
  '/geo/bbox-query-parameter': rule('/geo/bbox-query-parameter', {
    description: 'An OGC API Features items operation (/collections/{collectionId}/items, or a named collection) declares bbox.',
    severity: 'warn',
    formats: [oas3],
    given: OPERATION_PATHS,
    then: {
      function: requiredParameter,
      functionOptions: { name: 'bbox', in: 'query', methods: ['get'], pathPattern: '^/collections/[^/]+/items$', onlyWhenGeospatial: true, why: 'it lists the features of a collection' },
    },
  }),
  '/geo/bbox-crs-query-parameter': rule('/geo/bbox-crs-query-parameter', {
    description: 'An operation with bbox also declares bbox-crs.',
    severity: 'warn',
    formats: [oas3],
    given: OPERATION_PATHS,
    then: {
      function: requiredParameter,
      functionOptions: { name: 'bbox-crs', in: 'query', whenParameter: 'bbox', onlyWhenGeospatial: true, why: 'it accepts bbox' },
    },
  }),
  '/geo/filter-crs-query-parameter': rule('/geo/filter-crs-query-parameter', {
    description: 'An operation with filter also declares filter-crs.',
    severity: 'warn',
    formats: [oas3],
    given: OPERATION_PATHS,
    then: {
      function: requiredParameter,
      functionOptions: { name: 'filter-crs', in: 'query', whenParameter: 'filter', onlyWhenGeospatial: true, why: 'it accepts filter' },
    },
  }),
  '/geo/geojson-response': rule('/geo/geojson-response', {
    description: 'Features and FeatureCollections are offered as application/geo+json, and application/geo+json carries nothing else.',
    severity: 'warn',
    formats: [oas3],
    given: RESPONSES_GIVEN,
    then: { function: geojsonMediaType },
  }),
  'nlgov:crs-uri': rule('nlgov:crs-uri', {
    description: 'CRS values of crs, bbox-crs, filter-crs and Content-Crs are CRS URIs, not codes like EPSG:28992.',
    severity: 'warn',
    formats: [oas3],
    given: [...PARAMETERS_GIVEN, RESPONSE_HEADERS_GIVEN],
    then: { function: crsUris },
  }),
  'nlgov:deprecated-geo': rule('nlgov:deprecated-geo', {
    description: 'Deprecated geospatial constructs: POST .../_zoek with _geo, Accept-Crs, legacy EPSG values of Content-Crs.',
    severity: 'hint',
    formats: [oas3],
    given: [...PARAMETERS_GIVEN, ANY_OPERATION_PATHS],
    then: { function: deprecatedGeo },
  }),
};
