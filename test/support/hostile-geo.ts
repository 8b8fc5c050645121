import type { ServerResponse } from 'node:http';
import { description, servingDescription, type startHostile } from './hostile-servers.js';

/**
 * Servers that attack the path matcher and the geospatial checks (test/live-hostile-geo.test.ts):
 * descriptions that make path matching costly, and OGC API Features servers whose CRS lists and
 * geometry are built to exhaust time, memory or the stack, or to smuggle line breaks into headers.
 */

type Handler = Parameters<typeof startHostile>[0];

/** A path template of `variables` variables (named `name`) in one segment, then `suffix`. */
function variablesThen(variables: number, name: string, suffix: string): string {
  return `/${`{${name}}`.repeat(variables)}${suffix}`;
}

/**
 * 1,000 templates of 91 pieces (unnamed variables, 2 bytes each) that fit no concrete path, first
 * in the description so that every match tries them all; then 25 GET templates of 61 pieces whose
 * shared example makes each concrete path `exampleLength` × 60 characters long. Each GET template
 * also declares DELETE: a 405 whose Allow lacks it shows which template a path was matched to.
 * About 0.2 MB.
 */
export function pathTemplateFlood(exampleLength: number): Handler {
  const paths: Record<string, unknown> = {};
  for (let index = 0; index < 1000; index += 1) paths[variablesThen(90, '', `z${index}`)] = {};
  const parameters = [{ $ref: '#/components/parameters/v' }];
  for (let index = 0; index < 25; index += 1) {
    paths[variablesThen(60, 'v', `a${index}`)] = { parameters, get: { responses: { 200: { description: 'ok' } } }, delete: { responses: { 204: { description: 'deleted' } } } };
  }
  const text = JSON.stringify(description({
    paths,
    components: { parameters: { v: { name: 'v', in: 'path', required: true, schema: { type: 'string' }, example: 'x'.repeat(exampleLength) } } },
  }));
  return servingDescription(text, (request, response) => {
    if (request.method === 'GET' || request.method === 'HEAD') {
      response.writeHead(200, { 'content-type': 'application/json', 'api-version': '1.0.0' });
      return response.end(request.method === 'GET' ? '{}' : undefined);
    }
    response.writeHead(405, { allow: 'GET', 'content-type': 'application/problem+json', 'api-version': '1.0.0' });
    response.end('{"status":405,"title":"Method Not Allowed"}');
  });
}

export const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
export const RD = 'http://www.opengis.net/def/crs/EPSG/0/28992';
export const ETRS89 = 'http://www.opengis.net/def/crs/EPSG/0/4258';

export interface OgcScenario {
  /** The text GET /collections answers. */
  collections: string;
  /** The geometry (JSON text) of the one feature every collection has, id 1; without it the collections are empty. */
  geometry?: string;
  /** Features every items page holds (ids 1, 2, ...), each with `geometry`; default 1. */
  features?: number;
  /** Declares POST on the items, so that --unsafe writes a feature. */
  writable?: boolean;
}

/** A description of an OGC API Features API: /collections, items (GET, POST when writable), a feature (GET, DELETE). */
function ogcDescription(writable: boolean): string {
  const query = ['bbox', 'bbox-crs', 'crs', 'limit'].map((name) => ({ name, in: 'query', schema: { type: 'string' } }));
  const collectionId = { name: 'collectionId', in: 'path', required: true, schema: { type: 'string' }, example: 'wegen' };
  const featureId = { name: 'featureId', in: 'path', required: true, schema: { type: 'string' }, example: '1' };
  const post = {
    parameters: [{ name: 'Content-Crs', in: 'header', schema: { type: 'string' } }],
    requestBody: { content: { 'application/geo+json': { schema: { type: 'object' } } } },
    responses: { 201: { description: 'created' } },
  };
  return JSON.stringify(description({
    paths: {
      '/collections': { get: { responses: { 200: { description: 'ok' } } } },
      '/collections/{collectionId}/items': { parameters: [collectionId], get: { parameters: query, responses: { 200: { description: 'ok' } } }, ...(writable ? { post } : {}) },
      '/collections/{collectionId}/items/{featureId}': { parameters: [collectionId, featureId], get: { responses: { 200: { description: 'ok' } } }, delete: { responses: { 204: { description: 'deleted' } } } },
    },
  }));
}

