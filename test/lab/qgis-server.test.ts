import { adrCheck, jsonReport, type JsonReport } from '../support/adr-check-process.js';
import { debianNginxTls } from '../support/lab/common-expectations.js';
import { documentedVerdicts } from '../support/lab/docs-table.js';
import { startQgisServer, type LabQgisServer } from '../support/lab/qgis.js';
import { expectVerdict, titled, type Expectation } from '../support/lab/verdicts.js';

/**
 * The lab (issue 22): QGIS Server 3.22 from Debian serving OGC API Features (its WFS3 API at
 * /wfs3) over the three buildings in RD New, through FastCGI behind Debian's nginx with TLS,
 * checked by adr-check as a user runs it. The URL names the host nginx's server_name and the
 * certificate name, localhost: QGIS writes its links with that name, and a user checks the API
 * under the name it gives itself. Each check's verdict is the one SPEC.md gives for what QGIS does;
 * where adr-check says otherwise, the test fails and prints what adr-check said and why.
 */
const DEADLINE = 90;
let lab: LabQgisServer | undefined;
let report: JsonReport;
/** The same server checked at https://127.0.0.1:PORT/wfs3: its links name localhost, another origin. */
let byAddress: JsonReport;
let unsafe: JsonReport;
/** nginx's access log after the two runs without --unsafe. */
let readsOnly = '';

async function check(baseUrl: string, server: LabQgisServer, extra: string[] = []): Promise<JsonReport> {
  const outcome = await adrCheck(baseUrl, ['--ca', server.caCertificate, '--plain-http-port', String(server.plainPort), '--format', 'json', '--timeout', '5000', ...extra], { deadline: DEADLINE, killAfterMs: (DEADLINE + 15) * 1000 });
  if (outcome.stdout.trim() === '') throw new Error(`adr-check printed no report (exit ${outcome.code}): ${outcome.stderr}`);
  return jsonReport(outcome);
}

beforeAll(async () => {
  lab = await startQgisServer();
  // One after the other: QGIS under spawn-fcgi answers one request at a time.
  report = await check(lab.baseUrl, lab);
  byAddress = await check(lab.baseUrl.replace('//localhost:', '//127.0.0.1:'), lab);
  readsOnly = (lab as LabQgisServer).accessLog();
  unsafe = await check(lab.baseUrl, lab, ['--unsafe']);
}, 360_000);

afterAll(async () => {
  await lab?.close();
});

/** QGIS's description lists its paths with /wfs3 under a server URL that ends in /wfs3/; QGIS answers both spellings. */
const UNDER_WFS3 = '\\/wfs3(\\/wfs3)?';
const PROXY_OMITS = '"A proxy-generated error MAY omit `API-Version`."';

