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
