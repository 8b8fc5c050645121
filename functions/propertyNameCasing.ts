import type { IFunctionResult } from '@stoplight/spectral-core';
import { ruleFunction } from '../lib/rule-function.js';
import type { JsonPath } from '@stoplight/types';
import { isObject, valueAt } from '../lib/json.js';
import { walkDocumentSchemas } from '../lib/schema-walk.js';

/** lowerCamelCase; a leading underscore marks HAL's reserved `_links` and `_embedded`. */
const PROPERTY_NAME = /^_?[a-z][a-zA-Z0-9]*$/;

/**
 * nlgov:property-names-camel-case over every schema of the document, each schema once: a schema
 * shared through `$ref` is reported at its definition.
 */
export default ruleFunction<null>({ input: null, options: null }, (document, _options, context) => {
  const results: IFunctionResult[] = [];
  walkDocumentSchemas(document, (schema, path) => {
    if (!isObject(schema.properties)) return;
    for (const name of Object.keys(schema.properties)) {
      if (PROPERTY_NAME.test(name)) continue;
      results.push({ message: `Property name is not lowerCamelCase: ${name}. Rename it in lowerCamelCase.`, path: propertyPath(context.document.data, [...path, 'properties'], name) });
    }
  });
  return results;
});

/**
 * At the property where it is written in place. Where its value is a `$ref`, a path into it would
 * be placed at the referenced schema, which has no wrong name: then at the `properties` map.
 */
function propertyPath(unresolved: unknown, propertiesPath: JsonPath, name: string): JsonPath {
  const written = valueAt(unresolved, [...propertiesPath, name]);
  return isObject(written) && written.$ref === undefined ? [...propertiesPath, name] : propertiesPath;
}
