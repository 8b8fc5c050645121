import { mkdtempSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveOptions } from '../web/options.js';
import { startWebChecker, type WebChecker } from '../web/server.js';
import { startDnsServer } from './support/dns-server.js';
import { waitForCheck } from './support/web-checker.js';

/**
 * The web checker attacked from outside (the security review of issue 25): a client behind the
 * operator's proxy that writes its own X-Forwarded-For, a client that takes a new IPv6 address of
 * its /64 per request, and request paths that name the prototype of a lookup table.
 */
let checker: WebChecker;
let dataDir: string;
const RATE = 3;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'adr-check-web-hostile-'));
  checker = await startWebChecker(serveOptions({ port: 0, dataDir, trustProxy: true, ratePerMinute: RATE, deadlineMs: 30_000, lintMemoryMb: 256 }));
}, 60000);

afterAll(async () => {
  await checker?.close();
  rmSync(dataDir, { recursive: true, force: true });
}, 60000);

/** A submission of a private target (refused, so nothing is queued) as the proxy passes it on. */
async function submitThroughProxy(forwardedFor: string): Promise<number> {
  const response = await fetch(`${checker.origin}/api/v1/checks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({ url: 'http://10.0.0.1/v1' }),
  });
  await response.arrayBuffer();
  return response.status;
}

test('behind one proxy, a client that writes its own X-Forwarded-For still has one rate-limit budget: the address the proxy appended', async () => {
  const statuses: number[] = [];
  // The proxy appends the peer it saw (198.51.100.7) to whatever the client sent.
  for (let index = 1; index <= RATE + 1; index += 1) statuses.push(await submitThroughProxy(`203.0.113.${index}, 198.51.100.7`));
  expect(statuses).toEqual([422, 422, 422, 429]);
});

// @fastify/rate-limit keys IPv6 clients by their /64 (its ipv6Subnet default): this holds that in place.
test('a client that takes a new IPv6 address of its /64 for each submission has one rate-limit budget', async () => {
  const statuses: number[] = [];
  for (let index = 1; index <= RATE + 1; index += 1) statuses.push(await submitThroughProxy(`2001:db8:7:8::${index.toString(16)}`));
  expect(statuses).toEqual([422, 422, 422, 429]);
  // Another /64 is another client.
  expect(await submitThroughProxy('2001:db8:7:9::1')).toBe(422);
});

test('a static file or a download named after a property of Object.prototype is 404 problem+json, not a 500', async () => {
  const submitted = await fetch(`${checker.origin}/api/v1/checks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ description: 'openapi: 3.0.3\ninfo: {title: t, version: "1.0.0"}\npaths: {}\n', name: 'tiny.yaml' }),
  });
  expect(submitted.status).toBe(202);
  const { id } = await submitted.json() as { id: string };
  await waitForCheck(checker.origin, id, 60_000);
  for (const path of ['/static/__proto__', '/static/constructor', '/static/toString', `/checks/${id}/__proto__`, `/checks/${id}/constructor`, `/checks/${id}/hasOwnProperty`]) {
    const response = await fetch(`${checker.origin}${path}`, { headers: { accept: 'application/json' } });
    const problem = await response.json() as { status: number; title: string };
    expect([path, response.status, response.headers.get('content-type'), problem.title]).toEqual([path, 404, 'application/problem+json; charset=utf-8', 'Not found']);
  }
}, 90000);

