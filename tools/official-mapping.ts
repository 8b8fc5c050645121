/**
 * How the official ADR linter (media/linter.yaml of Logius-standaarden/API-Design-Rules) relates
 * to nlgov-adr. Kept as data so tools/compare-logius.ts and docs/official-rule-mapping.md /
 * docs/differences-from-official-linter.md can be checked against one another by reading one file.
 */

export interface OfficialRuleMapping {
  /** Our codes that report the same problem on the same node; empty: no counterpart. */
  ours: readonly string[];
  note: string;
}

/** Every rule of the official ruleset, plus the diagnostics Spectral itself emits in its output. */
export const OFFICIAL_RULE_MAPPING: Readonly<Record<string, OfficialRuleMapping>> = {
  'oas3-schema': { ours: ['oas3-schema'], note: 'spectral:oas rule, kept under its own name and severity' },
  'operation-operationId-unique': { ours: ['operation-operationId-unique'], note: 'spectral:oas rule, kept' },
  'path-params': { ours: ['path-params'], note: 'spectral:oas rule, kept' },
  'openapi-tags-uniqueness': { ours: ['openapi-tags-uniqueness'], note: 'spectral:oas rule, kept' },
  'oas3-valid-media-example': { ours: ['oas3-valid-media-example'], note: 'spectral:oas rule, kept' },
  'oas3-valid-schema-example': { ours: ['oas3-valid-schema-example'], note: 'spectral:oas rule, kept' },
  'oas3-server-variables': { ours: ['oas3-server-variables'], note: 'spectral:oas rule, kept' },
  'oas3-api-servers': { ours: ['oas3-api-servers'], note: 'spectral:oas rule, kept' },
  'path-keys-no-trailing-slash': {
    ours: ['/core/no-trailing-slash'],
    note: "spectral:oas rule (notMatch '.+\\/$') the official ruleset turns on for /core/no-trailing-slash; both exempt the root path /",
  },
  'nlgov:paths-no-trailing-slash': {
    ours: ['/core/no-trailing-slash'],
    note: "official regex '.+ \\/$' needs a space before the slash, so it never fires; path-keys-no-trailing-slash does the work",
  },
  'nlgov:openapi3': {
    ours: ['/core/doc-openapi'],
    note: 'official accepts any 3.x (3.1 too); SPEC.md: the linter profile requires 3.0.*',
  },
  'nlgov:openapi-root-exists': { ours: ['/core/doc-openapi'], note: 'a missing openapi field is one /core/doc-openapi finding on the root' },
  'nlgov:missing-version-header': {
    ours: ['/core/version-header'],
    note: 'official compares five spellings of API-Version; ours compares case-insensitively and also checks 2XX/3XX and $ref-ed responses',
  },
  'nlgov:missing-header': {
    ours: ['/core/version-header'],
    note: 'a 2xx/3xx response without headers: both report it on the response (Spectral puts a missing field on its closest existing parent)',
  },
  'nlgov:include-major-version-in-uri': {
    ours: ['/core/uri-version'],
    note: 'official: any /v<digit> in root server URLs; ours: one /v<major> segment equal to the major of info.version, at root, path and operation level',
  },
  'info-contact': {
    ours: ['/core/doc-openapi-contact'],
    note: 'official: error; ours: warn (SPEC.md: info.contact SHOULD be present)',
  },
  'nlgov:info-contact-fields-exist': {
    ours: ['/core/doc-openapi-contact'],
    note: 'official: one finding on info.contact for any missing field; ours: one finding per missing field on info.contact, warn (SHOULD)',
  },
  'nlgov:http-methods': {
    ours: ['/core/http-methods'],
    note: 'official given only selects path keys containing "description" or "summary", so it practically never fires',
  },
  'nlgov:paths-kebab-case': { ours: ['/core/path-segments-kebab-case'], note: 'same segment grammar; ours leaves a trailing slash to /core/no-trailing-slash' },
  'nlgov:query-keys-camel-case': {
    ours: ['/core/query-keys-camel-case'],
    note: 'official: error; ours: warn, and the OGC parameters of the geospatial module are exempt',
  },
  'nlgov:schema-camel-case': { ours: ['nlgov:schema-names-pascal-case'], note: 'same check (PascalCase schema names), warn in both' },
  'nlgov:servers-use-https': {
    ours: ['/core/transport/tls'],
    note: 'official: warn, root and path servers; ours: error (MUST), also operation servers and OAuth URLs',
  },
  'nlgov:use-problem-schema': {
    ours: ['/core/error-handling/problem-details'],
    note: 'official: error, only on responses that have content; ours: warn (SHOULD), and a 4xx/5xx without content is reported on the response',
  },
  'nlgov:problem-schema-members': { ours: [], note: 'ADR 2.1 error-handling module; SPEC.md: "Body fields of an error: not shown"' },
  'nlgov:problem-invalid-input': { ours: [], note: 'ADR 2.1 /core/error-handling/invalid-input; not in SPEC.md' },
  'nlgov:property-casing': { ours: ['nlgov:property-names-camel-case'], note: 'official checks only _links-like keys; ours all property names' },
  'nlgov:date-time-ensure-timezone': { ours: [], note: 'ADR 2.1 date-time module (/core/date-time/timezone); not in SPEC.md' },
  'nlgov:time-without-timezone': { ours: [], note: 'ADR 2.1 date-time module; not in SPEC.md' },
  'nlgov:specify-format-for-date-and-time': { ours: [], note: 'ADR 2.1 date-time module (/core/date-time/date-omit-time-portion); not in SPEC.md' },
  'nlgov:use-date-instead-of-datetime': { ours: [], note: 'ADR 2.1 date-time module; not in SPEC.md' },
  'nlgov:semver': { ours: ['/core/semver'], note: 'same SemVer 2.0.0 grammar' },
  'unrecognized-format': {
    ours: ['unrecognized-format'],
    note: 'Spectral core diagnostic (not a rule): the document matches no registered format',
  },
  'invalid-ref': { ours: ['invalid-ref', '/core/doc-openapi'], note: 'Spectral core diagnostic for a $ref that does not resolve' },
};

