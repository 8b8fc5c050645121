import type { IFunctionResult, RulesetFunctionContext } from '@stoplight/spectral-core';
import { ruleFunction } from '../lib/rule-function.js';
import type { JsonPath } from '@stoplight/types';
import { isObject, valueAt } from '../lib/json.js';
import { walkDocumentSchemas } from '../lib/schema-walk.js';
import { isUnresolvedReference } from '../lib/openapi.js';
import { isOAuthPayloadName, oauthPayloadSchemas } from '../lib/oauth-endpoints.js';
import { isJwkMemberName, jwkSchemas } from '../lib/jwk.js';
import { pascalCaseOf } from '../lib/words.js';

/** lowerCamelCase; a leading underscore marks HAL's reserved `_links` and `_embedded`. */
const PROPERTY_NAME = /^_?[a-z][a-zA-Z0-9]*$/;

/**
 * nlgov:property-names-camel-case over every schema of the document, each schema once: a schema
 * shared through `$ref` is reported at its definition. Names another standard fixes keep their
 * spelling where that standard applies: the OAuth parameters in the payloads of the OAuth
 * endpoints (lib/oauth-endpoints.ts), the members of a JWK (lib/jwk.ts).
 */
export default ruleFunction<null>({ input: null, options: null }, (document, _options, context) => {
  const results: IFunctionResult[] = [];
  const oauthPayloads = oauthPayloadSchemas(document);
  const jwks = jwkSchemas(document);
  const fixedElsewhere = (schema: object, name: string): boolean =>
    (oauthPayloads.has(schema) && isOAuthPayloadName(name)) || (jwks.has(schema) && isJwkMemberName(name));
  walkDocumentSchemas(document, (schema, path) => {
    // A `$ref` in place of the map that did not resolve names no property: /core/doc-openapi reports it.
    if (!isObject(schema.properties) || isUnresolvedReference(schema.properties)) return;
    for (const name of Object.keys(schema.properties)) {
      if (PROPERTY_NAME.test(name) || fixedElsewhere(schema, name)) continue;
      results.push({ message: `Property name is not lowerCamelCase: ${name}. ${renameAdvice(name)}.`, path: propertyPath(context, [...path, 'properties'], name) });
    }
  });
  return results;
});

/**
 * The name in lowerCamelCase, keeping one leading underscore (`__links` -> `_links`) and every
 * letter (`bouw_jaar` -> `bouwJaar`, `BSN` -> `bsn`, `Straße` -> `strasse`); only the general
 * advice where no such name passes (a name of digits first, or of letters without an ASCII form).
 */
function renameAdvice(name: string): string {
  const underscore = name.startsWith('_') ? '_' : '';
  const rest = name.replace(/^_+/, '');
  const pascal = /^\p{L}/u.test(rest) ? pascalCaseOf(rest) : undefined;
  const suggestion = pascal === undefined ? undefined : `${underscore}${pascal.charAt(0).toLowerCase()}${pascal.slice(1)}`;
  return suggestion !== undefined && PROPERTY_NAME.test(suggestion) ? `Rename it in lowerCamelCase, for example ${suggestion}` : 'Rename it in lowerCamelCase';
}

/**
 * At the property where it is written in place. Where its value is a `$ref`, a path into it would
 * be placed at the referenced schema, which has no wrong name: then at the `properties` map.
 * Where the path runs through a `$ref` into another file, the linted file does not show the
 * property; Spectral's own mapping says whether the path would land on it.
 */
function propertyPath(context: RulesetFunctionContext, propertiesPath: JsonPath, name: string): JsonPath {
  const path = [...propertiesPath, name];
  const written = valueAt(context.document.data, path);
  if (isObject(written)) return written.$ref === undefined ? path : propertiesPath;
  const placed = context.documentInventory.findAssociatedItemForPath(path, true)?.path;
  return placed !== undefined && placed.length >= 2 && placed[placed.length - 2] === 'properties' && placed[placed.length - 1] === name ? path : propertiesPath;
}