test('a batch is taken whole: a name that answers a private address on a second look-up does not leave the batch half queued', async () => {
  // steady.test is always 127.0.0.1 (allowed here); flip.test is 127.0.0.1 when the batch is judged, 127.0.0.2 (refused) after.
  const dns = await startDnsServer({ 'steady.test': ['127.0.0.1'], 'flip.test': ['127.0.0.1', '127.0.0.2'] });
  const flipDir = mkdtempSync(join(tmpdir(), 'adr-check-web-hostile-'));
  const flipChecker = await startWebChecker(serveOptions({ port: 0, dataDir: flipDir, allow: ['127.0.0.1/32'], dnsServer: dns.address, deadlineMs: 20_000, timeoutMs: 1000, lintMemoryMb: 256 }));
  try {
    const response = await fetch(`${flipChecker.origin}/api/v1/batches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ urls: ['http://steady.test:9/v1', 'http://flip.test:9/v1'] }),
    });
    const batch = await response.json() as { checks?: Array<{ id: string; target: string }> };
    expect([response.status, batch.checks?.map((check) => check.target)]).toEqual([202, ['http://steady.test:9/v1', 'http://flip.test:9/v1']]);
    const flipped = await waitForCheck(flipChecker.origin, batch.checks?.[1]?.id ?? '', 60_000);
    // The run looks again and connects nowhere: refused on the address it got.
    expect(flipped.state).toBe('failed');
    expect(String(flipped.error)).toContain('refused: flip.test is at 127.0.0.2, a loopback address');
  } finally {
    await flipChecker.close();
    await dns.close();
    rmSync(flipDir, { recursive: true, force: true });
  }
}, 120000);

test('the data folder the web checker makes is for its own user only: other users of the machine cannot read uploads or reports', async () => {
  const parent = mkdtempSync(join(tmpdir(), 'adr-check-web-hostile-'));
  const made = join(parent, 'data');
  const own = await startWebChecker(serveOptions({ port: 0, dataDir: made }));
  try {
    expect((statSync(made).mode & 0o777).toString(8)).toBe('700');
  } finally {
    await own.close();
    rmSync(parent, { recursive: true, force: true });
  }
});

test("a check made with a token is not linked from the base URL's history: its report, with what the token opened, only through its permalink", async () => {
  // A protected API that answers the token's holder with personal data.
  const api = http.createServer((request, response) => {
    const opened = request.headers.authorization === 'Bearer history-token-1';
    response.writeHead(opened ? 200 : 401, { 'content-type': 'application/json', 'api-version': '1.0.0' });
    response.end(request.url === '/v1/openapi.json' ? JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1.0.0' }, paths: {} }) : JSON.stringify(opened ? { bsn: '999999990' } : { status: 401 }));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/v1`;
  const ownDir = mkdtempSync(join(tmpdir(), 'adr-check-web-hostile-'));
  const own = await startWebChecker(serveOptions({ port: 0, dataDir: ownDir, allow: ['127.0.0.1/32'], deadlineMs: 30_000, timeoutMs: 2000, lintMemoryMb: 256 }));
  try {
    const submit = async (body: object) => (await (await fetch(`${own.origin}/api/v1/checks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as { id: string }).id;
    const withToken = await submit({ url: baseUrl, token: 'history-token-1' });
    const without = await submit({ url: baseUrl });
    await waitForCheck(own.origin, withToken, 90_000);
    await waitForCheck(own.origin, without, 90_000);
    const history = await (await fetch(`${own.origin}/history?url=${encodeURIComponent(baseUrl)}`)).text();
    expect([history.includes(`href="/checks/${without}"`), history.includes(withToken), history.includes('checked with a token: its report only through its permalink')]).toEqual([true, false, true]);
    // The permalink itself still shows it.
    expect((await fetch(`${own.origin}/checks/${withToken}`)).status).toBe(200);
  } finally {
    await own.close();
    await new Promise<void>((resolve) => api.close(() => resolve()));
    rmSync(ownDir, { recursive: true, force: true });
  }
}, 200000);

/** A client that sends `start` and then a byte every second; what the server answered when it closed the connection ('' when it did not within `watchMs`). */
function trickle(origin: string, start: string, watchMs: number): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    let answer = '';
    const socket = net.connect(Number(port), hostname, () => socket.write(start));
    const drip = setInterval(() => socket.write(start.endsWith('\r\n\r\n') ? ' ' : 'X-Slow: 1\r\n'), 1000);
    const give = (result: string) => { clearInterval(drip); clearTimeout(watch); socket.destroy(); resolve(result); };
    const watch = setTimeout(() => give(''), watchMs);
    socket.on('data', (chunk) => { answer += chunk.toString('latin1'); });
    socket.on('close', () => give(answer.split('\r\n')[0] || 'closed'));
    socket.on('error', () => undefined);
  });
}

test('a client that trickles its headers or its body holds no connection past --request-timeout', async () => {
  const ownDir = mkdtempSync(join(tmpdir(), 'adr-check-web-hostile-'));
  const own = await startWebChecker(serveOptions({ port: 0, dataDir: ownDir, requestTimeoutMs: 1000 }));
  try {
    // Node looks at open requests every 30 s: both are ended at the first look after their second.
    const [headers, body] = await Promise.all([
      trickle(own.origin, 'GET / HTTP/1.1\r\nHost: x\r\n', 45_000),
      trickle(own.origin, 'POST /api/v1/checks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n', 45_000),
    ]);
    expect([headers, body]).toEqual(['HTTP/1.1 408 Request Timeout', 'HTTP/1.1 408 Request Timeout']);
  } finally {
    await own.close();
    rmSync(ownDir, { recursive: true, force: true });
  }
}, 60000);
