import type { IFunctionResult } from '@stoplight/spectral-core';
import { ruleFunction } from '../lib/rule-function.js';
import { isObject, type JsonObject, type JsonPath } from '../lib/json.js';
import { exampleHolders } from '../lib/example-holders.js';
import { mediaRelaxation, validateExample, type Relaxation } from '../lib/example-validation.js';

interface ExampleItem {
  value: unknown;
  /** Relative to the media type, parameter or header. */
  path: JsonPath;
}

/**
 * Objects as spectral's `oasExample` sees them (its utils/isObject): arrays count too, so
 * `examples` written as a list is walked by index, and a list in place of an Example object is
 * one without a `value`. Both are invalid OpenAPI (oas3-schema says so too); the built-in reports them.
 */
function isObjectOrArray(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * What spectral checks of a media type, parameter or header: `example` if the key is present
 * (then `examples` is not looked at), otherwise the `value` of every inline Example object in
 * `examples`; one with `externalValue` has nothing here to check.
 */
export function mediaExampleItems(holder: JsonObject): ExampleItem[] {
  if ('example' in holder) return [{ value: holder.example, path: ['example'] }];
  if (!isObjectOrArray(holder.examples)) return [];
  const items: ExampleItem[] = [];
  for (const [name, example] of Object.entries(holder.examples)) {
    if (!isObjectOrArray(example) || 'externalValue' in example) continue;
    items.push({ value: example.value, path: ['examples', name, 'value'] });
  }
  return items;
}

/**
 * oas3-valid-media-example over the whole document: the examples of every media type,
 * parameter and header are valid against its `schema`. A holder reached again through a `$ref`
 * is judged again only under another relaxation (request or response), the one thing a place of
 * use can change; its findings are reported at its definition.
 */
export default ruleFunction<null>({ input: null, options: null }, (document, _options, context) => {
  const results: IFunctionResult[] = [];
  const judged = new Map<Relaxation, WeakSet<object>>();
  for (const { holder, path } of exampleHolders(document)) {
    const schema = holder.schema;
    if (!isObject(schema) || (holder.example === undefined && !holder.examples)) continue;
    const relaxation = mediaRelaxation(path);
    const judgedHere = judged.get(relaxation) ?? new WeakSet<object>();
    judged.set(relaxation, judgedHere);
    if (judgedHere.has(holder)) continue;
    judgedHere.add(holder);
    for (const item of mediaExampleItems(holder)) results.push(...validateExample(item.value, [...path, ...item.path], schema, relaxation, context));
  }
  return results;
});
