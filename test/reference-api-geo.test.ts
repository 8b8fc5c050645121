import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Agent, request } from 'node:https';
import { MONUMENT_LOCATIONS, PERCELEN, signedArea } from '../examples/reference-api/geodata.js';
import { loadDescription } from '../examples/reference-api/description.js';
import { startReferenceApi, type ReferenceApi } from '../examples/reference-api/server.js';
import { createSchemaValidator } from '../examples/reference-api/validation.js';

/**
 * The geospatial side of the reference API (OGC API Features parts 1 and 2), against the real
 * server on loopback: the dataset, the collections and their CRSs, features in every CRS at
 * positions known beforehand, Content-Crs, bbox and bbox-crs, paging, and the errors. What each
 * --break switch breaks is tested with the other switches, in reference-api.test.ts.
 */

const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
const EPSG = (code: number): string => `http://www.opengis.net/def/crs/EPSG/0/${code}`;
const ALL_CRS = [CRS84, EPSG(28992), EPSG(4258), EPSG(3857)];
const description = loadDescription();
const validate = createSchemaValidator(description.document);

type Position = [number, number];

/**
 * The Oude Waag (GM-0123), stored at RD New (155041.75, 463108.9), in every CRS. Computed once
 * with proj4 (RD New with the 7-parameter towgs84 shift) and written down here, so that a change
 * in the server's transformations shows; checked independently below against the published
 * position of the RD origin. EPSG:4258 is latitude first, as EPSG defines it.
 */
const OUDE_WAAG: Record<string, { position: Position; tolerance: number }> = {
  [CRS84]: { position: [5.3878136, 52.1561511], tolerance: 1e-7 },
  [EPSG(4258)]: { position: [52.1561511, 5.3878136], tolerance: 1e-7 },
  [EPSG(3857)]: { position: [599768.67, 6828408.97], tolerance: 0.01 },
  [EPSG(28992)]: { position: [155041.75, 463108.9], tolerance: 0.001 },
};

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

let api: ReferenceApi;
let agent: Agent;

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  const url = path.startsWith('https:') ? path : `${api.baseUrl}${path}`;
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, headers, agent }, (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Parsed response bodies, read field by field; the schemas of the description are checked separately. */
type Json = any;

function json(answer: Answer): Json {
  return JSON.parse(answer.body) as Json;
}

function items(collection: string, query: Record<string, string> = {}): Promise<Answer> {
  const search = new URLSearchParams(query).toString();
  return get(`/collections/${collection}/items${search === '' ? '' : `?${search}`}`);
}

function ids(answer: Answer): string[] {
  expect(answer.status).toBe(200);
  return (json(answer).features as Array<{ id: string }>).map((feature) => feature.id);
}

function expectClose(actual: number[], expected: readonly number[], tolerance: number): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((value, index) => expect(Math.abs(value - (expected[index] as number))).toBeLessThanOrEqual(tolerance));
}

function expectProblem(answer: Answer, status: number, parameter?: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/problem+json');
  expect(answer.headers['content-crs']).toBeUndefined();
  const body = json(answer);
  expect(validate('/components/schemas/Probleem', body)).toEqual([]);
  if (parameter !== undefined) expect((body.invalidParams as Array<{ name: string }>).map((entry) => entry.name)).toContain(parameter);
}

/** The description's example links name https://localhost; the server names its own origin. */
function localised(example: unknown): unknown {
  return JSON.parse(JSON.stringify(example).replaceAll('https://localhost/v1', api.baseUrl));
}

function operationOf(path: string): Json {
  return (description.document.paths as Json)[path].get;
}

beforeAll(async () => {
  api = await startReferenceApi();
  agent = new Agent({ keepAlive: true, ca: api.caPem, maxSockets: 8 });
}, 60000);

afterAll(async () => {
  agent.destroy();
  await api.close();
});

// ---------------------------------------------------------------------------------------------

describe('the dataset', () => {
  const segmentsCross = (a: Position, b: Position, c: Position, d: Position): boolean => {
    const side = (p: Position, q: Position, r: Position): number => Math.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
    return side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0;
  };
  const inside = ([x, y]: Position, ring: Position[]): boolean => {
    let result = false;
    for (let i = 0, j = ring.length - 2; i < ring.length - 1; j = i, i += 1) {
      const [xi, yi] = ring[i] as Position;
      const [xj, yj] = ring[j] as Position;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) result = !result;
    }
    return result;
  };

  test('every one of the 25 seeded monuments has a location, within 5 km of the RD origin and apart from each other', () => {
    const locations = Object.entries(MONUMENT_LOCATIONS);
    expect(locations.map(([id]) => id).sort()).toEqual(Array.from({ length: 25 }, (_, index) => `GM-${String(101 + index).padStart(4, '0')}`));
    for (const [, [x, y]] of locations) expect(Math.hypot(x - 155000, y - 463000)).toBeLessThan(5000);
    for (const [a, p] of locations) for (const [b, q] of locations) if (a < b) expect(Math.hypot(p[0] - q[0], p[1] - q[1])).toBeGreaterThan(10);
  });

  test('parcels are simple closed rings, the exterior counter-clockwise and holes clockwise, each under its monument', () => {
    expect(PERCELEN.length).toBeGreaterThanOrEqual(10);
    expect(new Set(PERCELEN.map((perceel) => perceel.perceelId)).size).toBe(PERCELEN.length);
    for (const perceel of PERCELEN) {
      const [exterior, ...holes] = perceel.geometry.coordinates as [Position[], ...Position[][]];
      for (const ring of [exterior, ...holes]) {
        expect(ring.length).toBeGreaterThanOrEqual(4);
        expect(ring[0]).toEqual(ring[ring.length - 1]);
        for (let i = 0; i < ring.length - 1; i += 1) {
          for (let j = i + 2; j < ring.length - 1; j += 1) {
            if (i === 0 && j === ring.length - 2) continue;
            expect([perceel.perceelId, i, j, segmentsCross(ring[i] as Position, ring[i + 1] as Position, ring[j] as Position, ring[j + 1] as Position)]).toEqual([perceel.perceelId, i, j, false]);
          }
        }
      }
      expect(signedArea(exterior)).toBeGreaterThan(0);
      for (const hole of holes) {
        expect(signedArea(hole)).toBeLessThan(0);
        expect(hole.every((position) => inside(position, exterior))).toBe(true);
      }
      const monument = MONUMENT_LOCATIONS[perceel.monumentId] as Position;
      expect([perceel.perceelId, inside(monument, exterior) && holes.every((hole) => !inside(monument, hole))]).toEqual([perceel.perceelId, true]);
    }
  });
});

