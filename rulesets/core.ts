import { oas3 } from '@stoplight/spectral-formats';
import openapiDocument from '../functions/openapiDocument.js';
import contactDetails from '../functions/contactDetails.js';
import strictSemver from '../functions/strictSemver.js';
import serverUrlVersion from '../functions/serverUrlVersion.js';
import httpsUrls from '../functions/httpsUrls.js';
import requiredResponseHeader from '../functions/requiredResponseHeader.js';
import keyPattern from '../functions/keyPattern.js';
import standardMethods from '../functions/standardMethods.js';
import openapiPublication from '../functions/openapiPublication.js';
import requiredPath from '../functions/requiredPath.js';
import sensitiveParameters from '../functions/sensitiveParameters.js';
import kebabCasePath from '../functions/kebabCasePath.js';
import parameterNameCasing from '../functions/parameterNameCasing.js';
import propertyNameCasing from '../functions/propertyNameCasing.js';
import problemDetailsMediaType from '../functions/problemDetailsMediaType.js';
import statusCodeHeuristics from '../functions/statusCodeHeuristics.js';
import globalSearchShape from '../functions/globalSearchShape.js';
import { oasPathParamsRule } from './oas.js';
import { CALLBACK_SERVERS_GIVEN, LINK_SERVERS_GIVEN, OPERATION_PATHS, PARAMETERS_GIVEN, RESPONSES_GIVEN, SERVERS_GIVEN, WEBHOOK_SERVERS_GIVEN, rule, type NlgovRule } from './rule.js';

export type { NlgovRule };

/** Query parameters whose names OGC API Features fixes, required by the geospatial module. */
export const OGC_QUERY_PARAMETERS = ['bbox-crs', 'filter-crs', 'filter-lang', 'subset-crs', 'datetime', 'bbox', 'crs', 'f', 'limit', 'filter'];

