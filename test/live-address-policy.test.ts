import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import net, { type AddressInfo } from 'node:net';
import { adrCheck, expectBounded, jsonReport, type JsonReport } from './support/adr-check-process.js';
import { startDnsServer, type DnsServer } from './support/dns-server.js';
import { description, servingDescription, startHostile, type HostileServer } from './support/hostile-servers.js';
import { oauthApi } from './support/hostile-output.js';
import { offOriginNextServer } from './support/hostile-run.js';
import { startReferenceApi } from '../examples/reference-api/server.js';
import { closedAfterAll } from './support/closed-after-all.js';

/**
 * Issue 25, "Safe on the internet": adr-check --public-only, as a child process, against servers on
 * loopback. The test target is admitted by `--allow 127.0.0.1`; other loopback addresses (127.0.0.2,
 * ::1) stand for the private addresses a stranger's URL, a DNS answer or a server's link would lead
 * to, and a listener there counts every TCP connection, so "refused" means "not one connection".
 * (169.254.169.254 and the other ranges are in test/address-policy.test.ts: traffic off this
 * machine must never be risked, not even by a broken checker.)
 */
const { kept, onClose } = closedAfterAll();

const ADVICE = 'adr-check --public-only connects to public addresses only; give --allow with the address, its range or the host name to check it all the same';
const PUBLIC_ONLY = ['--public-only', '--allow', '127.0.0.1'];

/** A TCP listener that counts connections; it answers anything with a tempting 200 so that a checker that connects is caught. */
interface Counter { connections: number; port: number; close(): Promise<void> }

async function startCounter(host: string, port = 0): Promise<Counter> {
  const sockets = new Set<net.Socket>();
  const counter = { connections: 0, port: 0, close: () => new Promise<void>((resolve) => { sockets.forEach((socket) => socket.destroy()); server.close(() => resolve()); }) };
  const server = net.createServer((socket) => {
    counter.connections += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\napi-version: 1.0.0\r\ncontent-length: 48\r\n\r\n{"openapi":"3.0.3","issuer":"http://127.0.0.2"}\n'));
  });
  server.listen(port, host);
  await once(server, 'listening');
  counter.port = (server.address() as AddressInfo).port;
  return counter;
}

function answeringJson(): Parameters<typeof servingDescription>[1] {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'api-version': '1.0.0' });
    response.end('{}');
  };
}

const ITEMS = description({ paths: { '/items': { get: { responses: { 200: { description: 'ok' } } } }, '/other': { get: { responses: { 200: { description: 'ok' } } } } } });
const result = (report: JsonReport, code: string) => report.results.find((entry) => entry.code === code);

