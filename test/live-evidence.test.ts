import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../live/main.js';
import type { Report } from '../live/report.js';
import { description, startHostile, type HostileServer } from './support/hostile-servers.js';

/**
 * Issue 17: no verdict without evidence, and a report a person reads. Each case against a real
 * server on loopback that answers like a plausible API except in the one way under test.
 */
let folder: string;
const servers: HostileServer[] = [];

beforeAll(() => { folder = mkdtempSync(join(tmpdir(), 'adr-check-evidence-')); });
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  rmSync(folder, { recursive: true, force: true });
});

const HEADERS = { 'api-version': '1.0.0', 'cache-control': 'no-store', 'content-security-policy': "frame-ancestors 'none'", 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' };
const GET_ONLY = { get: { responses: { 200: { description: 'ok' } } } };

type Route = (request: IncomingMessage, response: ServerResponse) => boolean;

/** An API that serves `document` and answers GET/HEAD 200 and other methods 405 + Allow, unless a route takes the request first. */
async function api(document: Record<string, unknown>, ...routes: Route[]): Promise<HostileServer> {
  const server = await startHostile((request, response) => {
    if (routes.some((route) => route(request, response))) return;
    const path = (request.url ?? '').split('?')[0] ?? '';
    if (path === '/v1/openapi.json') return void response.writeHead(200, { ...HEADERS, 'content-type': 'application/json', 'access-control-allow-origin': '*' }).end(JSON.stringify(document));
    if (!['/v1', '/v1/monumenten', '/v1/geheim'].includes(path)) return void response.writeHead(404, { ...HEADERS, 'content-type': 'application/problem+json' }).end('{"status":404}');
    if (request.method === 'GET' || request.method === 'HEAD') return void response.writeHead(200, { ...HEADERS, 'content-type': 'application/json' }).end(request.method === 'HEAD' ? undefined : '{}');
    if (request.headers.accept === 'application/x-adr-check-unservable') return void response.writeHead(406, HEADERS).end();
    response.writeHead(405, { ...HEADERS, allow: 'GET, HEAD', 'content-type': 'application/problem+json' }).end('{"status":405}');
  });
  servers.push(server);
  return server;
}

async function check(baseUrl: string, extra: string[] = []): Promise<{ code: number; report: Report; stderr: string }> {
  const output = join(folder, `report-${Date.now()}-${Math.random()}.json`);
  const stderr: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => { stderr.push(String(chunk)); return true; }) as typeof process.stderr.write;
  let code: number;
  try {
    code = await main([baseUrl, '--format', 'json', '--output', output, '--timeout', '1000', '--deadline', '20', ...extra], {});
  } finally {
    process.stderr.write = write;
  }
  return { code, report: JSON.parse(readFileSync(output, 'utf8')) as Report, stderr: stderr.join('') };
}

const result = (report: Report, code: string) => report.results.find((entry) => entry.code === code);

test('checks whose requests got no answer report error, not pass; their evidence is not invented', async () => {
  // Only the description answers; every other request is held open until the client gives up.
  const server = await api(description({ paths: { '/': GET_ONLY, '/monumenten': GET_ONLY } }), (request) => !(request.url ?? '').startsWith('/v1/openapi.json'));
  const { code, report } = await check(server.baseUrl);
  for (const name of ['/core/http-methods', '/core/transport/cors', '/core/http-response-code', '/core/no-trailing-slash']) {
    expect(result(report, name)?.verdict).toBe('error');
    expect(result(report, name)?.summary).toMatch(/^not judged: \d+ requests? got no answer$/);
  }
  expect(result(report, '/core/http-response-code')?.details.join(' ')).not.toMatch(/Content-Type/);
  expect(result(report, '/core/transport/security-headers')?.summary).toBe('all 2 requests carry the security headers');
  expect(code).toBe(1);
}, 60000);

test('/openapi.json that is no OpenAPI description: not linted, not used, and "did you mean" the /v1 that has one', async () => {
  const server = await startHostile((request, response) => {
    if (request.url === '/v1/openapi.json') return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(description()));
    response.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"status":404,"title":"Not Found"}');
  });
  servers.push(server);
  const { report } = await check(server.origin);
  expect(report.lint.status).toBe('not-run');
  expect(report.staticFindings).toEqual([]);
  expect(report.notices).toContain('/openapi.json is not an OpenAPI description (404 application/problem+json): it is not linted and no check judges the API against it');
  expect(report.notices).toContain(`did you mean adr-check ${server.origin}/v1? ${server.origin}/v1/openapi.json is an OpenAPI description`);
  expect(result(report, '/core/publish-openapi')?.details).toContain('/openapi.json answered 404 without credentials, expected 200');
}, 60000);

