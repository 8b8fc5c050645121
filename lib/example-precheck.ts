import ajvEqual from 'ajv/dist/runtime/equal.js';
import ajvUcs2length from 'ajv/dist/runtime/ucs2length.js';
import { isObject, type JsonObject } from './json.js';

/*
 * A shortcut past ajv for the common case, an example that is valid (lib/example-validation.ts).
 * Compiling a schema is what examples cost: ajv generates and compiles code for every schema it
 * validates with, and on GitHub's description about 2,500 of 3,300 media type examples and 3,700
 * of 3,750 schema examples are valid. Here a schema made of keywords whose meaning is plain
 * (type, properties, items, enum, format, ...) is applied to the value directly, as ajv's
 * generated code applies it, with the same options (draft-04, `strict: false`,
 * `unicodeRegExp: false`, `ownProperties: false`, OpenAPI's `nullable`).
 *
 * Only "valid" is ever acted on: then there is no finding, which is what ajv would say. Anything
 * else (invalid, or a schema with a keyword not handled here) goes to ajv as before, so findings
 * and their messages stay ajv's own. A schema is judged here only when ajv would compile it
 * without error: `understood` rejects whatever could make ajv throw (an unknown keyword is
 * ignored by ajv under `strict: false`, but only the annotations listed below are let through).
 */

// CommonJS modules with `exports.default`: the default import is the module object at type level.
const equal = (ajvEqual as unknown as { default: (a: unknown, b: unknown) => boolean }).default ?? (ajvEqual as unknown as (a: unknown, b: unknown) => boolean);
const ucs2length = (ajvUcs2length as unknown as { default: (text: string) => number }).default ?? (ajvUcs2length as unknown as (text: string) => number);

/** Keywords that ajv (draft-04 vocabulary, strict: false) gives no code: annotations and extensions. */
const IGNORED = new Set(['title', 'description', 'default', 'example', 'examples', 'readOnly', 'writeOnly', 'deprecated', 'xml', 'externalDocs', 'discriminator', '$comment']);
const NUMBER_KEYWORDS = ['minimum', 'maximum', 'multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'];
const JSON_TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'integer', 'string']);

/** What ajv was given beside the schema: its registered shared schemas and its formats. */
export interface PrecheckEnv {
  /** The schema ajv knows under this id (a registered shared schema), if it is usable. */
  shared(id: string): JsonObject | undefined;
  /** ajv's `formats` (ajv-formats' full set): a RegExp, a function, `true`, or `{ type, validate, async }`. */
  formats: Record<string, unknown>;
}

/** ajv's own words (compile/validate/dataType.js) when a schema has `nullable` but no `type`. */
export const NULLABLE_WITHOUT_TYPE = '"nullable" cannot be used without "type"';

/** What `understood` learns beside its answer. */
export interface Findings {
  /** The shared schemas referenced: the caller judges those too. */
  refs: string[];
  /**
   * Some schema has `nullable` without `type`: ajv's compile throws NULLABLE_WITHOUT_TYPE, and
   * nothing else when all the rest is understood. Such a schema is not for `accepts`.
   */
  nullableWithoutType: boolean;
}

/**
 * Whether one schema object and its inline subschemas are made only of handled keywords, so
 * that ajv compiles them without error (or only with NULLABLE_WITHOUT_TYPE, see Findings) and
 * `accepts` says what ajv's code would say.
 */
export function understood(schema: unknown, found: Findings, formats: PrecheckEnv['formats']): boolean {
  if (!isObject(schema)) return false;
  if ('$ref' in schema) {
    // ajv's treatment of keywords beside $ref varies by draft; only a bare $ref is handled.
    if (typeof schema.$ref !== 'string' || Object.keys(schema).length !== 1) return false;
    found.refs.push(schema.$ref);
    return true;
  }
  for (const [keyword, value] of Object.entries(schema)) {
    if (IGNORED.has(keyword) || keyword.startsWith('x-')) continue;
    if (!keywordUnderstood(keyword, value, schema, found, formats)) return false;
  }
  return typesUnderstood(schema, found);
}

function keywordUnderstood(keyword: string, value: unknown, schema: JsonObject, found: Findings, formats: PrecheckEnv['formats']): boolean {
  const sub = (item: unknown): boolean => understood(item, found, formats);
  if (NUMBER_KEYWORDS.includes(keyword)) return typeof value === 'number';
  switch (keyword) {
    case 'type':
    case 'nullable':
      return true; // judged together in typesUnderstood
    case 'enum':
      return Array.isArray(value);
    case 'const':
      return true;
    case 'format':
      return typeof value === 'string' && formatUnderstood(formats[value]);
    case 'pattern':
      return typeof value === 'string' && compiles(value);
    case 'exclusiveMinimum':
      return typeof value === 'boolean' && typeof schema.minimum === 'number';
    case 'exclusiveMaximum':
      return typeof value === 'boolean' && typeof schema.maximum === 'number';
    case 'uniqueItems':
      return typeof value === 'boolean';
    case 'required':
      return Array.isArray(value) && value.every((name) => typeof name === 'string' && plainName(name));
    case 'properties':
      return isObject(value) && Object.entries(value).every(([name, property]) => plainName(name) && sub(property));
    case 'patternProperties':
      return isObject(value) && Object.entries(value).every(([pattern, property]) => compiles(pattern) && sub(property));
    case 'additionalProperties':
    case 'additionalItems':
      return typeof value === 'boolean' || sub(value);
    case 'items':
      return Array.isArray(value) ? value.every(sub) : sub(value);
    case 'allOf':
    case 'anyOf':
    case 'oneOf':
      return Array.isArray(value) && value.length > 0 && value.every(sub);
    case 'not':
      return sub(value);
    default:
      return false;
  }
}

