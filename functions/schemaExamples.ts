import type { IFunctionResult } from '@stoplight/spectral-core';
import { ruleFunction } from '../lib/rule-function.js';
import { isObject, type JsonObject, type JsonPath } from '../lib/json.js';
import { walkSchema } from '../lib/schema-walk.js';
import { exampleHolders } from '../lib/example-holders.js';
import { validateExample } from '../lib/example-validation.js';

const VALUE_FIELDS = ['example', 'default'] as const;

/** spectral only judges objects that say something about their values; a bare `{ example }` is no schema. */
function constrainsValues(schema: JsonObject): boolean {
  return Boolean(schema.enum || schema.type || schema.format || schema.$ref || schema.properties || schema.items);
}

/** components.schemas first, so that a shared schema is walked at its definition. */
function schemaRoots(document: unknown): Array<[unknown, JsonPath]> {
  const components = isObject(document) && isObject(document.components) ? document.components : {};
  const named = isObject(components.schemas) ? Object.entries(components.schemas) : [];
  return [
    ...named.map(([name, schema]): [unknown, JsonPath] => [schema, ['components', 'schemas', name]]),
    ...exampleHolders(document).map(({ holder, path }): [unknown, JsonPath] => [holder.schema, [...path, 'schema']]),
  ];
}

/**
 * oas3-valid-schema-example over the whole document: `example` and `default` of every schema
 * and subschema are valid against that (sub)schema. Each schema object is walked once, so a
 * component is judged once however many `$ref`s reach it.
 */
export default ruleFunction<null>({ input: null, options: null }, (document, _options, context) => {
  const results: IFunctionResult[] = [];
  const seen = new WeakSet<object>();
  for (const [root, rootPath] of schemaRoots(document)) {
    walkSchema(
      root,
      rootPath,
      (schema, path) => {
        if (!constrainsValues(schema)) return;
        for (const field of VALUE_FIELDS) {
          if (schema[field] !== undefined) results.push(...validateExample(schema[field], [...path, field], schema, 'none', context));
        }
      },
      seen,
    );
  }
  return results;
});
