import type { IncomingMessage, ServerResponse } from 'node:http';
import { startHostile, type HostileServer } from './hostile-servers.js';

/**
 * A loopback stand-in for what QGIS Server 3.22 does in the lab (test/lab/qgis-server.test.ts),
 * for the focused tests of test/live-lab-verdicts.test.ts: the lab itself needs QGIS, nginx and half
 * a minute. Under /wfs3: every path it does not know (/wfs3/openapi.json, /wfs3/openapi.yaml, an
 * unknown path) answers the landing page, 200 application/json with a new timeStamp each time;
 * the description is at /wfs3/api, linked as service-desc, with an empty info.version; the
 * collections list CRS84 and a versioned EPSG URI but no storageCrs; nothing carries API-Version.
 */
export interface QgisLikeOptions {
  /** Where the landing page's service-desc link points: this server, or the same port under the name localhost (another origin for a run at 127.0.0.1). */
  serviceDescHost: '127.0.0.1' | 'localhost';
}

const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
const EPSG_4326 = 'http://www.opengis.net/def/crs/EPSG/9.6.2/4326';

export async function startQgisLike(options: QgisLikeOptions): Promise<HostileServer> {
  let answered = 0;
  return startHostile((request, response, server) => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    const base = `${server.origin}/wfs3`;
    const send = (status: number, type: string, body: unknown) => void response.writeHead(status, { 'content-type': type, server: 'QGIS-like' }).end(JSON.stringify(body));
    answered += 1;
    if (path === '/wfs3/api') return send(200, 'application/vnd.oai.openapi+json;version=3.0', qgisLikeDescription(base));
    if (path === '/wfs3/collections') return send(200, 'application/json', collections(base));
    if (path === '/wfs3/collections/gebouwen/items') return send(200, 'application/geo+json', { type: 'FeatureCollection', features: [FEATURE] });
    if (path === '/wfs3/collections/gebouwen/items/1') return send(200, 'application/geo+json', FEATURE);
    if (path === '/wfs3' || path.startsWith('/wfs3/')) return send(200, 'application/json', landingPage(base, `http://${options.serviceDescHost}:${server.port}/wfs3/api`, answered));
    notFound(request, response);
  });
}

const FEATURE = { type: 'Feature', id: 1, geometry: { type: 'Point', coordinates: [5.1214, 52.0907] }, properties: { naam: 'Domtoren' } };

function notFound(_request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not Found</body></html>');
}

/** QGIS's landing page: its timeStamp differs on every answer, so two of them never compare equal. */
function landingPage(base: string, serviceDesc: string, answered: number): Record<string, unknown> {
  return {
    title: 'Lab',
    timeStamp: new Date(Date.UTC(2026, 0, 1, 0, 0, answered)).toISOString(),
    links: [
      { href: base, rel: 'self', type: 'application/json' },
      { href: serviceDesc, rel: 'service-desc', type: 'application/vnd.oai.openapi+json;version=3.0' },
      { href: `${base}/collections`, rel: 'data', type: 'application/json' },
    ],
  };
}

function collections(base: string): Record<string, unknown> {
  return {
    crs: [CRS84, EPSG_4326],
    collections: [{ id: 'gebouwen', itemType: 'feature', crs: [CRS84, EPSG_4326], links: [{ rel: 'items', type: 'application/geo+json', href: `${base}/collections/gebouwen/items` }] }],
    links: [],
  };
}

/** As QGIS 3.22 writes it for a project without a version: info.version is the empty string. */
function qgisLikeDescription(base: string): Record<string, unknown> {
  const ok = { 200: { description: 'ok' } };
  return {
    openapi: '3.0.1',
    info: { title: 'Lab', version: '' },
    servers: [{ url: base }],
    paths: {
      '/collections': { get: { responses: ok } },
      '/collections/gebouwen/items': { get: { responses: { 200: { description: 'ok', content: { 'application/geo+json': { schema: { type: 'object' } } } } } } },
    },
  };
}
