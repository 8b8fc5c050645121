import ajvEqual from 'ajv/dist/runtime/equal.js';
import ajvUcs2length from 'ajv/dist/runtime/ucs2length.js';
import type { ErrorObject } from 'ajv';
import { isObject, type JsonObject } from './json.js';

/*
 * ajv's validation without ajv's compile, for the schemas examples are checked against
 * (lib/example-validation.ts). Compiling is what examples cost: ajv generates and compiles code
 * for every schema it validates with, and every shared schema that one references. Here a schema
 * made of keywords whose meaning is plain (type, properties, items, enum, format, ...) is applied
 * to the value directly, keyword by keyword as ajv's generated code applies it, with the same
 * options (draft-04, `allErrors: false`, `strict: false`, `unicodeRegExp: false`,
 * `ownProperties: false`, OpenAPI's `nullable`), and gives ajv's errors: the same keywords,
 * instance paths, params and messages, in the same order, so findings stay ajv's own words.
 *
 * A schema is applied here only when ajv would compile it without error: `understood` rejects
 * whatever could make ajv throw or behave otherwise (an unknown keyword is ignored by ajv under
 * `strict: false`, but only the annotations listed below are let through), and the caller checks
 * the meta-schema. Everything else goes to ajv. test/ajv-interpreter.test.ts and
 * test/ajv-interpreter-fuzz.test.ts hold the errors to ajv's.
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
   * nothing else when all the rest is understood. Such a schema is not for `validationErrors`.
   */
  nullableWithoutType: boolean;
}

/**
 * Whether one schema object and its inline subschemas are made only of handled keywords, so
 * that ajv compiles them without error (or only with NULLABLE_WITHOUT_TYPE, see Findings) and
 * `validationErrors` says what ajv's code would say.
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
    // ajv compares a plain value with `===` and objects with deep equality, which differ on NaN
    // (a YAML `.nan`); such a value is left to ajv.
    case 'enum':
      return Array.isArray(value) && !value.some(Number.isNaN);
    case 'const':
      return !Number.isNaN(value);
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
      // ajv's check `data[name] === undefined && (missing = name)` passes over the empty name
      // (it is falsy), except in its loop for 200 names or more: left to ajv.
      return Array.isArray(value) && value.every((name) => typeof name === 'string' && name !== '' && plainName(name));
    case 'properties':
      return isObject(value) && Object.entries(value).every(([name, property]) => plainName(name) && sub(property));
    case 'patternProperties':
      // ajv skips a pattern named `__proto__` (allSchemaProperties), also for additionalProperties.
      return isObject(value) && Object.entries(value).every(([pattern, property]) => pattern !== '__proto__' && compiles(pattern) && sub(property));
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

/**
 * Compiled patterns, shared by the lints one process runs (a warm lint worker serves many
 * descriptions): bounded, so that descriptions full of patterns cannot grow it without end.
 */
const patterns = new Map<string, RegExp | null>();
const MAX_CACHED_PATTERNS = 1000;

