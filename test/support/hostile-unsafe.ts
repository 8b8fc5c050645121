import type { IncomingMessage, ServerResponse } from 'node:http';
import { description, startHostile, type HostileServer } from './hostile-servers.js';

/**
 * Servers for what `adr-check --unsafe` may write and delete (test/live-hostile-unsafe.test.ts).
 * Each keeps real state and records every change to it, so that a test shows what the checker
 * deleted or changed, not only what it sent.
 */

const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
const ETRS89 = 'http://www.opengis.net/def/crs/EPSG/0/4258';

export interface StatefulServer extends HostileServer {
  /** `DELETE f1`, `PUT d1`, `POST n1`, `changed f1`: what happened to the server's data, in order. */
  changes: string[];
  /** The records as they are now, by id. */
  records(): Record<string, unknown>;
}

interface Body { raw: string; parsed?: unknown }

function readBody(request: IncomingMessage): Promise<Body> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      // As an ordinary framework's JSON body parser: an empty body is {}, anything else must parse.
      try {
        resolve({ raw, parsed: raw === '' ? {} : JSON.parse(raw) as unknown });
      } catch {
        resolve({ raw });
      }
    });
  });
}

function reply(response: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  response.writeHead(status, { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', 'api-version': '1.0.0', 'content-length': String(Buffer.byteLength(text)), ...headers });
  response.end(text);
}

async function stateful(records: Map<string, unknown>, handle: (request: IncomingMessage, response: ServerResponse, changes: string[], path: string) => Promise<void> | void): Promise<StatefulServer> {
  const changes: string[] = [];
  const server = await startHostile((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    void handle(request, response, changes, path);
  });
  return Object.assign(server, { changes, records: () => Object.fromEntries(records) });
}

const ok = (extra: Record<string, unknown> = {}) => ({ responses: { 200: { description: 'ok' } }, ...extra });
const idParameter = (name: string, example: string) => ({ parameters: [{ name, in: 'path', required: true, schema: { type: 'string' }, example }] });

/**
 * A plain JSON API that declares only GET, but implements POST, PUT, PATCH and DELETE for real,
 * as an ordinary framework would (an empty body is `{}`), answers no 405, and ignores If-Match.
 * Its description also has path keys that climb out of the base path (`..`, `%2e%2e`,
 * backslashes, encoded slashes, a path example `../../../admin/users/1`) to an admin area that
 * obeys every method; and a protected path
 * that authenticates before it routes (401 without the token, 405 with it).
 */
export async function startUndeclaredWritesServer(token: string): Promise<StatefulServer> {
  const records = new Map<string, unknown>([['d1', { naam: 'een' }], ['d2', { naam: 'twee' }], ['admin-user-1', { naam: 'root' }]]);
  const document = JSON.stringify(description({
    paths: {
      '/dingen': { get: ok() },
      '/dingen/{id}': { ...idParameter('id', 'd1'), get: ok() },
      '/kluis': { get: ok({ security: [{ token: [] }] }) },
      '/../../admin/users/{id}': { ...idParameter('id', '1'), get: ok() },
      '/%2e%2e/%2e%2e/admin/users/1': { get: ok() },
      '/..\\..\\admin\\users\\1': { get: ok() },
      '/x%2f..%2f..%2fadmin%2fusers%2f1': { get: ok() },
      '/bestanden/{naam}': { ...idParameter('naam', '../../../admin/users/1'), get: ok() },
    },
    components: { securitySchemes: { token: { type: 'http', scheme: 'bearer' } } },
  }));
  let created = 0;
  return stateful(records, async (request, response, changes, path) => {
    const method = request.method ?? '';
    if (path === '/v1/openapi.json') return reply(response, 200, JSON.parse(document));
    if (method === 'TRACE') return reply(response, 405, { status: 405 }, { allow: 'GET' });
    // The vault authenticates before it routes, and routes before it reads a body.
    if (path === '/v1/kluis') {
      if (request.headers.authorization !== `Bearer ${token}`) return reply(response, 401, { status: 401 }, { 'www-authenticate': 'Bearer' });
      return method === 'GET' || method === 'HEAD' ? reply(response, 200, {}) : reply(response, 405, { status: 405 }, { allow: 'GET' });
    }
    const body = ['POST', 'PUT', 'PATCH'].includes(method) ? await readBody(request) : { parsed: {} , raw: '' };
    if (body.parsed === undefined) return reply(response, 400, { status: 400, title: 'Geen JSON' });
    // Outside the API: an admin area that does whatever it is asked.
    const admin = /\/admin[/\\]users[/\\]1$/.test(path.replace(/\\/g, '/')) && !path.startsWith('/v1/dingen');
    if (admin || !path.startsWith('/v1')) {
      if (method !== 'GET' && method !== 'HEAD') changes.push(`${method} ${path}`);
      if (method === 'DELETE') records.delete('admin-user-1');
      return reply(response, 200, records.get('admin-user-1') ?? {});
    }
    if (path === '/v1') return method === 'GET' || method === 'HEAD' ? reply(response, 200, {}) : reply(response, 404, { status: 404 });
    if (path === '/v1/dingen') {
      if (method === 'POST') {
        created += 1;
        records.set(`n${created}`, body.parsed);
        changes.push(`POST n${created}`);
        return reply(response, 201, body.parsed, { location: `/v1/dingen/n${created}` });
      }
      return reply(response, 200, { dingen: [...records.entries()].filter(([id]) => id.startsWith('d')).map(([id, value]) => ({ id, ...(value as object) })) });
    }
    const single = /^\/v1\/dingen\/([^/]+)$/.exec(path);
    const id = single?.[1] ?? '';
    if (single === null || !records.has(id)) return reply(response, 404, { status: 404 });
    if (method === 'DELETE') {
      records.delete(id);
      changes.push(`DELETE ${id}`);
      return reply(response, 204);
    }
    if (method === 'PUT' || method === 'PATCH') {
      records.set(id, method === 'PUT' ? body.parsed : { ...(records.get(id) as object), ...(body.parsed as object) });
      changes.push(`${method} ${id}`);
    }
    return reply(response, 200, records.get(id));
  });
}

/** How the feature server answers a POST of a feature. */
export type PostAnswer =
  /** 201 with the Location of a feature it lists (`f2.json`, f3 through `%2e%2e`); stores nothing. */
  | 'listed'
  /** 201 with the sample's own Location plus a query (`f1?copy=1`, `f1?copy=2`); stores nothing. */
  | 'sample-with-query'
  /** 201 with the sample's own Location percent-encoded (`%66%31`, `f%31`); stores nothing. */
  | 'sample-percent-encoded'
  /** 201 with the sample's own Location as many servers read it: `F1/`, `f1;v=2`; stores nothing. */
  | 'sample-disguised'
  /** 201 with a Location on the API's origin but outside its base path (`/v1/../admin/users/1`); stores nothing. */
  | 'outside-base'
  /** Lists f1 to f4 as the whole collection (numberMatched 4) but holds f5 to f8 too, and answers 201 with the Location of f7, then f8; stores nothing. */
  | 'listing-lies'
  /** An ordinary upsert: a feature whose identificatie exists replaces it (200, Location by identificatie); another one is created (201). */
  | 'upsert'
  /** 201 with the Location of a feature that exists but lies beyond the pages adr-check lists (f59, f60 of 60, 10 a page); stores nothing. */
  | 'unlisted';

interface Feature { type: 'Feature'; id: string; geometry: { type: 'Point'; coordinates: number[] }; properties: { identificatie: string; naam: string } }

function feature(index: number): Feature {
  // f1 to f4 close together in Utrecht; the others kilometres away.
  const [lon, lat] = index > 10 ? [5.2 + index / 100, 52.2] : [5.1213 + index / 10000, 52.0907];
  return { type: 'Feature', id: `f${index}`, geometry: { type: 'Point', coordinates: [lon, lat] }, properties: { identificatie: `0344100000${String(index).padStart(6, '0')}`, naam: `gebouw ${index}` } };
}

/**
 * An OGC API Features server with one collection (gebouwen) that takes POSTs of features (with
 * Content-Crs: CRS84 or EPSG:4258) and declares DELETE on its features, answering POSTs as
 * `answer` says. A feature is found by its id or by its identificatie.
 */
export async function startFeatureServer(answer: PostAnswer): Promise<StatefulServer> {
  const count = answer === 'unlisted' ? 60 : answer === 'listing-lies' ? 8 : 4;
  const records = new Map<string, unknown>(Array.from({ length: count }, (_, index) => feature(index + 1)).map((item) => [item.id, item]));
  const items = '/v1/collections/gebouwen/items';
  const document = JSON.stringify(description({
    paths: {
      '/collections': { get: ok() },
      '/collections/{collectionId}/items': {
        ...idParameter('collectionId', 'gebouwen'),
        get: ok(),
        post: { requestBody: { content: { 'application/geo+json': { schema: { type: 'object' } } } }, responses: { 201: { description: 'created' } } },
      },
      '/collections/{collectionId}/items/{featureId}': {
        parameters: [{ name: 'collectionId', in: 'path', required: true, schema: { type: 'string' } }, { name: 'featureId', in: 'path', required: true, schema: { type: 'string' } }],
        get: ok(),
        delete: { responses: { 204: { description: 'deleted' } } },
      },
    },
  }));
  const collections = { collections: [{ id: 'gebouwen', itemType: 'feature', crs: [CRS84, ETRS89], storageCrs: CRS84, links: [{ rel: 'items', type: 'application/geo+json', href: `${items}` }] }] };
  const find = (key: string): Feature | undefined => [...records.values()].map((value) => value as Feature).find((item) => item.id === key || item.properties.identificatie === key);
  let posts = 0;
  let created = 0;
  return stateful(records, async (request, response, changes, path) => {
    const method = request.method ?? '';
    const query = new URL(request.url ?? '/', 'http://localhost').searchParams;
    if (path === '/v1/openapi.json') return reply(response, 200, JSON.parse(document));
    if (path === '/v1' && method === 'GET') return reply(response, 200, { links: [] });
    if (path === '/v1/collections' && method === 'GET') return reply(response, 200, collections);
    const geo = { 'content-type': 'application/geo+json', 'content-crs': `<${CRS84}>` };
    if (path === items && method === 'GET') {
      const all = ([...records.values()] as Feature[]).filter((item) => answer !== 'listing-lies' || Number(item.id.slice(1)) <= 4);
      const limit = Math.min(Number(query.get('limit') ?? 10) || 10, 10);
      const offset = Number(query.get('offset') ?? 0) || 0;
      const page = all.slice(offset, offset + limit);
      const next = offset + limit < all.length ? { links: [{ rel: 'next', href: `${items}?offset=${offset + limit}` }] } : {};
      return reply(response, 200, { type: 'FeatureCollection', numberMatched: all.length, numberReturned: page.length, features: page, ...next }, geo);
    }
    if (path === items && method === 'POST') {
      const body = await readBody(request);
      const crs = request.headers['content-crs'];
      if (crs !== undefined && !String(crs).includes(ETRS89)) return reply(response, 400, { status: 400, title: 'Ongeldige Content-Crs' });
      const sent = body.parsed as Partial<Feature> | undefined;
      if (sent?.geometry === undefined) return reply(response, 400, { status: 400 });
      posts += 1;
      const here = (location: string) => reply(response, 201, {}, { location });
      if (answer === 'listed') return here([`${items}/f2.json`, `${items}/n9/%2e%2e/f3`][posts - 1] ?? `${items}/f4`);
      if (answer === 'sample-with-query') return here(`${items}/f1?copy=${posts}`);
      if (answer === 'sample-percent-encoded') return here([`${items}/%66%31`, `${items}/f%31`][posts - 1] ?? `${items}/%66%31`);
      if (answer === 'sample-disguised') return here([`${items}/F1/`, `${items}/f1;v=2`][posts - 1] ?? `${items}/F1/`);
      if (answer === 'outside-base') return here(`/v1/../admin/users/${posts}`);
      if (answer === 'listing-lies') return here(`${items}/f${6 + posts}`);
      if (answer === 'unlisted') return here(`${items}/f${58 + posts}`);
      const coordinates = sent.geometry.coordinates ?? [];
      const position = crs === undefined ? coordinates : [coordinates[1] ?? 0, coordinates[0] ?? 0];
      const properties = { identificatie: String(sent.properties?.identificatie ?? ''), naam: String(sent.properties?.naam ?? '') };
      const existing = find(properties.identificatie);
      if (existing !== undefined) {
        records.set(existing.id, { ...existing, geometry: { type: 'Point', coordinates: position }, properties });
        changes.push(`changed ${existing.id}`);
        return reply(response, 200, {}, { location: `${items}/${properties.identificatie}` });
      }
      created += 1;
      records.set(`n${created}`, { type: 'Feature', id: `n${created}`, geometry: { type: 'Point', coordinates: position }, properties });
      changes.push(`POST n${created}`);
      return reply(response, 201, {}, { location: `${items}/n${created}` });
    }
    // As many servers route: case-insensitive, a trailing slash, matrix parameters and a format suffix ignored.
    const single = path.startsWith(`${items}/`) ? find(path.slice(items.length + 1).replace(/\/$/, '').split(';')[0]?.replace(/\.json$/, '').toLowerCase() ?? '') : undefined;
    if (single === undefined) return reply(response, 404, { status: 404 });
    if (method === 'DELETE') {
      records.delete(single.id);
      changes.push(`DELETE ${single.id}`);
      return reply(response, 204);
    }
    return reply(response, 200, single, geo);
  });
}

/**
 * A store of notes that declares only GET but keeps whatever body a POST sends, parsed or not, and
 * names it in Location: the one kind of API a write probe cannot be made harmless for.
 */
export async function startNoteStoreServer(): Promise<StatefulServer> {
  const records = new Map<string, unknown>([['n0', 'de eerste notitie']]);
  const document = JSON.stringify(description({ paths: { '/': { get: ok() }, '/notities': { get: ok() } } }));
  return stateful(records, async (request, response, changes, path) => {
    const method = request.method ?? '';
    if (path === '/v1/openapi.json') return reply(response, 200, JSON.parse(document));
    if (method === 'GET' || method === 'HEAD') return path === '/v1' || path === '/v1/notities' ? reply(response, 200, [...records.values()]) : reply(response, 404, { status: 404 });
    if (method !== 'POST' || path !== '/v1/notities') return reply(response, 405, { status: 405 }, { allow: 'GET' });
    const { raw } = await readBody(request);
    const id = `n${records.size}`;
    records.set(id, raw);
    changes.push(`POST ${id}`);
    return reply(response, 201, {}, { location: `/v1/notities/${id}` });
  });
}