export type DifferenceKind = 'official-only' | 'ours-only' | 'severity';

/** A reason, described under its id in docs/differences-from-official-linter.md. */
export interface DifferenceReason {
  id: string;
  title: string;
}

export const REASONS = {
  openapi30Only: { id: 'openapi-3-0-only', title: 'SPEC.md requires OpenAPI 3.0.*; the official nlgov:openapi3 accepts any 3.x' },
  openapiJsonAuthenticated: { id: 'openapi-json-authenticated', title: 'the suite puts /openapi.json behind OAuth; SPEC.md: no authentication' },
  allowOriginNotChecked: { id: 'allow-origin-not-checked', title: 'the official linter does not check Access-Control-Allow-Origin on /openapi.json' },
  oauthProfile: { id: 'oauth-profile', title: 'the suite uses an OAuth implicit flow with empty scopes; the OAuth profile forbids both' },
  trailingSlashRegex: { id: 'trailing-slash-regex', title: "nlgov:paths-no-trailing-slash never fires (regex '.+ \\/$'); path-keys-no-trailing-slash does" },
  propertyCasingScope: { id: 'property-casing-scope', title: 'official nlgov:property-casing only looks at _links keys; SPEC.md: all properties lowerCamelCase' },
  notInSpec: { id: 'not-in-spec', title: 'official rule from an ADR 2.1 module that SPEC.md does not contain' },
  pathRepeatsServerVersion: { id: 'path-repeats-server-version', title: 'the official linter does not join path keys to the server URL; /v1/... under .../api/v1 is served at /api/v1/v1/...' },
  severityFollowsSpec: { id: 'severity-follows-spec', title: 'severity follows the words of SPEC.md and RULES.md (SHOULD -> warn)' },
} as const satisfies Record<string, DifferenceReason>;

/**
 * A disagreement that is known and explained. Without `case` it holds for every case (a
 * rule-wide reason); without `path` for every path. `code` is the official code for
 * official-only and severity differences, our code for ours-only ones.
 */
export interface ExplainedDifference {
  kind: DifferenceKind;
  code: string;
  case?: string;
  path?: string;
  reason: DifferenceReason;
}

/** Official rules with no counterpart here: every finding of theirs is a known difference. */
const NOT_IN_SPEC = Object.entries(OFFICIAL_RULE_MAPPING)
  .filter(([, mapping]) => mapping.ours.length === 0)
  .map(([code]): ExplainedDifference => ({ kind: 'official-only', code, reason: REASONS.notInSpec }));

export const EXPLAINED_DIFFERENCES: readonly ExplainedDifference[] = [
  ...NOT_IN_SPEC,
  // The suite's openapi-versie-3-0-1 case holds 3.1.0 (and -3-1-0 holds 3.0.1): the names are swapped.
  { kind: 'ours-only', code: '/core/doc-openapi', path: 'openapi', reason: REASONS.openapi30Only },
  // Every case copies the baseline's operation-level `security: [{default: []}]` on GET /openapi.json.
  { kind: 'ours-only', code: '/core/publish-openapi', path: 'paths./openapi.json.get.security', reason: REASONS.openapiJsonAuthenticated },
  { kind: 'ours-only', code: '/core/publish-openapi', path: 'paths./openapi.json.get.responses.200.headers', reason: REASONS.allowOriginNotChecked },
  // Not implemented yet (RULES.md lists them); every case carries the baseline's one scheme
  // `default` (implicit flow, scopes {}) and `security: [{default: []}]`, so any finding of
  // these rules in this suite comes from it.
  { kind: 'ours-only', code: 'nlgov:oauth-flows', reason: REASONS.oauthProfile },
  { kind: 'ours-only', code: 'nlgov:oauth-scopes', reason: REASONS.oauthProfile },
  { kind: 'ours-only', code: 'nlgov:property-names-camel-case', reason: REASONS.propertyCasingScope },
  // The case tests kebab-case beside a version segment; its server URL carries /v1 already.
  { kind: 'ours-only', code: '/core/uri-version', case: 'paths-kebab-slashes', path: 'paths./v1/met-versie-nummer', reason: REASONS.pathRepeatsServerVersion },
  { kind: 'severity', code: 'info-contact', reason: REASONS.severityFollowsSpec },
  { kind: 'severity', code: 'nlgov:info-contact-fields-exist', reason: REASONS.severityFollowsSpec },
  { kind: 'severity', code: 'nlgov:use-problem-schema', reason: REASONS.severityFollowsSpec },
  { kind: 'severity', code: 'nlgov:query-keys-camel-case', reason: REASONS.severityFollowsSpec },
];