describe('discovery', () => {
  test('the conformance classes of OGC API Features parts 1 (core, GeoJSON) and 2 (CRS)', async () => {
    const answer = await get('/conformance');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(json(answer).conformsTo).toEqual(expect.arrayContaining([
      'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
      'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
      'http://www.opengis.net/spec/ogcapi-features-2/1.0/conf/crs',
    ]));
  });

  test('the collections, each with its CRS list, its storage CRS in that list, an items link and an extent', async () => {
    const answer = await get('/collections');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['content-crs']).toBeUndefined();
    const body = json(answer);
    expect(body.crs).toEqual(ALL_CRS);
    expect(body.links).toEqual([{ href: `${api.baseUrl}/collections`, rel: 'self', type: 'application/json', title: 'De collecties' }]);
    expect(body.collections.map((collection: Json) => collection.id)).toEqual(['monumenten', 'percelen']);
    for (const collection of body.collections) {
      expect(collection.crs).toEqual(ALL_CRS);
      expect(collection.storageCrs).toBe(EPSG(28992));
      expect(collection.itemType).toBe('feature');
      expect(collection.links).toContainEqual(expect.objectContaining({ rel: 'items', type: 'application/geo+json', href: `${api.baseUrl}/collections/${collection.id}/items` }));
      expect(json(await get(`/collections/${collection.id}`))).toEqual(collection);
      // Every feature lies within the extent.
      const [minLon, minLat, maxLon, maxLat] = collection.extent.spatial.bbox[0] as [number, number, number, number];
      const all = json(await items(collection.id, { limit: '100' }));
      const positions = all.features.flatMap((feature: Json) => (feature.geometry.type === 'Point' ? [feature.geometry.coordinates] : feature.geometry.coordinates.flat()));
      for (const [lon, lat] of positions) expect(lon >= minLon && lon <= maxLon && lat >= minLat && lat <= maxLat).toBe(true);
    }
  });

  test('an unknown collection and an unknown feature are 404 problems', async () => {
    expectProblem(await get('/collections/gebouwen'), 404);
    expectProblem(await get('/collections/gebouwen/items'), 404);
    expectProblem(await get('/collections/monumenten/items/GM-9999'), 404);
    expectProblem(await get('/collections/percelen/items/GM-0123'), 404);
  });

  test('the examples of the description are what the server answers', async () => {
    const collections = json(await get('/collections'));
    const example = localised(operationOf('/collections').responses['200'].content['application/json'].example) as Json;
    expect(collections.collections[0]).toEqual(example.collections[0]);
    expect(json(await get('/collections/percelen'))).toEqual(localised(operationOf('/collections/{collectionId}').responses['200'].content['application/json'].example));
    const feature = operationOf('/collections/{collectionId}/items/{featureId}').responses['200'].content['application/geo+json'].examples;
    expect(json(await get(`/collections/monumenten/items/GM-0123?crs=${EPSG(4258)}`))).toEqual(localised(feature.monument.value));
    expect(json(await get(`/collections/percelen/items/VBS01-K-1202?crs=${EPSG(28992)}`))).toEqual(localised(feature.perceel.value));
    const { timeStamp: _exampleTime, ...page } = localised(operationOf('/collections/{collectionId}/items').responses['200'].content['application/geo+json'].example) as Json;
    const { timeStamp, ...served } = json(await items('monumenten', { limit: '1' }));
    expect(timeStamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(served).toEqual(page);
  });
});

