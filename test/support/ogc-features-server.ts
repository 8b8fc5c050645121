import proj4 from 'proj4';
import { startHostile, type HostileServer } from './hostile-servers.js';

/**
 * A third geospatial API for the live geospatial checks, in OGC API Features style but unlike
 * the reference API: stored in CRS84, many collections (its /collections document is far over
 * the 8 KB a shared GET keeps), Content-Crs without angle brackets, items links with `?f=json`
 * (as ldproxy and pygeoapi write them), an empty collection first and a collection of records
 * (itemType record, application/json, no geometry) second; only `bomen` has features, and takes
 * new ones by POST (Content-Crs, CRS84 without it) and DELETE. Its own proj4 definitions and bbox
 * arithmetic.
 */

const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
const RD = 'http://www.opengis.net/def/crs/EPSG/0/28992';
const ETRS89 = 'http://www.opengis.net/def/crs/EPSG/0/4258';
const SUPPORTED = [CRS84, RD, ETRS89];
const PROJ: Record<string, string> = {
  [CRS84]: '+proj=longlat +datum=WGS84 +no_defs',
  [RD]: '+proj=sterea +lat_0=52.15616055555555 +lon_0=5.38763888888889 +k=0.9999079 +x_0=155000 +y_0=463000 +ellps=bessel +towgs84=565.417,50.3319,465.552,-0.398957,0.343988,-1.8774,4.0725 +units=m +no_defs',
  [ETRS89]: '+proj=longlat +ellps=GRS80 +no_defs',
};

/** Trees in Groningen, CRS84 (lon, lat). */
interface Boom { id: number; soort: string; at: [number, number] }

const BOMEN: Boom[] = [
  { id: 101, soort: 'Linde', at: [6.56667, 53.21917] },
  { id: 102, soort: 'Eik', at: [6.5701, 53.2175] },
  { id: 103, soort: 'Beuk', at: [6.5902, 53.2302] },
];

const COLLECTIONS = 40;

function toCrs(position: [number, number], crs: string): [number, number] {
  const [a, b] = proj4(PROJ[CRS84] as string, PROJ[crs] as string, position) as [number, number];
  return crs === ETRS89 ? [b, a] : [a, b];
}

function fromCrs(position: [number, number], crs: string): [number, number] {
  const input: [number, number] = crs === ETRS89 ? [position[1], position[0]] : position;
  return proj4(PROJ[crs] as string, PROJ[CRS84] as string, input) as [number, number];
}

function description(): Record<string, unknown> {
  const query = ['bbox', 'bbox-crs', 'crs', 'limit', 'f'].map((name) => ({ name, in: 'query', schema: { type: 'string' } }));
  const post = {
    parameters: [{ name: 'Content-Crs', in: 'header', schema: { type: 'string' } }],
    requestBody: { content: { 'application/geo+json': { schema: { type: 'object' } } } },
    responses: { 201: { description: 'created' } },
  };
  return {
    openapi: '3.0.3',
    info: { title: 'Bomen', version: '1.0.0' },
    paths: {
      '/collections': { get: { responses: { 200: { description: 'ok' } } } },
      '/collections/{collectionId}/items': { get: { parameters: query, responses: { 200: { description: 'ok' } } }, post },
      '/collections/{collectionId}/items/{featureId}': { get: { responses: { 200: { description: 'ok' } } }, delete: { responses: { 204: { description: 'deleted' } } } },
    },
  };
}

/** The collections in order: an empty one, one of records, the trees, then many empty layers. */
function collectionIds(): string[] {
  return ['leeg', 'registraties', 'bomen', ...Array.from({ length: COLLECTIONS - 3 }, (_, index) => `laag-${index + 1}`)];
}

