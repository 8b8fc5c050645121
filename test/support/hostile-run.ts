import { description, servingDescription } from './hostile-servers.js';

/**
 * An OGC API Features server whose every items page and feature is fat: `pageBytes` of polygon
 * positions (valid GeoJSON, within the Netherlands), with `next` links over `pages` pages, in
 * `collections` collections that each list CRS84 and RD New. Memory must follow what the report
 * needs, not how much geometry the checks read.
 */
export function fatGeometryServer(options: { pageBytes: number; pages: number; collections: number }): ReturnType<typeof servingDescription> {
  const crs = ['http://www.opengis.net/def/crs/OGC/1.3/CRS84', 'http://www.opengis.net/def/crs/EPSG/0/28992'];
  const ids = Array.from({ length: options.collections }, (_, index) => `c${index}`);
  const paths = { '/collections': { get: { responses: { 200: { description: 'ok' } } } } };
  const feature = fatFeature(options.pageBytes);
  return servingDescription(JSON.stringify(description({ paths })), (request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const send = (body: string, type = 'application/json') => {
      response.writeHead(200, { 'content-type': type, 'api-version': '1.0.0', 'content-crs': `<${url.searchParams.get('crs') ?? crs[0]}>` });
      response.end(body);
    };
    if (url.pathname === '/v1/collections') {
      return send(JSON.stringify({ crs, collections: ids.map((id) => ({ id, itemType: 'feature', crs: ['#/crs'], links: [{ rel: 'items', type: 'application/geo+json', href: `/v1/collections/${id}/items` }] })), links: [] }));
    }
    const items = /^\/v1\/collections\/(c\d+)\/items(?:\/(f\d+))?$/.exec(url.pathname);
    if (items === null) return void response.writeHead(404, { 'content-type': 'application/problem+json', 'api-version': '1.0.0' }).end('{"status":404}');
    if (items[2] !== undefined) return send(feature(items[2]), 'application/geo+json');
    const page = Number(url.searchParams.get('page') ?? '0');
    const next = page + 1 < options.pages ? [{ rel: 'next', type: 'application/geo+json', href: `/v1/collections/${items[1]}/items?page=${page + 1}` }] : [];
    return send(`{"type":"FeatureCollection","features":[${feature(`f${page}`)}],"links":${JSON.stringify(next)}}`, 'application/geo+json');
  });
}

/** One feature whose polygon ring has as many positions as fit in `bytes`, near Amersfoort. */
function fatFeature(bytes: number): (id: string) => string {
  const count = Math.max(4, Math.floor(bytes / 40));
  const ring: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const angle = (2 * Math.PI * index) / count;
    ring.push(`[${(5.387 + 0.001 * Math.cos(angle)).toFixed(9)},${(52.155 + 0.001 * Math.sin(angle)).toFixed(9)}]`);
  }
  ring.push(ring[0] as string);
  const geometry = `{"type":"Polygon","coordinates":[[${ring.join(',')}]]}`;
  return (id) => `{"type":"Feature","id":"${id}","geometry":${geometry},"properties":{"name":"fat"}}`;
}

/**
 * An OGC API Features server (POST and DELETE declared) whose router is lenient as real ones are:
 * an id is found after decoding, trimming blanks, dots and tildes, compatibility folding and lower
 * casing, and a numeric id as parseInt reads it. Every POST stores nothing and answers 201 with a
 * Location that names an existing feature in one of `disguises`; a GET of a feature echoes the id
 * as requested. `deleted` lists what a DELETE removed: adr-check must never remove anything here.
 * With `nesting`, each feature's properties hold an object nested that deep.
 */