describe('coordinate reference systems', () => {
  test.each(Object.entries(OUDE_WAAG))('the Oude Waag in %s is where it is known to be, with Content-Crs naming it', async (crs, { position, tolerance }) => {
    const feature = await get(`/collections/monumenten/items/GM-0123?crs=${encodeURIComponent(crs)}`);
    expect(feature.status).toBe(200);
    expect(feature.headers['content-type']).toBe('application/geo+json');
    expect(feature.headers['content-crs']).toBe(`<${crs}>`);
    expect(json(feature).geometry.type).toBe('Point');
    expectClose(json(feature).geometry.coordinates, position, tolerance);
    // The same position in a FeatureCollection.
    const page = await items('monumenten', { crs, limit: '100' });
    expect(page.headers['content-crs']).toBe(`<${crs}>`);
    expectClose(json(page).features.find((candidate: Json) => candidate.id === 'GM-0123').geometry.coordinates, position, tolerance);
  });

  test('without crs: CRS84, and Content-Crs says so; HEAD carries the same header', async () => {
    const feature = await get('/collections/monumenten/items/GM-0123');
    expect(feature.headers['content-crs']).toBe(`<${CRS84}>`);
    expect(json(feature).geometry.coordinates).toEqual(OUDE_WAAG[CRS84]?.position);
    const head = await get('/collections/monumenten/items', {}, 'HEAD');
    expect([head.status, head.headers['content-crs'], head.body]).toEqual([200, `<${CRS84}>`, '']);
  });

  test('CRS84 agrees within a metre and a half with the published position of the RD origin, offset by the stored metres', () => {
    // Kadaster (RDNAPTRANS): RD (155000, 463000) is ETRS89 52.15517440 N, 5.38720621 E. The Oude
    // Waag lies 41.75 m east and 108.9 m north of it; near the origin RD's scale is 0.9999079 and
    // its grid north is true north to a few millionths of a radian.
    const [lat0, lon0] = [52.1551744, 5.38720621];
    const a = 6378137;
    const e2 = 0.00669438002290;
    const phi = (lat0 * Math.PI) / 180;
    const w = 1 - e2 * Math.sin(phi) ** 2;
    const metresPerDegreeLat = ((a * (1 - e2)) / w ** 1.5) * (Math.PI / 180);
    const metresPerDegreeLon = (a / Math.sqrt(w)) * Math.cos(phi) * (Math.PI / 180);
    const [dx, dy] = [41.75 / 0.9999079, 108.9 / 0.9999079];
    const [lon, lat] = OUDE_WAAG[CRS84]?.position as Position;
    const errorMetres = Math.hypot((lon - (lon0 + dx / metresPerDegreeLon)) * metresPerDegreeLon, (lat - (lat0 + dy / metresPerDegreeLat)) * metresPerDegreeLat);
    expect(errorMetres).toBeLessThan(1.5);
  });

  test('a polygon: stored coordinates in RD New, the same rings swapped in EPSG:4258, closed in every CRS', async () => {
    const stored = PERCELEN.find((perceel) => perceel.perceelId === 'VBS01-K-1310')?.geometry.coordinates;
    const rd = json(await get(`/collections/percelen/items/VBS01-K-1310?crs=${EPSG(28992)}`)).geometry;
    expect(rd).toEqual({ type: 'Polygon', coordinates: stored });
    const crs84 = json(await get('/collections/percelen/items/VBS01-K-1310')).geometry.coordinates as Position[][];
    const etrs89 = json(await get(`/collections/percelen/items/VBS01-K-1310?crs=${EPSG(4258)}`)).geometry.coordinates as Position[][];
    expect(etrs89).toEqual(crs84.map((ring) => ring.map(([lon, lat]) => [lat, lon])));
    for (const crs of ALL_CRS) {
      const rings = json(await get(`/collections/percelen/items/VBS01-K-1310?crs=${encodeURIComponent(crs)}`)).geometry.coordinates as Position[][];
      expect(rings).toHaveLength(2);
      for (const ring of rings) expect(ring[0]).toEqual(ring[ring.length - 1]);
    }
    // Degrees with 7 decimals, metres with 2.
    expect(crs84.flat(2).every((value) => Math.abs(value * 1e7 - Math.round(value * 1e7)) < 1e-6)).toBe(true);
    const mercator = json(await get(`/collections/percelen/items/VBS01-K-1310?crs=${EPSG(3857)}`)).geometry.coordinates as Position[][];
    expect(mercator.flat(2).every((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6)).toBe(true);
  });

  test.each([
    ['EPSG:4326 as URI', EPSG(4326)],
    ['a code instead of a URI', 'EPSG:28992'],
    ['a URI in angle brackets', `<${EPSG(28992)}>`],
    ['the URI over https', 'https://www.opengis.net/def/crs/EPSG/0/28992'],
    ['nonsense', 'RD'],
  ])('an unsupported crs (%s) is a 400 problem naming crs, on items and on a feature', async (_what, crs) => {
    expectProblem(await items('monumenten', { crs }), 400, 'crs');
    expectProblem(await get(`/collections/percelen/items/VBS01-K-1202?crs=${encodeURIComponent(crs)}`), 400, 'crs');
  });
});

describe('bbox and bbox-crs', () => {
  // The Binnenstad: one area in each CRS, with no feature near its edges.
  const BINNENSTAD: Array<[string, string]> = [
    [CRS84, '5.385,52.154,5.391,52.158'],
    [EPSG(28992), '154850,462870,155260,463315'],
    [EPSG(4258), '52.154,5.385,52.158,5.391'],
    [EPSG(3857), '599460,6828020,600120,6828740'],
  ];
  const MONUMENTEN_BINNENSTAD = ['GM-0101', 'GM-0102', 'GM-0109', 'GM-0112', 'GM-0114', 'GM-0123'];
  const PERCELEN_BINNENSTAD = ['VBS01-K-1187', 'VBS01-K-1201', 'VBS01-K-1202', 'VBS01-K-1310', 'VBS01-K-1422'];

  test.each(BINNENSTAD)('a bbox in %s selects the Binnenstad, points and polygons', async (crs, bbox) => {
    const query: Record<string, string> = crs === CRS84 ? { bbox } : { bbox, 'bbox-crs': crs };
    expect(ids(await items('monumenten', query))).toEqual(MONUMENTEN_BINNENSTAD);
    expect(ids(await items('percelen', query))).toEqual(PERCELEN_BINNENSTAD);
  });

  test('a bbox is in the axis order of its CRS: EPSG:4258 in lon/lat order selects nothing', async () => {
    const answer = await items('monumenten', { bbox: '5.385,52.154,5.391,52.158', 'bbox-crs': EPSG(4258) });
    expect([answer.status, json(answer).numberMatched, json(answer).features]).toEqual([200, 0, []]);
  });

  test('a polygon is selected when its envelope touches the bbox, not only when its corner does', async () => {
    // A narrow bbox through the middle of the station building, clear of its corners.
    expect(ids(await items('percelen', { bbox: '154080,462655,154082,462660', 'bbox-crs': EPSG(28992) }))).toEqual(['VBS04-S-0233']);
  });

  test('a bbox over one corner of a parcel selects it: intersects, not within', async () => {
    expect(ids(await items('percelen', { bbox: '154930,462990,154940,463000', 'bbox-crs': EPSG(28992) }))).toEqual(['VBS01-K-1187']);
  });

  test('a bbox away from all features selects none; the whole world selects all', async () => {
    for (const [bbox, crs] of [['4.88,52.36,4.92,52.38', CRS84], ['120000,480000,125000,490000', EPSG(28992)], ['-170,-80,-160,-70', CRS84]]) {
      const answer = await items('monumenten', { bbox: bbox as string, 'bbox-crs': crs as string });
      expect([answer.status, json(answer).numberMatched, json(answer).numberReturned, json(answer).features]).toEqual([200, 0, 0, []]);
    }
    expect(json(await items('monumenten', { bbox: '-180,-90,180,90' })).numberMatched).toBe(25);
    expect(json(await items('percelen', { bbox: '-20037508,-20037508,20037508,20037508', 'bbox-crs': EPSG(3857) })).numberMatched).toBe(PERCELEN.length);
  });

  test('bbox and crs together: selected in one CRS, delivered in another', async () => {
    const answer = await items('monumenten', { bbox: '154850,462870,155260,463315', 'bbox-crs': EPSG(28992), crs: EPSG(4258), limit: '100' });
    expect(answer.headers['content-crs']).toBe(`<${EPSG(4258)}>`);
    expectClose(json(answer).features.find((feature: Json) => feature.id === 'GM-0123').geometry.coordinates, OUDE_WAAG[EPSG(4258)]?.position as Position, 1e-7);
  });

  test.each([
    ['three numbers', 'bbox', { bbox: '5.38,52.15,5.4' }],
    ['six numbers', 'bbox', { bbox: '5.38,52.15,0,5.4,52.16,10' }],
    ['no number', 'bbox', { bbox: '5.38,noord,5.4,52.16' }],
    ['empty', 'bbox', { bbox: '' }],
    ['minimum after maximum', 'bbox', { bbox: '5.4,52.15,5.38,52.16' }],
    ['a latitude over 90 degrees', 'bbox', { bbox: '5.38,52.15,5.4,92' }],
    ['a latitude over 90 degrees in EPSG:4258 (latitude first)', 'bbox', { bbox: '52.15,5.38,92,5.4', 'bbox-crs': EPSG(4258) }],
    ['outside Web Mercator', 'bbox', { bbox: '0,0,30000000,1', 'bbox-crs': EPSG(3857) }],
    ['bbox twice', 'bbox', { 'bbox&bbox': '5.38,52.15,5.4,52.16' }],
    ['an unsupported bbox-crs', 'bbox-crs', { bbox: '5.38,52.15,5.4,52.16', 'bbox-crs': EPSG(4326) }],
    ['bbox-crs as a code', 'bbox-crs', { bbox: '155000,463000,155100,463100', 'bbox-crs': 'EPSG:28992' }],
    ['an undeclared parameter', 'bbx', { bbx: '5.38,52.15,5.4,52.16' }],
  ])('%s is a 400 problem naming %s', async (_what, parameter, query) => {
    const search = Object.entries(query).map(([name, value]) => (name === 'bbox&bbox' ? `bbox=${value}&bbox=${value}` : `${name}=${encodeURIComponent(value)}`)).join('&');
    expectProblem(await get(`/collections/monumenten/items?${search}`), 400, parameter);
  });
});

describe('paging', () => {
  test('10 per page by default; next and prev links, typed, walk all 25 exactly once', async () => {
    const first = json(await items('monumenten'));
    expect([first.numberMatched, first.numberReturned]).toEqual([25, 10]);
    const rels = (page: Json): string[] => page.links.map((link: Json) => link.rel);
    expect(rels(first)).toEqual(['self', 'next', 'collection']);
    for (const link of first.links) expect(link.type).toBe(link.rel === 'collection' ? 'application/json' : 'application/geo+json');
    const seen: string[] = [];
    let page = first;
    const visited: Json[] = [];
    for (;;) {
      visited.push(page);
      seen.push(...page.features.map((feature: Json) => feature.id));
      const next = page.links.find((link: Json) => link.rel === 'next');
      if (next === undefined) break;
      page = json(await get(next.href));
    }
    expect(visited.map((each) => each.numberReturned)).toEqual([10, 10, 5]);
    expect(seen).toEqual([...Object.keys(MONUMENT_LOCATIONS)].sort());
    const last = visited[2];
    expect(rels(last)).toEqual(['self', 'prev', 'collection']);
    expect(ids(await get(last.links.find((link: Json) => link.rel === 'prev').href))).toEqual(visited[1].features.map((feature: Json) => feature.id));
  });

  test('links keep bbox, bbox-crs and crs', async () => {
    const page = json(await items('monumenten', { bbox: '154000,462000,157000,464000', 'bbox-crs': EPSG(28992), crs: EPSG(3857), limit: '4' }));
    const next = page.links.find((link: Json) => link.rel === 'next').href as string;
    const query = new URL(next).searchParams;
    expect([query.get('bbox'), query.get('bbox-crs'), query.get('crs'), query.get('limit'), query.get('offset')]).toEqual(['154000,462000,157000,464000', EPSG(28992), EPSG(3857), '4', '4']);
    const second = await get(next);
    expect(second.headers['content-crs']).toBe(`<${EPSG(3857)}>`);
    expect(json(second).numberMatched).toBe(page.numberMatched);
  });

  test('a limit over 100 is no error but gives at most 100; a limit of 0 and a negative offset are', async () => {
    const many = await items('monumenten', { limit: '1000' });
    expect([many.status, json(many).numberReturned]).toEqual([200, 25]);
    expect(new URL(json(many).links[0].href).searchParams.get('limit')).toBe('100');
    expectProblem(await items('monumenten', { limit: '0' }), 400, 'limit');
    expectProblem(await items('monumenten', { offset: '-1' }), 400, 'offset');
    const beyond = json(await items('monumenten', { offset: '30' }));
    expect([beyond.numberMatched, beyond.numberReturned, beyond.links.map((link: Json) => link.rel)]).toEqual([25, 0, ['self', 'prev', 'collection']]);
  });
});

describe('media types and validation', () => {
  test('features come as application/geo+json and match the schemas; an Accept the API cannot serve gets 406', async () => {
    const page = await items('percelen', { limit: '100' });
    expect(page.headers['content-type']).toBe('application/geo+json');
    expect(validate('/components/schemas/FeatureCollectie', json(page))).toEqual([]);
    for (const feature of json(page).features) expect(validate('/components/schemas/Feature', feature)).toEqual([]);
    expect((await get('/collections/monumenten/items', { Accept: 'application/geo+json' })).status).toBe(200);
    expect((await get('/collections/monumenten/items', { Accept: 'application/*' })).status).toBe(200);
    expectProblem(await get('/collections/monumenten/items', { Accept: 'application/json' }), 406);
    expectProblem(await get('/collections/monumenten/items/GM-0123', { Accept: 'text/html' }), 406);
  });

  test('a feature is a GeoJSON Feature with id, geometry, properties and links to itself, its collection and the register', async () => {
    const feature = json(await get('/collections/monumenten/items/GM-0104'));
    expect(feature).toMatchObject({
      type: 'Feature',
      id: 'GM-0104',
      geometry: { type: 'Point' },
      properties: { naam: 'Watertoren', monumentType: 'bouwwerk', status: 'beschermd', bouwjaar: 1927, wijk: 'Oosterpark', adres: 'Torenlaan 3, 1235 CE Voorbeeldstad' },
    });
    expect(feature.links.map((link: Json) => [link.rel, link.href])).toEqual([
      ['self', `${api.baseUrl}/collections/monumenten/items/GM-0104`],
      ['collection', `${api.baseUrl}/collections/monumenten`],
      ['alternate', `${api.baseUrl}/monumenten/GM-0104`],
    ]);
    const perceel = json(await get('/collections/percelen/items/VBS02-M-0845'));
    expect(perceel.properties).toEqual({
      kadastraleAanduiding: 'VBS02 M 845', kadastraleGemeentecode: 'VBS02', sectie: 'M', perceelnummer: 845, kadastraleGrootte: 3421, omschrijving: 'Villa met tuin en koetshuis', monumentId: 'GM-0110',
    });
    expect(perceel.links.find((link: Json) => link.rel === 'related').href).toBe(`${api.baseUrl}/monumenten/GM-0110`);
  });
});

describe('the monument features follow the register', () => {
  let own: ReferenceApi;
  let ownAgent: Agent;

  beforeAll(async () => {
    own = await startReferenceApi();
    ownAgent = new Agent({ keepAlive: true, ca: own.caPem });
  }, 60000);

  afterAll(async () => {
    ownAgent.destroy();
    await own.close();
  });

  function send(method: string, path: string, body?: unknown, type = 'application/json'): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const outgoing = request(`${own.baseUrl}${path}`, { method, agent: ownAgent, headers: { Authorization: `Bearer ${own.writeToken}`, ...(body === undefined ? {} : { 'Content-Type': type }) } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      });
      outgoing.on('error', reject);
      outgoing.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }

  test('a change shows in the feature, a deleted monument is no feature, a new one has no location and is none', async () => {
    expect((await send('PATCH', '/monumenten/GM-0104', { naam: 'Oude Watertoren' }, 'application/merge-patch+json')).status).toBe(200);
    expect(json(await send('GET', '/collections/monumenten/items/GM-0104')).properties.naam).toBe('Oude Watertoren');
    expect((await send('DELETE', '/monumenten/GM-0125')).status).toBe(204);
    expect((await send('GET', '/collections/monumenten/items/GM-0125')).status).toBe(404);
    const created = await send('POST', '/monumenten', { naam: 'Kiosk', monumentType: 'object', adres: { straatnaam: 'Stationsplein', woonplaats: 'Voorbeeldstad' } });
    expect(created.status).toBe(201);
    const page = json(await send('GET', '/collections/monumenten/items?limit=100'));
    expect(page.numberMatched).toBe(24);
    expect(page.features.map((feature: Json) => feature.id)).not.toContain(json(created).monumentId);
  });
});

