import { asArray, isObject, type JsonObject } from './json.js';
import type { JsonPath } from '@stoplight/types';

/**
 * The properties a schema declares, merged over `allOf` (recursively), each with the path of
 * the schema that declares it. `oneOf`/`anyOf` branches do not guarantee a property: not merged.
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
  return found;
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
