import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { startReferenceApi } from '../examples/reference-api/server.js';
import {
  catastrophicPattern, deepDescription, description, manyEndlessPaths, manyPathsDescription, pathTemplateBomb, servingDescription, startHostile, type HostileServer,
} from './support/hostile-servers.js';
import { issueLeaf, startSServer, stopSServers } from './support/openssl-server.js';
import { adrCheck, ENVIRONMENT_SECRET, expectBounded, jsonReport, type Outcome } from './support/adr-check-process.js';

/**
 * adr-check against servers that misbehave, on loopback: it must end within its own deadline with
 * a clear verdict or a one-line error, never a stack trace.
 */
const servers: Array<net.Server | http.Server> = [];
const closers: Array<() => Promise<void>> = [];

async function hostile(server: Promise<HostileServer>): Promise<HostileServer> {
  const started = await server;
  closers.push(() => started.close());
  return started;
}

async function listen<T extends net.Server>(server: T): Promise<number> {
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

afterAll(async () => {
  for (const server of servers) server.close();
  await Promise.all(closers.map((close) => close()));
  stopSServers();
});

/** Nothing answered: no verdict at all, one line saying so, exit 2. */
function expectNothingAnswered(outcome: Outcome, cause: RegExp) {
  expect(outcome.code).toBe(2);
  expect(outcome.stdout).toBe('');
  expect(outcome.stderr).toMatch(/^adr-check: nothing answered: \d+ requests to http\S+, none got a response \(the first: .+\)\n$/);
  expect(outcome.stderr).toMatch(cause);
}

test('a server that accepts and never answers: no verdict, exit 2 within the deadline', async () => {
  const port = await listen(net.createServer(() => undefined));
  const outcome = await adrCheck(`http://127.0.0.1:${port}/v1`);
  expectBounded(outcome);
  expectNothingAnswered(outcome, /no complete response within 1500 ms/);
}, 40000);

test('a server that answers a byte a second: the request times out', async () => {
  const port = await listen(http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => response.write(' '), 1000);
    response.on('close', () => clearInterval(timer));
  }));
  const outcome = await adrCheck(`http://127.0.0.1:${port}/v1`);
  expectBounded(outcome);
  expectNothingAnswered(outcome, /no complete response within 1500 ms/);
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
  expect(outcome.stdout).toContain('/openapi.json answered 302 (Location: /v1/openapi.json) without credentials, expected 200');
}, 40000);

test('a malformed HTTP response gives a clear failure', async () => {
  const port = await listen(net.createServer((socket) => {
    socket.on('data', () => socket.end('HTTP/1.1 abc garbage\r\n\u0000\u0001\r\n\r\n'));
  }));
  const outcome = await adrCheck(`http://127.0.0.1:${port}/v1`);
  expectBounded(outcome);
  expectNothingAnswered(outcome, /HPE_|Parse Error/);
}, 40000);

