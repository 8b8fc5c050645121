import { asArray, isObject, type JsonObject } from './json.js';
import type { JsonPath } from '@stoplight/types';

/**
 * The properties a schema guarantees, each with the path of the schema that declares it: its own,
 * those of every `allOf` part, and those that every branch of a `oneOf` or `anyOf` declares
 * (a property only some branches have is not guaranteed). Recursive.
 */
export function declaredProperties(schema: unknown, path: JsonPath, seen = new WeakSet<object>()): Map<string, [JsonObject, JsonPath]> {
  const found = new Map<string, [JsonObject, JsonPath]>();
  if (!isObject(schema) || seen.has(schema)) return found;
  seen.add(schema);
  if (isObject(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      if (isObject(property)) found.set(name, [property, [...path, 'properties', name]]);
    }
  }
  asArray(schema.allOf).forEach((part, index) => {
    for (const [name, entry] of declaredProperties(part, [...path, 'allOf', index], seen)) if (!found.has(name)) found.set(name, entry);
  });
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    for (const [name, entry] of commonToEveryBranch(asArray(schema[keyword]), [...path, keyword], seen)) if (!found.has(name)) found.set(name, entry);
  }
  return found;
}

/** A property declared by every branch; its entry is the first branch's. */
function commonToEveryBranch(branches: unknown[], path: JsonPath, seen: WeakSet<object>): Map<string, [JsonObject, JsonPath]> {
  const perBranch = branches.map((branch, index) => declaredProperties(branch, [...path, index], seen));
  const [first, ...rest] = perBranch;
  const common = new Map<string, [JsonObject, JsonPath]>();
  if (first === undefined) return common;
  for (const [name, entry] of first) if (rest.every((branch) => branch.has(name))) common.set(name, entry);
  return common;
}

/** Follows a dotted chain of properties (`_links.self.href`); `[]` steps into array items. */
export function missingAlong(schema: unknown, path: JsonPath, chain: string[]): { missing: string; at: JsonPath } | undefined {
  let current: unknown = schema;
  let currentPath = path;
  const walked: string[] = [];
  for (const step of chain) {
    const isArray = step.endsWith('[]');
    const name = isArray ? step.slice(0, -2) : step;
    const property = declaredProperties(current, currentPath).get(name);
    walked.push(step);
    if (property === undefined) return { missing: walked.join('.'), at: currentPath };
    [current, currentPath] = property;
    if (isArray) {
      if (!isObject(current) || !isObject(current.items)) return { missing: `${walked.join('.')} (array items)`, at: currentPath };
      current = current.items;
      currentPath = [...currentPath, 'items'];
    }
  }
  return undefined;
}