export function lenientFeatureServer(disguises: string[], numeric = false, nesting = 0): { handler: ReturnType<typeof servingDescription>; deleted: string[] } {
  const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
  const ETRS89 = 'http://www.opengis.net/def/crs/EPSG/0/4258';
  const items = '/v1/collections/gebouwen/items';
  const ids = numeric ? ['1', '2', '3'] : ['f1', 'f2', 'f3'];
  // `nesting` levels of objects in each feature's properties, spliced into the text (JSON.stringify would overflow the stack).
  const deepText = `${'{"d":'.repeat(nesting)}"bodem"${'}'.repeat(nesting)}`;
  const features = new Map(ids.map((id, index) => [id, { type: 'Feature', id: numeric ? Number(id) : id, geometry: { type: 'Point', coordinates: [5.121 + index / 1000, 52.09] }, properties: { naam: `gebouw ${index + 1}`, ...(nesting > 0 ? { diep: '__DEEP__' } : {}) } }]));
  const deleted: string[] = [];
  const ok = { responses: { 200: { description: 'ok' } } };
  const paths = {
    '/collections': { get: ok },
    '/collections/{collectionId}/items': { parameters: [{ name: 'collectionId', in: 'path', required: true, schema: { type: 'string', enum: ['gebouwen'] } }], get: ok, post: { requestBody: { content: { 'application/geo+json': { schema: { type: 'object' } } } }, responses: { 201: { description: 'created' } } } },
    '/collections/{collectionId}/items/{featureId}': { parameters: [{ name: 'collectionId', in: 'path', required: true, schema: { type: 'string' } }, { name: 'featureId', in: 'path', required: true, schema: { type: 'string' } }], get: ok, delete: { responses: { 204: { description: 'deleted' } } } },
  };
  const lenient = (segment: string): string => {
    const folded = decodeURIComponent(decodeURIComponent(segment)).normalize('NFKC').replace(/[\s.~\u0000]+$/u, '').toLowerCase();
    return numeric ? String(Number.parseInt(folded, 10)) : folded;
  };
  let posts = 0;
  const handler = servingDescription(JSON.stringify(description({ paths })), (request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => response.writeHead(status, { 'content-type': 'application/geo+json', 'content-crs': `<${CRS84}>`, 'api-version': '1.0.0', ...headers }).end(JSON.stringify(body).replaceAll('"__DEEP__"', deepText));
    if (path === '/v1') return send(200, { links: [] });
    if (path === '/v1/collections') return send(200, { collections: [{ id: 'gebouwen', itemType: 'feature', crs: [CRS84, ETRS89], storageCrs: CRS84, links: [{ rel: 'items', type: 'application/geo+json', href: items }] }] });
    if (path === items && request.method === 'GET') return send(200, { type: 'FeatureCollection', numberMatched: features.size, numberReturned: features.size, features: [...features.values()] });
    if (path === items && request.method === 'POST') {
      posts += 1;
      return send(201, {}, { location: `${items}/${disguises[(posts - 1) % disguises.length] ?? ''}` });
    }
    if (path.startsWith(`${items}/`)) {
      const segment = path.slice(items.length + 1);
      const id = lenient(segment);
      const found = features.get(id);
      if (found === undefined) return send(404, { status: 404 });
      if (request.method === 'DELETE') {
        features.delete(id);
        deleted.push(id);
        return void response.writeHead(204).end();
      }
      return send(200, { ...found, id: decodeURIComponent(segment) });
    }
    send(404, { status: 404 });
  });
  return { handler, deleted };
}

/**
 * An OGC API whose bbox selections start with a page that lacks the sample and go on at a `next`
 * link on another origin (`elsewhere`): what lies beyond is unknown, so a missing sample is not
 * judged, and nothing is fetched there.
 */
