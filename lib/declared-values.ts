import type { JsonPath } from '@stoplight/types';
import { asArray, entries, isObject } from './json.js';
import { walkSchema } from './schema-walk.js';

/**
 * The values a parameter or header declaration pins down, each with its exact path: the enum,
 * const, default and example of its schema and of every subschema (allOf, oneOf, anyOf, items, ...), its own example and examples[*].value, and the same for each
 * media type of a declaration that uses `content` instead of `schema`.
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
  // The schema and its subschemas: `anyOf: [{enum: [...]}, {type: string}]` pins values down too.
  walkSchema(holder.schema, [...base, 'schema'], (schema, path) => {
    values.push(...asArray(schema.enum).map((value, index): [unknown, JsonPath] => [value, [...path, 'enum', index]]));
    for (const keyword of ['const', 'default', 'example'] as const) {
      if (schema[keyword] !== undefined) values.push([schema[keyword], [...path, keyword]]);
    }
  }, new WeakSet());
  if (holder.example !== undefined) values.push([holder.example, [...base, 'example']]);
  for (const [name, example] of entries(holder.examples)) {
    if (isObject(example) && example.value !== undefined) values.push([example.value, [...base, 'examples', name, 'value']]);
  }
  return values;
}
