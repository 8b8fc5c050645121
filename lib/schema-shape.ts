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

/**
 * Every way to pick one alternative of each list, joined; bounded. A schema already in the
 * conjunction is not added again (at a second path): `allOf: [S, S]` is S once, so that shared
 * parts do not double the conjunction at every level.
 */
function combined(lists: Conjunction[][]): Conjunction[] {
  return lists.reduce<Conjunction[]>(
    (sofar, choices) => sofar.flatMap((left) => choices.map((right) => joined(left, right))).slice(0, MAX_ALTERNATIVES),
    [[]],
  );
}

function joined(left: Conjunction, right: Conjunction): Conjunction {
  const present = new Set(left.map(([schema]) => schema));
  return [...left, ...right.filter(([schema]) => !present.has(schema))];
}

/** Alternatives of each schema, paths relative to it; kept only when no cycle cut them short. */
type AlternativesCache = Map<object, Conjunction[]>;

/**
 * The ways a value can satisfy the given schemas at once, each a conjunction of schemas: `allOf`
 * parts join, a `oneOf`/`anyOf` gives one alternative per branch. A schema that includes itself
 * adds nothing where it comes back.
 */
function alternativesOf(parts: Part[], cache: AlternativesCache): Conjunction[] {
  return combined(parts.map(([schema, path]) => prefixedAlternatives(alternativesOfSchema(schema, new Set(), cache).alternatives, path)));
}

function prefixedAlternatives(alternatives: Conjunction[], prefix: JsonPath): Conjunction[] {
  return alternatives.map((conjunction) => conjunction.map(([schema, path]): Part => [schema, [...prefix, ...path]]));
}

/**
 * A schema's alternatives, computed once per schema object (a schema shared at many places, or
 * at every level of `S_n: {allOf: [S_n-1, S_n-1]}`, would otherwise be expanded once per route).
 */
function alternativesOfSchema(schema: unknown, onPath: Set<object>, cache: AlternativesCache): { alternatives: Conjunction[]; complete: boolean } {
  if (!isObject(schema)) return { alternatives: [[]], complete: true };
  const cached = cache.get(schema);
  if (cached !== undefined) return { alternatives: cached, complete: true };
  if (onPath.has(schema)) return { alternatives: [[]], complete: false };
  onPath.add(schema);
  let complete = true;
  const below = (child: unknown, prefix: JsonPath): Conjunction[] => {
    const result = alternativesOfSchema(child, onPath, cache);
    complete &&= result.complete;
    return prefixedAlternatives(result.alternatives, prefix);
  };
  const lists: Conjunction[][] = [[[[schema, []]]]];
  asArray(schema.allOf).forEach((part, index) => lists.push(below(part, ['allOf', index])));
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = asArray(schema[keyword]).flatMap((branch, index) => below(branch, [keyword, index]));
    if (branches.length > 0) lists.push(branches);
  }
  onPath.delete(schema);
  const alternatives = combined(lists);
  if (complete) cache.set(schema, alternatives);
  return { alternatives, complete };
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

export interface Gap {
  /** The chain up to the step that is missing (`_embedded.items[]._links`). */
  missing: string;
  /** The schema that should declare it. */
  at: JsonPath;
}

/**
 * Follows a dotted chain of properties (`_links.self.href`); `[]` steps into array items. What
 * one `allOf` part declares is declared (one part may make a property an array, another give
 * its `items`). A `oneOf`/`anyOf` is followed branch by branch: every branch must declare the
 * rest of the chain, and each alternative's first gap is returned, at the schema of the
 * alternative that has it; alternatives without a gap go on.
 */
export function missingAlong(schema: unknown, path: JsonPath, chain: string[]): Gap[] {
  const cache: AlternativesCache = new Map();
  let alternatives = alternativesOf([[schema, path]], cache);
  const gaps: Gap[] = [];
  const walked: string[] = [];
  for (const step of chain) {
    const isArray = step.endsWith('[]');
    const name = isArray ? step.slice(0, -2) : step;
    walked.push(step);
    const next: Conjunction[] = [];
    const declaring = alternatives.filter((conjunction) => declarationsOf(conjunction, name).length > 0);
    for (const conjunction of alternatives) {
      const declarations = declarationsOf(conjunction, name);
      const first = declarations[0];
      if (first === undefined) {
        gaps.push({ missing: walked.join('.'), at: gapPlace(conjunction, declaring) ?? path });
        continue;
      }
      if (!isArray) {
        next.push(...alternativesOf(declarations, cache));
        continue;
      }
      const items = alternativesOf(declarations, cache).map(itemsOf);
      if (items.length === 0 || items.some((parts) => parts.length === 0)) gaps.push({ missing: `${walked.join('.')} (array items)`, at: first[1] });
      else next.push(...items.flatMap((parts) => alternativesOf(parts, cache)));
    }
    alternatives = next.slice(0, MAX_ALTERNATIVES);
  }
  return gaps;
}

const pathKey = (path: JsonPath): string => path.map(String).join('\u0000');

/**
 * The `oneOf`/`anyOf` a part is a branch of (its path without the branch index), if it is one.
 * The first part of a conjunction is a declaration or the schema the walk started at, never a
 * branch; every other part may be one, however deep or shallow its path.
 */
function choiceOf(path: JsonPath): string | undefined {
  const keyword = path[path.length - 2];
  return keyword === 'oneOf' || keyword === 'anyOf' ? pathKey(path.slice(0, -1)) : undefined;
}

/** The branches a conjunction takes, outside one `oneOf`/`anyOf` (and what lies below it). */
function choicesOutside(conjunction: Conjunction, choice: string): string {
  return conjunction
    .filter(([, path]) => choiceOf(path) !== undefined && !pathKey(path).startsWith(`${choice}\u0000`))
    .map(([, path]) => pathKey(path))
    .sort()
    .join('\u0001');
}

/**
 * Where a conjunction lacks a property: at the `oneOf`/`anyOf` branch whose sibling, taken
 * instead with every other choice kept, would declare it (the deepest such branch); when no
 * single branch is to blame, or no alternative declares it, at the conjunction's first schema.
 */
function gapPlace(conjunction: Conjunction, declaring: Conjunction[]): JsonPath | undefined {
  const root = conjunction[0]?.[1];
  if (root === undefined || declaring.length === 0) return root;
  for (const [, path] of conjunction.slice(1).reverse()) {
    const choice = choiceOf(path);
    if (choice === undefined) continue;
    const others = choicesOutside(conjunction, choice);
    if (declaring.some((alternative) => choicesOutside(alternative, choice) === others)) return path;
  }
  return root;
}
