import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nlgovRules } from '../rulesets/modules.js';
import { lint, type Finding } from './harness.js';

const EXAMPLES = join(process.cwd(), 'examples');
const CONFORMANT = join(EXAMPLES, 'monumenten-api.yaml');
const NON_CONFORMANT = join(EXAMPLES, 'non-conformant-api.yaml');

function lintFile(file: string, text = readFileSync(file, 'utf8')): Promise<Finding[]> {
  return lint(text, file);
}

function triples(findings: Finding[]): Array<[string, string, string]> {
  return findings.map((finding) => [finding.code, finding.severity, finding.path]);
}

describe('examples/monumenten-api.yaml', () => {
  test('the conformant example has no finding at all (no error, warn, info or hint)', async () => {
    expect(await lintFile(CONFORMANT)).toEqual([]);
  });
});

describe('examples/non-conformant-api.yaml', () => {
  test('gives exactly the findings its comments announce', async () => {
    expect(triples(await lintFile(NON_CONFORMANT))).toEqual([
      ['oas3-api-servers', 'error', ''],
      ['/core/semver', 'error', 'info.version'],
      ['/core/doc-openapi-contact', 'warn', 'info.contact.email'],
      ['openapi-tags-uniqueness', 'error', 'tags.1.name'],
      ['/geo/crs-list', 'error', 'paths'],
      ['/core/publish-openapi', 'error', 'paths./openapi.json.get'],
      ['/core/publish-openapi', 'error', 'paths./openapi.json.get.responses.200.headers'],
      ['/core/transport/tls', 'error', 'paths./monumenten.servers.0.url'],
      ['/core/uri-version', 'error', 'paths./monumenten.servers.1.url'],
      ['oas3-server-variables', 'error', 'paths./monumenten.servers.2.variables.omgeving.default'],
      ['/core/doc-openapi', 'error', 'paths./monumenten.get.parameters.0.$ref'],
      // Spectral's own resolver diagnostic for the same unresolvable $ref.
      ['invalid-ref', 'error', 'paths./monumenten.get.parameters.0.$ref'],
      ['/core/query-keys-camel-case', 'warn', 'paths./monumenten.get.parameters.1.name'],
      ['/core/transport/no-sensitive-uris', 'warn', 'paths./monumenten.get.parameters.2.name'],
      ['oas3-valid-media-example', 'error', 'paths./monumenten.get.responses.200.content.application/json.example.0.bouwjaar'],
      ['/core/error-handling/problem-details', 'warn', 'paths./monumenten.get.responses.400.content'],
      ['/signing/message', 'error', 'paths./monumenten.post.parameters'],
      ['nlgov:http-status-codes', 'info', 'paths./monumenten.post.responses'],
      ['path-params', 'error', 'paths./monumenten/{monumentId}.get'],
      // A missing Digest is reported at the headers map that lacks it, the declaration at its schema.
      ['/signing/payload', 'error', 'paths./monumenten/{monumentId}.get.responses.200.headers'],
      ['/signing/payload', 'error', 'paths./monumenten/{monumentId}.get.responses.200.headers.Payload-Signature.schema'],
      ['/core/http-methods', 'error', 'paths./monumenten/{monumentId}.head'],
      ['path-params', 'error', 'paths./monumenten/{monumentId}.head'],
      // A declared HEAD is reported by /core/http-methods, and what it declares is still judged.
      ['/core/version-header', 'error', 'paths./monumenten/{monumentId}.head.responses.200'],
      ['/core/error-handling/problem-details', 'warn', 'paths./monumenten/{monumentId}.head.responses.404'],
      ['path-params', 'error', 'paths./monumenten/{monumentId}.delete'],
      ['nlgov:oauth-scopes', 'error', 'paths./monumenten/{monumentId}.delete.security.0.oauth2.0'],
      ['oas3-schema', 'error', 'paths./monumenten/{monumentId}.delete.responses.204'],
      ['/core/no-trailing-slash', 'error', 'paths./wijken/'],
      // The 200 has no headers map at all, so the finding points at the response.
      ['/core/version-header', 'error', 'paths./wijken/.get.responses.200'],
      ['/core/path-segments-kebab-case', 'error', 'paths./monumentTypen'],
      ['operation-operationId-unique', 'error', 'paths./monumentTypen.get.operationId'],
      ['/geo/crs-query-parameter', 'warn', 'paths./monumenten/{monumentId}/ligging.get'],
      ['/geo/content-crs-response-header', 'error', 'paths./monumenten/{monumentId}/ligging.get.responses.200.headers'],
      ['/geo/geojson-response', 'warn', 'paths./monumenten/{monumentId}/ligging.get.responses.200.content.application/json'],
      ['/geo/content-crs-request-header', 'error', 'paths./monumenten/{monumentId}/ligging.put'],
      ['/geo/bbox-query-parameter', 'warn', 'paths./collections/monumenten/items.get.parameters'],
      ['nlgov:crs-uri', 'warn', 'paths./collections/monumenten/items.get.parameters.0.schema.enum.0'],
      ['nlgov:deprecated-geo', 'hint', 'paths./collections/monumenten/items.get.parameters.1.name'],
      ['/geo/bbox-crs-query-parameter', 'warn', 'paths./wijken/{wijkId}/monumenten.get.parameters'],
      ['/geo/filter-crs-query-parameter', 'warn', 'paths./wijken/{wijkId}/monumenten.get.parameters'],
      ['nlgov:global-search', 'warn', 'paths./_search.get.responses.200.content.application/json.schema'],
      ['nlgov:global-search', 'warn', 'paths./_search.get.responses.200.content.application/json.schema.properties._embedded.properties.items.items'],
      ['/core/transport/tls', 'error', 'components.securitySchemes.oauth2.flows.authorizationCode.tokenUrl'],
      ['nlgov:oauth-flows', 'error', 'components.securitySchemes.oauth2.flows.implicit'],
      ['nlgov:oauth-client-credentials', 'info', 'components.securitySchemes.oauth2.flows.clientCredentials'],
      ['nlgov:oauth-no-token-in-query', 'error', 'components.securitySchemes.sleutel.in'],
      ['nlgov:schema-names-pascal-case', 'warn', 'components.schemas.monument_samenvatting'],
      ['oas3-valid-schema-example', 'error', 'components.schemas.MonumentDetail.properties.huisnummer.example'],
      ['nlgov:property-names-camel-case', 'warn', 'components.schemas.MonumentDetail.properties.datum_aanwijzing'],
    ]);
  });

  test('triggers every rule of every module (nlgov:openapi-json-documented on a variant without /openapi.json)', async () => {
    const text = readFileSync(NON_CONFORMANT, 'utf8');
    // /core/publish-openapi needs /openapi.json in paths, nlgov:openapi-json-documented needs it
    // absent: no single document triggers both. The variant publishes only /openapi.yaml.
    const renamed = text.replace(/^ {2}\/openapi\.json:$/m, '  /openapi.yaml:');
    expect(renamed).not.toEqual(text);

    const codes = new Set((await lintFile(NON_CONFORMANT, text)).map((finding) => finding.code));
    expect([...Object.keys(nlgovRules)].filter((code) => !codes.has(code))).toEqual(['nlgov:openapi-json-documented']);

    const variant = await lintFile(NON_CONFORMANT, renamed);
    expect(triples(variant.filter((finding) => finding.code === 'nlgov:openapi-json-documented'))).toEqual([
      ['nlgov:openapi-json-documented', 'info', 'paths'],
    ]);
    for (const finding of variant) codes.add(finding.code);
    expect([...codes]).toEqual(expect.arrayContaining(Object.keys(nlgovRules)));
  });

  test('triggers the spectral:oas rules the ruleset turns on', async () => {
    const codes = new Set((await lintFile(NON_CONFORMANT)).map((finding) => finding.code));
    expect([...codes]).toEqual(expect.arrayContaining([
      'oas3-schema',
      'operation-operationId-unique',
      'path-params',
      'openapi-tags-uniqueness',
      'oas3-valid-media-example',
      'oas3-valid-schema-example',
      'oas3-server-variables',
      'oas3-api-servers',
    ]));
  });
});

