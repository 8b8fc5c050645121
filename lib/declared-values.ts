import type { JsonPath } from '@stoplight/types';
import { asArray, entries, isObject } from './json.js';

/**
 * The values a parameter or header declaration pins down, each with its exact path: the enum,
 * const, default and example of its schema and of the subschemas that also describe the value
 * (allOf, oneOf, anyOf, items; not `not`), its own example and examples[*].value, and the same
 * for each media type of a declaration that uses `content` instead of `schema`.
 */
export function declaredValues(declaration: unknown): Array<[unknown, JsonPath]> {
  if (!isObject(declaration)) return [];
  const values = valuesOf(declaration, []);
  for (const [mediaType, media] of entries(declaration.content)) values.push(...valuesOf(media, ['content', mediaType]));
  return values;
}

function valuesOf(holder: unknown, base: JsonPath): Array<[unknown, JsonPath]> {
  if (!isObject(holder)) return [];
  const values: Array<[unknown, JsonPath]> = [];
  // The schema and the subschemas that also describe the value (`anyOf: [{enum: [...]}, {type:
  // string}]`); not `not`, whose values are the excluded ones, nor `properties` and the like.
  const stack: Array<[unknown, JsonPath]> = [[holder.schema, [...base, 'schema']]];
  const seen = new WeakSet<object>();
  while (stack.length > 0) {
    const [schema, path] = stack.shift() as [unknown, JsonPath];
    if (!isObject(schema) || seen.has(schema)) continue;
    seen.add(schema);
    values.push(...asArray(schema.enum).map((value, index): [unknown, JsonPath] => [value, [...path, 'enum', index]]));
    for (const keyword of ['const', 'default', 'example'] as const) {
      if (schema[keyword] !== undefined) values.push([schema[keyword], [...path, keyword]]);
    }
    for (const keyword of ['allOf', 'oneOf', 'anyOf'] as const) asArray(schema[keyword]).forEach((sub, index) => stack.push([sub, [...path, keyword, index]]));
    if (isObject(schema.items)) stack.push([schema.items, [...path, 'items']]);
  }
  if (holder.example !== undefined) values.push([holder.example, [...base, 'example']]);
  for (const [name, example] of entries(holder.examples)) {
    if (isObject(example) && example.value !== undefined) values.push([example.value, [...base, 'examples', name, 'value']]);
  }
  return values;
}
