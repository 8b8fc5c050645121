import proj4 from 'proj4';
import { startHostile, type HostileServer } from './hostile-servers.js';

/**
 * A second geospatial API for the live geospatial checks, not the reference API: plain JSON in
 * the style the geospatial module allows for APIs that do not follow OGC API Features. `/crss`
 * lists the CRSs, `/gebouwen` is a resource collection with a GeoJSON geometry embedded in each
 * resource (`geometrie`), stored in RD New; POST creates a gebouw from a body whose geometry is in
 * the CRS of Content-Crs (CRS84 without it), DELETE removes a created one. Its own proj4
 * definitions, so that the checker's transformations are not tested against themselves. Each
 * fault breaks one behaviour.
 */

export type GeoJsonFault = 'swap-axes' | 'ignore-crs' | 'no-content-crs' | 'ignore-bbox' | 'ignore-bbox-crs' | 'unsupported-crs-200' | 'geojson-media-type' | 'crs84-not-listed'
  | 'ignore-content-crs' | 'no-content-crs-as-rd' | 'unsupported-content-crs-201' | 'location-of-existing'
  | 'crs84-by-name-400' | 'no-crss' | 'rd-without-datum-shift' | 'ignore-bbox-with-bbox-crs' | 'unsupported-content-crs-no-answer'
  | 'huge-sample';

const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
const RD = 'http://www.opengis.net/def/crs/EPSG/0/28992';
const ETRS89 = 'http://www.opengis.net/def/crs/EPSG/0/4258';
const RD_PROJECTION = '+proj=sterea +lat_0=52.15616055555555 +lon_0=5.38763888888889 +k=0.9999079 +x_0=155000 +y_0=463000 +ellps=bessel';
const DEFINITIONS: Record<string, string> = {
  [CRS84]: 'EPSG:4326',
  [RD]: `${RD_PROJECTION} +towgs84=565.417,50.3319,465.552,-0.398957,0.343988,-1.8774,4.0725 +units=m +no_defs`,
  [ETRS89]: '+proj=longlat +ellps=GRS80 +no_defs',
};
/** RD New without its datum shift: about 120 m off, the fault of a server that leaves out towgs84. */
const RD_WITHOUT_DATUM_SHIFT = `${RD_PROJECTION} +units=m +no_defs`;

interface Gebouw { identificatie: string; naam: string; rd: [number, number] }

/** Buildings in Utrecht, RD New (x, y). */
const GEBOUWEN: Gebouw[] = [
  { identificatie: '0344100000012345', naam: 'Domtoren', rd: [136_849, 455_938] },
  { identificatie: '0344100000023456', naam: 'Centraal Station', rd: [135_870, 456_000] },
  { identificatie: '0344100000034567', naam: 'Stadhuis', rd: [136_610, 455_930] },
  { identificatie: '0344100000045678', naam: 'Rietveld Schröderhuis', rd: [138_700, 455_500] },
];

function transform(position: [number, number], from: string, to: string, swap: boolean, datumShift = true): [number, number] {
  const fromLatLon = from === ETRS89;
  const input: [number, number] = fromLatLon ? [position[1], position[0]] : position;
  const definition = (uri: string) => (uri === RD && !datumShift ? RD_WITHOUT_DATUM_SHIFT : DEFINITIONS[uri] as string);
  const [a, b] = proj4(definition(from), definition(to), input) as [number, number];
  const latLon = to === ETRS89 && !swap;
  return latLon ? [b, a] : [a, b];
}

const SUPPORTED = [CRS84, RD, ETRS89];

const DESCRIPTION = {
  openapi: '3.0.3',
  info: { title: 'Gebouwen', version: '1.0.0' },
  paths: {
    '/crss': {},
    '/gebouwen': {
      get: {
        // bbox, bbox-crs and crs show a geospatial API (the static rules' detection) even where /crss does not answer.
        parameters: ['bbox', 'bbox-crs', 'crs'].map((name) => ({ name, in: 'query', schema: { type: 'string' } })),
        responses: { 200: { description: 'ok' } },
      },
      post: {
        parameters: [{ name: 'Content-Crs', in: 'header', schema: { type: 'string' } }],
        requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
        responses: { 201: { description: 'created' } },
      },
    },
    '/gebouwen/{identificatie}': { get: { responses: { 200: { description: 'ok' } } }, delete: { responses: { 204: { description: 'deleted' } } } },
  },
};

