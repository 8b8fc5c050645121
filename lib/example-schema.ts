import { isObject, type JsonObject } from './json.js';

/**
 * The schema an example is validated against, prepared as spectral:oas's `oasExample` prepares
 * it (node_modules/@stoplight/spectral-rulesets/dist/oas/functions/oasExample.js: a JSON copy,
 * `cleanSchema`, `relaxRequired`), in one pass and with one addition: a subschema `refFor` names
 * is replaced by `{ $ref }`, so that a schema shared by many others is compiled once.
 */

/** Which `required` entries are dropped: readOnly ones in requests, writeOnly ones in responses. */
export type Relaxation = 'none' | 'readOnly' | 'writeOnly';

/** The `$ref` for a shared subschema under a relaxation, or undefined to copy it in place. */
export type RefFor = (subschema: JsonObject, relaxation: Relaxation) => string | undefined;

const INLINE: RefFor = () => undefined;

/*
 * The keyword tables of json-schema-traverse 1.0, which spectral walks schemas with; the same
 * walk keeps ajv's view of the copy the same, without depending on that package.
 */
const SINGLE_KEYWORDS = new Set(['additionalItems', 'items', 'contains', 'additionalProperties', 'propertyNames', 'not', 'if', 'then', 'else']);
const ARRAY_KEYWORDS = new Set(['items', 'allOf', 'anyOf', 'oneOf']);
const MAP_KEYWORDS = new Set(['$defs', 'definitions', 'properties', 'patternProperties', 'dependencies']);
const SKIP_KEYWORDS = new Set([
  'default', 'enum', 'const', 'required', 'maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf',
  'maxLength', 'minLength', 'pattern', 'format', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties',
]);

function isSchemaKeyword(keyword: string): boolean {
  return SINGLE_KEYWORDS.has(keyword) || ARRAY_KEYWORDS.has(keyword) || MAP_KEYWORDS.has(keyword);
}

/**
 * What a copy keeps of annotations. ajv gives `example`, `default`, `description` and `title`
 * no code, so a root schema's copy drops them ('drop'): root schemas that differ only in their
 * examples share one validator. Shared schemas are registered with them ('keep'), as before.
 */
export type Annotations = 'keep' | 'drop';

/**
 * A copy of `schema` ready for ajv: subschemas copied (or referenced through `refFor`), `id`
 * removed from objects under keywords that are not schema keywords (draft-4 ajv would take
 * `{ "id": "x" }` inside an example for a schema id), and properties that are readOnly or
 * writeOnly, per `relaxation`, no longer required. Nothing under `not` is relaxed: that would
 * make the negation stricter. Values that are not walked (enum, required, ...) are shared, except
 * a list of types, which ajv changes.
 */
export function copySchema(schema: JsonObject, relaxation: Relaxation, refFor: RefFor = INLINE, annotations: Annotations = 'keep'): JsonObject {
  const copy: JsonObject = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (annotations === 'drop' && isAnnotation(keyword, value)) continue;
    copy[keyword] = copyKeyword(keyword, value, keyword === 'not' ? 'none' : relaxation, refFor, annotations);
  }
  if (relaxation !== 'none') relaxRequired(copy, schema, relaxation);
  return copy;
}

function copyKeyword(keyword: string, value: unknown, relaxation: Relaxation, refFor: RefFor, annotations: Annotations): unknown {
  // ajv adds `null` to a list of types for `nullable` in the schema it compiles; the list in
  // Spectral's resolved document is frozen, and ajv's push on it would fail the compile.
  if (keyword === 'type' && Array.isArray(value)) return [...value];
  if (Array.isArray(value)) return ARRAY_KEYWORDS.has(keyword) ? value.map((item) => copySubschema(item, relaxation, refFor, annotations)) : value;
  if (!isObject(value)) return value;
  if (MAP_KEYWORDS.has(keyword)) {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, copySubschema(item, relaxation, refFor, annotations)]));
  }
  if (SINGLE_KEYWORDS.has(keyword)) return copySubschema(value, relaxation, refFor, annotations);
  if (SKIP_KEYWORDS.has(keyword)) return value;
  return withoutForeignIds(keyword, value);
}

function copySubschema(item: unknown, relaxation: Relaxation, refFor: RefFor, annotations: Annotations): unknown {
  if (!isObject(item)) return item;
  const ref = refFor(item, relaxation);
  return ref === undefined ? copySchema(item, relaxation, refFor, annotations) : { $ref: ref };
}

/** The readOnly/writeOnly flag is read from the original property, which may be a shared schema. */
function relaxRequired(copy: JsonObject, schema: JsonObject, relaxation: Exclude<Relaxation, 'none'>): void {
  if (!Array.isArray(copy.required) || !isObject(schema.properties)) return;
  const relaxed = new Set(Object.entries(schema.properties).filter(([, property]) => isObject(property) && property[relaxation] === true).map(([name]) => name));
  if (relaxed.size === 0) return;
  const required = copy.required.filter((name) => typeof name !== 'string' || !relaxed.has(name));
  if (required.length > 0) copy.required = required;
  else delete copy.required;
}

/**
 * A JSON copy of a value under an unknown keyword (`example`, `xml`, `x-...`) without `id` in
 * any object json-schema-traverse (with `allKeys`) would reach through unknown keywords.
 */
function withoutForeignIds(keyword: string, value: JsonObject): JsonObject {
  const copy = JSON.parse(JSON.stringify(value)) as JsonObject;
  const stack: Array<[JsonObject, string]> = [[copy, keyword]];
  while (stack.length > 0) {
    const [node, parentKeyword] = stack.pop() as [JsonObject, string];
    if (!isSchemaKeyword(parentKeyword)) delete node.id;
    for (const [key, child] of Object.entries(node)) {
      if (Array.isArray(child)) {
        if (ARRAY_KEYWORDS.has(key)) for (const item of child) if (isObject(item)) stack.push([item, key]);
      } else if (MAP_KEYWORDS.has(key)) {
        if (isObject(child)) for (const item of Object.values(child)) if (isObject(item)) stack.push([item, key]);
      } else if (!SKIP_KEYWORDS.has(key) && isObject(child)) {
        stack.push([child, key]);
      }
    }
  }
  return copy;
}

/** Keywords that never change whether a value is valid; the meta-schema only wants strings in the last two. */
const ANNOTATIONS = ['example', 'default'];
const TEXT_ANNOTATIONS = ['description', 'title'];

function isAnnotation(keyword: string, value: unknown): boolean {
  return ANNOTATIONS.includes(keyword) || (TEXT_ANNOTATIONS.includes(keyword) && typeof value === 'string');
}
