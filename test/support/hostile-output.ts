import type { IncomingMessage, ServerResponse } from 'node:http';
import { description, type HostileServer } from './hostile-servers.js';

/**
 * Servers that attack what adr-check prints and where it sends its OAuth requests: they echo the
 * user's token in the encodings a server can trivially apply, put characters in their answers that
 * reorder, hide or break text, answer markup where JSON is expected, and point the description's
 * OAuth URLs at other origins. Used by test/live-hostile-output.test.ts and
 * test/live-hostile-oauth.test.ts.
 */

type Handler = (request: IncomingMessage, response: ServerResponse, server: HostileServer) => void;

/** 32 characters, as in the issue: a token cut after 20 of them must not survive in part. */
export const TOKEN = 'tok-7f3a91c2e5d84b06a1f9c3e7d2b8';

/** C1 CSI, NEL, DEL, right-to-left override, left-to-right isolate, line separator, a noncharacter. */
export const HOSTILE_CHARACTERS = '\u009b\u0085\u007f\u202e\u2066\u2028\uffff';

/** The encodings of the token each path of echoingApi answers with, and the text a report must not hold. */
export const ECHOES: Record<string, { body: (token: string) => string; leaks: (token: string) => string[] }> = {
  // 280 characters, then the token: a cut at 300 leaves 20 of its 32 characters.
  '/straddle': { body: (token) => `${'x'.repeat(280)}${token} and more`, leaks: (token) => [token.slice(0, 8)] },
  // Upper-cased, and a piece of it as a check quoting 20 characters of a value would leave.
  '/upper-case': { body: (token) => `TOKEN ${token.toUpperCase()}`, leaks: (token) => [token.toUpperCase().slice(0, 12)] },
  '/piece': { body: (token) => `value …${token.slice(6, 26)}…`, leaks: (token) => [token.slice(6, 26)] },
  '/percent-upper': { body: (token) => `token=${percentEvery(token).toUpperCase()}`, leaks: (token) => [percentEvery(token).toUpperCase()] },
  '/percent-lower': { body: (token) => `token=${percentEvery(token)}`, leaks: (token) => [percentEvery(token)] },
  '/base64': { body: (token) => `token=${Buffer.from(token).toString('base64')}`, leaks: (token) => [Buffer.from(token).toString('base64').replace(/=+$/, '')] },
  '/base64url-header': { body: (token) => `header=${Buffer.from(`Bearer ${token}`).toString('base64url')}`, leaks: (token) => [Buffer.from(`Bearer ${token}`).toString('base64url')] },
  '/base64-in-json': { body: (token) => `blob=${Buffer.from(JSON.stringify({ access_token: token })).toString('base64')}`, leaks: (token) => [Buffer.from(JSON.stringify({ access_token: token })).toString('base64').slice(24, 48)] },
  '/json-escapes': { body: (token) => `{"t":"${[...token].map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}`, leaks: (token) => [`\\u${token.charCodeAt(0).toString(16).padStart(4, '0')}\\u${token.charCodeAt(1).toString(16).padStart(4, '0')}\\u${token.charCodeAt(2).toString(16).padStart(4, '0')}`] },
};

function percentEvery(text: string): string {
  return [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
}

const GET = { get: { responses: { 200: { description: 'ok' } } } };

/**
 * An API whose every path of ECHOES answers its GET with a 500 whose body echoes the token it was
 * sent in that path's encoding: the body excerpt of the failure's evidence holds it.
 */
export function echoingApi(): Handler {
  const document = JSON.stringify(description({ paths: Object.fromEntries(Object.keys(ECHOES).map((path) => [path, GET])) }));
  return (request, response) => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    if (path === '/v1/openapi.json') return void response.writeHead(200, { 'content-type': 'application/json', 'api-version': '1.0.0' }).end(document);
    const echo = ECHOES[path.slice('/v1'.length)];
    const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (echo === undefined || token === undefined) return void response.writeHead(404, { 'content-type': 'application/problem+json', 'api-version': '1.0.0' }).end('{"status":404}');
    response.writeHead(500, { 'content-type': 'text/plain', 'api-version': '1.0.0' }).end(echo.body(token));
  };
}

export interface OAuthApiOptions {
  /** The description's security schemes. */
  schemes: Record<string, unknown>;
  /** Answers for paths of the API's own origin, by path. */
  answers?: Record<string, (request: IncomingMessage, response: ServerResponse, server: HostileServer) => void>;
  /** The description's paths (default: a protected GET /geheim). */
  paths?: Record<string, unknown>;
}

/** An API protected by OAuth: the description with `schemes`, a 401 Bearer problem on /geheim without the header token. */
export function oauthApi(options: OAuthApiOptions): Handler {
  const paths = options.paths ?? { '/geheim': { get: { security: [{ [Object.keys(options.schemes)[0] ?? 'oauth2']: [] }], responses: { 200: { description: 'ok' } } } } };
  const document = JSON.stringify(description({ paths, components: { securitySchemes: options.schemes } }));
  return (request, response, server) => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    if (path === '/v1/openapi.json') return void response.writeHead(200, { 'content-type': 'application/json', 'api-version': '1.0.0' }).end(document);
    const answer = options.answers?.[path];
    if (answer !== undefined) return answer(request, response, server);
    response.writeHead(404, { 'content-type': 'application/problem+json', 'api-version': '1.0.0' }).end('{"status":404}');
  };
}