describe('a base URL on a refused address: one line, exit 2, not one connection', () => {
  let v4: Counter;
  let v6: Counter;
  beforeAll(async () => {
    v4 = await kept(startCounter('127.0.0.2'));
    v6 = await kept(startCounter('::1', v4.port));
  });

  test.each([
    ['127.0.0.2', (port: number) => `http://127.0.0.2:${port}/v1`, '127.0.0.2 is a loopback address (127.0.0.0/8, RFC 1122)'],
    ['decimal', (port: number) => `http://2130706434:${port}/v1`, '127.0.0.2 is a loopback address (127.0.0.0/8, RFC 1122)'],
    ['octal', (port: number) => `http://0177.0.0.2:${port}/v1`, '127.0.0.2 is a loopback address (127.0.0.0/8, RFC 1122)'],
    ['hexadecimal, short', (port: number) => `http://0x7f.2:${port}/v1`, '127.0.0.2 is a loopback address (127.0.0.0/8, RFC 1122)'],
    ['IPv4-mapped IPv6', (port: number) => `http://[::ffff:127.0.0.2]:${port}/v1`, '::ffff:7f00:2 is an IPv4-mapped address of a loopback address (::ffff:0:0/96 with 127.0.0.0/8 inside, RFC 4291 section 2.5.5.2; RFC 1122)'],
    ['IPv6 loopback', (port: number) => `http://[::1]:${port}/v1`, '::1 is the loopback address (::1/128, RFC 4291)'],
    ['https: the TLS prober opens no socket either', (port: number) => `https://127.0.0.2:${port}/v1`, '127.0.0.2 is a loopback address (127.0.0.0/8, RFC 1122)'],
    ['localhost, a name', (port: number) => `http://localhost:${port}/v1`, /localhost is at (127\.0\.0\.1|::1), /],
  ])('%s', async (_name, url, reason) => {
    const target = url(v4.port);
    // localhost may resolve to 127.0.0.1, which the test's allowlist admits: here only ::1 is.
    const allow = typeof reason === 'string' ? PUBLIC_ONLY : ['--public-only', '--allow', '127.0.0.3'];
    const outcome = await adrCheck(target, allow);
    expectBounded(outcome);
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).toBe('');
    if (typeof reason === 'string') expect(outcome.stderr).toBe(`adr-check: ${target} is not checked: refused: ${reason}. ${ADVICE}\n`);
    else expect(outcome.stderr).toMatch(reason);
    expect(outcome.stderr.trim().split('\n')).toHaveLength(1);
    expect(v4.connections + v6.connections).toBe(0);
  }, 40000);

  test('without --public-only the same address is checked (the CLI admits every address by default)', async () => {
    const server = await kept(startHostile(servingDescription(JSON.stringify(ITEMS), answeringJson())));
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json']);
    expectBounded(outcome);
    expect(server.requests.length).toBeGreaterThan(5);
  }, 40000);

  test('--allow without --public-only, and an entry that is none, are usage errors', async () => {
    const alone = await adrCheck(`http://127.0.0.2:${v4.port}/v1`, ['--allow', '127.0.0.2']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toBe('adr-check: --allow only makes exceptions to --public-only; without it every address is allowed. Give --public-only too\n');
    const port = await adrCheck(`http://127.0.0.2:${v4.port}/v1`, ['--public-only', '--allow', 'api.example:443']);
    expect(port.code).toBe(2);
    expect(port.stderr).toBe('adr-check: --allow: an allowlist entry is an IP address, a CIDR range (10.1.0.0/16, fd00::/8) or a host name, not "api.example:443"\n');
    expect(v4.connections).toBe(0);
  }, 40000);
});

describe('DNS: a name is resolved once, checked, and only that address is connected to', () => {
  let target: HostileServer;
  let rebound: Counter;
  let dns: DnsServer;
  beforeAll(async () => {
    target = await kept(startHostile(servingDescription(JSON.stringify(ITEMS), answeringJson())));
    rebound = await kept(startCounter('127.0.0.2', target.port));
    // An admitted address first, then a refused one: rebinding; the other name answers the refused one first.
    dns = await kept(startDnsServer({ 'api.rebind.test': ['127.0.0.1', '127.0.0.2'], 'api.private.test': ['127.0.0.2', '127.0.0.1'], 'api.internal.test': ['127.0.0.2'] }));
  });

  test('an admitted answer first and a refused one next: one question, the second address never used', async () => {
    const outcome = await adrCheck(`http://api.rebind.test:${target.port}/v1`, ['--format', 'json', '--dns-server', dns.address, ...PUBLIC_ONLY]);
    expectBounded(outcome);
    expect(dns.questions.filter((question) => question === 'A api.rebind.test')).toHaveLength(1);
    expect(rebound.connections).toBe(0);
    expect(target.requests.length).toBeGreaterThan(5);
    expect(target.requests.every((request) => request.headers.host === `api.rebind.test:${target.port}`)).toBe(true);
    expect(result(jsonReport(outcome), '/core/version-header')?.verdict).toBe('pass');
  }, 40000);

  test('a refused answer first: the base URL is not checked, not one connection, one question', async () => {
    const before = target.requests.length;
    const outcome = await adrCheck(`http://api.private.test:${target.port}/v1`, ['--dns-server', dns.address, ...PUBLIC_ONLY]);
    expectBounded(outcome);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toBe(`adr-check: http://api.private.test:${target.port}/v1 is not checked: refused: api.private.test is at 127.0.0.2, a loopback address (127.0.0.0/8, RFC 1122). ${ADVICE}\n`);
    expect(dns.questions.filter((question) => question === 'A api.private.test')).toHaveLength(1);
    expect(rebound.connections).toBe(0);
    expect(target.requests.length).toBe(before);
  }, 40000);

  test('a name on the allowlist admits the address it resolves to', async () => {
    const outcome = await adrCheck(`http://api.internal.test:${target.port}/v1`, ['--format', 'json', '--dns-server', dns.address, '--public-only', '--allow', 'api.internal.test']);
    expectBounded(outcome);
    expect(rebound.connections).toBeGreaterThan(0);
  }, 40000);
});

