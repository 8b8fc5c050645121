import { adrCheck, jsonReport, type JsonReport } from '../support/adr-check-process.js';
import { debianNginxTls, plainHttpTls } from '../support/lab/common-expectations.js';
import { startAppBehindNginx, startAppDirect, type Framework, type LabApp } from '../support/lab/apps.js';
import { expectVerdict, titled, type Expectation } from '../support/lab/verdicts.js';

/**
 * The lab (issue 22): the same small API written with Express 5 and with Koa (@koa/router), each
 * framework at its defaults, served directly (plain HTTP, as `app.listen()` does) and behind
 * Debian's nginx with TLS and a default reverse proxy. Each check asserts the verdict SPEC.md
 * gives; where adr-check says otherwise the test fails and prints what it said and why.
 */
type Mode = 'direct' | 'nginx' | 'unsafe';
const DEADLINE = 60;
const apps = new Map<string, LabApp>();
const reports = new Map<string, JsonReport>();

async function check(framework: Framework, mode: Mode): Promise<void> {
  const app = mode === 'nginx' ? await startAppBehindNginx(framework) : await startAppDirect(framework);
  apps.set(`${framework} ${mode}`, app);
  const tls = app.caCertificate === undefined ? [] : ['--ca', app.caCertificate, '--plain-http-port', String(app.plainPort)];
  const unsafe = mode === 'unsafe' ? ['--unsafe'] : [];
  const outcome = await adrCheck(app.baseUrl, [...tls, ...unsafe, '--format', 'json', '--timeout', '5000'], { deadline: DEADLINE, killAfterMs: (DEADLINE + 15) * 1000 });
  if (outcome.stdout.trim() === '') throw new Error(`adr-check printed no report (exit ${outcome.code}): ${outcome.stderr}`);
  reports.set(`${framework} ${mode}`, jsonReport(outcome));
}

beforeAll(async () => {
  await Promise.all((['express', 'koa'] as const).flatMap((framework) => (['direct', 'nginx', 'unsafe'] as const).map((mode) => check(framework, mode))));
}, 120_000);

afterAll(async () => {
  await Promise.all([...apps.values()].map((app) => app.close()));
});