test('a TLS handshake that stalls times out', async () => {
  const port = await listen(net.createServer(() => undefined));
  const outcome = await adrCheck(`https://127.0.0.1:${port}/v1`);
  expectBounded(outcome);
  expectNothingAnswered(outcome, /no complete response within 1500 ms/);
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

// ---------------------------------------------------------------------------------------------
// Issue 16: each numbered item against a server that attacks the checker

const refServer = (target: string) => hostile(startHostile(servingDescription(JSON.stringify(description({ servers: [{ url: { $ref: target } }] })))));

describe('1. a downloaded description never reads the local file system', () => {
  test.each(['../../../../proc/self/environ', '/proc/self/environ', 'file:///proc/self/environ'])('$ref %s: not read, the environment does not appear', async (target) => {
    const server = await refServer(target);
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json']);
    expectBounded(outcome);
    expect(outcome.stdout).not.toContain(ENVIRONMENT_SECRET);
    expect(outcome.stdout).not.toContain('FAKE_DB_PASSWORD');
    const report = jsonReport(outcome);
    expect(report.lint.status).toBe('done');
    // Reported as a reference that does not resolve (its wording is /core/doc-openapi's own test's business).
    expect(report.staticFindings).toContainEqual(expect.objectContaining({ code: '/core/doc-openapi', path: 'servers.0.url.$ref' }));
  }, 40000);

  test('a $ref to /proc/self/environ is named as the URL it was fetched from', async () => {
    const server = await refServer('/proc/self/environ');
    const report = jsonReport(await adrCheck(server.baseUrl, ['--format', 'json']));
    // The resolver joins a path that starts with / below the description's folder; the finding must name that URL, not another.
    expect(server.requests.map((request) => request.url)).toContain('/v1/proc/self/environ');
    expect(report.staticFindings.find((finding) => finding.code === '/core/doc-openapi')?.message).toContain(`: ${server.baseUrl}/proc/self/environ.`);
  }, 40000);

  test('a relative $ref is fetched from the server itself, never from disk', async () => {
    const server = await refServer('../../../../proc/self/environ');
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json']);
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toContain('GET /proc/self/environ');
    // One finding per document not read (/core/doc-openapi, with the reason), no invalid-ref beside it.
    const findings = jsonReport(outcome).staticFindings;
    expect(findings).toContainEqual(expect.objectContaining({ code: '/core/doc-openapi', message: expect.stringContaining(`Referenced file cannot be fetched (GET answered 404): ${server.origin}/proc/self/environ.`) }));
    expect(findings.filter((finding) => finding.code === 'invalid-ref')).toEqual([]);
  }, 40000);

  test.each(['../../../../dev/zero', '../../../../dev/stdin'])('$ref %s neither fills memory nor blocks', async (target) => {
    const server = await refServer(target);
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json']);
    expectBounded(outcome);
    expect(outcome.peakMb).toBeLessThan(400);
    expect(jsonReport(outcome).lint.status).toBe('done');
  }, 40000);

  test('a same-origin multi-file description is linted whole; another origin, named by a $ref or a server, gets nothing', async () => {
    const elsewhere = await hostile(startHostile((_request, response) => { response.writeHead(200, { 'content-type': 'application/json' }); response.end('{"type":"object"}'); }));
    const text = JSON.stringify(description({ servers: [{ url: `${elsewhere.origin}/v1` }], components: { schemas: { Monument: { $ref: 'schemas/monument.json' }, Foreign: { $ref: `${elsewhere.origin}/schemas/foreign.json` } } } }));
    const server = await hostile(startHostile(servingDescription(text, (request, response) => {
      if (request.url !== '/v1/schemas/monument.json') return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ type: 'object', properties: { bouw_jaar: { type: 'integer' } } }));
    })));
    const report = jsonReport(await adrCheck(server.baseUrl, ['--format', 'json']));
    expect(server.requests.map((request) => request.url)).toContain('/v1/schemas/monument.json');
    expect(elsewhere.requests).toEqual([]);
    expect(report.staticFindings).toContainEqual(expect.objectContaining({ code: 'nlgov:property-names-camel-case', source: `${server.baseUrl}/schemas/monument.json` }));
    expect(report.staticFindings).toContainEqual(expect.objectContaining({
      code: '/core/doc-openapi',
      message: expect.stringContaining(`Referenced file cannot be fetched (${elsewhere.origin} is not the origin of the description (${server.origin}); a downloaded description may only reference documents of its own server): ${elsewhere.origin}/schemas/foreign.json.`),
    }));
    expect(report.staticFindings.filter((finding) => finding.code === 'invalid-ref')).toEqual([]);
  }, 40000);
});

test('2. a path template with 50 variables is matched without backtracking', async () => {
  const server = await hostile(startHostile(pathTemplateBomb(50)));
  const outcome = await adrCheck(server.baseUrl, ['--format', 'json']);
  expectBounded(outcome);
  const methods = jsonReport(outcome).results.find((result) => result.code === '/core/http-methods');
  expect(methods?.details).toContain(`TRACE /v1/${'x'.repeat(60)} (undeclared): 200, expected 405`);
}, 40000);

