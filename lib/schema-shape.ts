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
/** Schemas that all apply to one value: a schema and, recursively, its `allOf` parts. */
type Conjunction = Part[];

/** More alternatives than a description needs; a bound against combinatorial schemas. */
const MAX_ALTERNATIVES = 64;

function conjunctionOf(parts: Part[]): Conjunction {
  const result: Conjunction = [];
  const seen = new Set<object>();
  const visit = (schema: unknown, path: JsonPath): void => {
    if (!isObject(schema) || seen.has(schema)) return;
    seen.add(schema);
    result.push([schema, path]);
    asArray(schema.allOf).forEach((part, index) => visit(part, [...path, 'allOf', index]));
  };
  for (const [schema, path] of parts) visit(schema, path);
  return result;
}

/** Every declaration of a property over a conjunction: a value must satisfy them all. */
function declarationsOf(conjunction: Conjunction, name: string): Part[] {
  const found: Part[] = [];
  const seen = new Set<object>();
  for (const [schema, path] of conjunction) {
    const entry = declaredProperties(schema, path).get(name);
    if (entry !== undefined && !seen.has(entry[0])) {
      seen.add(entry[0]);
      found.push(entry);
    }
  }
  return found;
}

/**
 * The item schemas of an array, over a conjunction: every part's `items` applies to each item,
 * and a `oneOf`/`anyOf` whose every branch has `items` gives one alternative per branch. Each
 * alternative is a conjunction of item schemas; undefined when no part has items.
 */
function itemsOf(conjunction: Conjunction, onPath = new Set<object>()): Conjunction[] | undefined {
  const choices: Conjunction[][] = [];
  for (const [schema, path] of conjunction) {
    if (!isObject(schema) || onPath.has(schema)) continue;
    if (isObject(schema.items)) choices.push([conjunctionOf([[schema.items, [...path, 'items']]])]);
    onPath.add(schema);
    for (const keyword of ['oneOf', 'anyOf'] as const) {
      const branches = asArray(schema[keyword]).map((branch, index) => itemsOf(conjunctionOf([[branch, [...path, keyword, index]]]), onPath));
      if (branches.length > 0 && branches.every((items) => items !== undefined)) choices.push(branches.flatMap((items) => items ?? []));
    }
    onPath.delete(schema);
  }
  if (choices.length === 0) return undefined;
  return choices.reduce<Conjunction[]>(
    (combined, choice) => combined.flatMap((sofar) => choice.map((alternative) => [...sofar, ...alternative])).slice(0, MAX_ALTERNATIVES),
    [[]],
  );
}

/**
 * Follows a dotted chain of properties (`_links.self.href`); `[]` steps into array items. A
 * property or `items` given in several `allOf` parts is all of them at once: what one of them
 * declares is declared. Where an array is a `oneOf`/`anyOf` of arrays, every alternative must
 * declare the rest of the chain; the first gap is reported at the schema of the alternative
 * that has it.
 */
export function missingAlong(schema: unknown, path: JsonPath, chain: string[]): { missing: string; at: JsonPath } | undefined {
  let alternatives: Conjunction[] = [conjunctionOf([[schema, path]])];
  const walked: string[] = [];
  for (const step of chain) {
    const isArray = step.endsWith('[]');
    const name = isArray ? step.slice(0, -2) : step;
    walked.push(step);
    const next: Conjunction[] = [];
    for (const conjunction of alternatives) {
      const declarations = declarationsOf(conjunction, name);
      const first = declarations[0];
      if (first === undefined) return { missing: walked.join('.'), at: conjunction[0]?.[1] ?? path };
      if (!isArray) {
        next.push(conjunctionOf(declarations));
        continue;
      }
      const items = itemsOf(conjunctionOf(declarations));
      if (items === undefined) return { missing: `${walked.join('.')} (array items)`, at: first[1] };
      next.push(...items);
    }
    alternatives = next.slice(0, MAX_ALTERNATIVES);
  }
  return undefined;
}