export async function startOgcFeaturesServer(): Promise<HostileServer> {
  const headers = { 'api-version': '1.0.0', 'cache-control': 'no-store' };
  const bomen = [...BOMEN];
  let nextId = 900;
  return startHostile((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const send = (status: number, body: unknown, type: string, crs?: string) => {
      response.writeHead(status, { ...headers, 'content-type': status >= 400 ? 'application/problem+json' : type, ...(crs === undefined ? {} : { 'content-crs': crs }) });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/v1/openapi.json') return send(200, description(), 'application/json');
    if (url.pathname === '/v1/collections') {
      const collections = collectionIds().map((id) => (id === 'registraties'
        ? { id, title: 'Registraties', itemType: 'record', links: [{ href: `/v1/collections/${id}/items?f=json`, rel: 'items', type: 'application/json' }] }
        : {
          id,
          title: id,
          description: `Een collectie van de gemeente, met een beschrijving die lang genoeg is om de lijst groter te maken dan een uittreksel van acht kilobyte (${id}).`,
          itemType: 'feature',
          links: [{ href: `/v1/collections/${id}/items?f=json`, rel: 'items', type: 'application/geo+json' }],
          crs: SUPPORTED,
          storageCrs: CRS84,
        }));
      return send(200, { collections, links: [] }, 'application/json');
    }
    const match = /^\/v1\/collections\/([^/]+)\/items(?:\/(\d+))?$/.exec(url.pathname);
    if (match === null) return send(404, { status: 404, title: 'Niet gevonden' }, '');
    const crs = url.searchParams.get('crs') ?? CRS84;
    const bboxCrs = url.searchParams.get('bbox-crs') ?? CRS84;
    if (!SUPPORTED.includes(crs) || !SUPPORTED.includes(bboxCrs)) return send(400, { status: 400, title: 'Onbekend CRS' }, '');
    const feature = (boom: Boom) => ({ type: 'Feature', id: boom.id, geometry: { type: 'Point', coordinates: toCrs(boom.at, crs) }, properties: { soort: boom.soort } });
    if (match[1] === 'registraties') return send(200, { registraties: [{ nummer: 1, omschrijving: 'Een registratie zonder geometrie' }] }, 'application/json');
    const selectable = match[1] === 'bomen' ? bomen : [];
    if (match[2] !== undefined) {
      const index = selectable.findIndex((candidate) => candidate.id === Number(match[2]));
      if (index < 0) return send(404, { status: 404, title: 'Niet gevonden' }, '');
      if (request.method === 'DELETE') {
        bomen.splice(index, 1);
        response.writeHead(204, headers);
        return response.end();
      }
      return send(200, feature(selectable[index] as Boom), 'application/geo+json', crs);
    }
    if (request.method === 'POST') {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const header = request.headers['content-crs'];
        const bodyCrs = typeof header === 'string' ? header.trim().replace(/^<(.*)>$/, '$1') : CRS84;
        if (match[1] !== 'bomen' || !SUPPORTED.includes(bodyCrs)) return send(400, { status: 400, title: 'Ongeldig verzoek' }, '');
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { geometry: { coordinates: [number, number] }; properties?: { soort?: string } };
          nextId += 1;
          bomen.push({ id: nextId, soort: body.properties?.soort ?? 'onbekend', at: fromCrs(body.geometry.coordinates, bodyCrs) });
          response.writeHead(201, { ...headers, location: `/v1/collections/bomen/items/${nextId}` });
          return response.end();
        } catch {
          return send(400, { status: 400, title: 'Ongeldige body' }, '');
        }
      });
      return undefined;
    }
    const numbers = url.searchParams.get('bbox')?.split(',').map(Number);
    const selected = selectable.filter(({ at }) => {
      if (numbers === undefined || numbers.length !== 4) return true;
      const corners = [[numbers[0], numbers[1]], [numbers[2], numbers[3]], [numbers[0], numbers[3]], [numbers[2], numbers[1]]].map((corner) => fromCrs(corner as [number, number], bboxCrs));
      const lons = corners.map((corner) => corner[0]);
      const lats = corners.map((corner) => corner[1]);
      return at[0] >= Math.min(...lons) && at[0] <= Math.max(...lons) && at[1] >= Math.min(...lats) && at[1] <= Math.max(...lats);
    });
    send(200, { type: 'FeatureCollection', features: selected.map(feature), links: [] }, 'application/geo+json', crs);
  });
}
