import { asArray, asObject, isObject, type JsonObject } from '../../lib/json.js';
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
  if (Array.isArray(body)) return body.filter(isObject);
  if (!isObject(body)) return [];
  if (Array.isArray(body.features)) return body.features.filter(isObject);
  const embedded = isObject(body._embedded) ? Object.values(body._embedded).find(Array.isArray) : undefined;
  const list = embedded ?? Object.values(body).find((value) => Array.isArray(value) && value.some(isObject));
  return asArray(list).filter(isObject);
}

/** The href of a resource's link by relation: OGC `links` (`[{rel, href}]`) or HAL `_links` (`{rel: {href}}`). */
export function linkHref(resource: unknown, rel: string): unknown {
  const { links, _links: hal } = asObject(resource);
  const ogc = Array.isArray(links) ? links.find((link) => isObject(link) && link.rel === rel) : undefined;
  return isObject(ogc) ? ogc.href : asObject(asObject(hal)[rel]).href;
}

/** What identifies an item across requests: its id (or Dutch `identificatie`), its self link, or its properties without geometry. */
export function identityOf(item: JsonObject): string {
  if (typeof item.id === 'string' || typeof item.id === 'number') return String(item.id);
  if (typeof item.identificatie === 'string' || typeof item.identificatie === 'number') return String(item.identificatie);
  const self = isObject(item._links) && isObject(item._links.self) ? item._links.self.href : undefined;
  if (typeof self === 'string') return self;
  // Without an identifier: the item less every geometry it embeds (its coordinates differ per CRS).
  const rest = Object.fromEntries(Object.entries(item).filter(([, value]) => !isGeometry(value)));
  return JSON.stringify(isObject(item.properties) ? item.properties : rest);
}

/** The geometry of an item: a Feature's, or the first one a plain resource embeds. */
export function geometryOf(item: unknown): JsonObject | undefined {
  if (isObject(item) && item.type === 'Feature') return isGeometry(item.geometry) ? item.geometry : undefined;
  return firstGeometry(item);
}

/** GeoJSON nests positions at most four arrays deep (MultiPolygon); anything deeper is left as it is. */
const MAX_COORDINATE_DEPTH = 4;

/** A geometry with every position replaced by `map`'s, its structure kept; undefined when a position cannot be mapped. */
export function mapPositions(geometry: JsonObject, map: (position: Position) => Position | undefined): JsonObject | undefined {
  if (Array.isArray(geometry.geometries)) {
    const members = geometry.geometries.map((member) => (isGeometry(member) ? mapPositions(member, map) : member));
    return members.some((member) => member === undefined) ? undefined : { ...geometry, geometries: members };
  }
  let failed = false;
  const walk = (node: unknown, depth: number): unknown => {
    if (!Array.isArray(node) || depth > MAX_COORDINATE_DEPTH) return node;
    if (node.length >= 2 && typeof node[0] === 'number' && typeof node[1] === 'number') {
      const mapped = map([node[0], node[1]]);
      if (mapped === undefined || !mapped.every(Number.isFinite)) failed = true;
      return mapped ?? node;
    }
    return node.map((child) => walk(child, depth + 1));
  };
  const coordinates = walk(geometry.coordinates, 0);
  return failed ? undefined : { ...geometry, coordinates };
}

/** Members a server sets itself (identity, links): a client creating a copy leaves them out. */
const SERVER_MEMBERS = ['id', 'links', '_links', '_embedded'];

/**
 * What a client sends to create a copy of `item` with another geometry: a Feature's type,
 * properties and other members, or a plain resource's fields, with the (first embedded) geometry
 * replaced and the members the server sets left out.
 */
export function copyWithGeometry(item: JsonObject, geometry: JsonObject): JsonObject {
  const kept = Object.fromEntries(Object.entries(item).filter(([name]) => !SERVER_MEMBERS.includes(name)));
  if (item.type === 'Feature') return { ...kept, geometry };
  return replaceFirstGeometry(kept, geometry);
}

type Step = string | number;

/**
 * The object with its first GeoJSON geometry (breadth first, bounded, as firstGeometry finds it)
 * replaced: only the containers on the way to it are copied, so a deep server document costs
 * no recursion.
 */
function replaceFirstGeometry(value: JsonObject, geometry: JsonObject): JsonObject {
  const queue: Array<{ node: unknown; path: Step[] }> = [{ node: value, path: [] }];
  for (let visited = 0; queue.length > 0 && visited < 5000; visited += 1) {
    const { node, path } = queue.shift() as { node: unknown; path: Step[] };
    if (isGeometry(node)) return replacedAt(value, path, geometry) as JsonObject;
    if (Array.isArray(node)) node.forEach((child, index) => queue.push({ node: child, path: [...path, index] }));
    else if (isObject(node)) for (const [name, child] of Object.entries(node)) queue.push({ node: child, path: [...path, name] });
  }
  return value;
}

function replacedAt(container: unknown, path: Step[], replacement: unknown): unknown {
  const [step, ...rest] = path;
  if (step === undefined) return replacement;
  if (Array.isArray(container)) return container.map((child, index) => (index === step ? replacedAt(child, rest, replacement) : child));
  const object = asObject(container);
  return { ...object, [step]: replacedAt(object[step], rest, replacement) };
}

/** Members that carry a resource's own identifier, where a client may have to send one. */
const IDENTIFIER_MEMBERS = ['identificatie', 'identifier', 'code', 'nummer'];

/** How a copy carries the identifiers of what it copies: as they are, left out, or new ones. */
export type IdentifierMode = 'kept' | 'left-out' | 'fresh';

/** Whether a copy carries an identifier member, at the top or in a Feature's properties. */
export function hasIdentifier(copy: JsonObject): boolean {
  return [copy, asObject(copy.properties)].some((level) => IDENTIFIER_MEMBERS.some((name) => level[name] !== undefined));
}

/** The copy with its identifier members as `mode` says, at the top and in a Feature's properties. */
export function withIdentifiers(copy: JsonObject, mode: IdentifierMode, fresh: (value: unknown) => unknown): JsonObject {
  if (mode === 'kept') return copy;
  const level = (members: JsonObject): JsonObject => Object.fromEntries(Object.entries(members).flatMap(([name, value]): Array<[string, unknown]> => {
    if (!IDENTIFIER_MEMBERS.includes(name)) return [[name, value]];
    return mode === 'left-out' ? [] : [[name, fresh(value)]];
  }));
  const top = level(copy);
  return isObject(copy.properties) ? { ...top, properties: level(copy.properties) } : top;
}