// ---------------------------------------------------------------------------------------------
// Recording parcels: POST /collections/percelen/items with Content-Crs, DELETE of a recorded one

/** A request to a server of its own, with a body and headers; the write token unless `anonymous`. */
interface Sent {
  headers?: Record<string, string>;
  body?: unknown;
  anonymous?: boolean;
}

function sendTo(target: ReferenceApi, targetAgent: Agent, method: string, path: string, { headers = {}, body, anonymous = false }: Sent = {}): Promise<Answer> {
  const url = path.startsWith('https:') ? path : `${target.baseUrl}${path}`;
  const auth: Record<string, string> = anonymous ? {} : { Authorization: `Bearer ${target.writeToken}` };
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const type: Record<string, string> = payload === undefined ? {} : { 'Content-Type': 'application/geo+json' };
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, agent: targetAgent, headers: { ...auth, ...type, ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/** A server of its own, so that what a describe block records is seen by none of the others. */
function ownServer(options: Parameters<typeof startReferenceApi>[0] = {}): { send: (method: string, path: string, sent?: Sent) => Promise<Answer>; api: () => ReferenceApi } {
  let own: ReferenceApi;
  let ownAgent: Agent;
  beforeAll(async () => {
    own = await startReferenceApi(options);
    ownAgent = new Agent({ keepAlive: true, ca: own.caPem });
  }, 60000);
  afterAll(async () => {
    ownAgent.destroy();
    await own.close();
  });
  return { send: (method, path, sent) => sendTo(own, ownAgent, method, path, sent), api: () => own };
}

const PERCEEL_GEGEVENS = { kadastraleGemeentecode: 'VBS01', sectie: 'K', perceelnummer: 1311, monumentId: 'GM-0109', omschrijving: 'Gasthuis, opnieuw gemeten' };

function perceel(rings: number[][][], properties: Record<string, unknown> = PERCEEL_GEGEVENS): Json {
  return { type: 'Feature', geometry: { type: 'Polygon', coordinates: rings }, properties };
}

/** Spherical Web Mercator (EPSG:3857) from CRS84, by its closed formulas: no proj4 in the test. */
function webMercator([lon, lat]: Position): Position {
  const radius = 6378137;
  return [radius * (lon * Math.PI / 180), radius * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI / 180) / 2))];
}

