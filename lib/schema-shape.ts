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

type Part = [unknown, JsonPath];
/** Schemas that all apply to one value. */
type Conjunction = Part[];

/** More alternatives than a description needs; a bound against combinatorial schemas. */
const MAX_ALTERNATIVES = 64;

/** Every way to pick one alternative of each list, joined; bounded. */
function combined(lists: Conjunction[][]): Conjunction[] {
  return lists.reduce<Conjunction[]>(
    (sofar, choices) => sofar.flatMap((left) => choices.map((right) => [...left, ...right])).slice(0, MAX_ALTERNATIVES),
    [[]],
  );
}

/**
 * The ways a value can satisfy the given schemas at once, each a conjunction of schemas: `allOf`
 * parts join, a `oneOf`/`anyOf` gives one alternative per branch. A schema that includes itself
 * adds nothing where it comes back.
 */
function alternativesOf(parts: Part[], onPath = new Set<object>()): Conjunction[] {
  return combined(parts.map(([schema, path]) => alternativesOfSchema(schema, path, onPath)));
}

function alternativesOfSchema(schema: unknown, path: JsonPath, onPath: Set<object>): Conjunction[] {
  if (!isObject(schema) || onPath.has(schema)) return [[]];
  onPath.add(schema);
  const lists: Conjunction[][] = [[[[schema, path]]]];
  asArray(schema.allOf).forEach((part, index) => lists.push(alternativesOfSchema(part, [...path, 'allOf', index], onPath)));
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = asArray(schema[keyword]).flatMap((branch, index) => alternativesOfSchema(branch, [...path, keyword, index], onPath));
    if (branches.length > 0) lists.push(branches);
  }
  onPath.delete(schema);
  return combined(lists);
}

/** Every declaration of a property in a conjunction: a value must satisfy them all. */
function declarationsOf(conjunction: Conjunction, name: string): Part[] {
  return conjunction.flatMap(([schema, path]): Part[] => {
    const properties = isObject(schema) ? schema.properties : undefined;
    return isObject(properties) && isObject(properties[name]) ? [[properties[name], [...path, 'properties', name]]] : [];
  });
}

function itemsOf(conjunction: Conjunction): Part[] {
  return conjunction.flatMap(([schema, path]): Part[] => (isObject(schema) && isObject(schema.items) ? [[schema.items, [...path, 'items']]] : []));
}

/**
 * Follows a dotted chain of properties (`_links.self.href`); `[]` steps into array items. What
 * one `allOf` part declares is declared (one part may make a property an array, another give
 * its `items`). A `oneOf`/`anyOf` is followed branch by branch: every branch must declare the
 * rest of the chain, and the first gap is reported at the schema of the alternative that has it.
 */
export function missingAlong(schema: unknown, path: JsonPath, chain: string[]): { missing: string; at: JsonPath } | undefined {
  let alternatives = alternativesOf([[schema, path]]);
  const walked: string[] = [];
  for (const step of chain) {
    const isArray = step.endsWith('[]');
    const name = isArray ? step.slice(0, -2) : step;
    walked.push(step);
    const next: Conjunction[] = [];
    const declaredSomewhere = alternatives.some((conjunction) => declarationsOf(conjunction, name).length > 0);
    for (const conjunction of alternatives) {
      const declarations = declarationsOf(conjunction, name);
      const first = declarations[0];
      if (first === undefined) return { missing: walked.join('.'), at: gapPlace(conjunction, declaredSomewhere) ?? path };
      const values = isArray ? alternativesOf(declarations) : [];
      const items = isArray ? values.map(itemsOf) : [];
      if (isArray && (items.length === 0 || items.some((parts) => parts.length === 0))) return { missing: `${walked.join('.')} (array items)`, at: first[1] };
      next.push(...(isArray ? items.flatMap((parts) => alternativesOf(parts)) : alternativesOf(declarations)));
    }
    alternatives = next.slice(0, MAX_ALTERNATIVES);
  }
  return undefined;
}

/**
 * Where a conjunction lacks a property: at its first schema, or, when other alternatives do
 * declare it, at the `oneOf`/`anyOf` branch that makes this alternative.
 */
function gapPlace(conjunction: Conjunction, declaredSomewhere: boolean): JsonPath | undefined {
  const root = conjunction[0]?.[1];
  if (root === undefined || !declaredSomewhere) return root;
  const isBranch = (path: JsonPath) => path.length > root.length && (path[path.length - 2] === 'oneOf' || path[path.length - 2] === 'anyOf');
  const branch = [...conjunction].reverse().find(([, path]) => isBranch(path));
  return branch?.[1] ?? root;
}
