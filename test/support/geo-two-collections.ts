import { description, servingDescription } from './hostile-servers.js';

/**
 * An OGC API with two collections whose features share bare identifiers: points "1" to "3" in
 * `punten` (no extent) and polygons "1" to "3" in `vlakken`, so that a check on points and one on
 * a polygon name features of two collections.
 */
export function twoCollectionsServer(): ReturnType<typeof servingDescription> {
  const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
  const points = [1, 2, 3].map((index) => ({ type: 'Feature', id: `${index}`, geometry: { type: 'Point', coordinates: [5.12 + index * 0.05, 52.09 + index * 0.05] }, properties: {} }));
  const square = (lon: number, lat: number) => [[[lon, lat], [lon + 0.02, lat], [lon + 0.02, lat + 0.02], [lon, lat + 0.02], [lon, lat]]];
  const polygons = [1, 2, 3].map((index) => ({ type: 'Feature', id: `${index}`, geometry: { type: 'Polygon', coordinates: square(5.3 + index * 0.05, 52.2) }, properties: {} }));
  type Feature = { type: string; id: string; geometry: { type: string; coordinates: unknown }; properties: object };
  const features: Record<string, Feature[]> = { punten: points, vlakken: polygons };
  const ok = { responses: { 200: { description: 'ok' } } };
  const paths = { '/collections': { get: ok }, '/collections/{collectionId}/items': { parameters: [{ name: 'collectionId', in: 'path', required: true, schema: { type: 'string', enum: ['punten', 'vlakken'] } }], get: ok } };
  return servingDescription(JSON.stringify(description({ paths })), (request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const send = (status: number, body: unknown) => response.writeHead(status, { 'content-type': status === 200 ? 'application/geo+json' : 'application/problem+json', 'content-crs': `<${CRS84}>`, 'api-version': '1.0.0' }).end(JSON.stringify(body));
    if (url.pathname === '/v1') return send(200, { links: [] });
    const collection = (id: string) => ({ id, itemType: 'feature', crs: [CRS84], links: [{ rel: 'items', type: 'application/geo+json', href: `/v1/collections/${id}/items` }] });
    if (url.pathname === '/v1/collections') return send(200, { collections: [collection('punten'), collection('vlakken')] });
    const match = /^\/v1\/collections\/(punten|vlakken)\/items(?:\/([^/]+))?$/.exec(url.pathname);
    const all = features[match?.[1] ?? ''];
    if (match === null || all === undefined) return send(404, { status: 404 });
    if (match[2] !== undefined) return send(200, all.find((feature) => feature.id === match[2]) ?? {});
    const box = url.searchParams.get('bbox')?.split(',').map(Number);
    const inBox = (feature: Feature) => {
      if (box === undefined) return true;
      const flat = JSON.stringify(feature.geometry.coordinates).match(/-?[\d.]+/g)?.map(Number) ?? [];
      const lons = flat.filter((_, index) => index % 2 === 0);
      const lats = flat.filter((_, index) => index % 2 === 1);
      return Math.max(...lons) >= (box[0] ?? 0) && Math.min(...lons) <= (box[2] ?? 0) && Math.max(...lats) >= (box[1] ?? 0) && Math.min(...lats) <= (box[3] ?? 0);
    };
    return send(200, { type: 'FeatureCollection', features: all.filter(inBox), links: [] });
  });
}