/** The distance in metres between two CRS84 positions a few metres apart (the local scale at 52 degrees north). */
function metresApart([lon1, lat1]: Position, [lon2, lat2]: Position): number {
  const metresPerDegreeLat = 111_263;
  const metresPerDegreeLon = metresPerDegreeLat * Math.cos((lat1 * Math.PI) / 180);
  return Math.hypot((lon1 - lon2) * metresPerDegreeLon, (lat1 - lat2) * metresPerDegreeLat);
}

function expectWithinACentimetre(actual: Position[][], expected: Position[][]): void {
  expect(actual.map((ring) => ring.length)).toEqual(expected.map((ring) => ring.length));
  const furthest = Math.max(...actual.flatMap((ring, r) => ring.map((position, p) => metresApart(position, expected[r]?.[p] as Position))));
  expect(furthest).toBeLessThanOrEqual(0.01);
}

function invalidNames(answer: Answer): string[] {
  return (json(answer).invalidParams as Array<{ name: string }>).map((entry) => entry.name);
}

describe('recording a parcel (POST /collections/percelen/items)', () => {
  const server = ownServer();
  // The Gasthuis parcel, with its hole: its stored RD New rings, and as the API serves it in CRS84.
  const STORED = PERCELEN.find((candidate) => candidate.perceelId === 'VBS01-K-1310')?.geometry.coordinates as Position[][];
  let crs84: Position[][];

  beforeAll(async () => {
    crs84 = json(await server.send('GET', '/collections/percelen/items/VBS01-K-1310')).geometry.coordinates as Position[][];
  });

  /** The same rings in each CRS, in its axis order, made without the server's transformations. */
  const ringsIn = (crs: string): number[][][] => {
    if (crs === EPSG(28992)) return STORED;
    if (crs === EPSG(4258)) return crs84.map((ring) => ring.map(([lon, lat]) => [lat, lon]));
    if (crs === EPSG(3857)) return crs84.map((ring) => ring.map(webMercator));
    return crs84;
  };

  test.each(ALL_CRS.flatMap((crs) => [[crs, `<${crs}>`], [crs, crs]]))('sent in %s (Content-Crs: %s) it comes back within a centimetre of where it was made', async (crs, contentCrs) => {
    const created = await server.send('POST', '/collections/percelen/items', { headers: { 'Content-Crs': contentCrs }, body: perceel(ringsIn(crs)) });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`${server.api().baseUrl}/collections/percelen/items/${json(created).id as string}`);
    const fetched = await server.send('GET', created.headers.location as string);
    expect([fetched.status, fetched.headers['content-crs']]).toEqual([200, `<${CRS84}>`]);
    expectWithinACentimetre(json(fetched).geometry.coordinates, crs84);
  });

  test('without Content-Crs the geometry is CRS84; RD New coordinates sent without it are refused, not stored far away', async () => {
    const created = await server.send('POST', '/collections/percelen/items', { body: perceel(crs84) });
    expect(created.status).toBe(201);
    expectWithinACentimetre(json(await server.send('GET', created.headers.location as string)).geometry.coordinates, crs84);
    const rdWithoutHeader = await server.send('POST', '/collections/percelen/items', { body: perceel(STORED) });
    expectProblem(rdWithoutHeader, 400, 'geometry.coordinates.0.0');
    expect(json(rdWithoutHeader).invalidParams[0].reason).toBe(`ligt buiten het domein van ${CRS84}`);
  });

  test('the 201: ids VP-nnnn in order, Location, API-Version, Content-Crs and geometry in the crs asked for, derived properties', async () => {
    const inRd = await server.send('POST', `/collections/percelen/items?crs=${encodeURIComponent(EPSG(28992))}`, { headers: { 'Content-Crs': `<${EPSG(28992)}>` }, body: perceel(STORED) });
    expect(inRd.status).toBe(201);
    expect(inRd.headers['content-type']).toBe('application/geo+json');
    expect(inRd.headers['content-crs']).toBe(`<${EPSG(28992)}>`);
    expect(inRd.headers['api-version']).toBe(description.version);
    const feature = json(inRd);
    expect(validate('/components/schemas/Feature', feature)).toEqual([]);
    expect(feature.id).toMatch(/^VP-\d{4}$/);
    expect(feature.geometry).toEqual({ type: 'Polygon', coordinates: STORED });
    expect(feature.properties).toEqual({
      kadastraleAanduiding: 'VBS01 K 1311', kadastraleGemeentecode: 'VBS01', sectie: 'K', perceelnummer: 1311, kadastraleGrootte: 1477, omschrijving: 'Gasthuis, opnieuw gemeten', monumentId: 'GM-0109',
    });
    expect(json(await server.send('GET', '/collections/percelen/items/VBS01-K-1310')).properties.kadastraleGrootte).toBe(1477);
    const inEtrs89 = await server.send('POST', `/collections/percelen/items?crs=${encodeURIComponent(EPSG(4258))}`, { body: perceel(crs84) });
    expect(inEtrs89.headers['content-crs']).toBe(`<${EPSG(4258)}>`);
    expect(json(inEtrs89).geometry.coordinates).toEqual(crs84.map((ring) => ring.map(([lon, lat]) => [lat, lon])));
    const [a, b] = [Number(feature.id.slice(3)), Number(json(inEtrs89).id.slice(3))];
    expect(b).toBe(a + 1);
  });

  test("the description's example is what the server answers", async () => {
    const operation = (description.document.paths as Json)['/collections/{collectionId}/items'].post;
    const contentCrs = (description.document.components as Json).parameters.ContentCrsInvoer.schema.example as string;
    const created = await server.send('POST', '/collections/percelen/items', { headers: { 'Content-Crs': contentCrs }, body: operation.requestBody.content['application/geo+json'].example });
    expect(created.status).toBe(201);
    const id = json(created).id as string;
    const example = operation.responses['201'].content['application/geo+json'].example as Json;
    expect(json(created)).toEqual(JSON.parse(JSON.stringify(example).replaceAll('https://localhost/v1', server.api().baseUrl).replaceAll('VP-0001', id)));
  });

  test('a feature fetched from the API is accepted as it is: id, links and derived properties are ignored', async () => {
    const fetched = json(await server.send('GET', '/collections/percelen/items/VBS02-M-0845'));
    const created = await server.send('POST', '/collections/percelen/items', { body: { ...fetched, properties: { ...fetched.properties, kadastraleAanduiding: 'X 1', kadastraleGrootte: 1 } } });
    expect(created.status).toBe(201);
    expect(json(created).id).not.toBe('VBS02-M-0845');
    expect(json(created).properties).toEqual(fetched.properties);
    expect(json(created).geometry).toEqual(fetched.geometry);
  });

  test('a ring sent clockwise is stored counter-clockwise (RFC 7946), in the same place', async () => {
    const clockwise = STORED.map((ring) => [...ring].reverse());
    const created = json(await server.send('POST', `/collections/percelen/items?crs=${encodeURIComponent(EPSG(28992))}`, { headers: { 'Content-Crs': EPSG(28992) }, body: perceel(clockwise) }));
    expect(created.geometry.coordinates).toEqual(STORED);
  });

  test.each([
    ['EPSG:4326 as URI', `<${EPSG(4326)}>`],
    ['a code instead of a URI', 'EPSG:28992'],
    ['the URI over https', '<https://www.opengis.net/def/crs/EPSG/0/28992>'],
    ['two pairs of angle brackets', `<<${EPSG(28992)}>>`],
    ['one angle bracket', `<${EPSG(28992)}`],
  ])('an unsupported Content-Crs (%s) is a 400 problem naming Content-Crs; nothing is recorded', async (_what, contentCrs) => {
    const before = json(await server.send('GET', '/collections/percelen/items')).numberMatched as number;
    expectProblem(await server.send('POST', '/collections/percelen/items', { headers: { 'Content-Crs': contentCrs }, body: perceel(STORED) }), 400, 'Content-Crs');
    expect(json(await server.send('GET', '/collections/percelen/items')).numberMatched).toBe(before);
  });

  test.each([
    ['a latitude over 90 degrees', CRS84, [[5.4, 52.15], [5.41, 52.15], [5.41, 95], [5.4, 52.15]], 'geometry.coordinates.0.2', `ligt buiten het domein van ${CRS84}`],
    ['a latitude over 90 degrees in EPSG:4258 (latitude first)', EPSG(4258), [[52.15, 5.4], [52.15, 5.41], [95, 5.41], [52.15, 5.4]], 'geometry.coordinates.0.2', `ligt buiten het domein van ${EPSG(4258)}`],
    ['EPSG:4258 in lon/lat order', EPSG(4258), [[5.4, 52.15], [5.41, 52.15], [5.41, 52.16], [5.4, 52.15]], 'geometry.coordinates.0.0', 'ligt buiten het gebied waar'],
    ['outside Web Mercator', EPSG(3857), [[601473, 6828011], [30000000, 6828011], [601522, 6828059], [601473, 6828011]], 'geometry.coordinates.0.1', `ligt buiten het domein van ${EPSG(3857)}`],
    ['Paris, outside the area of RD New', CRS84, [[2.35, 48.85], [2.36, 48.85], [2.36, 48.86], [2.35, 48.85]], 'geometry.coordinates.0.0', 'ligt buiten het gebied waar'],
    ['RD New coordinates far from the Netherlands', EPSG(28992), [[155000, 4630000], [155100, 4630000], [155100, 4630100], [155000, 4630000]], 'geometry.coordinates.0.0', 'ligt buiten het gebied waar'],
  ])('coordinates outside the CRS (%s) are a 400 problem naming the position', async (_what, crs, ring, name, reason) => {
    const answer = await server.send('POST', '/collections/percelen/items', { headers: { 'Content-Crs': `<${crs}>` }, body: perceel([ring as number[][]]) });
    expectProblem(answer, 400, name);
    expect(json(answer).invalidParams).toEqual([{ name, reason: expect.stringContaining(reason) }]);
  });

  test('a ring that is not closed, an unknown monument and a missing property are 400 problems naming them', async () => {
    const open = STORED.map((ring, index) => (index === 1 ? ring.slice(0, -1).concat([[154880.1, 463180.0]]) : ring));
    const answer = await server.send('POST', `/collections/percelen/items?crs=${encodeURIComponent(EPSG(28992))}`, { headers: { 'Content-Crs': `<${EPSG(28992)}>` }, body: perceel(open, { ...PERCEEL_GEGEVENS, monumentId: 'GM-9999' }) });
    expectProblem(answer, 400);
    expect(json(answer).invalidParams).toEqual([
      { name: 'geometry.coordinates.1', reason: 'is geen gesloten ring: de eerste positie moet ook de laatste zijn' },
      { name: 'properties.monumentId', reason: 'is geen monument in het register' },
    ]);
    const { sectie: _sectie, ...withoutSectie } = PERCEEL_GEGEVENS;
    expectProblem(await server.send('POST', '/collections/percelen/items', { body: perceel(crs84, withoutSectie) }), 400, 'properties.sectie');
    expectProblem(await server.send('POST', '/collections/percelen/items', { body: { ...perceel(crs84), geometry: { type: 'Point', coordinates: [5.4, 52.15] } } }), 400);
    expectProblem(await server.send('POST', '/collections/percelen/items?bbx=1', { body: perceel(crs84) }), 400, 'bbx');
  });

  test('without a token 401, before the body is read; another media type 415', async () => {
    const anonymous = await server.send('POST', '/collections/percelen/items', { anonymous: true, headers: { 'Content-Type': 'text/plain', 'Content-Crs': 'nonsense' }, body: 'geen JSON' });
    expectProblem(anonymous, 401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer realm="monumenten"');
    expectProblem(await server.send('POST', '/collections/percelen/items', { headers: { 'Content-Type': 'application/json' }, body: perceel(crs84) }), 415);
  });

  test('monumenten takes no features: 405 with Allow GET, HEAD, OPTIONS, also without a token; an unknown collection is 404', async () => {
    for (const anonymous of [false, true]) {
      const answer = await server.send('POST', '/collections/monumenten/items', { anonymous, body: perceel(crs84) });
      expectProblem(answer, 405);
      expect(answer.headers.allow).toBe('GET, HEAD, OPTIONS');
    }
    expectProblem(await server.send('POST', '/collections/gebouwen/items', { body: perceel(crs84) }), 404);
  });
});

