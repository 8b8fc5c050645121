import type { IFunctionResult, RulesetFunctionContext } from '@stoplight/spectral-core';
import { ruleFunction } from '../lib/rule-function.js';
import type { JsonPath } from '@stoplight/types';
import { isObject, valueAt } from '../lib/json.js';
import { walkDocumentSchemas } from '../lib/schema-walk.js';
import { resolvedDocument } from '../lib/inventory.js';
import { isUnresolvedReference } from '../lib/openapi.js';
import { isOAuthPayloadName, oauthPayloadSchemas } from '../lib/oauth-endpoints.js';
import { isJwkMemberName, jwkSchemas } from '../lib/jwk.js';
import { pascalCaseOf } from '../lib/words.js';

/** lowerCamelCase; a leading underscore marks HAL's reserved `_links` and `_embedded`. */
const PROPERTY_NAME = /^_?[a-z][a-zA-Z0-9]*$/;

/** Which findings a call reports: the names written in the linted file, or those in the files it `$ref`s. */
export interface PropertyNameOptions {
  written: 'in-linted-file' | 'in-other-files';
}

interface PropertyFinding {
  message: string;
  written: PropertyNameOptions['written'];
  /** In the linted file, the path of the name as written; in another file, its path in the resolved document. */
  path: JsonPath;
}

/**
 * nlgov:property-names-camel-case over every schema of the document, each schema once: a schema
 * shared through `$ref` is reported at its definition. Names another standard fixes keep their
 * spelling where that standard applies: the OAuth parameters in the payloads of the OAuth
 * endpoints (lib/oauth-endpoints.ts), the members of a JWK (lib/jwk.ts).
 *
 * The rule is `resolved: false` and has two `then`s, one per option (rulesets/core.ts): Spectral
 * places a rule's findings by the document its paths are read in. Read in the written document, a
 * name whose value is a `$ref` is placed at its own key (read in the resolved one, at the schema
 * its `$ref` names); but only the linted file can be named so. Names written in the files it
 * `$ref`s are reported by the second call, whose findings are placed as in the resolved document.
 */
export default ruleFunction<PropertyNameOptions>({
  input: null,
  options: { type: 'object', properties: { written: { enum: ['in-linted-file', 'in-other-files'] } }, required: ['written'], additionalProperties: false },
}, (_document, options, context) => {
  const findings = propertyFindings(context).filter(({ written }) => written === options.written);
  if (options.written === 'in-other-files' && findings.length > 0) placeInResolvedDocument(context);
  return findings.map(({ message, path }) => ({ message, path }));
});

/** Both calls of one lint share one walk of the document. */
const findingsOfDocument = new WeakMap<object, PropertyFinding[]>();

function propertyFindings(context: RulesetFunctionContext): PropertyFinding[] {
  const inventory = context.documentInventory;
  const cached = findingsOfDocument.get(inventory);
  if (cached !== undefined) return cached;
  const findings = walkPropertyNames(context);
  findingsOfDocument.set(inventory, findings);
  return findings;
}

function walkPropertyNames(context: RulesetFunctionContext): PropertyFinding[] {
  const document = resolvedDocument(context);
  const findings: PropertyFinding[] = [];
  const oauthPayloads = oauthPayloadSchemas(document);
  const jwks = jwkSchemas(document);
  const fixedElsewhere = (schema: object, name: string): boolean =>
    (oauthPayloads.has(schema) && isOAuthPayloadName(name)) || (jwks.has(schema) && isJwkMemberName(name));
  walkDocumentSchemas(document, (schema, path) => {
    // A `$ref` in place of the map that did not resolve names no property: /core/doc-openapi reports it.
    if (!isObject(schema.properties) || isUnresolvedReference(schema.properties)) return;
    const propertiesPath = [...path, 'properties'];
    // Asked only where a name is reported: the walk meets tens of thousands of schemas.
    let written: ReturnType<typeof context.documentInventory.findAssociatedItemForPath> | undefined;
    for (const name of Object.keys(schema.properties)) {
      if (PROPERTY_NAME.test(name) || fixedElsewhere(schema, name)) continue;
      written ??= context.documentInventory.findAssociatedItemForPath(propertiesPath, true);
      const inLintedFile = written === null || written.document === context.document;
      const message = `Property name is not lowerCamelCase: ${name}. ${renameAdvice(name)}.`;
      findings.push(inLintedFile
        ? { message, written: 'in-linted-file', path: keyPath(context.document.data, written?.path ?? propertiesPath, name) }
        : { message, written: 'in-other-files', path: placedInOtherFile(context, propertiesPath, name) });
    }
  });
  return findings;
}

/** The name's own key in the written map: its value, a `$ref` or not, starts on the key's line. */
function keyPath(data: unknown, writtenPropertiesPath: JsonPath, name: string): JsonPath {
  const map = valueAt(data, writtenPropertiesPath);
  return isObject(map) && Object.hasOwn(map, name) ? [...writtenPropertiesPath, name] : writtenPropertiesPath;
}

/**
 * The findings of this call placed as in the resolved document, as a `resolved: true` rule's are.
 * Spectral's runner (spectral-core since 1.14, lintNode) reads the rule from the context it hands
 * the function when it places that call's findings, so a view of the rule that reads `resolved` as
 * true places them in the other files. A runner that did not would place them at the `$ref` in
 * the linted file that leads to them: still a finding, one file off. test/rules/nlgov-property-names-camel-case*.test.ts
 * asserts both placements with the Spectral the package depends on.
 */
function placeInResolvedDocument(context: RulesetFunctionContext): void {
  const rule = context.rule;
  context.rule = new Proxy(rule, {
    get: (target, key) => {
      if (key === 'resolved') return true;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

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
 * In another file, as the resolved document places it: at the property where it is written in
 * place; where its value is a `$ref`, a path into it would be placed at the referenced schema,
 * which has no wrong name, so at the `properties` map. Spectral's own mapping says which it is.
 */
function placedInOtherFile(context: RulesetFunctionContext, propertiesPath: JsonPath, name: string): JsonPath {
  const path = [...propertiesPath, name];
  const placed = context.documentInventory.findAssociatedItemForPath(path, true)?.path;
  return placed !== undefined && placed.length >= 2 && placed[placed.length - 2] === 'properties' && placed[placed.length - 1] === name ? path : propertiesPath;
}