test('https with a rebinding DNS answer: the TLS prober\'s sockets, like every request, go to the admitted address only', async () => {
  const api = await startReferenceApi({});
  onClose(() => api.close());
  const port = Number(new URL(api.origin).port);
  const rebound = await kept(startCounter('127.0.0.2', port));
  // The reference API's certificate names localhost: asked of this DNS server, it answers 127.0.0.1 first, 127.0.0.2 next.
  const dns = await kept(startDnsServer({ localhost: ['127.0.0.1', '127.0.0.2'] }));
  const folder = mkdtempSync(join(tmpdir(), 'adr-check-address-policy-'));
  writeFileSync(join(folder, 'ca.pem'), api.caPem);
  const outcome = await adrCheck(`https://localhost:${port}/v1`, ['--format', 'json', '--ca', join(folder, 'ca.pem'), '--dns-server', dns.address, '--tls-deadline', '4', ...PUBLIC_ONLY], { deadline: 15 });
  rmSync(folder, { recursive: true, force: true });
  expectBounded(outcome, 15);
  expect(dns.questions.filter((question) => question === 'A localhost')).toHaveLength(1);
  expect(rebound.connections).toBe(0);
  // The prober did connect (to 127.0.0.1): its enumeration is in the report.
  const tls = result(jsonReport(outcome), '/core/transport/tls');
  expect(tls?.verdict).toBe('pass');
  expect(tls?.summary).toMatch(/^TLSv1\.3 with a valid certificate; .*\(enumerated over TLSv1\.3, TLSv1\.2; \d+ connections in \d+ ms\)$/);
}, 60000);

describe('links and redirects a server gives do not lead to a refused address', () => {
  test('a redirect to a refused address is never followed: not one connection there', async () => {
    const elsewhere = await kept(startCounter('127.0.0.2'));
    const server = await kept(startHostile(servingDescription(JSON.stringify(ITEMS), (request, response) => {
      response.writeHead(302, { location: `http://127.0.0.2:${elsewhere.port}${request.url ?? '/'}`, 'api-version': '1.0.0' });
      response.end();
    })));
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json', ...PUBLIC_ONLY]);
    expectBounded(outcome);
    expect(server.requests.length).toBeGreaterThan(5);
    expect(elsewhere.connections).toBe(0);
  }, 40000);

  test('the authorization server\'s metadata on a refused address: not fetched, the OAuth check says why', async () => {
    const authorizationServer = await kept(startCounter('127.0.0.2'));
    const server = await kept(startHostile(oauthApi({ schemes: { oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `http://127.0.0.2:${authorizationServer.port}/token`, scopes: {} } } } } })));
    const metadata = `http://127.0.0.2:${authorizationServer.port}/.well-known/oauth-authorization-server`;
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--oauth-metadata', metadata, ...PUBLIC_ONLY]);
    expectBounded(outcome);
    expect(authorizationServer.connections).toBe(0);
    expect(result(jsonReport(outcome), 'nlgov:oauth-flows')).toEqual(expect.objectContaining({
      verdict: 'error',
      summary: 'not judged: 1 request refused by the address policy (127.0.0.2 is a loopback address (127.0.0.0/8, RFC 1122))',
      details: [`GET ${metadata}: no answer (refused: 127.0.0.2 is a loopback address (127.0.0.0/8, RFC 1122). ${ADVICE})`],
    }));
  }, 40000);

  test('a geospatial next link to a refused address: not followed, the selection not judged', async () => {
    const elsewhere = await kept(startCounter('127.0.0.2'));
    const server = await kept(startHostile(offOriginNextServer(`http://127.0.0.2:${elsewhere.port}`)));
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json', ...PUBLIC_ONLY]);
    expectBounded(outcome);
    expect(elsewhere.connections).toBe(0);
    const bbox = result(jsonReport(outcome), '/geo/bbox-query-parameter');
    expect(bbox?.verdict).toBe('error');
    expect(bbox?.details).toContain("f1 is not among the first 1 features read; its next link leads off the API's origin or is no URL, which adr-check does not follow");
  }, 40000);
});
