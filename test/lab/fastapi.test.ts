import { adrCheck, jsonReport, type JsonReport } from '../support/adr-check-process.js';
import { debianNginxTls, plainHttpTls } from '../support/lab/common-expectations.js';
import { documentedVerdicts } from '../support/lab/docs-table.js';
import { startFastApi, type FastApiMode, type LabFastApi } from '../support/lab/fastapi.js';
import { expectVerdict, titled, type Expectation } from '../support/lab/verdicts.js';

/**
 * The lab (issue 22): a FastAPI app at the framework's defaults (Debian 12's FastAPI 0.92 on
 * uvicorn), its routes under /v1 and its server URL /v1 as well, the mistake of the standard's
 * authors' own example: the description's paths resolve to /v1/v1/..., which FastAPI answers 404,
 * while the API serves /v1/gebouwen. Served directly (plain HTTP) and behind Debian's nginx with
 * TLS and a default reverse proxy. Each check asserts the verdict SPEC.md gives for what FastAPI
 * does at the resources it serves; where adr-check says otherwise the test fails and says why.
 */
type Run = FastApiMode | 'unsafe';
const DEADLINE = 60;
const apps = new Map<Run, LabFastApi>();
const reports = new Map<Run, JsonReport>();

async function check(run: Run): Promise<void> {
  const app = await startFastApi(run === 'nginx' ? 'nginx' : 'direct');
  apps.set(run, app);
  const tls = app.caCertificate === undefined ? [] : ['--ca', app.caCertificate, '--plain-http-port', String(app.plainPort)];
  const unsafe = run === 'unsafe' ? ['--unsafe'] : [];
  const outcome = await adrCheck(app.baseUrl, [...tls, ...unsafe, '--format', 'json', '--timeout', '5000'], { deadline: DEADLINE, killAfterMs: (DEADLINE + 15) * 1000 });
  if (outcome.stdout.trim() === '') throw new Error(`adr-check printed no report (exit ${outcome.code}): ${outcome.stderr}`);
  reports.set(run, jsonReport(outcome));
}

beforeAll(async () => {
  await Promise.all((['direct', 'nginx', 'unsafe'] as const).map(check));
}, 120_000);

afterAll(async () => {
  await Promise.all([...apps.values()].map((app) => app.close()));
});

/** A detail that blames the API for a 404 of /v1/v1/...: a path the description names by mistake, not a resource of the API. */
const ACCUSES_A_MISSING_PATH = /: 404, expected/;

