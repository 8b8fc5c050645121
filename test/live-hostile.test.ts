import { execFile } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';

/**
 * adr-check against servers that misbehave, on loopback: it must end within its own deadline with
 * a clear verdict or a one-line error, never a stack trace.
 */
const run = promisify(execFile);
const DEADLINE_SECONDS = 6;
const servers: Array<net.Server | http.Server> = [];

interface Outcome { code: number; stdout: string; stderr: string; seconds: number }

async function adrCheck(url: string, extra: string[] = []): Promise<Outcome> {
  const started = Date.now();
  const args = ['--import', 'tsx', 'live/cli.ts', url, '--timeout', '1500', '--deadline', String(DEADLINE_SECONDS), '--max-body', '100000', ...extra];
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd: process.cwd(), timeout: 30000 });
    return { code: 0, stdout, stderr, seconds: (Date.now() - started) / 1000 };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '', seconds: (Date.now() - started) / 1000 };
  }
}

async function listen<T extends net.Server>(server: T): Promise<number> {
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/** tsx itself needs a second or two to start; the checking must stay within the deadline. */
const STARTUP_ALLOWANCE = 8;

function expectBounded(outcome: Outcome) {
  expect(outcome.seconds).toBeLessThan(DEADLINE_SECONDS + STARTUP_ALLOWANCE);
  expect(`${outcome.stdout}${outcome.stderr}`).not.toMatch(/\n\s+at .+:\d+:\d+/);
}

afterAll(() => {
  for (const server of servers) server.close();
});

test('a server that accepts and never answers: fail verdicts within the deadline', async () => {
  const port = await listen(net.createServer(() => undefined));
  const outcome = await adrCheck(`http://127.0.0.1:${port}/v1`);
  expectBounded(outcome);
  expect(outcome.code).toBe(1);
  expect(outcome.stdout).toMatch(/FAIL\s+\/core\/publish-openapi/);
  expect(outcome.stdout).toContain('no complete response within');
}, 40000);

test('a server that answers a byte a second: the request times out', async () => {
  const port = await listen(http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => response.write(' '), 1000);
    response.on('close', () => clearInterval(timer));
  }));
  const outcome = await adrCheck(`http://127.0.0.1:${port}/v1`);
  expectBounded(outcome);
  expect(outcome.code).toBe(1);
  expect(outcome.stdout).toMatch(/FAIL\s+\/core\/publish-openapi/);
}, 40000);

test('an endless body is cut at --max-body', async () => {
  const port = await listen(http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    // Endless for the client, bounded here: the test server stops after 64 MB or when the client hangs up.
    const chunk = Buffer.alloc(64 * 1024, 32);
    let sent = 0;
    const pump = () => {
      while (!response.destroyed && sent < 1024 && response.write(chunk)) sent += 1;
    };
    response.on('drain', pump);
    response.on('close', () => { sent = Infinity; });
    pump();
  }));
  const outcome = await adrCheck(`http://127.0.0.1:${port}/v1`);
  expectBounded(outcome);
  expect(outcome.code).toBe(1);
  expect(outcome.stdout).toMatch(/FAIL\s+\/core\/transport\/tls\s+the API is served over http/);
}, 40000);

test('a redirect loop is not followed, and the report names where it pointed', async () => {
  const port = await listen(http.createServer((request, response) => {
    response.writeHead(302, { location: request.url ?? '/' });
    response.end();
  }));
  const outcome = await adrCheck(`http://127.0.0.1:${port}/v1`);
  expectBounded(outcome);
  expect(outcome.code).toBe(1);
  expect(outcome.stdout).toContain('/openapi.json answered 302 (Location: /v1/openapi.json) without credentials, not 200');
}, 40000);

test('a malformed HTTP response gives a clear failure', async () => {
  const port = await listen(net.createServer((socket) => {
    socket.on('data', () => socket.end('HTTP/1.1 abc garbage\r\n\u0000\u0001\r\n\r\n'));
  }));
  const outcome = await adrCheck(`http://127.0.0.1:${port}/v1`);
  expectBounded(outcome);
  expect(outcome.code).toBe(1);
  expect(outcome.stdout).toMatch(/HPE_|Parse Error/);
}, 40000);

test('a TLS handshake that stalls times out', async () => {
  const port = await listen(net.createServer(() => undefined));
  const outcome = await adrCheck(`https://127.0.0.1:${port}/v1`);
  expectBounded(outcome);
  expect(outcome.code).toBe(1);
  expect(outcome.stdout).toContain('no complete response within');
}, 40000);

test('nothing listening: a one-line error and exit 2', async () => {
  const server = net.createServer();
  const port = await listen(server);
  server.close();
  const outcome = await adrCheck(`http://127.0.0.1:${port}/v1`);
  expect(outcome.code).toBe(2);
  expect(outcome.stderr.trim()).toMatch(/^adr-check: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/openapi\.json: ECONNREFUSED/);
  expect(outcome.stderr.trim().split('\n')).toHaveLength(1);
}, 40000);
