import { description, servingDescription, startHostile, type HostileServer } from './support/hostile-servers.js';
import { adrCheck, expectBounded, jsonReport, startOffTarget, type OffTarget } from './support/adr-check-process.js';
import { startDnsServer, type DnsServer } from './support/dns-server.js';
import { closedAfterAll } from './support/closed-after-all.js';

/**
 * Issue 21, the run as a whole: one address per host name (4), what the run keeps (8), and every
 * step guarded so that an internal error still gives the report of what was observed (11).
 */
const { kept } = closedAfterAll();

/** GET paths without variables that answer 200 JSON with API-Version. */
function pathsDescription(count: number): Record<string, unknown> {
  const paths = Object.fromEntries(Array.from({ length: count }, (_, index) => [`/p${index}`, { get: { responses: { 200: { description: 'ok' } } } }]));
  return description({ paths });
}

function answeringJson(): Parameters<typeof servingDescription>[1] {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'api-version': '1.0.0' });
    response.end('{}');
  };
}

describe('4. DNS rebinding: a name is resolved once per run', () => {
  let target: HostileServer;
  let offTarget: OffTarget;
  let dns: DnsServer;

  beforeAll(async () => {
    target = await kept(startHostile(servingDescription(JSON.stringify(pathsDescription(6)), answeringJson())));
    offTarget = await kept(startOffTarget(target.port));
    // The target first, then another loopback address on the same port: every later request would go there.
    dns = await kept(startDnsServer({ 'api.rebind.test': ['127.0.0.1', '127.0.0.2'] }));
  });

  test('every request goes to the first address, none with the token to the second', async () => {
    const outcome = await adrCheck(`http://api.rebind.test:${target.port}/v1`, ['--format', 'json', '--dns-server', dns.address, '--header', 'Authorization: Bearer rebind-secret']);
    expectBounded(outcome);
    expect(offTarget.requests).toEqual([]);
    expect(dns.questions.filter((question) => question === 'A api.rebind.test')).toHaveLength(1);
    // The run really happened against the target: many requests, with the token.
    expect(target.requests.length).toBeGreaterThan(10);
    expect(target.requests.filter((request) => request.headers.authorization === 'Bearer rebind-secret').length).toBeGreaterThan(5);
    expect(target.requests.every((request) => request.headers.host === `api.rebind.test:${target.port}`)).toBe(true);
    expect(jsonReport(outcome).results.find((result) => result.code === '/core/http-methods')?.verdict).toBeDefined();
  }, 40000);

  test('a name the DNS server does not know: one clear line, exit 2', async () => {
    const outcome = await adrCheck(`http://unknown.rebind.test:${target.port}/v1`, ['--dns-server', dns.address]);
    expectBounded(outcome);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(/^adr-check: cannot reach http:\/\/unknown\.rebind\.test:\d+\/v1\/openapi\.json: ENOTFOUND/);
    expect(outcome.stderr.trim().split('\n')).toHaveLength(1);
  }, 40000);

  test('--dns-server takes an IP address', async () => {
    const outcome = await adrCheck(`http://api.rebind.test:${target.port}/v1`, ['--dns-server', 'dns.example']);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toBe('adr-check: --dns-server takes an IP address with an optional port, not dns.example\n');
  }, 40000);
});

