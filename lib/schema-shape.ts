import { asArray, isObject, type JsonObject } from './json.js';
import type { JsonPath } from '@stoplight/types';

type Entry = [JsonObject, JsonPath];
type Properties = Map<string, Entry>;

/**
 * The properties a schema guarantees, each with the path of the schema that declares it: its own,
 * those of every `allOf` part, and those that every branch of a `oneOf` or `anyOf` declares
 * (a property only some branches have is not guaranteed). Recursive.
 */
export function declaredProperties(schema: unknown, path: JsonPath): Properties {
  const found: Properties = new Map();
  for (const [name, [property, relative]] of collect(schema, new Set(), new Map()).found) found.set(name, [property, [...path, ...relative]]);
  return found;
}

/**
 * The properties of one schema, with paths relative to it. `onPath` holds the schemas being
 * collected above this one: only a schema that contains itself is cut short, so a schema shared by
 * sibling branches counts in each. A result is kept in `done` for the other places that share the
 * schema, unless a cycle cut it short (it is then partial, depending on where the cycle was entered).
 */
function collect(schema: unknown, onPath: Set<object>, done: Map<object, Properties>): { found: Properties; complete: boolean } {
  if (!isObject(schema)) return { found: new Map(), complete: true };
  const cached = done.get(schema);
  if (cached !== undefined) return { found: cached, complete: true };
  if (onPath.has(schema)) return { found: new Map(), complete: false };
  onPath.add(schema);
  const found: Properties = new Map();
  let complete = true;
  const part = (child: unknown, prefix: JsonPath): Properties => {
    const result = collect(child, onPath, done);
    complete &&= result.complete;
    return prefixed(result.found, prefix);
  };
  if (isObject(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      if (isObject(property)) found.set(name, [property, ['properties', name]]);
    }
  }
  asArray(schema.allOf).forEach((child, index) => {
    for (const [name, entry] of part(child, ['allOf', index])) if (!found.has(name)) found.set(name, entry);
  });
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = asArray(schema[keyword]).map((child, index) => part(child, [keyword, index]));
    for (const [name, entry] of commonToEveryBranch(branches)) if (!found.has(name)) found.set(name, entry);
  }
  onPath.delete(schema);
  if (complete) done.set(schema, found);
  return { found, complete };
}

function prefixed(properties: Properties, prefix: JsonPath): Properties {
  const result: Properties = new Map();
  for (const [name, [property, relative]] of properties) result.set(name, [property, [...prefix, ...relative]]);
  return result;
}

/** A property declared by every branch; its entry is the first branch's. */
function commonToEveryBranch(perBranch: Properties[]): Properties {
  const [first, ...rest] = perBranch;
  const common: Properties = new Map();
  if (first === undefined) return common;
  for (const [name, entry] of first) if (rest.every((branch) => branch.has(name))) common.set(name, entry);
  return common;
}

/**
 * The item schemas of an array schema, looked up like its properties: its own `items`, else the
 * first `allOf` part that has them, else, when every `oneOf`/`anyOf` branch has them, one
 * alternative per branch (each must then declare what follows). Undefined when there are none.
 */
function arrayItems(schema: unknown, path: JsonPath, onPath = new Set<object>()): Array<[unknown, JsonPath]> | undefined {
  if (!isObject(schema) || onPath.has(schema)) return undefined;
  if (isObject(schema.items)) return [[schema.items, [...path, 'items']]];
  onPath.add(schema);
  try {
    for (const [index, part] of asArray(schema.allOf).entries()) {
      const items = arrayItems(part, [...path, 'allOf', index], onPath);
      if (items !== undefined) return items;
    }
    for (const keyword of ['oneOf', 'anyOf'] as const) {
      const branches = asArray(schema[keyword]).map((branch, index) => arrayItems(branch, [...path, keyword, index], onPath));
      if (branches.length > 0 && branches.every((items) => items !== undefined)) return branches.flatMap((items) => items ?? []);
    }
    return undefined;
  } finally {
    onPath.delete(schema);
  }
}

/**
 * Follows a dotted chain of properties (`_links.self.href`); `[]` steps into array items. Where an
 * array is a `oneOf`/`anyOf` of arrays, every alternative must declare the rest of the chain; the
 * first gap is reported at the schema of the alternative that has it.
 */
export function missingAlong(schema: unknown, path: JsonPath, chain: string[]): { missing: string; at: JsonPath } | undefined {
  let alternatives: Array<[unknown, JsonPath]> = [[schema, path]];
  const walked: string[] = [];
  for (const step of chain) {
    const isArray = step.endsWith('[]');
    const name = isArray ? step.slice(0, -2) : step;
    walked.push(step);
    const next: Array<[unknown, JsonPath]> = [];
    for (const [current, currentPath] of alternatives) {
      const property = declaredProperties(current, currentPath).get(name);
      if (property === undefined) return { missing: walked.join('.'), at: currentPath };
      if (!isArray) {
        next.push(property);
        continue;
      }
      const items = arrayItems(...property);
      if (items === undefined) return { missing: `${walked.join('.')} (array items)`, at: property[1] };
      next.push(...items);
    }
    alternatives = next;
  }
  return undefined;
}