test('3. a description nested 2,000 levels: a "too deep" finding, no stack trace', async () => {
  const server = await hostile(startHostile(servingDescription(deepDescription(2000))));
  const outcome = await adrCheck(server.baseUrl, ['--format', 'json']);
  expectBounded(outcome);
  expect(outcome.stderr).toBe('');
  const report = jsonReport(outcome);
  expect(report.lint.status).toBe('too-deep');
  expect(report.staticFindings).toEqual([expect.objectContaining({ code: 'adr-check/description-too-deep', severity: 'error' })]);
  expect(report.staticFindings[0]?.message).toMatch(/^Description is too deep to lint: more than 1000 levels of nesting \(1001 at x-deep\.0\.0/);
  expect(report.results.map((result) => result.code)).toHaveLength(8);
}, 40000);

describe('4. the lint never starves the live checks', () => {
  test('a catastrophic pattern: the lint runs out of time and says so; no live request times out', async () => {
    const server = await hostile(startHostile(servingDescription(catastrophicPattern())));
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json']);
    expectBounded(outcome);
    expect(outcome.stdout).not.toContain('no complete response within');
    const report = jsonReport(outcome);
    expect(report.lint.status).toBe('timeout');
    expect(report.notices).toContainEqual(expect.stringMatching(/^the static lint did not finish within its time budget \(\d+\.\d s, the rest of --deadline\)$/));
  }, 40000);

  test('a 4.6 MB description of 20,000 paths: live requests are answered as without it', async () => {
    const server = await hostile(startHostile(servingDescription(manyPathsDescription(20_000), (request, response) => {
      if (request.url === '/v1/openapi.yaml') return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    })));
    const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--max-body', '30000000']);
    expectBounded(outcome);
    expect(outcome.stdout).not.toContain('no complete response within');
    const report = jsonReport(outcome);
    expect(report.results.find((result) => result.code === '/core/publish-openapi')?.verdict).toBe('pass');
    expect(report.lint.status).toBe('timeout');
  }, 40000);
});

describe('5. credentials that come back are redacted in every format', () => {
  const TOKEN = 'SE"CR\\ET123';
  const KEY = 'Zq9';
  async function echoing(): Promise<HostileServer> {
    return hostile(startHostile(servingDescription(JSON.stringify(description()), (request, response) => {
      const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
      const key = String(request.headers['x-api-key'] ?? '');
      response.writeHead(302, { location: `https://127.0.0.1/login?token=${encodeURIComponent(token)}&key=${key}`, 'content-type': 'text/plain', 'x-echo': `${key}` });
      response.end(`invalid token ${token} ${JSON.stringify({ token, key })} ${encodeURIComponent(token)}`);
    })));
  }

  test.each(['text', 'json', 'junit', 'sarif', 'github-actions'])('%s', async (format) => {
    const server = await echoing();
    const outcome = await adrCheck(server.baseUrl, ['--format', format, '--header', `Authorization: Bearer ${TOKEN}`, '--header', `X-Api-Key: ${KEY}`]);
    expect(server.requests.some((request) => request.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    for (const leak of ['SE"CR', 'SE\\"CR', 'SE%22CR', 'ET123', KEY]) expect(outcome.stdout).not.toContain(leak);
    if (format === 'text' || format === 'json') expect(outcome.stdout).toContain('[REDACTED]');
  }, 40000);
});

test('6. escape sequences from the server reach the terminal only as visible text', async () => {
  const server = await hostile(startHostile(servingDescription(JSON.stringify(description({ servers: [{ url: '\u001b]0;pwned\u0007\u001b[2J' }] })), (_request, response) => {
    response.writeHead(404, { 'content-type': 'text/plain\u0085' });
    response.end('\u001b[2J\u001b[H\nPASS  /core/everything  all good\u001b]52;c;cm0gLXJmIH4=\u0007\u009b31m\u202e');
  })));
  for (const format of ['text', 'junit', 'github-actions']) {
    const outcome = await adrCheck(server.baseUrl, ['--format', format]);
    expect(outcome.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(outcome.stdout).not.toMatch(/^PASS {2}\/core\/everything/m);
    if (format === 'text') expect(outcome.stdout).toContain('body: \\x1b[2J\\x1b[H\\x0aPASS /core/everything all good\\x1b]52;c;cm0gLXJmIH4=\\x07\\x9b31m\\u202e');
  }
}, 60000);

test('7. memory does not grow with what the server sends: 25 paths with endless bodies', async () => {
  const server = await hostile(startHostile(manyEndlessPaths(25)));
  const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--max-body', '5000000', '--unsafe']);
  expectBounded(outcome);
  expect(outcome.peakMb).toBeLessThan(400);
  const report = JSON.parse(outcome.stdout) as { results: Array<{ evidence: Array<{ bodyExcerpt?: string }> }> };
  for (const evidence of report.results.flatMap((result) => result.evidence)) expect((evidence.bodyExcerpt ?? '').length).toBeLessThanOrEqual(300);
}, 40000);

describe('8. the report tells the truth under limits', () => {
  test('a description cut at --max-body says so', async () => {
    const server = await hostile(startHostile(servingDescription(JSON.stringify(description({ 'x-filler': 'a'.repeat(200_000) })))));
    const outcome = await adrCheck(server.baseUrl);
    expect(outcome.stdout).toContain('- /openapi.json is larger than --max-body: body truncated at 100000 bytes');
  }, 40000);

  test('a TLS error from OpenSSL is one clean line', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'adr-check-tls-'));
    const pki = issueLeaf(folder);
    // TLS 1.3 with only a suite Node's client does not offer: the server answers handshake_failure.
    const port = await startSServer(['-cert', pki.leafCertificate, '-key', pki.leafKey, '-tls1_3', '-ciphersuites', 'TLS_AES_128_CCM_8_SHA256', '-www']);
    const outcome = await adrCheck(`https://localhost:${port}/v1`, ['--ca', pki.caCertificate, '--tls-deadline', '3']);
    rmSync(folder, { recursive: true, force: true });
    // OpenSSL 3.0 (Node 20, 22) names the alert sslv3, OpenSSL 3.5 (Node 24) ssl/tls.
    expect(outcome.stderr).toMatch(/\(the first: TLS error: (sslv3|ssl\/tls) alert handshake failure \(SSL alert number 40\)\)/);
    expect(`${outcome.stdout}${outcome.stderr}`).not.toMatch(/deps\/openssl|error:0A0/);
  }, 40000);

  test('a TLS fail for another reason never reads as a passing grade', async () => {
    const api = await startReferenceApi({ httpPort: 0, breaks: ['http-serves-api'] });
    closers.push(() => api.close());
    const folder = mkdtempSync(join(tmpdir(), 'adr-check-ca-'));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(folder, 'ca.pem'), api.caPem);
    const outcome = await adrCheck(api.baseUrl, ['--format', 'json', '--ca', join(folder, 'ca.pem'), '--plain-http-port', new URL(api.httpOrigin as string).port, '--max-body', '5000000']);
    rmSync(folder, { recursive: true, force: true });
    const tls = jsonReport(outcome).results.find((result) => result.code === '/core/transport/tls');
    expect(tls?.verdict).toBe('fail');
    expect(tls?.summary).toMatch(/^transport security is not as the standard requires; what the server offers meets the NCSC guidelines \(/);
    expect(tls?.summary).not.toMatch(/grade pass/);
  }, 60000);
});

// ---------------------------------------------------------------------------------------------
// What held up before issue 16 and must keep holding

test('1 MB of response headers: a clear failure, bounded', async () => {
  const port = await listen(net.createServer((socket) => {
    socket.once('data', () => {
      socket.write('HTTP/1.1 200 OK\r\n');
      for (let index = 0; index < 1024 && !socket.destroyed; index += 1) socket.write(`X-Filler-${index}: ${'a'.repeat(1000)}\r\n`);
      socket.end('\r\n');
    });
    socket.on('error', () => undefined);
  }));
  const outcome = await adrCheck(`http://127.0.0.1:${port}/v1`);
  expectBounded(outcome);
  expectNothingAnswered(outcome, /HPE_HEADER_OVERFLOW/);
}, 40000);

test('a gzip bomb is never decompressed', async () => {
  const bomb = gzipSync(Buffer.alloc(200_000_000));
  const server = await hostile(startHostile((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': bomb.length });
    response.end(bomb);
  }));
  const outcome = await adrCheck(server.baseUrl, ['--max-body', '5000000']);
  expectBounded(outcome);
  expect(outcome.peakMb).toBeLessThan(400);
  expect(server.requests.every((request) => request.headers['accept-encoding'] === undefined)).toBe(true);
}, 40000);

test('a redirect to another port is not followed', async () => {
  const elsewhere = await hostile(startHostile((_request, response) => response.writeHead(200).end('{}')));
  const server = await hostile(startHostile((request, response) => {
    response.writeHead(307, { location: `${elsewhere.origin}${request.url ?? '/'}` });
    response.end();
  }));
  const outcome = await adrCheck(server.baseUrl);
  expectBounded(outcome);
  expect(elsewhere.requests).toEqual([]);
  expect(outcome.stdout).toContain(`/openapi.json answered 307 (Location: ${elsewhere.origin}/v1/openapi.json) without credentials, expected 200`);
}, 40000);

test('the plain-HTTP probe carries no credentials', async () => {
  const api = await startReferenceApi();
  closers.push(() => api.close());
  const plain = await hostile(startHostile((_request, response) => response.writeHead(301, { location: 'https://127.0.0.1/' }).end()));
  const folder = mkdtempSync(join(tmpdir(), 'adr-check-ca-'));
  const { writeFileSync } = await import('node:fs');
  writeFileSync(join(folder, 'ca.pem'), api.caPem);
  await adrCheck(api.baseUrl, ['--ca', join(folder, 'ca.pem'), '--plain-http-port', String(plain.port), '--header', 'Authorization: Bearer plain-probe-secret', '--max-body', '5000000']);
  rmSync(folder, { recursive: true, force: true });
  expect(plain.requests.length).toBeGreaterThan(0);
  expect(plain.requests.every((request) => request.headers.authorization === undefined)).toBe(true);
}, 60000);