export function offOriginNextServer(elsewhere: string): ReturnType<typeof servingDescription> {
  const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
  const items = '/v1/collections/gebouwen/items';
  const feature = (id: string, lon: number) => ({ type: 'Feature', id, geometry: { type: 'Point', coordinates: [lon, 52.09] }, properties: { naam: id } });
  const all = [feature('f1', 5.121), feature('f2', 5.122)];
  const ok = { responses: { 200: { description: 'ok' } } };
  const paths = { '/collections': { get: ok }, '/collections/{collectionId}/items': { parameters: [{ name: 'collectionId', in: 'path', required: true, schema: { type: 'string', enum: ['gebouwen'] } }], get: ok } };
  return servingDescription(JSON.stringify(description({ paths })), (request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const send = (body: unknown) => response.writeHead(200, { 'content-type': 'application/geo+json', 'content-crs': `<${url.searchParams.get('crs') ?? CRS84}>`, 'api-version': '1.0.0' }).end(JSON.stringify(body));
    if (url.pathname === '/v1') return send({ links: [] });
    if (url.pathname === '/v1/collections') return send({ collections: [{ id: 'gebouwen', itemType: 'feature', crs: [CRS84], links: [{ rel: 'items', type: 'application/geo+json', href: items }] }] });
    if (url.pathname === `${items}/f1`) return send(all[0]);
    // A box away from everything (west of -100) selects nothing.
    if (url.pathname === items && Number((url.searchParams.get('bbox') ?? '0').split(',')[0]) < -100) return send({ type: 'FeatureCollection', features: [], links: [] });
    if (url.pathname === items && url.searchParams.has('bbox')) {
      return send({ type: 'FeatureCollection', features: [all[1]], links: [{ rel: 'next', type: 'application/geo+json', href: `${elsewhere}${items}?page=2` }] });
    }
    if (url.pathname === items) return send({ type: 'FeatureCollection', features: all, links: [] });
    response.writeHead(404, { 'content-type': 'application/problem+json', 'api-version': '1.0.0' }).end('{"status":404}');
  });
}

/**
 * An OGC API of points near Utrecht whose one collection lists `crs` besides CRS84. bbox is applied
 * in CRS84; bbox-crs is read as longitude first whatever the CRS (wrong for EPSG:4326 and 4258,
 * which are latitude first), any other bbox-crs value is refused with 400 only when unknown here.
 */
export function crsListServer(crs: string[]): ReturnType<typeof servingDescription> {
  const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
  const items = '/v1/collections/punten/items';
  const all = [0, 1, 2].map((index) => ({ type: 'Feature', id: `p${index}`, geometry: { type: 'Point', coordinates: [5.12 + index * 0.05, 52.09 + index * 0.05] }, properties: { naam: `punt ${index}` } }));
  const ok = { responses: { 200: { description: 'ok' } } };
  const paths = { '/collections': { get: ok }, '/collections/{collectionId}/items': { parameters: [{ name: 'collectionId', in: 'path', required: true, schema: { type: 'string', enum: ['punten'] } }], get: ok } };
  return servingDescription(JSON.stringify(description({ paths })), (request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const send = (status: number, body: unknown) => response.writeHead(status, { 'content-type': status === 200 ? 'application/geo+json' : 'application/problem+json', 'content-crs': `<${url.searchParams.get('crs') ?? CRS84}>`, 'api-version': '1.0.0' }).end(JSON.stringify(body));
    if (url.pathname === '/v1') return send(200, { links: [] });
    if (url.pathname === '/v1/collections') return send(200, { collections: [{ id: 'punten', itemType: 'feature', crs: [CRS84, ...crs], links: [{ rel: 'items', type: 'application/geo+json', href: items }] }] });
    if (url.pathname.startsWith(`${items}/`)) return send(200, all.find((feature) => url.pathname.endsWith(`/${feature.id}`)) ?? {});
    if (url.pathname !== items) return send(404, { status: 404 });
    const bboxCrs = url.searchParams.get('bbox-crs');
    if (bboxCrs !== null && bboxCrs !== CRS84 && !crs.includes(bboxCrs)) return send(400, { status: 400 });
    const crsParam = url.searchParams.get('crs');
    if (crsParam !== null && crsParam !== CRS84 && !crs.includes(crsParam)) return send(400, { status: 400 });
    const box = url.searchParams.get('bbox')?.split(',').map(Number);
    const selected = box === undefined ? all : all.filter(({ geometry: { coordinates: [lon = 0, lat = 0] } }) => lon >= (box[0] ?? 0) && lon <= (box[2] ?? 0) && lat >= (box[1] ?? 0) && lat <= (box[3] ?? 0));
    return send(200, { type: 'FeatureCollection', features: selected, links: [] });
  });
}
