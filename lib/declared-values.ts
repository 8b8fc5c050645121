import type { JsonPath } from '@stoplight/types';
import { asArray, asObject, entries, isObject } from './json.js';

/**
 * The values a parameter or header declaration pins down, each with its exact path: its schema's
 * enum, const, default and example, its own example and examples[*].value, and the same for each
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
  const schema = asObject(holder.schema);
  const values: Array<[unknown, JsonPath]> = asArray(schema.enum).map((value, index) => [value, [...base, 'schema', 'enum', index]]);
  for (const keyword of ['const', 'default', 'example'] as const) {
    if (schema[keyword] !== undefined) values.push([schema[keyword], [...base, 'schema', keyword]]);
  }
  if (holder.example !== undefined) values.push([holder.example, [...base, 'example']]);
  for (const [name, example] of entries(holder.examples)) {
    if (isObject(example) && example.value !== undefined) values.push([example.value, [...base, 'examples', name, 'value']]);
  }
  return values;
}