describe('module examples: conformant to the core rules and to their module', () => {
  const MODULE_EXAMPLES: Array<[string, string]> = [
    ['geo-ogc-features-api.yaml', 'OGC API Features: Features as application/geo+json, /collections with crs and storageCrs'],
    ['geo-json-api.yaml', 'plain JSON (HAL) with an embedded GeoJSON geometry and GET /crss, no application/geo+json'],
    ['signing-api.yaml', 'Payload-Signature and Message-Signature (with Digest) on requests and responses'],
    ['oauth-api.yaml', 'NL GOV OAuth profile: authorization code flow only, every scope described and required by name'],
  ];

  test.each(MODULE_EXAMPLES)('examples/%s (%s) has no finding at all', async (file) => {
    expect(await lintFile(join(EXAMPLES, file))).toEqual([]);
  });

  // Silence is only worth something if the module looks at the example: one small break each
  // must give exactly that module's finding (a geospatial API must be recognised as one).
  test.each([
    ['geo-ogc-features-api.yaml', "        - $ref: '#/components/parameters/BboxCrs'\n", '', ['/geo/bbox-crs-query-parameter', 'warn', 'paths./collections/{collectionId}/items.get.parameters']],
    ['geo-json-api.yaml', "        - $ref: '#/components/parameters/BboxCrs'\n", '', ['/geo/bbox-crs-query-parameter', 'warn', 'paths./percelen.get.parameters']],
    ['signing-api.yaml', "        - $ref: '#/components/parameters/Digest'\n", '', ['/signing/message', 'error', 'paths./meldingen.post.parameters']],
    ['oauth-api.yaml', '            - parkeren:opzeggen\n', '            - parkeren:opzegging\n', ['nlgov:oauth-scopes', 'error', 'paths./parkeervergunningen/{vergunningId}.delete.security.0.bewonerslogin.0']],
  ] as Array<[string, string, string, [string, string, string]]>)('examples/%s: the module applies (a broken variant gives its finding)', async (file, search, replacement, expected) => {
    const path = join(EXAMPLES, file);
    const text = readFileSync(path, 'utf8');
    const broken = text.replace(search, replacement);
    expect(broken).not.toEqual(text);
    expect(triples(await lintFile(path, broken))).toEqual([expected]);
  });
});
