import { asArray, asObject, isObject, type JsonObject } from '../../lib/json.js';
import { createHash } from 'node:crypto';
import { GEOMETRY_TYPES } from '../../lib/geo.js';
import { isDefaultCrs, type Position } from './crs.js';

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

type Step = string | number;

/** GeometryCollections nested deeper than this are not read (RFC 7946 advises against nesting them at all). */
export const MAX_GEOMETRY_NESTING = 16;
/** Arrays and objects entered at once while walking a geometry: GeoJSON needs 4 per level of nesting. */
const MAX_WALK_DEPTH = 4 * (MAX_GEOMETRY_NESTING + 1) + 4;
/** Nodes visited looking for a geometry in plain JSON. */
const MAX_VISITED = 5000;

function isPositionArray(node: unknown): node is [number, number, ...unknown[]] {
  return Array.isArray(node) && node.length >= 2 && typeof node[0] === 'number' && typeof node[1] === 'number';
}

/**
 * Every position of a geometry, in order (at most `limit`): a walk with its own stack, so that
 * neither a geometry nested 20,000 deep (depth bounded) nor one of 400,000 positions (no array
 * spread into a call, no shifting of a long list) costs more than reading it once.
 */
export function positionsOf(geometry: unknown, limit = 500): Position[] {
  const positions: Position[] = [];
  const stack: Array<{ items: unknown[]; next: number }> = [];
  const visit = (node: unknown): void => {
    const members = isObject(node) ? (node.coordinates ?? node.geometries) : node;
    if (isPositionArray(members)) positions.push([members[0], members[1]]);
    else if (Array.isArray(members) && stack.length < MAX_WALK_DEPTH) stack.push({ items: members, next: 0 });
  };
  if (isObject(geometry)) visit(geometry);
  while (stack.length > 0 && positions.length < limit) {
    const frame = stack[stack.length - 1] as { items: unknown[]; next: number };
    if (frame.next >= frame.items.length) stack.pop();
    else { frame.next += 1; visit(frame.items[frame.next - 1]); }
  }
  return positions;
}

/** The keys of an array's or object's members, at most `room` of them: a huge array is not copied to find a geometry in its first elements. */
function stepsOf(node: unknown, room: number): Step[] {
  const bound = Math.max(0, room);
  if (Array.isArray(node)) return Array.from({ length: Math.min(node.length, bound) }, (_, index) => index);
  return isObject(node) ? Object.keys(node).slice(0, bound) : [];
}

function childAt(node: unknown, step: Step): unknown {
  return Array.isArray(node) ? node[step as number] : asObject(node)[step];
}

/** The first GeoJSON geometry in a JSON value (breadth first, bounded), for APIs that embed geometry in plain JSON. */
export function firstGeometry(value: unknown): JsonObject | undefined {
  const queue: unknown[] = [value];
  for (let index = 0; index < queue.length; index += 1) {
    const node = queue[index];
    if (isGeometry(node)) return node;
    for (const step of stepsOf(node, MAX_VISITED - queue.length)) queue.push(childAt(node, step));
  }
  return undefined;
}

const COORDINATE_DEPTH: Record<string, number> = { Point: 0, MultiPoint: 1, LineString: 1, MultiLineString: 2, Polygon: 2, MultiPolygon: 3 };
/** Nodes of one geometry checked at most: beyond them (millions of positions) the rest is not judged. */
const MAX_CHECKED_NODES = 2_000_000;

/** A server's value in a message, shallowly: a nested array or object is never stringified (it may be 20,000 levels deep). */
function shownValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return value.length === 0 ? '[]' : '[…]';
  if (isObject(value)) return '{…}';
  return String(value);
}

function shownPosition(position: unknown[]): string {
  return `[${position.slice(0, 3).map(shownValue).join(', ')}${position.length > 3 ? ', …' : ''}]`;
}

/**
 * What makes a geometry invalid GeoJSON (RFC 7946), or undefined: an unknown type, coordinates not
 * nested as the type requires, a position that is not two or three finite numbers (`1e999` parses
 * as Infinity), GeometryCollections nested deeper than MAX_GEOMETRY_NESTING, and, when `crs` is
 * CRS84, a position outside its range. Walked with its own stack.
 */