describe('deleting a parcel (DELETE /collections/percelen/items/{featureId})', () => {
  const server = ownServer();

  test('a recorded parcel: 204, then 404; a seeded parcel: 409 and it stays; monumenten: 405; unknown: 404; no token: 401', async () => {
    const crs84 = json(await server.send('GET', '/collections/percelen/items/VBS01-K-1202')).geometry.coordinates as Position[][];
    const created = await server.send('POST', '/collections/percelen/items', { body: perceel(crs84) });
    const location = created.headers.location as string;
    expectProblem(await server.send('DELETE', location, { anonymous: true }), 401);
    const deleted = await server.send('DELETE', location);
    expect([deleted.status, deleted.body, deleted.headers['api-version']]).toEqual([204, '', description.version]);
    expectProblem(await server.send('GET', location), 404);
    expectProblem(await server.send('DELETE', location), 404);
    expectProblem(await server.send('DELETE', '/collections/percelen/items/VBS01-K-1202'), 409);
    expect((await server.send('GET', '/collections/percelen/items/VBS01-K-1202')).status).toBe(200);
    const monument = await server.send('DELETE', '/collections/monumenten/items/GM-0123');
    expectProblem(monument, 405);
    expect(monument.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect((await server.send('GET', '/collections/monumenten/items/GM-0123')).status).toBe(200);
    expectProblem(await server.send('DELETE', '/collections/percelen/items/VP-9999'), 404);
  });
});

describe('recorded parcels are features of percelen like the seeded ones', () => {
  const server = ownServer();
  // A parcel in Utrecht, 20 km west of the seeded ones: outside their extent.
  const UTRECHT: Position[][] = [[[5.1210, 52.0900], [5.1215, 52.0900], [5.1215, 52.0903], [5.1210, 52.0903], [5.1210, 52.0900]]];
  let id: string;

  beforeAll(async () => {
    id = json(await server.send('POST', '/collections/percelen/items', { body: perceel(UTRECHT) })).id as string;
  });

  test('after the seeded ones in items and on the last page, selected by a bbox in any CRS, inside the extent', async () => {
    const all = json(await server.send('GET', '/collections/percelen/items?limit=100'));
    expect(all.numberMatched).toBe(PERCELEN.length + 1);
    expect(all.features.map((feature: Json) => feature.id)).toEqual([...PERCELEN.map((seeded) => seeded.perceelId), id]);
    const last = json(await server.send('GET', `/collections/percelen/items?limit=5&offset=${PERCELEN.length}`));
    expect(last.features.map((feature: Json) => feature.id)).toEqual([id]);
    expect(json(await server.send('GET', '/collections/percelen/items?bbox=5.12,52.08,5.13,52.10')).features.map((feature: Json) => feature.id)).toEqual([id]);
    expect(json(await server.send('GET', `/collections/percelen/items?bbox=52.08,5.12,52.10,5.13&bbox-crs=${encodeURIComponent(EPSG(4258))}`)).features.map((feature: Json) => feature.id)).toEqual([id]);
    expect(json(await server.send('GET', '/collections/percelen/items?bbox=5.385,52.154,5.391,52.158')).features.map((feature: Json) => feature.id)).not.toContain(id);
    const [minLon, minLat, maxLon, maxLat] = json(await server.send('GET', '/collections/percelen')).extent.spatial.bbox[0] as number[];
    for (const [lon, lat] of UTRECHT.flat()) expect(lon >= (minLon as number) && lon <= (maxLon as number) && lat >= (minLat as number) && lat <= (maxLat as number)).toBe(true);
  });
});

describe('a full store of recorded parcels', () => {
  const server = ownServer({ storeLimits: { percelen: 1 } });

  test('the next parcel gets 507 problem+json; a delete makes room again', async () => {
    const crs84 = json(await server.send('GET', '/collections/percelen/items/VBS01-K-1202')).geometry.coordinates as Position[][];
    const first = await server.send('POST', '/collections/percelen/items', { body: perceel(crs84) });
    expect(first.status).toBe(201);
    const full = await server.send('POST', '/collections/percelen/items', { body: perceel(crs84) });
    expectProblem(full, 507);
    expect(json(full).detail).toBe('Het register bevat het maximum van 1 vastgelegde percelen; er kan er geen meer bij.');
    expect((await server.send('DELETE', first.headers.location as string)).status).toBe(204);
    expect((await server.send('POST', '/collections/percelen/items', { body: perceel(crs84) })).status).toBe(201);
  });
});

describe('--break geo-content-crs-ignored', () => {
  const server = ownServer({ breaks: ['geo-content-crs-ignored'] });
  const STORED = PERCELEN.find((candidate) => candidate.perceelId === 'VBS01-K-1202')?.geometry.coordinates as Position[][];

  test('a parcel sent in RD New or EPSG:4258 is refused: its coordinates are read as CRS84', async () => {
    const crs84 = json(await server.send('GET', '/collections/percelen/items/VBS01-K-1202')).geometry.coordinates as Position[][];
    const inRd = await server.send('POST', '/collections/percelen/items', { headers: { 'Content-Crs': `<${EPSG(28992)}>` }, body: perceel(STORED) });
    expectProblem(inRd, 400);
    expect(json(inRd).invalidParams).toEqual([{ name: 'geometry.coordinates.0.0', reason: `ligt buiten het domein van ${CRS84}` }]);
    // Latitude first, read as longitude 52 and latitude 5: in CRS84's domain, but in the Gulf of Guinea.
    const inEtrs89 = await server.send('POST', '/collections/percelen/items', { headers: { 'Content-Crs': `<${EPSG(4258)}>` }, body: perceel(crs84.map((ring) => ring.map(([lon, lat]) => [lat, lon]))) });
    expectProblem(inEtrs89, 400, 'geometry.coordinates.0.0');
    expect(json(inEtrs89).invalidParams[0].reason).toMatch(/^ligt buiten het gebied waar/);
    // The header itself is still checked, and CRS84 still works: only the one rule is broken.
    expectProblem(await server.send('POST', '/collections/percelen/items', { headers: { 'Content-Crs': 'EPSG:28992' }, body: perceel(STORED) }), 400, 'Content-Crs');
    expect((await server.send('POST', '/collections/percelen/items', { headers: { 'Content-Crs': `<${CRS84}>` }, body: perceel(crs84) })).status).toBe(201);
  });
});
