import type { IFunctionResult } from '@stoplight/spectral-core';
import { ruleFunction } from '../lib/rule-function.js';
import { isObject } from '../lib/json.js';
import { walkDocumentSchemas } from '../lib/schema-walk.js';

/** lowerCamelCase; a leading underscore marks HAL's reserved `_links` and `_embedded`. */
const PROPERTY_NAME = /^_?[a-z][a-zA-Z0-9]*$/;

/**
 * nlgov:property-names-camel-case over every schema of the document, each schema once: a schema
 * shared through `$ref` is reported at its definition.
 */
export default ruleFunction<null>({ input: null, options: null }, (document) => {
  const results: IFunctionResult[] = [];
  walkDocumentSchemas(document, (schema, path) => {
    if (!isObject(schema.properties)) return;
    for (const name of Object.keys(schema.properties)) {
      if (PROPERTY_NAME.test(name)) continue;
      results.push({ message: `Property name is not lowerCamelCase: ${name}. Rename it in lowerCamelCase.`, path: [...path, 'properties', name] });
    }
  });
  return results;
});