/** The verdicts that are right for the FastAPI app served in `mode`. */
export function fastApiExpectations(mode: FastApiMode): Expectation[] {
  const behindNginx = mode === 'nginx';
  return [
    {
      code: '/core/publish-openapi', verdict: 'fail',
      spec: '"The `/openapi.json` document MUST allow all origins."',
      why: "FastAPI serves its own /v1/openapi.json without Access-Control-Allow-Origin.",
      details: [/^\/openapi\.json lacks Access-Control-Allow-Origin \(expected \*\)$/],
    },
    {
      code: '/core/version-header', verdict: 'pass',
      spec: '"Every response has the header `API-Version` ... It MUST equal `info.version`. A proxy-generated error MAY omit it."',
      why: behindNginx ? "The team's middleware sets API-Version on every answer, FastAPI's own 404, 405 and 307 included; nginx's 405 for TRACE is left out." : "The team's middleware sets API-Version on every answer, FastAPI's own 404, 405 and 307 included.",
      details: behindNginx ? [/^left out: 1 proxy-generated error, which MAY omit API-Version \(TRACE .*405 text\/html from nginx\//] : [/API-Version: 1\.0\.0/],
    },
    {
      code: '/core/no-trailing-slash', verdict: 'fail',
      spec: '"A request to a path with a trailing slash gets 404 and is never redirected."',
      why: "Starlette's redirect_slashes (on by default) answers /v1/gebouwen/ and /v1/openapi.json/ with 307 to the path without the slash.",
      details: [/^GET \/v1\/openapi\.json\/: 307 \(Location: https?:\/\/127\.0\.0\.1:\d+\/v1\/openapi\.json\), expected 404$/, /^GET \/v1\/gebouwen\/: 307 \(Location: https?:\/\/127\.0\.0\.1:\d+\/v1\/gebouwen\), expected 404$/],
    },
    {
      code: '/core/http-methods', verdict: 'fail',
      spec: '"GET and HEAD MUST be supported by the server."',
      why: 'FastAPI routes a GET without HEAD: HEAD /v1/gebouwen gets 405 (Allow: GET).',
      details: [/^HEAD \/v1\/gebouwen: 405/],
      absent: [ACCUSES_A_MISSING_PATH],
    },
    {
      code: '/core/http-response-code', verdict: 'warn',
      spec: '"Error responses SHOULD use the media type `application/problem+json`"; "`Accept` names no type the API can deliver: 406 (ideally)"',
      why: 'FastAPI\'s 404 is {"detail": "Not Found"} as application/json; it sends JSON whatever the Accept.',
      details: [/^the 404 has Content-Type: application\/json, expected application\/problem\+json/, /^Accept: application\/x-adr-check-unservable gives 200, expected 406/],
    },
    {
      code: '/core/transport/security-headers', verdict: 'warn',
      spec: '"The following response headers SHOULD be in all API responses"',
      details: [/lacks Cache-Control \(expected no-store\)/, /lacks X-Frame-Options \(expected DENY\)/],
    },
    {
      code: '/core/transport/cors', verdict: 'pass',
      spec: '"Use an allowlist of origins"; "A wildcard is NOT RECOMMENDED"',
      why: 'FastAPI sends no CORS headers without CORSMiddleware: nothing foreign is echoed.',
      absent: [/allowlist/],
    },
    behindNginx ? debianNginxTls(/^Insufficient: cipher suite TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA \(0xc00a\)$/) : plainHttpTls('uvicorn'),
  ];
}

describe.each([['direct'], ['nginx']] as const)('FastAPI 0.92 (Debian) %s', (mode) => {
  test.each(titled(fastApiExpectations(mode)))('%s', (_title, expectation) => {
    expectVerdict(reports.get(mode) as JsonReport, expectation);
  });

  test("the static findings on FastAPI's own description: the repeated /v1, no API-Version declared, the 422 not problem+json", () => {
    const report = reports.get(mode) as JsonReport;
    expect(report.lint.status).toBe('done');
    const faults = report.staticFindings.filter((finding) => finding.severity !== 'info');
    expect([...new Set(faults.map((finding) => finding.code))].sort()).toEqual(['/core/error-handling/problem-details', '/core/uri-version', '/core/version-header']);
    // One mistake, one finding: the first path that repeats the server URL's /v1, counting the other.
    expect(faults.filter((finding) => finding.code === '/core/uri-version').map((finding) => finding.message)).toEqual([
      'Path repeats the version of the server URL: /v1/gebouwen under /v1 is /v1/v1/gebouwen, and 1 other path does the same. Remove /v1 from the path keys or from the server URL.',
    ]);
    expect(report.results.filter((result) => result.code.startsWith('/geo/'))).toEqual([]);
  });

  test('the method, CORS and preflight probes went to resources FastAPI serves, not to the 404 of /v1/v1/... (issue 22 items 2 and 7)', () => {
    expect(probesOfMissingPaths(apps.get(mode) as LabFastApi)).toEqual([]);
  });
});

/** What uvicorn logged of requests other than GET to a path under /v1/v1: a resource that does not exist. */
function probesOfMissingPaths(app: LabFastApi): string[] {
  return [...app.log().matchAll(/"([A-Z]+) (\/v1\/v1\/\S*) HTTP\/1\.[01]" (\d+)/g)].filter((match) => match[1] !== 'GET').map((match) => `${match[1]} ${match[2]}: ${match[3]}`);
}

test('docs/live/tested-implementations.md shows users these verdicts (the same for both modes)', () => {
  const documented = documentedVerdicts('FastAPI 0.92');
  for (const mode of ['direct', 'nginx'] as const) expect(documented).toEqual(fastApiExpectations(mode).map((expectation) => `${expectation.code}: ${expectation.verdict}`));
});

describe('FastAPI 0.92 with --unsafe', () => {
  test('/core/http-methods: FastAPI answers an undeclared POST, PUT, PATCH or DELETE on /v1/gebouwen rightly (405, Allow: GET); HEAD still fails', () => {
    expectVerdict(reports.get('unsafe') as JsonReport, {
      code: '/core/http-methods', verdict: 'fail',
      spec: '"GET and HEAD MUST be supported by the server."; "A request method that the target resource does not support gets 405 with an `Allow` response header"',
      why: 'HEAD /v1/gebouwen gets 405; the writes get 405 with Allow: GET, which is right, and are not to be judged on the 404 of /v1/v1/gebouwen.',
      details: [/^HEAD \/v1\/gebouwen: 405/],
      // Issue 22 item 7: a POST to a resource that does not exist gets "404, expected 405".
      absent: [ACCUSES_A_MISSING_PATH],
    });
  });

  test('no write went to the 404 of /v1/v1/gebouwen: adr-check probes the resources the API serves', () => {
    expect(probesOfMissingPaths(apps.get('unsafe') as LabFastApi)).toEqual([]);
  });
});