/** What is right for QGIS Server 3.22 (Debian 12) with the lab's project. */
export const QGIS_EXPECTATIONS: readonly Expectation[] = [
  {
    code: '/core/publish-openapi', verdict: 'fail',
    spec: '"GET `/openapi.json` ... 200, JSON OpenAPI description"; "The JSON variant is mandatory."',
    why: 'QGIS answers /wfs3/openapi.json (any unknown path) with its landing page; its description is at /wfs3/api, linked as service-desc.',
    details: [/^GET \/openapi\.json is not an OpenAPI description \(200 application\/json: a JSON object without an openapi member \(a landing page: it has links\)\)/, /^the description is published at https:\/\/localhost:\d+\/wfs3\/api \(the landing page's service-desc link\)/],
    // Both /openapi.json and /openapi.yaml are the landing page: that they "differ" (at their timeStamp) says nothing of a
    // description, nor is the landing page held to the description's CORS header.
    absent: [/\/openapi\.yaml differs/, /Access-Control-Allow-Origin/],
  },
  {
    code: '/core/version-header', verdict: 'fail',
    spec: `"Every response has the header \`API-Version\`" ${PROXY_OMITS}`,
    why: "QGIS sends no API-Version (its description's info.version is empty); nginx's own 405s for TRACE are left out.",
    details: [/^\d+ of \d+ requests lack API-Version with a full version \(info\.version is empty: nothing to compare with\)$/, new RegExp(`^GET ${UNDER_WFS3}\\/collections: lacks API-Version$`), /^left out: \d+ proxy-generated errors?, which MAY omit API-Version \(TRACE .*405 text\/html from nginx\//],
    // Issue 22, messages: no empty expected value ("lack API-Version: ") where info.version is "".
    absent: [/API-Version: ?$/],
  },
  {
    code: '/core/no-trailing-slash', verdict: 'fail',
    spec: '"A request to a path with a trailing slash gets 404 and is never redirected."',
    why: 'QGIS\'s routes accept an optional trailing slash: /wfs3/collections/ answers 200 like /wfs3/collections.',
    details: [new RegExp(`^GET ${UNDER_WFS3}\\/collections\\/: 200, expected 404$`)],
  },
  {
    code: '/core/http-methods', verdict: 'fail',
    spec: '"GET and HEAD MUST be supported by the server."; "A request method that the target resource does not support gets 405 with an `Allow` response header"',
    why: 'QGIS answers HEAD on the items with 500 (GET gives 200); nginx refuses TRACE itself with a 405 without Allow.',
    details: [new RegExp(`^HEAD ${UNDER_WFS3}\\/collections\\/gebouwen\\/items: 500, GET gave 200`), /^TRACE .*: 405 lacks Allow$/],
  },
  {
    code: '/core/http-response-code', verdict: 'fail',
    spec: '"Use the semantically right status code, not only 200 and 404 (/core/http-response-code)" (RULES.md: an unknown path gives 404); "`Accept` names no type the API can deliver: 406 (ideally)"',
    why: 'QGIS answers an unknown path under /wfs3 with its landing page, 200.',
    details: [/^an unknown path gives 200, expected 404$/, /^Accept: application\/x-adr-check-unservable gives 200, expected 406/],
    // A 200 is no error response: its media type is not judged as one.
    absent: [/the 200 has Content-Type/],
  },
  debianNginxTls(/^Insufficient: cipher suite TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA \(0xc009\)$/),
  {
    code: '/core/transport/security-headers', verdict: 'warn',
    spec: '"The following response headers SHOULD be in all API responses"',
    why: 'Neither QGIS nor a default nginx sends Cache-Control, CSP, HSTS, X-Content-Type-Options or X-Frame-Options.',
    details: [/lacks Strict-Transport-Security/, /lacks X-Content-Type-Options \(expected nosniff\)/],
  },
  {
    code: '/core/transport/cors', verdict: 'pass',
    spec: '"Use an allowlist of origins. If the request `Origin` is on the list, echo it"; "A wildcard is NOT RECOMMENDED"',
    why: 'QGIS sends no CORS headers: nothing foreign is echoed, no wildcard.',
    absent: [/allowlist/],
  },
  {
    code: '/geo/crs-list', verdict: 'pass',
    spec: '"crs | collections object (global list) | Array of CRS URIs supported by the whole API"; "storageCRS ... MUST be one of the CRSs in the supported list"',
    why: 'QGIS lists CRS84 and the project\'s four output CRSs as versioned EPSG URIs (EPSG/9.6.2); it gives no storageCrs.',
    details: [/; no collection gives a storageCrs$/],
    // Issue 22, messages: "each storageCrs listed" where the collection gives none.
    absent: [/each storageCrs listed/],
  },
  {
    code: '/geo/crs-query-parameter', verdict: 'fail',
    spec: '"crs | CRS URI | Supported as in OGC API Features part 2"; "CRS value in ... any CRS parameter is not in the supported list | 400"',
    why: 'QGIS 3.22 ignores crs on a single feature (/items/{featureId}): its coordinates stay CRS84 and an unsupported crs gives 200.',
    details: [
      /^crs=http:\/\/www\.opengis\.net\/def\/crs\/EPSG\/9\.6\.2\/28992: .* the coordinates are CRS84, the crs was ignored/,
      /^an unsupported crs \(http:\/\/www\.opengis\.net\/def\/crs\/EPSG\/0\/0\) gives 200, expected 400$/,
    ],
    // Issue 22 item 9: versioned EPSG URIs are CRSs adr-check knows, none left "not compared".
    absent: [/not compared/, /axes are swapped/],
  },
  {
    code: '/geo/bbox-query-parameter', verdict: 'pass',
    spec: '"bbox ... Supported as in OGC API Features part 1."',
  },
  {
    code: '/geo/bbox-crs-query-parameter', verdict: 'fail',
    spec: '"bbox-crs | CRS URI | Supported as in OGC API Features part 2. It is the CRS of the bbox." (Part 2: the bbox in the axis order of bbox-crs, latitude first for EPSG:4326 and EPSG:4258)',
    why: 'QGIS 3.22 reads a bbox in EPSG:4326 and EPSG:4258 as longitude, latitude: the box around a building in their axis order misses it.',
    details: [
      /^bbox=[\d.,]+&bbox-crs=http:\/\/www\.opengis\.net\/def\/crs\/EPSG\/9\.6\.2\/4258, around 1, misses it: bbox-crs is not applied as EPSG:4258 in its axis order$/,
      /^bbox=[\d.,]+&bbox-crs=http:\/\/www\.opengis\.net\/def\/crs\/EPSG\/9\.6\.2\/4326, around 1, misses it: bbox-crs is not applied as EPSG:4326 in its axis order$/,
    ],
    // Issue 22 item 9: QGIS's CRSs are compared, never read as "none advertised".
    absent: [/no other CRS advertised/, /EPSG\/9\.6\.2\/28992/, /EPSG\/9\.6\.2\/3857/],
  },
  {
    code: '/geo/content-crs-response-header', verdict: 'fail',
    spec: '"Response header `Content-Crs` is present in responses with spatial data."',
    why: 'QGIS 3.22 sends no Content-Crs.',
    details: [/collections\/gebouwen\/items\?limit=10 lacks Content-Crs \(expected <http:\/\/www\.opengis\.net\/def\/crs\/OGC\/1\.3\/CRS84>\)/],
  },
  {
    code: '/geo/geojson-response', verdict: 'pass',
    spec: '"APIs that follow OGC API Features use `application/geo+json` for Features and FeatureCollections ... in responses"',
  },
  {
    code: '/geo/content-crs-request-header', verdict: 'skip',
    spec: '"Client sends `Content-Crs`" applies to a body with geometry; creating a feature changes data, which adr-check does only with --unsafe.',
    why: 'QGIS\'s description declares POST on the items (QGIS refuses it, 403, for a layer not published for WFS-T); without --unsafe nothing is written.',
    details: [/--unsafe/],
    // The description does declare the POST (under its /wfs3/wfs3 spelling): "declares no POST" would be false.
    absent: [/declares no POST/],
  },
];

describe('QGIS Server 3.22 (Debian) behind nginx with TLS', () => {
  test('docs/live/tested-implementations.md shows users these verdicts', () => {
    expect(documentedVerdicts('QGIS Server 3.22 (OGC API Features)')).toEqual(QGIS_EXPECTATIONS.map((expectation) => `${expectation.code}: ${expectation.verdict}`));
  });

  test.each(titled(QGIS_EXPECTATIONS))('%s', (_title, expectation) => {
    expectVerdict(report, expectation);
  });

  test('the description found through service-desc (/wfs3/api) is linted: its real faults are found', () => {
    expect(report.lint.status).toBe('done');
    expect(report.notices.some((notice) => notice.includes('/wfs3/api') && notice.includes('service-desc'))).toBe(true);
    const codes = new Set(report.staticFindings.map((finding) => finding.code));
    // info.version "" and an empty contact; no API-Version or Content-Crs declared; PUT, PATCH and
    // DELETE of an item without the featureId parameter; and a server URL without /v<major>
    // (https://localhost:PORT/wfs3/), which `adr-check --static` finds in the same document.
    const expected = ['/core/semver', '/core/doc-openapi-contact', '/core/version-header', '/geo/content-crs-response-header', 'path-params', '/core/uri-version'];
    expect(expected.filter((code) => !codes.has(code))).toEqual([]);
  });

  test('the paths a detail names are paths adr-check requested: one spelling of a path throughout the report', () => {
    const requested = new Set([...(lab as LabQgisServer).accessLog().matchAll(/"([A-Z]+) (\S+) HTTP/g)].map((match) => `${match[1]} ${(match[2] ?? '').split('?')[0]}`));
    const named = report.results
      .filter((result) => ['/core/http-methods', '/core/no-trailing-slash', '/core/version-header'].includes(result.code))
      .flatMap((result) => result.details.flatMap((detail) => {
        const request = /^(GET|HEAD|OPTIONS|TRACE|POST|PUT|PATCH|DELETE) (\/\S*?):/.exec(detail);
        return request === null ? [] : [`${result.code}: ${request[1]} ${request[2]}`];
      }));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((line) => !requested.has(line.slice(line.indexOf(': ') + 2)))).toEqual([]);
  });

  test('without --unsafe QGIS got reads only (GET, HEAD, OPTIONS, TRACE)', () => {
    const methods = new Set([...readsOnly.matchAll(/"([A-Z]+) \//g)].map((match) => match[1]));
    expect([...methods].filter((method) => !['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(method ?? ''))).toEqual([]);
  });
});

describe('QGIS Server checked by address (https://127.0.0.1:PORT/wfs3) while it names itself localhost', () => {
  test("the report says that the landing page's service-desc link leads to another origin, which adr-check does not follow", () => {
    const port = new URL((lab as LabQgisServer).baseUrl).port;
    const named = byAddress.notices.filter((notice) => notice.includes('service-desc') && notice.includes(`https://localhost:${port}/wfs3/api`));
    expect({ named: named.length > 0, notices: byAddress.notices }).toEqual({ named: true, notices: byAddress.notices });
  });

  test('/core/publish-openapi fails: /openapi.json is the landing page, not a description', () => {
    expectVerdict(byAddress, {
      code: '/core/publish-openapi', verdict: 'fail',
      spec: '"GET `/openapi.json` ... 200, JSON OpenAPI description"',
      details: [/^GET \/openapi\.json is not an OpenAPI description/, /^the landing page links a description at https:\/\/localhost:\d+\/wfs3\/api \(rel=service-desc\), not read: another origin than the base URL's \(https:\/\/127\.0\.0\.1:\d+\)/],
    });
  });
});

describe('QGIS Server with --unsafe', () => {
  test('/core/http-methods fails: QGIS answers an undeclared POST, PUT or PATCH like GET, 200 with the data', () => {
    expectVerdict(unsafe, {
      code: '/core/http-methods', verdict: 'fail',
      spec: '"A request method that the target resource does not support gets 405 with an `Allow` response header listing the supported methods."',
      why: 'QGIS\'s OGC API answers POST, PUT and PATCH on /collections as GET; on the items, where its description declares POST, PUT and PATCH give 500.',
      details: [new RegExp(`^POST ${UNDER_WFS3}\\/collections \\(undeclared\\): 200, expected 405`)],
    });
  });

  test('/geo/content-crs-request-header is not judged: the POST its description declares is refused (403), so no copy is made to read back', () => {
    expectVerdict(unsafe, {
      code: '/geo/content-crs-request-header', verdict: 'error',
      spec: '"Client sends `Content-Crs`" is judged on a copy the API made and gives back; a refused POST makes none.',
      why: 'QGIS refuses the POST of a feature with 403 for a layer not published for WFS-T.',
      details: [/^not judged: .*403/],
    });
  });
});
