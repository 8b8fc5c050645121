import { startReferenceApi, BREAK_SWITCHES, type BreakSwitch, type ReferenceApi } from '../examples/reference-api/server.js';
import { runChecks, type RunOptions } from '../live/run.js';
import type { Report, Verdict } from '../live/report.js';

/** adr-check against the reference API on loopback: unbroken it passes; each switch fails exactly its rule. */
const ALLOWED_ORIGIN = 'https://app.example.nl';

/** Which live rule each fault switch of the reference API breaks. */
const BROKEN_RULE: Record<BreakSwitch, string> = {
  'no-api-version': '/core/version-header',
  'wrong-api-version': '/core/version-header',
  'trailing-slash-redirect': '/core/no-trailing-slash',
  'undeclared-method-200': '/core/http-methods',
  '405-without-allow': '/core/http-methods',
  'cors-echo-any-origin': '/core/transport/cors',
  'cors-wildcard-everywhere': '/core/transport/cors',
  'text-errors-with-stack': '/core/http-response-code',
  'missing-security-header': '/core/transport/security-headers',
  'openapi-yaml-differs': '/core/publish-openapi',
  'openapi-json-auth': '/core/publish-openapi',
  'accept-echoed': '/core/http-response-code',
  'no-hsts': '/core/transport/security-headers',
  'http-serves-api': '/core/transport/tls',
  'geo-storage-crs-not-listed': '/geo/crs-list',
  'geo-no-content-crs': '/geo/content-crs-response-header',
  'geo-crs-ignored': '/geo/crs-query-parameter',
  'geo-swapped-axes': '/geo/crs-query-parameter',
  'geo-unsupported-crs-200': '/geo/crs-query-parameter',
  'geo-bbox-crs-ignored': '/geo/bbox-crs-query-parameter',
  'geo-bbox-ignored': '/geo/bbox-query-parameter',
  'geo-bbox-within': '/geo/bbox-query-parameter',
  'geo-items-as-json': '/geo/geojson-response',
  'geo-content-crs-ignored': '/geo/content-crs-request-header',
  'signature-other-data': '/signing/payload',
  'digest-mismatch': '/signing/payload',
  'signature-rs256': '/signing/payload',
  'two-signature-headers': '/signing/payload',
  'token-in-query-accepted': 'nlgov:oauth-no-token-in-query',
  'implicit-grant-in-metadata': 'nlgov:oauth-flows',
  'pkce-plain-only': 'nlgov:oauth-flows',
};

/**
 * With the API's own token and --unsafe, so that the OAuth check also probes a protected write
 * (every write needs a token; no GET does) and the signing check can trust the API's signing CA.
 */
async function check(api: ReferenceApi, headers: Record<string, string> = { authorization: `Bearer ${api.writeToken}` }): Promise<Report> {
  const options: RunOptions = {
    client: { headers, ca: api.caPem, insecure: false, timeoutMs: 5000, deadlineMs: 30000, maxRequests: 300, maxBodyBytes: 5_000_000, concurrency: 8 },
    checks: { unsafe: true, insecure: false, allowedOrigin: ALLOWED_ORIGIN, plainHttpPort: Number(new URL(api.httpOrigin as string).port), signingCa: api.signingCaPem },
    extraPaths: [],
  };
  return runChecks(api.baseUrl, options);
}

function verdicts(report: Report): Record<string, Verdict> {
  return Object.fromEntries(report.results.map((result) => [result.code, result.verdict]));
}

test('the unbroken reference API passes every live check and lints clean', async () => {
  const api = await startReferenceApi({ httpPort: 0, corsAllowlist: [ALLOWED_ORIGIN] });
  try {
    const report = await check(api);
    expect(Object.values(verdicts(report)).every((verdict) => verdict === 'pass')).toBe(true);
    // /signing/message is left out: the API signs payloads, not messages.
    expect(Object.keys(verdicts(report))).toHaveLength(18);
    expect(report.staticFindings.filter((finding) => finding.severity === 'error' || finding.severity === 'warn')).toEqual([]);
  } finally {
    await api.close();
  }
});

test('the switch list and the expectations cover the same switches', () => {
  expect(Object.keys(BROKEN_RULE).sort()).toEqual([...BREAK_SWITCHES].sort());
});

test.each(BREAK_SWITCHES.map((name) => [name, BROKEN_RULE[name]]))('--break %s is caught by exactly %s', async (name, rule) => {
  const api = await startReferenceApi({ httpPort: 0, corsAllowlist: [ALLOWED_ORIGIN], breaks: [name as BreakSwitch] });
  try {
    const report = await check(api);
    const byCode = verdicts(report);
    const notPassing = Object.entries(byCode).filter(([, verdict]) => verdict !== 'pass').map(([code]) => code);
    expect(notPassing).toEqual([rule]);
    expect(['fail', 'warn']).toContain(byCode[rule]);
  } finally {
    await api.close();
  }
}, 60000);