test('an HTML page at /openapi.json is not linted as a description', async () => {
  const server = await api(description(), (request, response) => {
    if (request.url !== '/v1/openapi.json') return false;
    response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>{"openapi": "3.0.3"}</body></html>');
    return true;
  });
  const { report } = await check(server.baseUrl);
  expect(report.lint.status).toBe('not-run');
  // Judged as what it is, a page: not as a description with the wrong headers.
  expect(result(report, '/core/publish-openapi')?.details).toEqual(["GET /openapi.json is not an OpenAPI description (200 text/html: markup, not JSON), expected the API's description in JSON"]);
}, 60000);

test('a foreign Origin allowed on the preflight only: CORS fails', async () => {
  const server = await api(description({ paths: { '/': GET_ONLY } }), (request, response) => {
    if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined) return false;
    response.writeHead(204, { ...HEADERS, 'access-control-allow-origin': String(request.headers.origin), 'access-control-allow-methods': 'GET' }).end();
    return true;
  });
  const cors = result((await check(server.baseUrl)).report, '/core/transport/cors');
  expect(cors?.verdict).toBe('fail');
  expect(cors?.details).toEqual(['the preflight (OPTIONS) of /v1 allows a foreign Origin: Access-Control-Allow-Origin: https://adr-check.invalid', 'allowed origin not tested: give --cors-origin <origin>']);
}, 60000);

test('a 405 on the base URL with an empty Allow fails, shown as (empty)', async () => {
  const server = await api(description({ paths: { '/': GET_ONLY } }), (request, response) => {
    if (request.method !== 'TRACE') return false;
    response.writeHead(405, { ...HEADERS, allow: '' }).end();
    return true;
  });
  const methods = result((await check(server.baseUrl)).report, '/core/http-methods');
  expect(methods?.verdict).toBe('fail');
  expect(methods?.details).toEqual(['TRACE /v1: 405 has Allow: (empty), expected the allowed methods']);
  expect(methods?.evidence[0]?.headers).toEqual({ allow: '' });
}, 60000);

test('a protected path that answers 401 without credentials passes and is named; with credentials it is judged', async () => {
  const secured = { get: { security: [{ oauth2: ['lezen'] }], responses: { 200: { description: 'ok' }, 401: { description: 'no token' } } } };
  const server = await api(description({ paths: { '/': GET_ONLY, '/geheim': secured } }), (request, response) => {
    if (!(request.url ?? '').startsWith('/v1/geheim') || request.headers.authorization === 'Bearer goed') return false;
    response.writeHead(401, { ...HEADERS, 'www-authenticate': 'Bearer', 'content-type': 'application/problem+json' }).end('{"status":401}');
    return true;
  });
  const anonymous = (await check(server.baseUrl)).report;
  expect(result(anonymous, '/core/http-methods')?.verdict).toBe('pass');
  expect(result(anonymous, '/core/http-methods')?.summary).toBe('GET and HEAD work on 1 path; undeclared methods get 405 with Allow');
  expect(anonymous.notices).toContain('not judged without credentials (the description protects it and it answered 401): /v1/geheim; give --header "Authorization: ..." to check it');
  const authorized = (await check(server.baseUrl, ['--header', 'Authorization: Bearer goed'])).report;
  expect(result(authorized, '/core/http-methods')?.summary).toBe('GET and HEAD work on 2 paths; undeclared methods get 405 with Allow');
}, 60000);

test('/openapi.yaml that differs names the first JSON pointer where it does', async () => {
  const document = description({ paths: { '/': GET_ONLY } });
  const server = await api(document, (request, response) => {
    if (request.url !== '/v1/openapi.yaml') return false;
    response.writeHead(200, { ...HEADERS, 'content-type': 'application/yaml' }).end(JSON.stringify({ ...document, info: { ...(document.info as object), title: 'Anders' } }));
    return true;
  });
  const publish = result((await check(server.baseUrl)).report, '/core/publish-openapi');
  expect(publish?.details).toEqual(['/openapi.yaml differs from /openapi.json, first at /info/title']);
}, 60000);

test('evidence headers keep the server spelling; missing and wrong headers are worded apart', async () => {
  const server = await api(description({ paths: { '/': GET_ONLY } }), (request, response) => {
    if (request.url !== '/v1' || request.method !== 'GET') return false;
    response.writeHead(200, { 'API-Version': '1.0.1', 'X-Frame-Options': 'SAMEORIGIN', 'Content-Type': 'application/json' }).end('{}');
    return true;
  });
  const { report } = await check(server.baseUrl);
  const version = result(report, '/core/version-header');
  expect(version?.summary).toMatch(/^1 of \d+ requests lacks API-Version: 1\.0\.0$/);
  expect(version?.details).toEqual(['GET /v1: has API-Version: 1.0.1, expected 1.0.0']);
  expect(version?.evidence[0]?.headers).toEqual({ 'API-Version': '1.0.1' });
  const headers = result(report, '/core/transport/security-headers');
  expect(headers?.details).toContain('has X-Frame-Options: SAMEORIGIN, expected DENY (first on GET /v1)');
  expect(headers?.details).toContain('lacks Cache-Control (expected no-store) (first on GET /v1)');
}, 60000);

