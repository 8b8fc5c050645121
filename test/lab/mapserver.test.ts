import { adrCheck, jsonReport, type JsonReport } from '../support/adr-check-process.js';
import { debianNginxTls } from '../support/lab/common-expectations.js';
import { startMapServer, type LabMapServer } from '../support/lab/mapserver.js';
import { expectVerdict, titled, type Expectation } from '../support/lab/verdicts.js';

/**
 * The lab (issue 22): MapServer 8.0 from Debian serving OGC API Features over three buildings in
 * RD New, through FastCGI behind Debian's nginx with TLS, checked by adr-check as a user runs it.
 * Each check's verdict is the one SPEC.md gives for what MapServer does; where adr-check says
 * otherwise, the test fails and prints what adr-check said and why the expectation holds.
 */
const DEADLINE = 60;
const labs = new Map<string, LabMapServer>();
const reports = new Map<string, JsonReport>();

async function check(variant: 'openapi-json' | 'service-desc-only', extra: string[] = []): Promise<JsonReport> {
  const lab = await startMapServer(variant);
  labs.set([variant, ...extra].join(' '), lab);
  const outcome = await adrCheck(lab.baseUrl, ['--ca', lab.caCertificate, '--plain-http-port', String(lab.plainPort), '--format', 'json', '--timeout', '5000', ...extra], { deadline: DEADLINE, killAfterMs: (DEADLINE + 15) * 1000 });
  if (outcome.stdout.trim() === '') throw new Error(`adr-check printed no report (exit ${outcome.code}): ${outcome.stderr}`);
  return jsonReport(outcome);
}

beforeAll(async () => {
  const [withOpenapiJson, serviceDescOnly, unsafe] = await Promise.all([
    check('openapi-json'),
    check('service-desc-only'),
    check('openapi-json', ['--unsafe']),
  ]);
  reports.set('openapi-json', withOpenapiJson);
  reports.set('service-desc-only', serviceDescOnly);
  reports.set('unsafe', unsafe);
}, 120_000);

afterAll(async () => {
  await Promise.all([...labs.values()].map((lab) => lab.close()));
});

const PROXY_OMITS = '"A proxy-generated error MAY omit `API-Version`."';