/**
 * A format ajv ignores (unknown, or `true`) or checks synchronously with a function or a
 * stateless RegExp: ajv throws on an async format in a sync schema, and a global or sticky
 * RegExp would answer differently here and in ajv as its lastIndex moves.
 */
function formatUnderstood(definition: unknown): boolean {
  if (definition === undefined || definition === true) return true;
  if (definition instanceof RegExp || typeof definition === 'function') return checkUnderstood(definition);
  if (!isObject(definition) || definition.async === true) return false;
  if (definition.type !== undefined && definition.type !== 'string' && definition.type !== 'number') return false;
  return checkUnderstood(definition.validate);
}

function checkUnderstood(check: unknown): boolean {
  return typeof check === 'function' || (check instanceof RegExp && !check.global && !check.sticky);
}

/** ajv throws on `nullable` without `type` (noted in `found`), and on `type: null` with `nullable: false`. */
function typesUnderstood(schema: JsonObject, found: Findings): boolean {
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (!types.every((type) => typeof type === 'string' && JSON_TYPES.has(type))) return false;
  if (schema.nullable === undefined) return true;
  if (typeof schema.nullable !== 'boolean') return false;
  if (types.length === 0) found.nullableWithoutType = true;
  return !(types.includes('null') && schema.nullable === false);
}

/** A name that `data[name]` finds on no plain object unless it is its own (ajv reads properties that way). */
function plainName(name: string): boolean {
  return !(name in Object.prototype);
}

const patterns = new Map<string, RegExp | null>();

/** ajv builds patterns as `new RegExp(pattern, '')` (unicodeRegExp: false); one that does not compile fails ajv's compile. */
function regExpOf(pattern: string): RegExp | null {
  if (!patterns.has(pattern)) {
    try {
      patterns.set(pattern, new RegExp(pattern, ''));
    } catch {
      patterns.set(pattern, null);
    }
  }
  return patterns.get(pattern) ?? null;
}

function compiles(pattern: string): boolean {
  return regExpOf(pattern) !== null;
}

/**
 * Whether ajv's validator for `schema` accepts `data`. Only for schemas `understood` accepted,
 * whose shared schemas it accepted too. Each keyword is applied as ajv's generated code applies it.
 */
export function accepts(schema: JsonObject, data: unknown, env: PrecheckEnv): boolean {
  if (typeof schema.$ref === 'string') {
    const shared = env.shared(schema.$ref);
    return shared !== undefined && accepts(shared, data, env);
  }
  if (!typeAccepts(schema, data)) return false;
  if (Array.isArray(schema.enum) && !schema.enum.some((item) => equal(data, item))) return false;
  if (schema.const !== undefined && !equal(data, schema.const)) return false;
  if (typeof data === 'number' && !numberAccepts(schema, data, env)) return false;
  if (typeof data === 'string' && !stringAccepts(schema, data, env)) return false;
  if (Array.isArray(data) && !arrayAccepts(schema, data, env)) return false;
  if (isObjectData(data) && !objectAccepts(schema, data, env)) return false;
  return combinatorsAccept(schema, data, env);
}

/** ajv's object check: `data && typeof data == "object" && !Array.isArray(data)`. */
function isObjectData(data: unknown): data is Record<string, unknown> {
  return typeof data === 'object' && data !== null && !Array.isArray(data);
}

function typeAccepts(schema: JsonObject, data: unknown): boolean {
  const types: string[] = schema.type === undefined ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  if (types.length === 0) return true;
  const withNull = schema.nullable === true && !types.includes('null') ? [...types, 'null'] : types;
  return withNull.some((type) => hasType(type, data));
}

/** ajv's checkDataType with strictNumbers off (`strict: false`). */
function hasType(type: string, data: unknown): boolean {
  switch (type) {
    case 'null':
      return data === null;
    case 'array':
      return Array.isArray(data);
    case 'object':
      return isObjectData(data);
    case 'integer':
      return typeof data === 'number' && !(data % 1) && !Number.isNaN(data);
    default:
      return typeof data === type;
  }
}