export const coreRules: Record<string, NlgovRule> = {
  '/core/doc-openapi': rule('/core/doc-openapi', {
    description: 'The description is OpenAPI 3.0.x, defines paths, and every $ref resolves.',
    severity: 'error',
    given: '$',
    then: { function: openapiDocument },
  }),
  '/core/doc-openapi-contact': rule('/core/doc-openapi-contact', {
    description: 'info.contact has name, url and email of the team, not a generic mailbox.',
    severity: 'warn',
    formats: [oas3],
    given: '$',
    then: { function: contactDetails },
  }),
  '/core/semver': rule('/core/semver', {
    description: 'info.version is a strict SemVer 2.0.0 version.',
    severity: 'error',
    formats: [oas3],
    given: '$',
    then: { function: strictSemver },
  }),
  '/core/uri-version': rule('/core/uri-version', {
    description: 'Each server URL carries the major version as one /v<major> segment, equal to the major of info.version; the paths do not repeat it.',
    severity: 'error',
    formats: [oas3],
    // `$`: without servers, the paths' common prefix is the base path (serverUrlVersion judges it there).
    given: ['$', ...SERVERS_GIVEN, ...LINK_SERVERS_GIVEN],
    then: { function: serverUrlVersion },
  }),
  '/core/version-header': rule('/core/version-header', {
    description: 'Every 2xx and 3xx response, and a default response that is the only success response, declares the API-Version header.',
    severity: 'error',
    formats: [oas3],
    given: RESPONSES_GIVEN,
    then: {
      function: requiredResponseHeader,
      functionOptions: { header: 'API-Version', statusClasses: [2, 3], defaultWhenNoneOfTheClasses: true, advice: 'Declare API-Version with the full version of the API' },
    },
  }),
  '/core/no-trailing-slash': rule('/core/no-trailing-slash', {
    description: 'No path ends with a slash, except the root path /.',
    severity: 'error',
    formats: [oas3],
    given: '$.paths',
    then: {
      function: keyPattern,
      functionOptions: { notMatch: '.\\/$', subject: 'Path', problem: 'ends with a slash', advice: 'Remove the trailing slash' },
    },
  }),
  '/core/http-methods': rule('/core/http-methods', {
    description: 'Operations use only GET, POST, PUT, PATCH and DELETE.',
    severity: 'error',
    formats: [oas3],
    given: '$.paths[*]',
    then: { function: standardMethods },
  }),
  '/core/publish-openapi': rule('/core/publish-openapi', {
    description: '/openapi.json has only GET, needs no authentication, and allows all origins.',
    severity: 'error',
    formats: [oas3],
    given: "$.paths['/openapi.json']",
    then: { function: openapiPublication },
  }),
  'nlgov:openapi-json-documented': rule('nlgov:openapi-json-documented', {
    description: 'The description documents its own publication at /openapi.json.',
    severity: 'info',
    formats: [oas3],
    given: '$.paths',
    then: {
      function: requiredPath,
      functionOptions: { anyOf: ['/openapi.json'], advice: 'Describe GET /openapi.json, the mandatory publication of this description' },
    },
  }),
  '/core/transport/tls': rule('/core/transport/tls', {
    description: 'Server URLs, OAuth URLs and openIdConnectUrl use https.',
    severity: 'error',
    formats: [oas3],
    given: [...SERVERS_GIVEN, ...LINK_SERVERS_GIVEN, ...CALLBACK_SERVERS_GIVEN, ...WEBHOOK_SERVERS_GIVEN, '$.components.securitySchemes[*]'],
    then: { function: httpsUrls },
  }),
  '/core/transport/no-sensitive-uris': rule('/core/transport/no-sensitive-uris', {
    description: 'Query and path parameters carry no secrets or citizen identification numbers.',
    severity: 'warn',
    formats: [oas3],
    given: PARAMETERS_GIVEN,
    then: { function: sensitiveParameters },
  }),
  '/core/path-segments-kebab-case': rule('/core/path-segments-kebab-case', {
    description: 'Path segments are kebab-case or {variable}; the last may start with _.',
    severity: 'error',
    formats: [oas3],
    given: '$.paths',
    then: { function: kebabCasePath },
  }),
  '/core/query-keys-camel-case': rule('/core/query-keys-camel-case', {
    description: 'Query parameter names are lowerCamelCase (OGC API parameter names exempt).',
    severity: 'warn',
    formats: [oas3],
    given: PARAMETERS_GIVEN,
    then: { function: parameterNameCasing, functionOptions: { in: 'query', exempt: OGC_QUERY_PARAMETERS } },
  }),
  'nlgov:schema-names-pascal-case': rule('nlgov:schema-names-pascal-case', {
    description: 'Schema names under components.schemas are PascalCase.',
    severity: 'warn',
    formats: [oas3],
    given: '$.components',
    // Only the keys are judged: in the unresolved document an alias (`monument_alias: {$ref: ...}`)
    // is reported at its own key, not at the schema (or the file) that its $ref leads to.
    resolved: false,
    then: {
      function: keyPattern,
      functionOptions: {
        match: '^[A-Z][a-zA-Z0-9]*$',
        subject: 'Schema name',
        problem: 'is not PascalCase',
        advice: 'Rename the schema in PascalCase: {pascal}',
        fallbackAdvice: 'Rename the schema in PascalCase, with only the letters A-Z and a-z and digits',
        // OpenAPI 3.0 allows no extensions in components.schemas: `x-intern` is a schema name.
        extensionKeys: true,
        member: 'schemas',
      },
    },
  }),
  'nlgov:property-names-camel-case': rule('nlgov:property-names-camel-case', {
    description: 'Schema property names are lowerCamelCase; _links and _embedded are allowed, and so are the names OAuth and JWK RFCs fix where they apply.',
    severity: 'warn',
    formats: [oas3],
    given: '$',
    // Placed by the written document, so that a name whose value is a $ref is placed at its key;
    // the names written in other files are placed there by the second call (functions/propertyNameCasing.ts).
    resolved: false,
    then: [
      { function: propertyNameCasing, functionOptions: { written: 'in-linted-file' } },
      { function: propertyNameCasing, functionOptions: { written: 'in-other-files' } },
    ],
  }),
  '/core/error-handling/problem-details': rule('/core/error-handling/problem-details', {
    description: '4xx and 5xx responses declare application/problem+json or application/problem+xml.',
    severity: 'warn',
    formats: [oas3],
    given: RESPONSES_GIVEN,
    then: { function: problemDetailsMediaType },
  }),
  'nlgov:http-status-codes': rule('nlgov:http-status-codes', {
    description: 'Heuristics for /core/http-response-code: status codes that fit the operation.',
    severity: 'info',
    formats: [oas3],
    given: OPERATION_PATHS,
    then: { function: statusCodeHeuristics },
  }),
  'nlgov:global-search': rule('nlgov:global-search', {
    description: 'A /_search response has the global search result shape.',
    severity: 'warn',
    formats: [oas3],
    given: '$.paths[*][get,post].responses',
    then: { function: globalSearchShape },
  }),
};

/** The spectral:oas rules the official ADR linter enables, kept under their own names. */
export const oasRules = {
  'oas3-schema': 'error',
  'operation-operationId-unique': 'error',
  // spectral's rule, less the follow-ons of a parameter $ref that did not resolve (rulesets/oas.ts).
  'path-params': oasPathParamsRule,
  'openapi-tags-uniqueness': 'error',
  'oas3-valid-media-example': 'error',
  'oas3-valid-schema-example': 'error',
  'oas3-server-variables': 'error',
  'oas3-api-servers': 'error',
} as const;