export function geometryProblem(geometry: unknown, crs?: string): string | undefined {
  // Ranges only for CRS84: swapped axes in EPSG:4326/4258 asked by `crs` are /geo/crs-query-parameter's finding.
  const inCrs84 = crs !== undefined && isDefaultCrs(crs);
  const stack: Array<{ node: unknown; depth: number; nesting: number }> = [{ node: geometry, depth: -1, nesting: 0 }];
  let checked = 0;
  while (stack.length > 0 && checked < MAX_CHECKED_NODES) {
    checked += 1;
    const { node, depth, nesting } = stack.pop() as { node: unknown; depth: number; nesting: number };
    if (depth < 0) {
      if (!isObject(node) || typeof node.type !== 'string' || !GEOMETRY_TYPES.includes(node.type)) return `${isObject(node) ? `type ${shownValue(node.type)}` : shownValue(node)} is no GeoJSON geometry type`;
      if (node.type === 'GeometryCollection') {
        if (!Array.isArray(node.geometries)) return 'a GeometryCollection without a geometries array';
        if (nesting >= MAX_GEOMETRY_NESTING) return `geometry nested deeper than ${MAX_GEOMETRY_NESTING} levels (GeometryCollections within GeometryCollections)`;
        for (let index = node.geometries.length - 1; index >= 0; index -= 1) stack.push({ node: node.geometries[index], depth: -1, nesting: nesting + 1 });
      } else stack.push({ node: node.coordinates, depth: COORDINATE_DEPTH[node.type] as number, nesting });
      continue;
    }
    if (!Array.isArray(node)) return `coordinates ${node === undefined ? 'missing' : `${shownValue(node)} where an array belongs`}`;
    if (depth > 1) {
      for (let index = node.length - 1; index >= 0; index -= 1) stack.push({ node: node[index], depth: depth - 1, nesting });
      continue;
    }
    // A list of positions (or one) is read in place: a LineString of 400,000 positions costs no stack entry per position.
    const problem = depth === 0 ? positionProblem(node, inCrs84) : positionsProblem(node, inCrs84);
    checked += node.length;
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function positionsProblem(positions: unknown[], inCrs84: boolean): string | undefined {
  for (const position of positions) {
    if (!Array.isArray(position)) return `coordinates ${shownValue(position)} where an array belongs`;
    const problem = positionProblem(position, inCrs84);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function positionProblem(position: unknown[], inCrs84: boolean): string | undefined {
  if (position.length < 2) return `position ${shownPosition(position)} is not two or three numbers`;
  for (const value of position) {
    if (typeof value !== 'number') return `position ${shownPosition(position)} is not two or three numbers`;
    if (!Number.isFinite(value)) return `position ${shownPosition(position)} has a coordinate that is not a finite number (a number such as 1e999 is beyond what JSON readers hold)`;
  }
  if (!inCrs84) return undefined;
  const [longitude, latitude] = position as [number, number];
  if (Math.abs(longitude) <= 180 && Math.abs(latitude) <= 90) return undefined;
  const outside = Math.abs(longitude) > 180 ? `longitude ${longitude}` : `latitude ${latitude}`;
  return `position ${shownPosition(position)} has ${outside}, outside CRS84 (longitude -180 to 180, latitude -90 to 90)`;
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
  if (typeof item.id === 'string' || typeof item.id === 'number') return boundedIdentity(String(item.id));
  if (typeof item.identificatie === 'string' || typeof item.identificatie === 'number') return boundedIdentity(String(item.identificatie));
  const self = isObject(item._links) && isObject(item._links.self) ? item._links.self.href : undefined;
  if (typeof self === 'string') return boundedIdentity(self);
  // Without an identifier: the item less every geometry it embeds (its coordinates differ per CRS).
  const rest = Object.fromEntries(Object.entries(item).filter(([, value]) => !isGeometry(value)));
  return boundedText(isObject(item.properties) ? item.properties : rest);
}

/** Longer identities are shortened (with a digest, so that they still tell items apart): they end up in messages. */
const MAX_IDENTITY_LENGTH = 200;

/** JSON of a server's value, never throwing (nested too deep for JSON.stringify) and short enough to show. */
function boundedText(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    return '(an item without identifier, its properties nested too deep to compare)';
  }
  return boundedIdentity(text);
}

function boundedIdentity(text: string): string {
  if (text.length <= MAX_IDENTITY_LENGTH) return text;
  return `${text.slice(0, MAX_IDENTITY_LENGTH - 40)}… (${text.length.toLocaleString('en')} characters, sha256 ${createHash('sha256').update(text).digest('hex').slice(0, 12)})`;
}

/** The geometry of an item: a Feature's, or the first one a plain resource embeds. */
export function geometryOf(item: unknown): JsonObject | undefined {
  if (isObject(item) && item.type === 'Feature') return isGeometry(item.geometry) ? item.geometry : undefined;
  return firstGeometry(item);
}

/** GeoJSON nests positions at most four arrays deep (MultiPolygon); anything deeper is left as it is. */
const MAX_COORDINATE_DEPTH = 4;

/** A geometry with every position replaced by `map`'s, its structure kept; undefined when a position cannot be mapped. */
export function mapPositions(geometry: JsonObject, map: (position: Position) => Position | undefined, nesting = 0): JsonObject | undefined {
  if (Array.isArray(geometry.geometries)) {
    // Deeper than any geometry adr-check reads: not mapped, rather than a recursion as deep as the server's document.
    if (nesting >= MAX_GEOMETRY_NESTING) return undefined;
    const members = geometry.geometries.map((member) => (isGeometry(member) ? mapPositions(member, map, nesting + 1) : member));
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

/**
 * The object with its first GeoJSON geometry (breadth first, bounded, as firstGeometry finds it)
 * replaced: only the containers on the way to it are copied, so a deep server document costs
 * no recursion.
 */
function replaceFirstGeometry(value: JsonObject, geometry: JsonObject): JsonObject {
  const queue: Array<{ node: unknown; path: Step[] }> = [{ node: value, path: [] }];
  for (let index = 0; index < queue.length; index += 1) {
    const { node, path } = queue[index] as { node: unknown; path: Step[] };
    if (isGeometry(node)) return replacedAt(value, path, geometry) as JsonObject;
    for (const step of stepsOf(node, MAX_VISITED - queue.length)) queue.push({ node: childAt(node, step), path: [...path, step] });
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