/** The CRS of a POST body: Content-Crs, bare or in angle brackets; CRS84 without it (or, with `no-content-crs-as-rd`, RD). */
function bodyCrs(header: string | undefined, faults: ReadonlySet<GeoJsonFault>): string | undefined {
  if (header === undefined) return faults.has('no-content-crs-as-rd') ? RD : CRS84;
  const uri = header.trim().replace(/^<(.*)>$/, '$1');
  if (!SUPPORTED.includes(uri)) return faults.has('unsupported-content-crs-201') ? CRS84 : undefined;
  return faults.has('ignore-content-crs') ? CRS84 : uri;
}

const CRS84H = 'http://www.opengis.net/def/crs/OGC/0/CRS84h';

/** The description with the single-resource path first, its variable given an example, so that adr-check meets it first. */
function singleFirst(description: { paths: Record<string, unknown> }): Record<string, unknown> {
  const single = { ...(description.paths['/gebouwen/{identificatie}'] as object), parameters: [{ name: 'identificatie', in: 'path', required: true, schema: { type: 'string' }, example: GEBOUWEN[0]?.identificatie }] };
  return { ...description, paths: { '/gebouwen/{identificatie}': single, '/crss': {}, '/gebouwen': description.paths['/gebouwen'] } };
}

export interface GeoJsonServerOptions {
  /** The description declares no POST (the server still takes one). */
  readOnly?: boolean;
  /**
   * HAL: the list in `_embedded`, left out when a selection is empty; resources without an
   * identifier field or self link (a `code` instead); the single-resource path first in the description.
   */
  hal?: boolean;
  /** 3D data: without `crs` the answer is CRS84h with heights (SPEC.md, geospatial behaviour 6); CRS84 on request. */
  threeD?: boolean;
  /** The collection answers a top-level JSON array of resources. */
  array?: boolean;
  /** POST takes the client's identificatie as the id: 400 without one, 409 for one that exists. */
  clientIds?: boolean;
  /** The description declares no DELETE (the server still takes one). */
  noDelete?: boolean;
}

