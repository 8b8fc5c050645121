import type { IncomingMessage, ServerResponse } from 'node:http';
import { description, servingDescription, type HostileServer } from './hostile-servers.js';

/**
 * Servers that attack what adr-check parses and lints of what they serve: the served YAML, the
 * documents a description's `$ref`s name, and findings made of what the server chose. Used by
 * test/live-hostile-lint.test.ts.
 */

type Handler = (request: IncomingMessage, response: ServerResponse, server: HostileServer) => void;

function send(response: ServerResponse, body: string, contentType: string): void {
  response.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), 'api-version': '1.0.0' });
  response.end(body);
}

/** `count` keys in one mapping, `k0: 0` to `k<count-1>: <count-1>`: one line each. */
export function yamlKeys(count: number): string {
  return Array.from({ length: count }, (_, index) => `k${index}: ${index}`).join('\n');
}

/** `maps` mappings of `keys` keys each, every one within the members limit: slow to parse by size alone. */
export function yamlManyMaps(maps: number, keys: number): string {
  return Array.from({ length: maps }, (_, map) => `m${map}:\n${Array.from({ length: keys }, (_, index) => `  k${index}: ${index}`).join('\n')}`).join('\n');
}

/** A sound description at /v1/openapi.json and `yaml` at /v1/openapi.yaml. */
export function servingYaml(yaml: string): Handler {
  return servingDescription(JSON.stringify(description()), (request, response) => {
    if ((request.url ?? '').split('?')[0] === '/v1/openapi.yaml') return send(response, yaml, 'application/yaml');
    response.writeHead(404, { 'content-type': 'application/problem+json', 'api-version': '1.0.0' });
    response.end('{"status":404,"title":"Not Found"}');
  });
}

/** A sound description at /v1/openapi.json; /v1/openapi.yaml answers a byte a second and never ends. */
export function dribblingYaml(): Handler {
  return servingDescription(JSON.stringify(description()), (request, response) => {
    if ((request.url ?? '').split('?')[0] !== '/v1/openapi.yaml') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/yaml' });
    const timer = setInterval(() => response.write(' '), 1000);
    response.on('close', () => clearInterval(timer));
  });
}

/** The YAML billion laughs: nine levels of nine aliases each, 342 bytes that stand for 9^9 strings. */
export function billionLaughs(): string {
  const levels = 'abcdefghi';
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let level = 1; level < levels.length; level += 1) {
    const name = levels[level] as string;
    lines.push(`${name}: &${name} [${Array(9).fill(`*${levels[level - 1] as string}`).join(',')}]`);
  }
  return `${lines.join('\n')}\n`;
}

/** A YAML document nested `depth` flow sequences deep. */
export function yamlDeep(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}\n`;
}

/** A JSON object of `count` members. */
export function jsonWide(count: number): string {
  return JSON.stringify(Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, index])));
}

/** A JSON schema of about `bytes` bytes: groups of 100 properties with descriptions, as a large real schema has. */
export function largeSchema(bytes: number): string {
  const property = { type: 'string', description: 'x'.repeat(180) };
  const group = { properties: Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`field${index}`, property])) };
  const groups = Math.ceil(bytes / JSON.stringify(group).length);
  return JSON.stringify({ type: 'object', allOf: Array.from({ length: groups }, () => group) });
}

/**
 * A description whose schemas each `$ref` a document of its own server (`documents` maps the
 * file name under /v1/ to its text and content type), plus the schemas `extra` gives (it is asked
 * when the description is, so that it may name servers started after this one).
 */
export function referencing(documents: Record<string, { text: string; type: string }>, extra: () => Record<string, unknown> = () => ({})): Handler {
  return (request, response) => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    if (path === '/v1/openapi.json') {
      const schemas = { ...Object.fromEntries(Object.keys(documents).map((name, index) => [`S${index}`, { $ref: name }])), ...extra() };
      return send(response, JSON.stringify(description({ components: { schemas } })), 'application/json');
    }
    const document = documents[path.replace(/^\/v1\//, '')];
    if (document !== undefined) return send(response, document.text, document.type);
    response.writeHead(404, { 'content-type': 'application/problem+json', 'api-version': '1.0.0' });
    response.end('{"status":404,"title":"Not Found"}');
  };
}

/** A description that `$ref`s `count` documents of its own server, each of which answers a byte a second and never ends. */
export function referencingSlow(count: number): Handler {
  const schemas = Object.fromEntries(Array.from({ length: count }, (_, index) => [`S${index}`, { $ref: `slow${index}.json` }]));
  return servingDescription(JSON.stringify(description({ components: { schemas } })), (request, response) => {
    if (!/^\/v1\/slow\d+\.json$/.test(request.url ?? '')) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => response.write(' '), 1000);
    response.on('close', () => clearInterval(timer));
  });
}

/**
 * A schema named by `keyLength` characters with `count` snake_case properties: a finding per
 * property, each at a path through the long name. The property names differ in length: Spectral
 * deduplicates findings in a Set, where V8 hashes a long string by its length alone, and findings
 * of one length would cost it minutes before a report is made at all.
 */
export function longKeyFindings(keyLength: number, count: number): string {
  const properties = Object.fromEntries(Array.from({ length: count }, (_, index) => [`snake_case_${'x'.repeat(index)}`, { type: 'string' }]));
  return JSON.stringify(description({ components: { schemas: { [`S${'a'.repeat(keyLength)}`]: { type: 'object', properties } } } }));
}
