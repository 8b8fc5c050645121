import type { JsonPath } from '@stoplight/types';
import { asArray, asObject, entries, isObject } from './json.js';

/**
 * The values a parameter or header declaration pins down, each with its exact path:
 * schema enum, default and example, and the declaration's own example and examples[*].value.
 */
export function declaredValues(declaration: unknown): Array<[unknown, JsonPath]> {
  if (!isObject(declaration)) return [];
  const schema = asObject(declaration.schema);
  const values: Array<[unknown, JsonPath]> = asArray(schema.enum).map((value, index) => [value, ['schema', 'enum', index]]);
  if (schema.default !== undefined) values.push([schema.default, ['schema', 'default']]);
  if (schema.example !== undefined) values.push([schema.example, ['schema', 'example']]);
  if (declaration.example !== undefined) values.push([declaration.example, ['example']]);
  for (const [name, example] of entries(declaration.examples)) {
    if (isObject(example) && example.value !== undefined) values.push([example.value, ['examples', name, 'value']]);
  }
  return values;
}