describe('11. a strange description is never the end of the run', () => {
  const strange = {
    '%zz parameter $ref': { '/items/{id}': { parameters: [{ $ref: '#/components/parameters/%zz' }], get: { responses: { 200: { description: 'ok' } } } } },
    'lone-surrogate example': { '/items/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, example: '\ud800' }], responses: { 200: { description: 'ok' } } } } },
  };

  test.each(Object.entries(strange))('%s: the report is written (--output too) with the other paths judged', async (_name, strangePaths) => {
    const paths = { ...strangePaths, '/plain': { get: { responses: { 200: { description: 'ok' } } } } };
    const text = JSON.stringify(description({ paths, components: { parameters: { zz: { name: 'id', in: 'path', required: true, schema: { type: 'string' }, example: 'x' } } } }));
    const server = await kept(startHostile(servingDescription(text, answeringJson())));
    const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const folder = mkdtempSync(join(tmpdir(), 'adr-check-output-'));
    const output = join(folder, 'report.json');
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--output', output]);
    expectBounded(outcome);
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(1);
    const report = JSON.parse(readFileSync(output, 'utf8')) as ReturnType<typeof jsonReport>;
    rmSync(folder, { recursive: true, force: true });
    expect(report.results.some((result) => result.verdict === 'error' && /internal error/.test(result.summary))).toBe(false);
    // The strange path is left out; the plain one is probed.
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toContain('HEAD /v1/plain');
    expect(server.requests.some((request) => request.url.startsWith('/v1/items/'))).toBe(false);
  }, 40000);
});

describe('8. memory follows what the report needs, not how much geometry the checks read', () => {
  test('25 answers of 6 MB of polygon: every check judges, the peak stays within 512 MB plus the lint budget', async () => {
    const { fatGeometryServer } = await import('./support/hostile-run.js');
    const server = await kept(startHostile(fatGeometryServer({ pageBytes: 6_000_000, pages: 5, collections: 3 })));
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--max-body', '8000000', '--lint-memory', '256'], { deadline: 20 });
    expectBounded(outcome, 20);
    expect(outcome.peakMb).toBeLessThan(512 + 256);
    expect(outcome.stderr).toBe('');
    const report = jsonReport(outcome);
    expect(report.results.filter((result) => result.verdict === 'error')).toEqual([]);
    // The geometry was read: every geospatial response judged, 25 of them.
    expect(report.results.find((result) => result.code === '/geo/geojson-response')?.summary).toMatch(/\(2\d responses\)$/);
  }, 60000);
});

describe('2. a path key that a servlet container reads as climbing out of the base', () => {
  test('/..;/admin/users (Tomcat, Jetty drop ;params before dot segments) is never requested, with or without --unsafe', async () => {
    const reached: string[] = [];
    const paths = { '/..;/admin/users': GET_ONLY_PATH, '/..;x=1/admin/users': GET_ONLY_PATH, '/%2e%2e;/admin/users': GET_ONLY_PATH, '/items': GET_ONLY_PATH };
    const server = await kept(startHostile(servingDescription(JSON.stringify(description({ paths })), (request, response) => {
      // As a servlet container reads the path: ;params dropped from each segment, then dot segments resolved.
      const read = new URL((request.url ?? '/').split('/').map((segment) => decodeURIComponent(segment).split(';')[0]).join('/'), 'http://x').pathname;
      if (!read.startsWith('/v1/')) reached.push(`${request.method} ${read} ${request.headers.authorization ?? ''}`.trim());
      response.writeHead(200, { 'content-type': 'application/json', 'api-version': '1.0.0' }).end('[]');
    })));
    for (const extra of [[], ['--unsafe']]) {
      const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--header', 'Authorization: Bearer servlet-secret', ...extra]);
      expectBounded(outcome);
    }
    expect(reached.filter((line) => line.includes('/admin'))).toEqual([]);
  }, 60000);
});

const GET_ONLY_PATH = { get: { responses: { 200: { description: 'ok' } } } };

describe('1. --unsafe deletes nothing a lenient router reads as an existing feature', () => {
  test.each([
    ['blanks, controls and invisible characters', ['f1%20', 'f1%00', 'f1%C2%A0'], false],
    ['punctuation, double encoding, fullwidth letters', ['f1.', 'f1%2520', 'F%EF%BC%91'], false],
    ['numbers as parseInt reads them', ['01', '1abc', '001'], true],
  ] as const)('%s', async (_what, disguises, numeric) => {
    const { lenientFeatureServer } = await import('./support/hostile-run.js');
    const lab = lenientFeatureServer([...disguises], numeric);
    const server = await kept(startHostile(lab.handler));
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--unsafe']);
    expectBounded(outcome);
    expect(lab.deleted).toEqual([]);
    const check = jsonReport(outcome).results.find((result) => result.code === '/geo/content-crs-request-header');
    expect(check?.verdict).toBe('fail');
    expect(check?.details.some((detail) => /^\d Locations? not deleted, as adr-check cannot prove it created what/.test(detail))).toBe(true);
  }, 60000);
});

test('11. a sample feature nested 20,000 levels deep: a clear verdict with --unsafe, no internal error', async () => {
  const { lenientFeatureServer } = await import('./support/hostile-run.js');
  const lab = lenientFeatureServer(['f9'], false, 20_000);
  const server = await kept(startHostile(lab.handler));
  // 0.3 MB of listing: over the harness's --max-body of 100,000 bytes.
  const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--unsafe', '--max-body', '5000000']);
  expectBounded(outcome);
  expect(outcome.stderr).toBe('');
  const check = jsonReport(outcome).results.find((result) => result.code === '/geo/content-crs-request-header');
  expect(check?.verdict).toBe('skip');
  expect(check?.summary).toBe('nothing to copy: f1 nests deeper than 100 levels of JSON; adr-check POSTs no such copy');
}, 60000);

describe('13. a secret echoed HTML-escaped or split by invisible characters is not printed', () => {
  const KEY = `k3y&Sec<ret>"Val'ue&9f8e7d6c5b4a`;
  test.each(['text', 'json', 'html'])('%s', async (format) => {
    const server = await kept(startHostile(servingDescription(JSON.stringify(pathsDescription(1)), (request, response) => {
      const key = String(request.headers['x-api-key'] ?? '');
      const escaped = key.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
      // A template's error page, and the key with a soft hyphen and a tag character between its letters.
      const split = [...key].join('\u00ad\u{E0041}');
      response.writeHead(404, { 'content-type': 'text/html', 'api-version': '1.0.0' }).end(`<p>invalid key ${escaped}</p><p>${split}</p>`);
    })));
    const outcome = await adrCheck(server.baseUrl, ['--format', format, '--header', `X-Api-Key: ${KEY}`]);
    expectBounded(outcome);
    expect(outcome.stdout).not.toContain('Sec&lt;ret&gt;');
    expect(outcome.stdout).not.toContain('9f8e7d6c5b4a');
    expect(outcome.stdout).not.toMatch(/[\u00ad]|\udb40\udc41/);
  }, 40000);
});