/** ajv builds patterns as `new RegExp(pattern, '')` (unicodeRegExp: false); one that does not compile fails ajv's compile. */
function regExpOf(pattern: string): RegExp | null {
  if (!patterns.has(pattern)) {
    if (patterns.size >= MAX_CACHED_PATTERNS) patterns.clear();
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

/* ---------------------------------------------------------------------------------------------
 * Validation, in the order of ajv's generated code (ajv/dist/compile/validate/index.js with
 * `allErrors: false`): a bare `$ref`; the type, first when it cannot wait for its own group; the
 * keywords of no type (const, enum, not, anyOf, oneOf, allOf); then the keyword groups of the
 * number, string, array and object types, each applied only to data of its type, in the order
 * the draft-04 vocabularies add their keywords. The first keyword that fails ends its schema, and
 * the schemas around it; anyOf and oneOf gather the errors of their branches, and inside a branch
 * a type checked first is followed by the keywords of no type (Walk.inBranch).
 */

/**
 * One of ajv's error objects, as far as the findings read it (lib/example-messages.ts): with
 * ajv's `verbose`, `parentSchema` is the schema holding the keyword (the nullable rewrite reads
 * its flag). `schemaPath` is left out: nothing reads it, and ajv's is relative to whichever shared
 * schema was compiled apart.
 */
export type ExampleError = Pick<ErrorObject, 'instancePath' | 'keyword' | 'params' | 'message' | 'parentSchema'> & {
  /**
   * The keyword lies below a list of schemas (allOf, anyOf, oneOf, a tuple's items) in the
   * schema with every `$ref` expanded, as spectral validates it: spectral's nullable rewrite
   * looks its flag up along that path and gives up at a list, so it says nothing there.
   */
  throughList?: boolean;
};

type Group = 'number' | 'string' | 'array' | 'object';

/** The keywords of each typed group, in ajv's order; `format` belongs to two. Groups in ajv's order too. */
const GROUP_KEYWORDS: ReadonlyMap<string, readonly string[]> = new Map<Group, readonly string[]>([
  ['number', ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf', 'format']],
  ['string', ['maxLength', 'minLength', 'pattern', 'format']],
  // items and additionalItems are declared `before: "uniqueItems"`.
  ['array', ['maxItems', 'minItems', 'additionalItems', 'items', 'contains', 'uniqueItems']],
  ['object', ['maxProperties', 'minProperties', 'required', 'propertyNames', 'additionalProperties', 'dependencies', 'properties', 'patternProperties']],
]);

interface Walk {
  env: PrecheckEnv;
  /** Where in the value the walk is; pushed and popped, joined only for an error. */
  path: Array<string | number>;
  errors: ExampleError[];
  /**
   * Inside a branch of anyOf, oneOf or not (ajv's `compositeRule`), up to the next shared schema,
   * which ajv compiles into a function of its own. There a type checked first does not end the
   * schema: ajv adds the error and still applies the keywords of no type.
   */
  inBranch: boolean;
  /** Below a list of schemas: see {@link ExampleError}. A `$ref` is expanded in place, so it does not reset this. */
  throughList: boolean;
  /** What each shared schema said of a value at a place: see {@link validateShared}. */
  shared: Map<JsonObject, Map<unknown, Map<string, SharedOutcome>>>;
}

interface SharedOutcome {
  valid: boolean;
  errors: ExampleError[];
}

/**
 * ajv's errors for `data` (none when it is valid), as the validator compiled from `schema` with
 * example-validation.ts's options would report them. Only for schemas `understood` accepted,
 * whose shared schemas it accepted too, and which pass the meta-schema.
 */
export function validationErrors(schema: JsonObject, data: unknown, env: PrecheckEnv): ExampleError[] {
  const walk: Walk = { env, path: [], errors: [], inBranch: false, throughList: false, shared: new Map() };
  validate(schema, data, walk);
  return walk.errors;
}

function validate(schema: JsonObject, data: unknown, walk: Walk): boolean {
  if (typeof schema.$ref === 'string') {
    // An id ajv does not know makes it fail to compile, which spectral leaves unreported.
    const shared = walk.env.shared(schema.$ref);
    return shared === undefined || validateShared(shared, data, walk);
  }
  const types = schemaTypes(schema);
  const typeFirst = types.length > 0 && !(types.length === 1 && usesAny(schema, GROUP_KEYWORDS.get(types[0] as string)));
  if (typeFirst && !types.some((type) => hasType(type, data))) {
    typeError(schema, walk);
    // The keyword groups of the types come after a check that no error was added; these do not.
    if (walk.inBranch) untypedKeywordsAccept(schema, data, walk);
    return false;
  }
  if (!untypedKeywordsAccept(schema, data, walk)) return false;
  for (const [group, keywords] of GROUP_KEYWORDS) {
    if (!usesAny(schema, keywords)) continue;
    if (hasType(group, data)) {
      if (!groupAccepts(group as Group, schema, data, walk)) return false;
    } else if (types.length === 1 && types[0] === group) {
      return typeError(schema, walk);
    }
  }
  return true;
}

/**
 * Past this many errors for one value, an error given again by a shared schema's kept outcome is
 * not added a second time. ajv would list it once per route (an anyOf or oneOf of the same schema
 * twice, level under level, doubles the list each level); the findings are the same, as Spectral
 * keeps one of identical findings, and the list stays as long as its distinct errors.
 */
const MAX_REPEATED_ERRORS = 1000;

/**
 * A shared schema is its own function in ajv's code, outside any branch, and it says the same of
 * the same value at the same place: its outcome is kept and given again. Without that, a schema
 * that names a shared schema twice (`S2: {allOf: [S1, S1]}`, and S1 likewise, down many levels)
 * would be applied once per route through it, twice as often at every level.
 */
function validateShared(shared: JsonObject, data: unknown, walk: Walk): boolean {
  const place = `${walk.throughList ? 'L' : 'T'}${pointerOf(walk.path)}`;
  const byData = walk.shared.get(shared) ?? new Map<unknown, Map<string, SharedOutcome>>();
  walk.shared.set(shared, byData);
  const byPlace = byData.get(data) ?? new Map<string, SharedOutcome>();
  byData.set(data, byPlace);
  const known = byPlace.get(place);
  if (known !== undefined) {
    const repeatsOnly = walk.errors.length + known.errors.length > MAX_REPEATED_ERRORS;
    for (const error of known.errors) if (!repeatsOnly || !walk.errors.includes(error)) walk.errors.push(error);
    return known.valid;
  }
  const before = walk.errors.length;
  const valid = validate(shared, data, walk.inBranch ? { ...walk, inBranch: false } : walk);
  byPlace.set(place, { valid, errors: walk.errors.slice(before) });
  return valid;
}

/** ajv's getSchemaTypes: the listed types, with null added by `nullable: true`. */
function schemaTypes(schema: JsonObject): string[] {
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  return schema.nullable === true && !types.includes('null') ? [...types, 'null'] : types;
}

/** Whether the schema has one of a group's keywords (ajv's shouldUseGroup); no group, no keywords. */
function usesAny(schema: JsonObject, keywords: readonly string[] | undefined): boolean {
  return keywords !== undefined && keywords.some((keyword) => schema[keyword] !== undefined);
}

/** ajv's checkDataType with strictNumbers off (`strict: false`); its object check is isObject's. */
function hasType(type: string, data: unknown): boolean {
  switch (type) {
    case 'null':
      return data === null;
    case 'array':
      return Array.isArray(data);
    case 'object':
      return isObject(data);
    case 'integer':
      return typeof data === 'number' && !(data % 1) && !Number.isNaN(data);
    default:
      return typeof data === type;
  }
}

function fail(walk: Walk, schema: JsonObject, keyword: string, params: Record<string, unknown>, message: string): false {
  walk.errors.push({ instancePath: pointerOf(walk.path), keyword, params, message, parentSchema: schema, ...(walk.throughList ? { throughList: true } : {}) });
  return false;
}

function pointerOf(path: ReadonlyArray<string | number>): string {
  return path.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/**
 * ajv names a single type as written (`must be string` for a nullable string; spectral's rewrite
 * adds `,null`). A list of types it names with `null` for `nullable`, which its getSchemaTypes adds
 * to the schema's own list when it compiles (and the rewrite adds it once more).
 */
function typeError(schema: JsonObject, walk: Walk): false {
  const type = Array.isArray(schema.type) ? schemaTypes(schema) : schema.type;
  return fail(walk, schema, 'type', { type }, `must be ${String(type)}`);
}

/** Validates `data` at `segment` below the current place. */
function validateAt(schema: unknown, data: unknown, segment: string | number, walk: Walk): boolean {
  if (!isObject(schema)) return true;
  walk.path.push(segment);
  const valid = validate(schema, data, walk);
  walk.path.pop();
  return valid;
}

function untypedKeywordsAccept(schema: JsonObject, data: unknown, walk: Walk): boolean {
  if (schema.const !== undefined && !equal(data, schema.const)) return fail(walk, schema, 'const', { allowedValue: schema.const }, 'must be equal to constant');
  if (Array.isArray(schema.enum) && !schema.enum.some((item) => equal(data, item))) {
    return fail(walk, schema, 'enum', { allowedValues: schema.enum }, 'must be equal to one of the allowed values');
  }
  // `not` gathers no errors: it only asks whether its schema holds.
  if (isObject(schema.not) && validate(schema.not, data, { ...walk, errors: [], inBranch: true })) return fail(walk, schema, 'not', {}, 'must NOT be valid');
  if (Array.isArray(schema.anyOf) && !anyOfAccepts(schema, schema.anyOf as JsonObject[], data, walk)) return false;
  if (Array.isArray(schema.oneOf) && !oneOfAccepts(schema, schema.oneOf as JsonObject[], data, walk)) return false;
  if (!Array.isArray(schema.allOf)) return true;
  const partWalk = belowList(walk);
  return (schema.allOf as JsonObject[]).every((part) => validate(part, data, partWalk));
}

function belowList(walk: Walk): Walk {
  return walk.throughList ? walk : { ...walk, throughList: true };
}

/** Branches until one holds, which drops the others' errors; if none does, their errors and anyOf's. */
function anyOfAccepts(schema: JsonObject, branches: JsonObject[], data: unknown, walk: Walk): boolean {
  const before = walk.errors.length;
  const inBranch = { ...walk, inBranch: true, throughList: true };
  for (const branch of branches) {
    if (validate(branch, data, inBranch)) {
      walk.errors.length = before;
      return true;
    }
  }
  return fail(walk, schema, 'anyOf', {}, 'must match a schema in anyOf');
}

/** Branches until a second one holds; exactly one holding drops the errors of the others. */
function oneOfAccepts(schema: JsonObject, branches: JsonObject[], data: unknown, walk: Walk): boolean {
  const before = walk.errors.length;
  const inBranch = { ...walk, inBranch: true, throughList: true };
  let passing: number | undefined;
  for (const [index, branch] of branches.entries()) {
    if (!validate(branch, data, inBranch)) continue;
    if (passing !== undefined) return fail(walk, schema, 'oneOf', { passingSchemas: [passing, index] }, 'must match exactly one schema in oneOf');
    passing = index;
  }
  if (passing === undefined) return fail(walk, schema, 'oneOf', { passingSchemas: null }, 'must match exactly one schema in oneOf');
  walk.errors.length = before;
  return true;
}

function groupAccepts(group: Group, schema: JsonObject, data: unknown, walk: Walk): boolean {
  switch (group) {
    case 'number':
      return numberAccepts(schema, data as number, walk);
    case 'string':
      return stringAccepts(schema, data as string, walk);
    case 'array':
      return arrayAccepts(schema, data as unknown[], walk);
    default:
      return objectAccepts(schema, data as Record<string, unknown>, walk);
  }
}

/** ajv-draft-04's limitNumber: `data > maximum || isNaN(data)` fails, `>=` when exclusive. */
function numberAccepts(schema: JsonObject, data: number, walk: Walk): boolean {
  if (typeof schema.maximum === 'number') {
    const exclusive = Boolean(schema.exclusiveMaximum);
    if ((exclusive ? data >= schema.maximum : data > schema.maximum) || Number.isNaN(data)) return limitError(schema, walk, 'maximum', exclusive ? '<' : '<=');
  }
  if (typeof schema.minimum === 'number') {
    const exclusive = Boolean(schema.exclusiveMinimum);
    if ((exclusive ? data <= schema.minimum : data < schema.minimum) || Number.isNaN(data)) return limitError(schema, walk, 'minimum', exclusive ? '>' : '>=');
  }
  if (typeof schema.multipleOf === 'number') {
    const result = data / schema.multipleOf;
    if (schema.multipleOf === 0 || result !== Number.parseInt(String(result), 10)) {
      return fail(walk, schema, 'multipleOf', { multipleOf: schema.multipleOf }, `must be multiple of ${schema.multipleOf}`);
    }
  }
  return formatAccepts(schema, data, 'number', walk);
}

function limitError(schema: JsonObject, walk: Walk, keyword: 'maximum' | 'minimum', comparison: string): false {
  return fail(walk, schema, keyword, { comparison, limit: limitOf(schema, keyword) }, `must be ${comparison} ${String(schema[keyword])}`);
}

/** ajv writes a limit into its generated code as a literal, where -0 becomes 0. */
function limitOf(schema: JsonObject, keyword: string): unknown {
  return schema[keyword] === 0 ? 0 : schema[keyword];
}

/** maxLength, minLength, maxItems, ...: `must NOT have more than 3 characters`. */
function countError(schema: JsonObject, walk: Walk, keyword: string, unit: string): false {
  const comparison = keyword.startsWith('max') ? 'more' : 'fewer';
  return fail(walk, schema, keyword, { limit: limitOf(schema, keyword) }, `must NOT have ${comparison} than ${String(schema[keyword])} ${unit}`);
}

function stringAccepts(schema: JsonObject, data: string, walk: Walk): boolean {
  if (typeof schema.maxLength === 'number' && ucs2length(data) > schema.maxLength) return countError(schema, walk, 'maxLength', 'characters');
  if (typeof schema.minLength === 'number' && ucs2length(data) < schema.minLength) return countError(schema, walk, 'minLength', 'characters');
  if (typeof schema.pattern === 'string' && !(regExpOf(schema.pattern) as RegExp).test(data)) {
    return fail(walk, schema, 'pattern', { pattern: schema.pattern }, `must match pattern "${schema.pattern}"`);
  }
  return formatAccepts(schema, data, 'string', walk);
}

/** ajv's format keyword: an unknown format is ignored (strict: false); a format applies to its own type only. */
function formatAccepts(schema: JsonObject, data: string | number, group: 'string' | 'number', walk: Walk): boolean {
  if (typeof schema.format !== 'string') return true;
  const definition = walk.env.formats[schema.format];
  if (definition === undefined || definition === true) return true;
  const described = isObject(definition) && !(definition instanceof RegExp);
  const type = described ? (typeof definition.type === 'string' ? definition.type : 'string') : 'string';
  if (type !== group) return true;
  const check = described ? definition.validate : definition;
  const valid = typeof check === 'function' ? Boolean((check as (value: unknown) => unknown)(data)) : check instanceof RegExp && check.test(String(data));
  return valid || fail(walk, schema, 'format', { format: schema.format }, `must match format "${schema.format}"`);
}

function arrayAccepts(schema: JsonObject, data: unknown[], walk: Walk): boolean {
  if (typeof schema.maxItems === 'number' && data.length > schema.maxItems) return countError(schema, walk, 'maxItems', 'items');
  if (typeof schema.minItems === 'number' && data.length < schema.minItems) return countError(schema, walk, 'minItems', 'items');
  const items = schema.items;
  if (Array.isArray(items)) {
    if (!additionalItemsAccept(schema, items.length, data, walk)) return false;
    const tupleWalk = belowList(walk);
    for (let index = 0; index < Math.min(items.length, data.length); index += 1) {
      if (!validateAt(items[index], data[index], index, tupleWalk)) return false;
    }
  } else if (isObject(items)) {
    for (let index = 0; index < data.length; index += 1) if (!validateAt(items, data[index], index, walk)) return false;
  }
  if (schema.uniqueItems === true && data.length > 1) {
    const duplicate = duplicateOf(data, isObject(schema.items) ? schemaTypes(schema.items) : []);
    if (duplicate !== undefined) {
      const [i, j] = duplicate;
      return fail(walk, schema, 'uniqueItems', { i, j }, `must NOT have duplicate items (items ## ${j} and ${i} are identical)`);
    }
  }
  return true;
}

/** additionalItems, which ajv applies before items (and both before uniqueItems), and only beside a list of items. */
function additionalItemsAccept(schema: JsonObject, listed: number, data: unknown[], walk: Walk): boolean {
  const additional = schema.additionalItems;
  if (additional === false && data.length > listed) {
    return fail(walk, schema, 'additionalItems', { limit: listed }, `must NOT have more than ${listed} items`);
  }
  if (!isObject(additional)) return true;
  for (let index = listed; index < data.length; index += 1) if (!validateAt(additional, data[index], index, walk)) return false;
  return true;
}

/**
 * ajv's uniqueItems, which names the pair it finds first: from the last item back, by a map of
 * values when the items are declared of scalar types (items of another type are skipped, and a
 * string gets a `_` when several types are declared), else by deep equality with every item before.
 */
function duplicateOf(data: unknown[], itemTypes: string[]): [number, number] | undefined {
  if (itemTypes.length > 0 && !itemTypes.some((type) => type === 'object' || type === 'array')) {
    const indices: Record<string, unknown> = {};
    for (let i = data.length - 1; i >= 0; i -= 1) {
      let item = data[i];
      if (!itemTypes.some((type) => hasType(type, item))) continue;
      if (itemTypes.length > 1 && typeof item === 'string') item += '_';
      const key = String(item);
      const seenAt = indices[key];
      if (typeof seenAt === 'number') return [i, seenAt];
      indices[key] = i;
    }
    return undefined;
  }
  for (let i = data.length - 1; i >= 0; i -= 1) {
    for (let j = i - 1; j >= 0; j -= 1) if (equal(data[i], data[j])) return [i, j];
  }
  return undefined;
}

function objectAccepts(schema: JsonObject, data: Record<string, unknown>, walk: Walk): boolean {
  if (typeof schema.maxProperties === 'number' && Object.keys(data).length > schema.maxProperties) return countError(schema, walk, 'maxProperties', 'properties');
  if (typeof schema.minProperties === 'number' && Object.keys(data).length < schema.minProperties) return countError(schema, walk, 'minProperties', 'properties');
  if (Array.isArray(schema.required)) {
    const missing = (schema.required as string[]).find((name) => data[name] === undefined);
    if (missing !== undefined) return fail(walk, schema, 'required', { missingProperty: missing }, `must have required property '${missing}'`);
  }
  const properties = isObject(schema.properties) ? schema.properties : {};
  const patterns = isObject(schema.patternProperties) ? Object.keys(schema.patternProperties) : [];
  if (!additionalPropertiesAccept(schema, properties, patterns, data, walk)) return false;
  for (const name of Object.keys(properties)) {
    if (data[name] !== undefined && !validateAt(properties[name], data[name], name, walk)) return false;
  }
  // ajv walks the data with `for...in`, once per pattern.
  for (const pattern of patterns) {
    const regExp = regExpOf(pattern) as RegExp;
    for (const key in data) {
      if (regExp.test(key) && !validateAt((schema.patternProperties as JsonObject)[pattern], data[key], key, walk)) return false;
    }
  }
  return true;
}

/** additionalProperties, which ajv applies before properties: the first key neither declares fails. */
function additionalPropertiesAccept(schema: JsonObject, properties: JsonObject, patterns: string[], data: Record<string, unknown>, walk: Walk): boolean {
  const additional = schema.additionalProperties;
  if (additional !== false && !isObject(additional)) return true;
  for (const key in data) {
    if (Object.prototype.hasOwnProperty.call(properties, key) || patterns.some((pattern) => (regExpOf(pattern) as RegExp).test(key))) continue;
    if (additional === false) return fail(walk, schema, 'additionalProperties', { additionalProperty: key }, 'must NOT have additional properties');
    if (!validateAt(additional, data[key], key, walk)) return false;
  }
  return true;
}