function numberAccepts(schema: JsonObject, data: number, env: PrecheckEnv): boolean {
  // ajv-draft-04's limitNumber: `data > maximum || isNaN(data)` fails, `>=` when exclusive.
  if (typeof schema.maximum === 'number' && (schema.exclusiveMaximum === true ? data >= schema.maximum : data > schema.maximum)) return false;
  if (typeof schema.minimum === 'number' && (schema.exclusiveMinimum === true ? data <= schema.minimum : data < schema.minimum)) return false;
  if (Number.isNaN(data) && (schema.maximum !== undefined || schema.minimum !== undefined)) return false;
  if (typeof schema.multipleOf === 'number') {
    const result = data / schema.multipleOf;
    if (schema.multipleOf === 0 || result !== Number.parseInt(String(result), 10)) return false;
  }
  return formatAccepts(schema, data, 'number', env);
}

function stringAccepts(schema: JsonObject, data: string, env: PrecheckEnv): boolean {
  if (typeof schema.maxLength === 'number' && ucs2length(data) > schema.maxLength) return false;
  if (typeof schema.minLength === 'number' && ucs2length(data) < schema.minLength) return false;
  if (typeof schema.pattern === 'string' && !(regExpOf(schema.pattern) as RegExp).test(data)) return false;
  return formatAccepts(schema, data, 'string', env);
}

/** ajv's format keyword: an unknown format is ignored (strict: false); a format applies to its own type only. */
function formatAccepts(schema: JsonObject, data: string | number, group: 'string' | 'number', env: PrecheckEnv): boolean {
  if (typeof schema.format !== 'string') return true;
  const definition = env.formats[schema.format];
  if (definition === undefined || definition === true) return true;
  const described = isObject(definition) && !(definition instanceof RegExp);
  const type = described ? (typeof definition.type === 'string' ? definition.type : 'string') : 'string';
  if (type !== group) return true;
  const check = described ? definition.validate : definition;
  if (typeof check === 'function') return Boolean((check as (value: unknown) => unknown)(data));
  return check instanceof RegExp ? check.test(String(data)) : false;
}

function arrayAccepts(schema: JsonObject, data: unknown[], env: PrecheckEnv): boolean {
  if (typeof schema.maxItems === 'number' && data.length > schema.maxItems) return false;
  if (typeof schema.minItems === 'number' && data.length < schema.minItems) return false;
  if (schema.uniqueItems === true && hasDuplicates(data)) return false;
  const items = schema.items;
  if (Array.isArray(items)) {
    for (let index = 0; index < Math.min(items.length, data.length); index += 1) {
      if (!accepts(items[index] as JsonObject, data[index], env)) return false;
    }
    const extra = data.slice(items.length);
    if (schema.additionalItems === false && extra.length > 0) return false;
    if (isObject(schema.additionalItems) && !extra.every((item) => accepts(schema.additionalItems as JsonObject, item, env))) return false;
  } else if (isObject(items) && !data.every((item) => accepts(items, item, env))) {
    return false;
  }
  return true;
}

/**
 * Whether two items are deep-equal. ajv compares only items of the declared scalar item types
 * when it can, but an item of another type fails `items` then, so the array is invalid either way.
 */
function hasDuplicates(data: unknown[]): boolean {
  for (let i = 1; i < data.length; i += 1) {
    for (let j = 0; j < i; j += 1) if (equal(data[i], data[j])) return true;
  }
  return false;
}

function objectAccepts(schema: JsonObject, data: Record<string, unknown>, env: PrecheckEnv): boolean {
  if (typeof schema.maxProperties === 'number' || typeof schema.minProperties === 'number') {
    const count = Object.keys(data).length;
    if (typeof schema.maxProperties === 'number' && count > schema.maxProperties) return false;
    if (typeof schema.minProperties === 'number' && count < schema.minProperties) return false;
  }
  if (Array.isArray(schema.required) && !schema.required.every((name) => data[name as string] !== undefined)) return false;
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const [name, property] of Object.entries(properties)) {
    if (data[name] !== undefined && !accepts(property as JsonObject, data[name], env)) return false;
  }
  const patternEntries = isObject(schema.patternProperties) ? Object.entries(schema.patternProperties) : [];
  const additional = schema.additionalProperties;
  if (patternEntries.length === 0 && (additional === undefined || additional === true)) return true;
  // ajv walks the data with `for...in`, as here.
  for (const key in data) {
    let declared = Object.prototype.hasOwnProperty.call(properties, key);
    for (const [pattern, property] of patternEntries) {
      if (!(regExpOf(pattern) as RegExp).test(key)) continue;
      declared = true;
      if (!accepts(property as JsonObject, data[key], env)) return false;
    }
    if (declared || additional === undefined || additional === true) continue;
    if (additional === false || !accepts(additional as JsonObject, data[key], env)) return false;
  }
  return true;
}

function combinatorsAccept(schema: JsonObject, data: unknown, env: PrecheckEnv): boolean {
  const all = Array.isArray(schema.allOf) ? (schema.allOf as JsonObject[]) : [];
  if (!all.every((part) => accepts(part, data, env))) return false;
  if (Array.isArray(schema.anyOf) && !(schema.anyOf as JsonObject[]).some((part) => accepts(part, data, env))) return false;
  if (Array.isArray(schema.oneOf) && (schema.oneOf as JsonObject[]).filter((part) => accepts(part, data, env)).length !== 1) return false;
  return !(isObject(schema.not) && accepts(schema.not, data, env));
}