/** What is right for MapServer 8.0 with its description also at /openapi.json. */
export const MAPSERVER_EXPECTATIONS: readonly Expectation[] = [
  {
    code: '/core/publish-openapi', verdict: 'fail',
    spec: '"The `/openapi.json` document MUST allow all origins."',
    why: 'MapServer sends no Access-Control-Allow-Origin with its description.',
    details: [/\/openapi\.json lacks Access-Control-Allow-Origin \(expected \*\)/],
  },
  {
    code: '/core/version-header', verdict: 'fail',
    spec: `"Every response has the header \`API-Version\` ... It MUST equal \`info.version\`." ${PROXY_OMITS}`,
    why: 'MapServer sends no API-Version (its description says info.version 1.0.0); the 405s nginx itself gives for TRACE are left out.',
    details: [/lack(s)? API-Version/, /^left out: \d+ proxy-generated errors?, which MAY omit API-Version \(TRACE .*405 text\/html from nginx\//],
  },
  {
    code: '/core/no-trailing-slash', verdict: 'fail',
    spec: '"A request to a path with a trailing slash gets 404 and is never redirected."',
    why: 'MapServer ignores an empty last path segment: /collections/ answers 200 like /collections.',
    details: [/GET (\/lab\/ogcapi)?\/collections\/: 200, expected 404/, /GET (\/lab\/ogcapi)?\/conformance\/: 200, expected 404/],
  },
  {
    code: '/core/http-methods', verdict: 'fail',
    spec: '"A request method that the target resource does not support gets 405 with an `Allow` response header listing the supported methods."',
    why: 'nginx refuses TRACE itself with a 405 without Allow; SPEC exempts a proxy error from API-Version only, not from Allow.',
    details: [/TRACE .*405 lacks Allow/],
  },
  {
    code: '/core/http-response-code', verdict: 'warn',
    spec: '"Error responses SHOULD use the media type `application/problem+json`"; "`Accept` names no type the API can deliver: 406 (ideally)".',
    why: 'MapServer answers an unknown path 404 with application/json and an unservable Accept with 400: both SHOULD-level.',
    details: [/the 404 has Content-Type: application\/json, expected application\/problem\+json/, /Accept: application\/x-adr-check-unservable gives 400, expected 406/],
  },
  debianNginxTls(/^Insufficient: cipher suite TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA \(0xc009\)$/),
  {
    code: '/core/transport/security-headers', verdict: 'warn',
    spec: '"The following response headers SHOULD be in all API responses"',
    why: 'Neither MapServer nor a default nginx sends Cache-Control, CSP, HSTS, X-Content-Type-Options or X-Frame-Options.',
    details: [/lacks Strict-Transport-Security/, /lacks X-Content-Type-Options \(expected nosniff\)/],
  },
  {
    code: '/core/transport/cors', verdict: 'pass',
    spec: '"Use an allowlist of origins. If the request `Origin` is on the list, echo it"; "A wildcard is NOT RECOMMENDED"',
    why: 'MapServer sends no CORS headers at all: nothing foreign is echoed, no wildcard (the /openapi.json rule is judged by /core/publish-openapi).',
    // Issue 22, messages: an API that sends no CORS headers does not "follow an allowlist".
    absent: [/allowlist/],
  },
  {
    code: '/geo/crs-list', verdict: 'fail',
    spec: '"crs | collections object (global list) | Array of CRS URIs supported by the whole API"; "storageCRS ... MUST be one of the CRSs in the supported list"; "The geospatial module version 1.0.x MUST be applied"',
    why: 'MapServer 8.0 implements OGC API Features Part 1 only: /collections lists no crs at all.',
    details: [/lists no CRS, expected at least http:\/\/www\.opengis\.net\/def\/crs\/OGC\/1\.3\/CRS84/],
  },
  {
    code: '/geo/crs-query-parameter', verdict: 'fail',
    spec: '"CRS value in `bbox-crs`, `filter-crs` (and any CRS parameter) is not in the supported list | 400"',
    why: 'MapServer ignores crs: an unsupported one gives 200 (in CRS84).',
    details: [/an unsupported crs \(http:\/\/www\.opengis\.net\/def\/crs\/EPSG\/0\/0\) gives 200, expected 400/],
  },
  {
    code: '/geo/bbox-query-parameter', verdict: 'pass',
    spec: '"bbox ... Supported as in OGC API Features part 1."',
  },
  {
    code: '/geo/bbox-crs-query-parameter', verdict: 'fail',
    spec: '"CRS value in `bbox-crs` ... is not in the supported list | 400"',
    why: 'MapServer ignores bbox-crs: an unsupported one gives 200.',
    details: [/an unsupported bbox-crs \(http:\/\/www\.opengis\.net\/def\/crs\/EPSG\/0\/0\) gives 200, expected 400/],
  },
  {
    code: '/geo/content-crs-response-header', verdict: 'fail',
    spec: '"Response header `Content-Crs` is present in responses with spatial data."',
    why: 'MapServer 8.0 sends no Content-Crs.',
    details: [/lacks Content-Crs \(expected <http:\/\/www\.opengis\.net\/def\/crs\/OGC\/1\.3\/CRS84>\)/],
  },
  {
    code: '/geo/geojson-response', verdict: 'fail',
    spec: '"APIs that follow OGC API Features use `application/geo+json` for Features and FeatureCollections, in requests (`Content-Type`) and in responses"',
    why: 'MapServer 8.0 answers items as application/json.',
    details: [/collections\/gebouwen\/items has Content-Type: application\/json, expected application\/geo\+json/],
  },
  {
    code: '/geo/content-crs-request-header', verdict: 'skip',
    spec: 'Nothing to judge without --unsafe: "Client sends `Content-Crs`" applies to a body with geometry, and MapServer declares no POST.',
  },
];

describe('MapServer 8.0 (Debian) behind nginx with TLS, its description also at /openapi.json', () => {
  test.each(titled(MAPSERVER_EXPECTATIONS))('%s', (_title, expectation) => {
    expectVerdict(reports.get('openapi-json') as JsonReport, expectation);
  });

  test("the static findings on MapServer's own description: its real faults, and the OGC schemas it references read offline, not refused", () => {
    const findings = (reports.get('openapi-json') as JsonReport).staticFindings;
    const codes = new Set(findings.map((finding) => finding.code));
    // Real faults: no /v<major> in the server URL, no API-Version declared, no contact.
    for (const code of ['/core/uri-version', '/core/version-header', '/core/doc-openapi-contact']) expect({ code, found: codes.has(code) }).toEqual({ code, found: true });
    // Issue 22 item 11: the Features Part 1 schemas at schemas.opengis.net are shipped and resolved offline.
    const aboutOgcSchemas = findings.filter((finding) => finding.message.includes('schemas.opengis.net'));
    expect(aboutOgcSchemas.map((finding) => `${finding.code}: ${finding.message}`)).toEqual([]);
    // ... so the featureId parameter they define is found: no follow-on path-params error.
    expect(findings.filter((finding) => finding.code === 'path-params').map((finding) => finding.message)).toEqual([]);
    // One refused reference is one finding (MapServer also points at the OGC's processes schemas on GitHub).
    const refused = findings.filter((finding) => finding.message.includes('raw.githubusercontent.com'));
    expect(refused.map((finding) => finding.code)).toHaveLength(1);
    // With the OGC schemas read, the geospatial static rules judge the description: no crs, no bbox-crs, no Content-Crs declared.
    for (const code of ['/geo/crs-query-parameter', '/geo/bbox-crs-query-parameter', '/geo/content-crs-response-header']) expect({ code, found: codes.has(code) }).toEqual({ code, found: true });
  });
});

test('without --unsafe MapServer got reads only (GET, HEAD, OPTIONS, TRACE): it answers any method as GET, but nothing else was sent', () => {
  const methods = new Set([...(labs.get('openapi-json') as LabMapServer).accessLog().matchAll(/"([A-Z]+) \//g)].map((match) => match[1]));
  expect([...methods].filter((method) => !['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(method ?? ''))).toEqual([]);
  expect(methods.has('GET')).toBe(true);
});

describe('MapServer 8.0 as it comes: no /openapi.json, its description linked as service-desc', () => {
  test('/core/publish-openapi fails and says where the description was found', () => {
    expectVerdict(reports.get('service-desc-only') as JsonReport, {
      code: '/core/publish-openapi', verdict: 'fail',
      spec: '"The API is described by an OpenAPI description ... published at a fixed, unauthenticated location."; "The JSON variant is mandatory."',
      why: 'GET /openapi.json is 404; MapServer publishes its description at /api?f=json only.',
      details: [/api\?f=json/],
    });
  });

  test('the description found through service-desc is linted and used: info.version is the expected API-Version', () => {
    const report = reports.get('service-desc-only') as JsonReport;
    expect(report.lint.status).toBe('done');
    expect(report.staticFindings.some((finding) => finding.code === '/core/uri-version')).toBe(true);
    expectVerdict(report, { code: '/core/version-header', verdict: 'fail', spec: '"It MUST equal `info.version`."', details: [/API-Version/] });
  });

  test.each(titled(MAPSERVER_EXPECTATIONS.filter((expectation) => !['/core/publish-openapi', '/core/version-header'].includes(expectation.code)), ' as with /openapi.json'))('%s', (_title, expectation) => {
    expectVerdict(reports.get('service-desc-only') as JsonReport, expectation);
  });
});

describe('MapServer 8.0 with --unsafe', () => {
  test('/core/http-methods fails: MapServer answers POST, PUT and PATCH like GET, 200 with the data', () => {
    expectVerdict(reports.get('unsafe') as JsonReport, {
      code: '/core/http-methods', verdict: 'fail',
      spec: '"A request method that the target resource does not support gets 405 with an `Allow` response header"',
      why: 'mapserv ignores the request method: an undeclared POST, PUT or PATCH answers as GET (adr-check rightly sends no DELETE to what exists).',
      // A path is named as the server sees it, in every check alike.
      details: [/^POST \/lab\/ogcapi\/collections \(undeclared\): 200, expected 405/, /^PUT \/lab\/ogcapi\/collections\/gebouwen\/items \(undeclared\): 200, expected 405/],
    });
  });
});
