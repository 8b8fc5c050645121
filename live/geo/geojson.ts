import { asArray, isObject, type JsonObject } from '../../lib/json.js';
import { GEOMETRY_TYPES } from '../../lib/geo.js';
import type { Position } from './crs.js';

/** Reading what a geospatial API answered: GeoJSON geometries, their positions, feature identities. */

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function isGeometry(value: unknown): value is JsonObject {
  return isObject(value) && typeof value.type === 'string' && GEOMETRY_TYPES.includes(value.type) && (Array.isArray(value.coordinates) || Array.isArray(value.geometries));
}

/** Every position of a geometry, in order (at most `limit`), without recursion beyond GeoJSON's own depth. */
export function positionsOf(geometry: unknown, limit = 500): Position[] {
  const positions: Position[] = [];
  const stack: unknown[] = [isObject(geometry) ? (geometry.coordinates ?? geometry.geometries) : undefined];
  while (stack.length > 0 && positions.length < limit) {
    const node = stack.shift();
    if (isObject(node)) { stack.unshift(node.coordinates ?? node.geometries); continue; }
    if (!Array.isArray(node)) continue;
    if (node.length >= 2 && typeof node[0] === 'number' && typeof node[1] === 'number') positions.push([node[0], node[1]]);
    else stack.unshift(...node);
  }
  return positions;
}

/** The first GeoJSON geometry in a JSON value (breadth first, bounded), for APIs that embed geometry in plain JSON. */
export function firstGeometry(value: unknown): JsonObject | undefined {
  const queue: unknown[] = [value];
  for (let visited = 0; queue.length > 0 && visited < 5000; visited += 1) {
    const node = queue.shift();
    if (isGeometry(node)) return node;
    if (Array.isArray(node)) queue.push(...node);
    else if (isObject(node)) queue.push(...Object.values(node));
  }
  return undefined;
}

/** The items of a feature collection, or of a plain JSON resource collection (the first array of objects, `_embedded` first). */
export function itemsOf(body: unknown): JsonObject[] {
  if (!isObject(body)) return [];
  if (Array.isArray(body.features)) return body.features.filter(isObject);
  const embedded = isObject(body._embedded) ? Object.values(body._embedded).find(Array.isArray) : undefined;
  const list = embedded ?? Object.values(body).find((value) => Array.isArray(value) && value.some(isObject));
  return asArray(list).filter(isObject);
}

/** What identifies an item across requests: its id (or Dutch `identificatie`), its self link, or its properties without geometry. */
export function identityOf(item: JsonObject): string {
  if (typeof item.id === 'string' || typeof item.id === 'number') return String(item.id);
  if (typeof item.identificatie === 'string' || typeof item.identificatie === 'number') return String(item.identificatie);
  const self = isObject(item._links) && isObject(item._links.self) ? item._links.self.href : undefined;
  if (typeof self === 'string') return self;
  const { geometry: _geometry, ...rest } = item;
  return JSON.stringify(isObject(item.properties) ? item.properties : rest);
}

/** The geometry of an item: a Feature's, or the first one a plain resource embeds. */
export function geometryOf(item: unknown): JsonObject | undefined {
  if (isObject(item) && item.type === 'Feature') return isGeometry(item.geometry) ? item.geometry : undefined;
  return firstGeometry(item);
}