/** Every request it got, for the test to assert on: `METHOD path?query` and the Content-Crs sent. */
export interface OgcLog { requests: Array<{ line: string; contentCrs?: string }> }

export function ogcServer(scenario: OgcScenario, log: OgcLog = { requests: [] }): Handler {
  const send = (response: ServerResponse, status: number, type: string, body: string, crs?: string) => {
    response.writeHead(status, { 'content-type': type, 'api-version': '1.0.0', ...(crs === undefined ? {} : { 'content-crs': `<${crs}>` }) });
    response.end(body);
  };
  return servingDescription(ogcDescription(scenario.writable === true), (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const contentCrs = request.headers['content-crs'];
    log.requests.push({ line: `${request.method ?? ''} ${url.pathname}${url.search}`, ...(typeof contentCrs === 'string' ? { contentCrs } : {}) });
    if (url.pathname === '/v1/collections') return send(response, 200, 'application/json', scenario.collections);
    const match = /^\/v1\/collections\/([^/]+)\/items(\/[^/]+)?$/.exec(url.pathname);
    if (match === null) return send(response, 404, 'application/problem+json', '{"status":404,"title":"Not Found"}');
    if (request.method === 'POST') {
      request.resume();
      return request.on('end', () => send(response, 400, 'application/problem+json', '{"status":400,"title":"Bad Request"}'));
    }
    const crs = url.searchParams.get('crs') ?? CRS84;
    // Echoed in Content-Crs only when it can be a header value: this server must not fall over where adr-check must not.
    if (!/^[\x21-\x7e]+$/.test(crs)) return send(response, 400, 'application/problem+json', '{"status":400,"title":"Bad crs"}');
    const feature = scenario.geometry === undefined ? undefined : `{"type":"Feature","id":1,"properties":{"naam":"weg"},"geometry":${scenario.geometry}}`;
    if (match[2] !== undefined) {
      if (feature === undefined || match[2] !== '/1') return send(response, 404, 'application/problem+json', '{"status":404,"title":"Not Found"}');
      return send(response, 200, 'application/geo+json', feature, crs);
    }
    const page = feature === undefined ? '' : Array.from({ length: scenario.features ?? 1 }, (_, index) => feature.replace('"id":1', `"id":${index + 1}`)).join(',');
    send(response, 200, 'application/geo+json', `{"type":"FeatureCollection","features":[${page}]}`, crs);
  });
}

/** A collections document: `collections` as given, the top-level `crs` list as given. */
export function collectionsText(collections: unknown[], crs?: unknown[]): string {
  return JSON.stringify({ links: [], collections, ...(crs === undefined ? {} : { crs }) });
}

/**
 * `collections` collections that each list only `#/crs`, and a shared top-level list of `crsCount`
 * CRS URIs (CRS84 and RD first, then unknown EPSG codes): copied into each collection, it costs
 * collections × CRSs.
 */
export function sharedCrsFlood(collections: number, crsCount: number): string {
  const crs = [CRS84, RD, ...Array.from({ length: crsCount - 2 }, (_, index) => `http://www.opengis.net/def/crs/EPSG/0/${100000 + index}`)];
  return collectionsText(Array.from({ length: collections }, (_, index) => ({ id: `c${index}`, itemType: 'feature', crs: ['#/crs'] })), crs);
}

/** A LineString of `count` positions near Utrecht, 7 bytes each (a few metres apart, in whole degrees and tenths). */
export function longLineString(count: number): string {
  return `{"type":"LineString","coordinates":[${Array.from({ length: count }, (_, index) => (index % 2 === 0 ? '[5,52]' : '[5.1,52]')).join(',')}]}`;
}

/** A GeometryCollection nested `depth` levels, a Point at the bottom. */
export function deepGeometryCollection(depth: number): string {
  return `${'{"type":"GeometryCollection","geometries":['.repeat(depth)}{"type":"Point","coordinates":[5.1,52.09]}${']}'.repeat(depth)}`;
}
