import { once } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Servers that attack the checker, on loopback. Each serves `/v1/openapi.json` (and whatever
 * else its scenario needs) and records every request it got, so a test can also show what the
 * checker did NOT send. Used by test/live-hostile.test.ts and tools/hostile-scenarios.ts.
 */

export interface HostileServer {
  /** `http://127.0.0.1:PORT/v1` */
  baseUrl: string;
  origin: string;
  port: number;
  /** Every request line received, `METHOD /path?query`, with its headers. */
  requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }>;
  close(): Promise<void>;
}

type Handler = (request: IncomingMessage, response: ServerResponse, server: HostileServer) => void;

export async function startHostile(handler: Handler): Promise<HostileServer> {
  const requests: HostileServer['requests'] = [];
  let self: HostileServer | undefined;
  const server = http.createServer({ maxHeaderSize: 64 * 1024 }, (request, response) => {
    requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    if (self !== undefined) handler(request, response, self);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  self = {
    baseUrl: `${origin}/v1`,
    origin,
    port,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  return self;
}

/** A minimal OpenAPI 3.0 description; `extra` is merged in at the top. */
export function description(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'Hostile', version: '1.0.0', contact: { name: 'x', url: 'https://example.nl', email: 'x@example.nl' } },
    servers: [{ url: 'https://api.example.nl/v1' }],
    paths: {},
    ...extra,
  };
}

function sendJson(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'api-version': '1.0.0', ...headers });
  response.end(body);
}

/** Serves one description text at /v1/openapi.json; every other path gets `rest` (default a 404 problem). */
export function servingDescription(text: string, rest?: Handler): Handler {
  return (request, response, server) => {
    const path = (request.url ?? '').split('?')[0];
    if (path === '/v1/openapi.json') return sendJson(response, 200, text, { 'access-control-allow-origin': '*' });
    if (rest !== undefined) return rest(request, response, server);
    response.writeHead(404, { 'content-type': 'application/problem+json', 'api-version': '1.0.0' });
    response.end('{"status":404,"title":"Not Found"}');
  };
}

/** Writes an endless body (bounded on this side at 64 MB, so that a broken checker cannot run the test machine dry). */
export function endlessBody(response: ServerResponse, headers: Record<string, string> = { 'content-type': 'application/json' }): void {
  response.writeHead(200, headers);
  const chunk = Buffer.alloc(64 * 1024, 32);
  let sent = 0;
  const pump = () => {
    while (!response.destroyed && sent < 1024 && response.write(chunk)) sent += 1;
    if (sent >= 1024) response.end();
  };
  response.on('drain', pump);
  response.on('close', () => { sent = Infinity; });
  pump();
}

/** A description nested `depth` levels deep in an extension member. */
export function deepDescription(depth: number): string {
  const base = JSON.stringify(description({ 'x-deep': '@' }));
  return base.replace('"@"', `${'['.repeat(depth)}${']'.repeat(depth)}`);
}

/** `count` GET paths without variables, each of which answers with an endless body. */
export function manyEndlessPaths(count: number): Handler {
  const paths = Object.fromEntries(Array.from({ length: count }, (_, index) => [`/p${index}`, { get: { responses: { 200: { description: 'ok' } } } }]));
  return servingDescription(JSON.stringify(description({ paths })), (_request, response) => endlessBody(response));
}

/**
 * A path template with `variables` variables and a literal at its end that the concrete path
 * lacks: a backtracking matcher tries every split of the long segment between the variables.
 */
export function pathTemplateBomb(variables: number): Handler {
  const template = `/${Array.from({ length: variables }, (_, index) => `{v${index}}`).join('')}y`;
  const paths = {
    [template]: { parameters: Array.from({ length: variables }, (_, index) => ({ name: `v${index}`, in: 'path', required: true, schema: { type: 'string' } })), get: { responses: { 200: { description: 'ok' } } } },
    [`/${'x'.repeat(60)}`]: { get: { responses: { 200: { description: 'ok' } } } },
  };
  return servingDescription(JSON.stringify(description({ paths })), (_request, response) => sendJson(response, 200, '{}'));
}

/** A small description whose example Spectral validates against a catastrophic pattern. */
export function catastrophicPattern(): string {
  return JSON.stringify(description({
    components: { schemas: { Code: { type: 'string', pattern: '^(a+)+$', example: `${'a'.repeat(40)}!` } } },
  }));
}

/** A large description that is slow to lint: `count` paths, each with a parameter and a response schema. */
export function manyPathsDescription(count: number): string {
  const operation = { get: { parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }], responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { fooBar: { type: 'string' } } } } } } } } };
  return JSON.stringify(description({ paths: Object.fromEntries(Array.from({ length: count }, (_, index) => [`/p${index}`, operation])) }));
}