export async function startGeoJsonServer(faults: GeoJsonFault[] = [], { readOnly = false, hal = false, threeD = false, array = false, clientIds = false, noDelete = false }: GeoJsonServerOptions = {}): Promise<HostileServer> {
  const has = (fault: GeoJsonFault) => faults.includes(fault);
  const datumShift = !has('rd-without-datum-shift');
  const listed = [...(has('crs84-not-listed') ? [] : [CRS84]), ...(threeD ? [CRS84H] : []), RD, ETRS89];
  const headers = { 'api-version': '1.0.0', 'cache-control': 'no-store' };
  // The fault: the first gebouw carries over a megabyte in its name.
  const gebouwen = has('huge-sample') ? GEBOUWEN.map((gebouw, index) => (index === 0 ? { ...gebouw, naam: 'x'.repeat(1_100_000) } : gebouw)) : [...GEBOUWEN];
  let created = 0;
  return startHostile((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const send = (status: number, body: unknown, crs?: string, extra: Record<string, string> = {}) => {
      const type = status >= 400 ? 'application/problem+json' : has('geojson-media-type') ? 'application/geo+json' : 'application/json';
      response.writeHead(status, { ...headers, 'content-type': type, ...(crs === undefined || has('no-content-crs') ? {} : { 'content-crs': `<${crs}>` }), ...extra });
      response.end(JSON.stringify(body));
    };
    const asked = url.searchParams.get('crs') ?? undefined;
    const requested = asked ?? CRS84;
    const outputCrs = SUPPORTED.includes(requested) && !has('ignore-crs') ? requested : CRS84;
    const withHeight = threeD && asked === undefined;
    // With ignore-crs the requested CRS is still named: the coordinates are what is wrong.
    const namedCrs = has('ignore-crs') ? requested : withHeight ? CRS84H : outputCrs;
    const resource = ({ identificatie, naam, rd }: Gebouw) => {
      const position = transform(rd, RD, outputCrs, has('swap-axes'), datumShift).map((value) => Number(value.toFixed(outputCrs === RD ? 3 : 8)));
      const geometrie = { type: 'Point', coordinates: withHeight ? [...position, 2.5] : position };
      return hal ? { code: identificatie, naam, geometrie } : { identificatie, naam, geometrie, _links: { self: { href: `/v1/gebouwen/${identificatie}` } } };
    };
    const list = (selected: Gebouw[]): unknown => (array ? selected.map(resource) : hal
      ? { ...(selected.length === 0 ? {} : { _embedded: { gebouwen: selected.map(resource) } }), _links: { self: { href: '/v1/gebouwen' } } }
      : { gebouwen: selected.map(resource), _links: { self: { href: '/v1/gebouwen' } } });
    const paths = {
      ...DESCRIPTION.paths,
      ...(readOnly ? { '/gebouwen': { get: DESCRIPTION.paths['/gebouwen'].get } } : {}),
      ...(noDelete ? { '/gebouwen/{identificatie}': { get: DESCRIPTION.paths['/gebouwen/{identificatie}'].get } } : {}),
    };
    const declared = { ...DESCRIPTION, paths };
    if (url.pathname === '/v1/openapi.json') return send(200, hal ? singleFirst(declared) : declared);
    if (url.pathname === '/v1/crss') return has('no-crss') ? send(404, { status: 404, title: 'Niet gevonden' }) : send(200, { crs: listed });
    if (!SUPPORTED.includes(requested) && !has('unsupported-crs-200')) return send(400, { status: 400, title: 'Ongeldige crs' });
    if (asked === CRS84 && has('crs84-by-name-400')) return send(400, { status: 400, title: 'Ongeldige crs' });
    const single = /^\/v1\/gebouwen\/([^/]+)$/.exec(url.pathname);
    if (single !== null) {
      const index = gebouwen.findIndex((gebouw) => gebouw.identificatie === single[1]);
      if (index < 0) return send(404, { status: 404, title: 'Niet gevonden' });
      if (request.method === 'DELETE') {
        gebouwen.splice(index, 1);
        response.writeHead(204, headers);
        return response.end();
      }
      return send(200, resource(gebouwen[index] as Gebouw), namedCrs);
    }
    if (url.pathname !== '/v1/gebouwen') return send(404, { status: 404, title: 'Niet gevonden' });
    if (request.method === 'POST') {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const header = request.headers['content-crs'];
        if (has('unsupported-content-crs-no-answer') && typeof header === 'string' && header.includes('/EPSG/0/0')) return request.socket.destroy();
        const crs = bodyCrs(typeof header === 'string' ? header : undefined, new Set(faults));
        if (crs === undefined) return send(400, { status: 400, title: 'Ongeldige Content-Crs' });
        let body: { identificatie?: unknown; naam?: string; geometrie?: { coordinates?: [number, number] } };
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
        } catch {
          return send(400, { status: 400, title: 'Geen JSON' });
        }
        const position = body.geometrie?.coordinates;
        if (!Array.isArray(position)) return send(400, { status: 400, title: 'Geen geometrie' });
        // The fault: nothing is created, and Location names a gebouw that was there already.
        if (has('location-of-existing')) return send(201, resource(gebouwen[0] as Gebouw), CRS84, { location: `/v1/gebouwen/${gebouwen[0]?.identificatie ?? ''}` });
        if (clientIds && typeof body.identificatie !== 'string') return send(400, { status: 400, title: 'Identificatie ontbreekt' });
        if (clientIds && gebouwen.some((gebouw) => gebouw.identificatie === body.identificatie)) return send(409, { status: 409, title: 'Identificatie bestaat al' });
        created += 1;
        const gebouw: Gebouw = { identificatie: clientIds ? String(body.identificatie) : `nieuw-${created}`, naam: body.naam ?? 'nieuw', rd: transform(position, crs, RD, false, datumShift) };
        gebouwen.push(gebouw);
        send(201, resource(gebouw), CRS84, { location: `/v1/gebouwen/${gebouw.identificatie}` });
      });
      return undefined;
    }
    const bboxCrs = url.searchParams.get('bbox-crs') ?? CRS84;
    if (!SUPPORTED.includes(bboxCrs)) return send(400, { status: 400, title: 'Ongeldige bbox-crs' });
    const bbox = url.searchParams.get('bbox')?.split(',').map(Number);
    const selected = gebouwen.filter(({ rd }) => {
      if (bbox === undefined || bbox.length !== 4 || has('ignore-bbox') || (has('ignore-bbox-with-bbox-crs') && url.searchParams.has('bbox-crs'))) return true;
      const [minA, minB, maxA, maxB] = bbox as [number, number, number, number];
      const from = has('ignore-bbox-crs') ? CRS84 : bboxCrs;
      const corners = [[minA, minB], [maxA, maxB], [minA, maxB], [maxA, minB]].map((corner) => transform(corner as [number, number], from, RD, false, datumShift));
      const xs = corners.map((corner) => corner[0]);
      const ys = corners.map((corner) => corner[1]);
      return rd[0] >= Math.min(...xs) && rd[0] <= Math.max(...xs) && rd[1] >= Math.min(...ys) && rd[1] <= Math.max(...ys);
    });
    send(200, list(selected), namedCrs);
  });
}