async function textReport(baseUrl: string, extra: string[] = []): Promise<string> {
  const output = join(folder, `report-${Date.now()}-${Math.random()}.txt`);
  await main([baseUrl, '--output', output, '--timeout', '1000', '--deadline', '20', ...extra], {});
  return readFileSync(output, 'utf8');
}

test('static findings: counted in English, the hidden ones counted, --verbose lists them all', async () => {
  const { parse } = await import('yaml');
  const nonConformant = parse(readFileSync('examples/non-conformant-api.yaml', 'utf8')) as Record<string, unknown>;
  const many = await api(nonConformant);
  const brief = await textReport(many.baseUrl);
  const total = Number(/^static: (\d+) findings \(\d+ errors, \d+ warnings, \d+ info, \d+ hints?\)$/m.exec(brief)?.[1]);
  expect(total).toBeGreaterThan(20);
  const listed = brief.split('\n').filter((line) => /^ {8}(error|warn |info |hint ) /.test(line)).length;
  expect(listed).toBe(20);
  expect(brief).toContain(`        (${total - 20} more findings not shown: --verbose lists them all)`);
  const verbose = await textReport(many.baseUrl, ['--verbose']);
  expect(verbose.split('\n').filter((line) => /^ {8}(error|warn |info |hint ) /.test(line))).toHaveLength(total);
  const few = await api(description({ info: { title: 'Een', version: '1.0.0' }, paths: { '/': GET_ONLY } }));
  expect(await textReport(few.baseUrl)).toMatch(/^static: 4 findings \(1 error, 1 warning, 2 info, 0 hints\)$/m);
}, 60000);

test('--help and -h print every option to stdout, exit 0; --version the package version', async () => {
  const stdout: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => { stdout.push(String(chunk)); return true; }) as typeof process.stdout.write;
  let codes: number[];
  try {
    codes = [await main(['--help'], {}), await main(['-h'], {}), await main(['--version'], {})];
  } finally {
    process.stdout.write = write;
  }
  expect(codes).toEqual([0, 0, 0]);
  const [help, short, version] = stdout;
  expect(short).toBe(help);
  const source = readFileSync('live/main.ts', 'utf8');
  const declared = [...source.matchAll(/^ {6}'?([a-z-]+)'?: \{ type: '(?:string|boolean)'/gm)].map((match) => match[1]);
  expect(declared.length).toBeGreaterThanOrEqual(20);
  for (const option of declared) expect(help).toMatch(new RegExp(`^ {2}(-h, )?--${option}\\b.* {2,}\\S`, 'm'));
  const { version: packageVersion } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  expect(version).toBe(`nlgov-adr ${packageVersion}\n`);
});

test('a check that throws is an internal error: the other checks report, exit 2', async () => {
  const { runChecks } = await import('../live/run.js');
  const { exitCode } = await import('../live/main.js');
  const { versionHeader } = await import('../live/checks/version-header.js');
  const server = await api(description({ paths: { '/': GET_ONLY } }));
  const throwing = { code: '/core/broken', run: async () => { throw new Error('boom\n    at somewhere (x.ts:1:1)'); } };
  const report = await runChecks(server.baseUrl, {
    client: { headers: {}, insecure: false, timeoutMs: 1000, deadlineMs: 20000, maxRequests: 50, maxBodyBytes: 100_000, concurrency: 4 },
    checks: { unsafe: false, insecure: false, plainHttpPort: 80 },
    extraPaths: [],
    liveChecks: [throwing, versionHeader],
  });
  expect(report.results.map((entry) => [entry.code, entry.verdict, entry.summary])).toEqual([
    ['/core/broken', 'error', 'internal error: boom'],
    ['/core/version-header', 'pass', 'the 1 request carries API-Version: 1.0.0'],
  ]);
  expect(exitCode(report, 'error')).toBe(2);
}, 60000);

test('progress on stderr when it is a terminal, nothing when it is not', async () => {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const run = promisify(execFile);
  const server = await api(description({ paths: { '/': GET_ONLY } }));
  const command = `${process.execPath} --import tsx live/cli.ts ${server.baseUrl} --output ${join(folder, 'tty.txt')}`;
  // util-linux's script gives the command a pseudo-terminal.
  const terminal = await run('script', ['-qec', command, '/dev/null']).catch((error: { stdout: string }) => error);
  expect(terminal.stdout).toMatch(/^\r\u001b\[K\[1\/8\] \/core\/publish-openapi: \d+ requests? so far\r\u001b\[K\[2\/8\] \/core\/transport\/tls: /);
  expect(terminal.stdout).toMatch(/\[8\/8\] \/core\/version-header: \d+ requests so far\r\u001b\[K/);
  const piped = await run(process.execPath, ['--import', 'tsx', 'live/cli.ts', server.baseUrl, '--output', join(folder, 'piped.txt')]).catch((error: { stderr: string }) => error);
  expect(piped.stderr).toBe('');
}, 60000);