/** What each framework sends by itself where the team wrote nothing. */
const DEFAULTS: Record<Framework, { notFoundType: string; unknownMethod: string }> = {
  // finalhandler: "Cannot GET /x" as HTML; a method no route has falls through to that 404.
  express: { notFoundType: 'text/html; charset=utf-8', unknownMethod: '404' },
  // Koa's "Not Found" as text; @koa/router's allowedMethods answers a method it does not implement with 501.
  koa: { notFoundType: 'text/plain; charset=utf-8', unknownMethod: '501' },
};

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The verdicts that are right for `framework` served in `mode`. */
export function frameworkExpectations(framework: Framework, mode: Mode): Expectation[] {
  const defaults = DEFAULTS[framework];
  const behindNginx = mode === 'nginx';
  return [
    {
      code: '/core/publish-openapi', verdict: 'pass',
      spec: '"GET `/openapi.json` ... 200, JSON OpenAPI description ... its value allows all origins."',
    },
    {
      code: '/core/version-header', verdict: 'pass',
      spec: '"Every response has the header `API-Version` ... It MUST equal `info.version`. A proxy-generated error MAY omit it."',
      why: behindNginx ? "The app's middleware sets API-Version on every answer, its 404s included; nginx's own 405s for TRACE are left out." : "The app's middleware sets API-Version on every answer, the framework's 404s included.",
      details: behindNginx ? [/^left out: \d+ proxy-generated errors?, which MAY omit API-Version \(TRACE .*405 text\/html from nginx\//] : [],
    },
    {
      code: '/core/no-trailing-slash', verdict: 'fail',
      spec: '"A request to a path with a trailing slash gets 404 and is never redirected."',
      why: `${framework === 'express' ? 'Express routes are not strict by default' : "@koa/router's strict option is off by default"}: /gebouwen/ answers as /gebouwen.`,
      details: [/^GET \/v1\/gebouwen\/: 200, expected 404$/, /^GET \/v1\/openapi\.json\/: 200, expected 404$/],
    },
    {
      code: '/core/http-methods', verdict: 'fail',
      spec: '"A request method that the target resource does not support gets 405 with an `Allow` response header listing the supported methods."',
      why: behindNginx
        ? 'nginx refuses TRACE itself with a 405 without Allow (SPEC exempts a proxy error from API-Version only).'
        : `${framework === 'express' ? 'Express answers a method no route has with its 404' : "@koa/router's allowedMethods answers a method it does not implement (TRACE) with 501"}, not 405 with Allow.`,
      details: [behindNginx ? /^TRACE \/v1\/gebouwen: 405 lacks Allow$/ : new RegExp(`^TRACE /v1/gebouwen \\(undeclared\\): ${defaults.unknownMethod}, expected 405$`)],
      // Issue 22 item 2: the description declares no `/`; the base URL is not a resource of this API.
      absent: [/^GET \/: 404/, /^TRACE \/[ :]/],
    },
    {
      code: '/core/http-response-code', verdict: 'warn',
      spec: '"Error responses SHOULD use the media type `application/problem+json`"; "`Accept` names no type the API can deliver: 406 (ideally)"',
      why: `An unknown path gets the framework's own 404 (${defaults.notFoundType}); JSON is sent whatever the Accept.`,
      details: [new RegExp(`^the 404 has Content-Type: ${escape(defaults.notFoundType)}, expected application/problem\\+json`), /^Accept: application\/x-adr-check-unservable gives 200, expected 406/],
    },
    {
      code: '/core/transport/security-headers', verdict: 'warn',
      spec: '"The following response headers SHOULD be in all API responses"',
      details: [/lacks Cache-Control \(expected no-store\)/, /lacks X-Frame-Options \(expected DENY\)/],
    },
    {
      code: '/core/transport/cors', verdict: 'pass',
      spec: '"Use an allowlist of origins"; "A wildcard is NOT RECOMMENDED"; "The `/openapi.json` document MUST allow all origins."',
      why: 'No CORS headers but the wildcard on /openapi.json that SPEC requires.',
      // Issue 22, messages: an API that sends no CORS headers on its resources does not "follow an allowlist".
      absent: [/allowlist/],
    },
    behindNginx ? debianNginxTls(/^Insufficient: cipher suite TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA \(0xc00a\)$/) : plainHttpTls('The framework'),
  ];
}

describe.each([['express'], ['koa']] as const)('%s with --unsafe', (framework) => {
  test('/core/http-methods judges the framework\'s answers to undeclared writes', () => {
    const express = framework === 'express';
    expectVerdict(reports.get(`${framework} unsafe`) as JsonReport, {
      code: '/core/http-methods', verdict: 'fail',
      spec: '"A request method that the target resource does not support gets 405 with an `Allow` response header listing the supported methods."',
      why: express ? 'Express answers an undeclared POST, PUT or PATCH with its 404.' : "@koa/router's allowedMethods answers an undeclared POST with 405 and Allow (right); TRACE still gets 501.",
      details: [express ? /^POST \/v1\/gebouwen \(undeclared\): 404, expected 405/ : /^TRACE \/v1\/gebouwen \(undeclared\): 501, expected 405$/],
      // A 400 the framework gave to a request it could not parse judges adr-check, not the API.
      absent: [/: 400, expected 405/, ...(express ? [] : [/^(POST|PUT|PATCH) (\/v1)?\/gebouwen/])],
    });
  });

  test('every request adr-check sent is well-formed HTTP: Node\'s parser refused none', () => {
    expect((apps.get(`${framework} unsafe`) as LabApp).clientErrors).toEqual([]);
  });
});

describe.each([['express'], ['koa']] as const)('%s', (framework) => {
  describe.each([['direct'], ['nginx']] as const)('%s', (mode) => {
    test.each(titled(frameworkExpectations(framework, mode)))('%s', (_title, expectation) => {
      expectVerdict(reports.get(`${framework} ${mode}`) as JsonReport, expectation);
    });

    test('a description without faults but an info-level heuristic, and no geospatial check: the API has no geometry', () => {
      const report = reports.get(`${framework} ${mode}`) as JsonReport;
      expect(report.lint.status).toBe('done');
      expect(report.staticFindings.filter((finding) => finding.severity !== 'info').map((finding) => `${finding.code}: ${finding.message}`)).toEqual([]);
      expect(report.results.filter((result) => result.code.startsWith('/geo/'))).toEqual([]);
      expect(report.notices).toContain('the /geo/* checks not run: not a geospatial API (no GeoJSON in the description, no /collections or /crss)');
    });
  });
});
