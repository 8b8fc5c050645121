import type { JsonObject } from '../../lib/json.js';

/*
 * Random OpenAPI 3.0 schemas (draft-04 + nullable) and values for them, for the differential test
 * of lib/ajv-interpreter.ts against ajv (test/ajv-interpreter-fuzz.test.ts). The schemas lean on
 * where ajv's `allErrors: false` order differs from a schema's key order: keywords of several
 * type groups side by side, a type checked first or only in its own group, unions with several
 * passing branches, shared schemas reached by `$ref`. The values are mostly near misses: a value
 * built to fit the schema, then broken in one or two places, so that the first error ajv reports
 * sits deep inside and among other almost-errors.
 */

export type Json = null | boolean | number | string | Json[] | JsonMap;
export interface JsonMap {
  [key: string]: Json;
}

/** mulberry32: tiny, seedable and good enough to draw cases; every run draws the same ones. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer from `min` to `max`, both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  shuffled<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i -= 1) {
      const j = this.int(0, i);
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy;
  }
}

/** A schema and a way to draw values meant to fit it (best effort: ajv has the last word). */
export interface Built {
  schema: JsonObject;
  sample: (rng: Rng) => Json;
}

/**
 * Sets a key as an own data property: plain assignment of `__proto__` would set the prototype
 * instead, and parsed YAML or JSON can hold such a key.
 */
export function put(target: JsonMap, key: string, value: Json): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function clone(value: Json): Json {
  if (Array.isArray(value)) return value.map(clone);
  if (value === null || typeof value !== 'object') return value;
  const copy: JsonMap = {};
  for (const [key, item] of Object.entries(value)) put(copy, key, clone(item));
  return copy;
}

/* ---------------------------------------------------------------------------------------------
 * Pools of values. Small on purpose: drawing from few values makes duplicates (uniqueItems),
 * enum hits and near misses of limits common.
 */

const STRING_FORMATS: Record<string, { good: string[]; bad: string[] }> = {
  'date-time': { good: ['2024-01-31T12:00:00Z', '2024-02-29T23:59:59.5+01:00'], bad: ['2024-01-31', '2024-01-31T12:00:00', '2023-02-29T12:00:00Z'] },
  date: { good: ['2024-01-31', '2024-02-29'], bad: ['2023-02-29', '2024-1-31', '2024-01-31T12:00:00Z'] },
  uri: { good: ['https://example.nl/a?b=c', 'urn:isbn:123'], bad: ['example.nl', '/relative', 'http://exa mple.nl'] },
  email: { good: ['info@example.nl'], bad: ['info@', 'example.nl'] },
  uuid: { good: ['123e4567-e89b-12d3-a456-426614174000'], bad: ['123e4567-e89b-12d3-a456-42661417400g', '123'] },
  ipv4: { good: ['192.168.0.1', '10.0.0.255'], bad: ['256.1.1.1', '1.2.3'] },
  byte: { good: ['aGVsbG8='], bad: ['a', 'aGVsbG8'] },
  // ajv-formats has `password: true`: never checked.
  password: { good: ['geheim'], bad: [] },
  // Not a format ajv knows: ignored under `strict: false`, in both type groups.
  'unknown-format': { good: ['anything'], bad: [] },
};

const NUMBER_FORMATS: Record<string, { good: number[]; bad: number[] }> = {
  int32: { good: [0, 7, -2147483648, 2147483647], bad: [2147483648, -2147483649, 1.5] },
  int64: { good: [0, 2 ** 40], bad: [0.5] },
  float: { good: [1.5], bad: [] },
  double: { good: [2.25], bad: [] },
};

const STRINGS: readonly string[] = [
  '', 'a', 'b', 'ab', 'abc', 'abcdef', 'ABC', 'a b', '1', '12', '123456', 'true', 'null', 'red', 'green',
  '😀', 'a😀b', 'x-y', '__proto__', 'constructor',
  ...Object.values(STRING_FORMATS).flatMap(({ good, bad }) => [...good, ...bad]),
];

const NUMBERS: readonly number[] = [
  0, -0, 1, -1, 2, 3, 7, 10, 100, -100, 0.1, 0.3, 2.5, 12.75, 2147483647, 2147483648, -2147483649, 2 ** 53, 1e21, 1.5e300,
];

/** Strings and integers that collide as object keys ('1' and 1) and under ajv's `_` suffix. */
const SMALL_STRINGS: readonly string[] = ['a', 'b', '1', 'true', 'null', '1_'];
const SMALL_INTEGERS: readonly number[] = [0, 1, 2, -0];
const SMALL_NUMBERS: readonly number[] = [1, 1.5, 2, 0.5];

const PATTERNS: readonly string[] = ['^[a-z]+$', '^[0-9]+$', 'a', '^\\S+$', '^x-', '[A-Z]', '^.{2,4}$'];

/** Property names: integer-like ones come first in key order, `/` and `~` are escaped in paths. */
const PROPERTY_NAMES: readonly string[] = ['id', 'name', 'size', 'tags', 'kind', 'a', 'b', 'x-ext', '10', '2', 'a/b', 'm~n', 'naam', 'user_id', 'p1', 'p2', 'p3'];
const ABSENT_NAMES: readonly string[] = ['extra', 'missing'];
/**
 * patternProperties keys and a name each matches. `__proto__` is a key parsed YAML or JSON can
 * hold, and one ajv leaves out of patternProperties (and so out of additionalProperties' list).
 */
const KEY_PATTERNS: ReadonlyArray<[string, string]> = [['^x-', 'x-new'], ['^[0-9]+$', '42'], ['_id$', 'org_id'], ['^[a-z]$', 'q'], ['__proto__', 'x__proto__']];
const EXTRA_KEYS: readonly string[] = ['extra', 'x-new', '99', 'org_id', 'a', 'name', 'Z', 'c/d~e', 'constructor', '__proto__', 'x__proto__'];

function pickString(rng: Rng, fits: (text: string) => boolean = () => true): string {
  const fitting = STRINGS.filter(fits);
  return rng.pick(fitting.length > 0 ? fitting : STRINGS);
}

/** Any JSON value, at most `depth` levels of containers deep. */
export function randomJson(rng: Rng, depth: number): Json {
  const kind = rng.int(0, depth > 0 ? 6 : 4);
  if (kind === 0) return null;
  if (kind === 1) return rng.chance(0.5);
  if (kind === 2) return rng.pick(NUMBERS);
  if (kind === 3 || kind === 4) return rng.pick(STRINGS);
  if (kind === 5) return Array.from({ length: rng.int(0, 4) }, () => randomJson(rng, depth - 1));
  const value: JsonMap = {};
  for (let i = rng.int(0, 4); i > 0; i -= 1) put(value, rng.pick([...PROPERTY_NAMES, ...EXTRA_KEYS]), randomJson(rng, depth - 1));
  return value;
}

/* ---------------------------------------------------------------------------------------------
 * Shared schemas, registered in ajv under these ids; the generator refers to them with a bare $ref.
 */

export const SHARED_ID = (index: number): string => `https://fuzz.invalid/s/${index}`;

export const SHARED_SCHEMAS: readonly JsonObject[] = [
  // 0: string keywords only, so its type is checked in the string group, after nothing.
  { type: 'string', minLength: 2, maxLength: 5, pattern: '^[a-z]+$' },
  // 1: closed, and refers to 0: a ref inside a ref.
  {
    type: 'object',
    required: ['street', 'code'],
    properties: { street: { type: 'string', minLength: 1 }, code: { $ref: SHARED_ID(0) }, number: { type: 'integer', minimum: 1, format: 'int32' } },
    additionalProperties: false,
  },
  // 2: a tree node that refers to itself.
  {
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string' }, size: { type: 'integer', nullable: true }, children: { type: 'array', maxItems: 3, items: { $ref: SHARED_ID(2) } } },
  },
  // 3: its type checked first, then enum. Its validator is compiled on its own, so even when
  // referenced from inside anyOf its type error ends it as outside any union.
  { type: 'string', nullable: true, enum: ['red', 'green', null] },
  // 4: a union of its own, with a branch that is a ref, and `not` beside it.
  { oneOf: [{ type: 'integer', minimum: 0 }, { type: 'string', format: 'date' }, { $ref: SHARED_ID(3) }], not: { enum: ['green'] } },
];

function treeNode(rng: Rng, depth: number): Json {
  const node: JsonMap = { name: pickString(rng) };
  if (rng.chance(0.4)) put(node, 'size', rng.chance(0.3) ? null : rng.pick(SMALL_INTEGERS));
  if (depth > 0 && rng.chance(0.6)) put(node, 'children', Array.from({ length: rng.int(0, 3) }, () => treeNode(rng, depth - 1)));
  return node;
}

const SHARED_SAMPLES: ReadonlyArray<(rng: Rng) => Json> = [
  (rng) => rng.pick(['abc', 'xy', 'hello']),
  (rng) => {
    const address: JsonMap = { street: rng.pick(['Main', 'Dorpsstraat']), code: rng.pick(['abc', 'xy']) };
    if (rng.chance(0.5)) put(address, 'number', rng.pick([1, 12, 2147483647]));
    return address;
  },
  (rng) => treeNode(rng, 2),
  (rng) => rng.pick(['red', 'green', null]),
  (rng) => rng.pick([0, 5, '2024-01-31', 'red', null]),
];

function ref(index: number): Built {
  return { schema: { $ref: SHARED_ID(index) }, sample: (rng) => (SHARED_SAMPLES[index] as (rng: Rng) => Json)(rng) };
}

function randomRef(rng: Rng): Built {
  return ref(rng.int(0, SHARED_SCHEMAS.length - 1));
}

/* ---------------------------------------------------------------------------------------------
 * Schemas by kind.
 */

/** `nullable` (with a type, as ajv requires): null then fits too. */
function maybeNullable(built: Built, rng: Rng): Built {
  if (!rng.chance(0.2)) return built;
  const nullable = rng.chance(0.8);
  built.schema.nullable = nullable;
  if (!nullable) return built;
  return { schema: built.schema, sample: (r) => (r.chance(0.2) ? null : built.sample(r)) };
}

/** Annotations and extensions, which ajv ignores (strict: false) and so must the interpreter. */
function maybeAnnotated(schema: JsonObject, rng: Rng): void {
  if (!rng.chance(0.1)) return;
  const annotation = rng.pick(['description', 'example', 'x-extra', 'readOnly', 'default', 'title']);
  schema[annotation] = annotation === 'readOnly' ? true : 'annotation';
}

/** An enum of values drawn from the sampler (deduplicated, as the meta-schema demands) and a stray one. */
function enumOf(sample: (rng: Rng) => Json, rng: Rng, stray: () => Json): Json[] {
  const values = [...Array.from({ length: rng.int(1, 3) }, () => sample(rng)), ...(rng.chance(0.5) ? [stray()] : [])];
  return [...new Map(values.map((value) => [JSON.stringify(value), value])).values()];
}

function withEnum(built: Built, rng: Rng, probability: number): Built {
  if (!rng.chance(probability)) return built;
  const values = enumOf(built.sample, rng, () => randomJson(rng, 0));
  built.schema.enum = values;
  return { schema: built.schema, sample: (r) => clone(r.pick(values)) };
}

function ucs2Length(text: string): number {
  return [...text].length;
}

function stringSchema(rng: Rng): Built {
  const schema: JsonObject = { type: 'string' };
  const format = rng.chance(0.35) ? rng.pick(Object.keys(STRING_FORMATS)) : undefined;
  if (format !== undefined) schema.format = format;
  if (rng.chance(0.35)) schema.minLength = rng.int(0, 3);
  if (rng.chance(0.35)) schema.maxLength = rng.int(typeof schema.minLength === 'number' ? schema.minLength : 0, 8);
  if (rng.chance(0.25)) schema.pattern = rng.pick(PATTERNS);
  const fits = (text: string): boolean =>
    ucs2Length(text) >= Number(schema.minLength ?? 0) &&
    ucs2Length(text) <= Number(schema.maxLength ?? Infinity) &&
    (typeof schema.pattern !== 'string' || new RegExp(schema.pattern).test(text));
  const good = format === undefined ? undefined : STRING_FORMATS[format]?.good;
  const sample = (r: Rng): string => (good !== undefined && r.chance(0.8) ? r.pick(good) : pickString(r, fits));
  return withEnum(maybeNullable({ schema, sample }, rng), rng, 0.15);
}

function numberSchema(rng: Rng): Built {
  const type = rng.pick(['number', 'integer']);
  const schema: JsonObject = { type };
  if (rng.chance(0.35)) {
    schema.minimum = rng.pick([0, 1, -10, 2.5, 100]);
    if (rng.chance(0.3)) schema.exclusiveMinimum = rng.chance(0.7);
  }
  if (rng.chance(0.35)) {
    schema.maximum = Number(schema.minimum ?? 0) + rng.pick([0, 1, 10, 1000]);
    if (rng.chance(0.3)) schema.exclusiveMaximum = rng.chance(0.7);
  }
  if (rng.chance(0.25)) schema.multipleOf = rng.pick([1, 2, 0.5, 0.1, 3, 0.01]);
  if (rng.chance(0.3)) schema.format = rng.chance(0.8) ? rng.pick(Object.keys(NUMBER_FORMATS)) : rng.pick(['date', 'unknown-format']);
  const fits = (n: number): boolean =>
    (type === 'number' || Number.isInteger(n)) &&
    (typeof schema.minimum !== 'number' || (schema.exclusiveMinimum === true ? n > schema.minimum : n >= schema.minimum)) &&
    (typeof schema.maximum !== 'number' || (schema.exclusiveMaximum === true ? n < schema.maximum : n <= schema.maximum)) &&
    (typeof schema.multipleOf !== 'number' || Number.isInteger(n / schema.multipleOf));
  const candidates = NUMBERS.filter(fits);
  const sample = (r: Rng): number => (candidates.length > 0 ? r.pick(candidates) : Number(schema.minimum ?? 0));
  return withEnum(maybeNullable({ schema, sample }, rng), rng, 0.15);
}

function scalarSchema(rng: Rng): Built {
  const kind = rng.int(0, 5);
  if (kind <= 1) return stringSchema(rng);
  if (kind <= 3) return numberSchema(rng);
  if (kind === 4) return withEnum(maybeNullable({ schema: { type: 'boolean' }, sample: (r) => r.chance(0.5) }, rng), rng, 0.2);
  return { schema: { type: 'null' }, sample: () => null };
}

/**
 * Item schemas for uniqueItems: ajv compares items declared of scalar types through a map of
 * their values (with a `_` after strings when there are several types), others by deep equality.
 */
const ITEM_KINDS: ReadonlyArray<() => Built> = [
  () => ({ schema: { type: 'string' }, sample: (r) => r.pick(SMALL_STRINGS) }),
  () => ({ schema: { type: 'integer' }, sample: (r) => r.pick(SMALL_INTEGERS) }),
  () => ({ schema: { type: 'number' }, sample: (r) => r.pick(SMALL_NUMBERS) }),
  () => ({ schema: { type: 'boolean' }, sample: (r) => r.chance(0.5) }),
  () => ({ schema: { type: 'null' }, sample: () => null }),
  () => ({ schema: { type: 'string', nullable: true }, sample: (r) => (r.chance(0.3) ? null : r.pick(SMALL_STRINGS)) }),
  () => ({ schema: { type: ['string', 'integer'] }, sample: (r) => (r.chance(0.5) ? r.pick(SMALL_STRINGS) : r.pick(SMALL_INTEGERS)) }),
  () => ({ schema: { type: ['boolean', 'null'] }, sample: (r) => (r.chance(0.3) ? null : r.chance(0.5)) }),
  () => ({ schema: { type: ['number', 'string', 'null'] }, sample: (r) => r.pick<Json>([...SMALL_NUMBERS, ...SMALL_STRINGS, null]) }),
  () => ({ schema: { type: 'object', properties: { id: { type: 'integer' } } }, sample: (r) => ({ id: r.pick(SMALL_INTEGERS) }) }),
  () => ({ schema: { type: 'array', items: { type: 'integer' } }, sample: (r) => [r.pick(SMALL_INTEGERS)] }),
  () => ref(0),
];

function arraySchema(rng: Rng, depth: number): Built {
  const schema: JsonObject = { type: 'array' };
  let itemSample: (rng: Rng, index: number) => Json;
  if (rng.chance(0.25)) {
    const tuple = Array.from({ length: rng.int(1, 3) }, () => child(rng, depth + 1));
    schema.items = tuple.map((item) => item.schema);
    const additional = rng.pick<'none' | 'false' | 'true' | 'schema'>(['none', 'false', 'false', 'true', 'schema']);
    const extra = additional === 'schema' ? rng.pick(ITEM_KINDS)() : undefined;
    if (additional === 'false') schema.additionalItems = false;
    if (additional === 'true') schema.additionalItems = true;
    if (extra !== undefined) schema.additionalItems = extra.schema;
    itemSample = (r, index) => (tuple[index] ?? extra)?.sample(r) ?? randomJson(r, 1);
  } else {
    const items = rng.chance(0.6) ? rng.pick(ITEM_KINDS)() : child(rng, depth + 1);
    if (rng.chance(0.9)) schema.items = items.schema;
    itemSample = (r) => items.sample(r);
    // additionalItems beside a single items schema is ignored by ajv, but counts as an array keyword.
    if (rng.chance(0.05)) schema.additionalItems = false;
  }
  if (rng.chance(0.3)) schema.minItems = rng.int(0, 2);
  if (rng.chance(0.3)) schema.maxItems = rng.int(Number(schema.minItems ?? 0), 4);
  if (rng.chance(0.6)) schema.uniqueItems = rng.chance(0.85);
  const tupleLength = Array.isArray(schema.items) ? schema.items.length : 0;
  const sample = (r: Rng): Json => {
    const length = Math.max(Number(schema.minItems ?? 0), Math.min(Number(schema.maxItems ?? 4), r.int(tupleLength > 0 ? tupleLength - 1 : 0, tupleLength + 2)));
    return Array.from({ length }, (_, index) => itemSample(r, index));
  };
  return withEnum(maybeNullable({ schema, sample }, rng), rng, 0.05);
}

function objectSchema(rng: Rng, depth: number): Built {
  const schema: JsonObject = { type: 'object' };
  // More than 8 properties makes ajv look additional properties up with hasOwnProperty.
  const names = rng.shuffled(PROPERTY_NAMES).slice(0, rng.chance(0.2) ? rng.int(9, 12) : rng.int(0, 4));
  const properties = new Map(names.map((name) => [name, depth >= 2 ? scalarSchema(rng) : child(rng, depth + 1)]));
  if (names.length > 0 || rng.chance(0.3)) schema.properties = Object.fromEntries([...properties].map(([name, built]) => [name, built.schema]));
  const required = [...names.filter(() => rng.chance(0.4)), ...ABSENT_NAMES.filter(() => rng.chance(0.1))];
  if (required.length > 0) schema.required = rng.shuffled(required);
  const patterns = rng.chance(0.3) ? rng.shuffled(KEY_PATTERNS).slice(0, rng.int(1, 2)) : [];
  const patternSchemas = patterns.map(() => scalarSchema(rng));
  if (patterns.length > 0) schema.patternProperties = Object.fromEntries(patterns.map(([pattern], index) => [pattern, patternSchemas[index]?.schema]));
  const additional = rng.pick<'none' | 'false' | 'true' | 'schema'>(['none', 'none', 'false', 'false', 'true', 'schema']);
  const extra = additional === 'schema' ? scalarSchema(rng) : undefined;
  if (additional === 'false') schema.additionalProperties = false;
  if (additional === 'true') schema.additionalProperties = true;
  if (extra !== undefined) schema.additionalProperties = extra.schema;
  if (rng.chance(0.15)) schema.minProperties = rng.int(0, 3);
  if (rng.chance(0.15)) schema.maxProperties = rng.int(1, 5);
  const sample = (r: Rng): Json => {
    const value: JsonMap = {};
    for (const [name, built] of properties) if (required.includes(name) || r.chance(0.7)) put(value, name, built.sample(r));
    patterns.forEach(([, key], index) => r.chance(0.6) && put(value, key, patternSchemas[index]?.sample(r) ?? null));
    if (extra !== undefined && r.chance(0.5)) put(value, 'extra', extra.sample(r));
    return value;
  };
  return withEnum(maybeNullable({ schema, sample }, rng), rng, 0.05);
}

/** Branches that overlap, so that 0, 1, 2 or 3 of them hold for the same value. */
const SCALAR_BRANCHES: ReadonlyArray<() => Built> = [
  () => ({ schema: { type: 'string' }, sample: (r) => pickString(r) }),
  () => ({ schema: { type: 'string', maxLength: 3 }, sample: (r) => r.pick(SMALL_STRINGS) }),
  () => ({ schema: { type: 'integer' }, sample: (r) => r.pick(SMALL_INTEGERS) }),
  () => ({ schema: { type: 'number', minimum: 0 }, sample: (r) => r.pick(SMALL_NUMBERS) }),
  () => ({ schema: { enum: ['a', 1, null] }, sample: (r) => r.pick<Json>(['a', 1, null]) }),
  () => ({ schema: { type: 'string', format: 'date' }, sample: (r) => r.pick(['2024-01-31', '2024-13-01']) }),
  // A type with keywords that need no type: in a union, ajv goes on to them after a type error.
  () => ({ schema: { type: 'string', enum: ['a', 'b'] }, sample: (r) => r.pick(['a', 'b']) }),
  () => ({ schema: { type: 'integer', nullable: true, enum: [1, 2, null] }, sample: (r) => r.pick<Json>([1, 2, null]) }),
  () => ({ schema: { type: 'string', allOf: [{ type: 'string', minLength: 2 }] }, sample: (r) => pickString(r) }),
  () => ({ schema: { type: 'integer', not: { enum: [0] } }, sample: (r) => r.pick(SMALL_INTEGERS) }),
  () => ({ schema: { type: 'string', anyOf: [{ maxLength: 1 }, { enum: [1, 'abc'] }] }, sample: (r) => pickString(r) }),
  () => ({ schema: { type: ['string', 'null'] }, sample: (r) => r.pick<Json>(['a', null]) }),
  () => ref(0),
  () => ref(3),
  () => ref(4),
];

const OBJECT_BRANCHES: ReadonlyArray<() => Built> = [
  () => ({ schema: { type: 'object', required: ['a'] }, sample: () => ({ a: 1 }) }),
  () => ({ schema: { type: 'object', properties: { a: { type: 'integer' } } }, sample: (r) => ({ a: r.pick(SMALL_INTEGERS) }) }),
  () => ({ schema: { type: 'object', properties: { a: {}, b: {} }, additionalProperties: false }, sample: () => ({ b: 'x' }) }),
  () => ({ schema: { required: ['b'] }, sample: () => ({ b: true }) }),
  () => ({ schema: { type: 'object', enum: [{ a: 1 }, { b: 'x' }] }, sample: (r) => r.pick<Json>([{ a: 1 }, { b: 'x' }]) }),
  () => ({ schema: { type: 'object', required: ['a'], allOf: [{ type: 'object' }] }, sample: () => ({ a: 1 }) }),
  () => ref(1),
  () => ref(2),
];

function unionSchema(rng: Rng, depth: number): Built {
  const keyword = rng.pick(['anyOf', 'oneOf', 'oneOf']);
  const family = rng.int(0, 3);
  const branch = (): Built =>
    family === 0 ? rng.pick(SCALAR_BRANCHES)() : family === 1 ? rng.pick(OBJECT_BRANCHES)() : family === 2 ? nestedUnionBranch(rng) : child(rng, depth + 1);
  const branches = Array.from({ length: rng.int(1, 4) }, branch);
  const schema: JsonObject = { [keyword]: branches.map((item) => item.schema) };
  // Keywords beside the union, of no type (applied before it) or of a type group (after it).
  if (rng.chance(0.3)) schema.type = family === 1 || family === 2 ? 'object' : rng.pick(['string', 'integer', 'number']);
  if (rng.chance(0.15)) schema.minLength = 2;
  if (rng.chance(0.15)) schema.required = ['a'];
  if (rng.chance(0.1)) schema.not = { type: 'boolean' };
  return { schema, sample: (r) => r.pick(branches).sample(r) };
}

/** An object branch with a union in a property: oneOf > properties > anyOf. */
function nestedUnionBranch(rng: Rng): Built {
  const inner = Array.from({ length: rng.int(1, 3) }, () => rng.pick(SCALAR_BRANCHES)());
  const schema: JsonObject = { type: 'object', properties: { a: { anyOf: inner.map((item) => item.schema) } } };
  if (rng.chance(0.5)) schema.required = ['a'];
  return { schema, sample: (r) => ({ a: r.pick(inner).sample(r) }) };
}

function mergeSamples(values: Json[]): Json {
  const objects = values.filter((value): value is JsonMap => value !== null && typeof value === 'object' && !Array.isArray(value));
  if (objects.length === 0) return values[0] ?? null;
  const merged: JsonMap = {};
  for (const object of objects) for (const [key, value] of Object.entries(object)) put(merged, key, value);
  return merged;
}

function allOfSchema(rng: Rng, depth: number): Built {
  const parts = Array.from({ length: rng.int(1, 3) }, () => (rng.chance(0.4) ? rng.pick(OBJECT_BRANCHES)() : child(rng, depth + 1)));
  const schema: JsonObject = { allOf: parts.map((part) => part.schema) };
  if (rng.chance(0.3)) schema.type = 'object';
  return { schema, sample: (r) => mergeSamples(parts.map((part) => part.sample(r))) };
}

function notSchema(rng: Rng, depth: number): Built {
  const negated = rng.chance(0.5) ? scalarSchema(rng) : child(rng, depth + 1);
  const schema: JsonObject = { not: negated.schema };
  if (rng.chance(0.4)) schema.type = rng.pick(['string', 'integer', 'object']);
  return { schema, sample: (r) => (r.chance(0.5) ? negated.sample(r) : randomJson(r, 1)) };
}

/** A value of one JSON type, drawn from the pools. */
function valueOfType(type: string, rng: Rng): Json {
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return rng.chance(0.5);
    case 'integer':
      return rng.pick(NUMBERS.filter(Number.isInteger));
    case 'number':
      return rng.pick(NUMBERS);
    case 'string':
      return pickString(rng);
    case 'array':
      return Array.from({ length: rng.int(0, 3) }, () => randomJson(rng, 0));
    default: {
      const value = randomJson(rng, 1);
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : { a: value };
    }
  }
}

/** Keywords of each type group, for schemas that mix groups. */
const GROUP_KEYWORDS: Record<string, ReadonlyArray<[string, Json]>> = {
  number: [['minimum', 5], ['maximum', 3], ['multipleOf', 2], ['format', 'int32']],
  string: [['maxLength', 2], ['minLength', 3], ['pattern', '^a'], ['format', 'date']],
  array: [['minItems', 2], ['maxItems', 1], ['uniqueItems', true], ['items', { type: 'string' }]],
  object: [['required', ['a']], ['minProperties', 2], ['properties', { a: { type: 'string' } }], ['additionalProperties', false]],
};
const UNTYPED_KEYWORDS: ReadonlyArray<[string, Json]> = [
  ['const', 'a'],
  ['allOf', [{ maxLength: 4 }, { minimum: 0 }]],
  ['not', { type: 'boolean' }],
  ['anyOf', [{ type: 'string' }, { type: 'object' }]],
];

function addMixedKeywords(schema: JsonObject, rng: Rng, except: string | undefined): void {
  for (const [group, keywords] of Object.entries(GROUP_KEYWORDS)) {
    if (group === except || !rng.chance(0.45)) continue;
    const [keyword, value] = rng.pick(keywords);
    if (schema[keyword] === undefined) schema[keyword] = clone(value);
  }
  if (rng.chance(0.3)) {
    const [keyword, value] = rng.pick(UNTYPED_KEYWORDS);
    if (schema[keyword] === undefined) schema[keyword] = clone(value);
  }
}

/** A single type with keywords of other groups beside its own, e.g. `type: object` with maxLength and enum. */
function mixedSchema(rng: Rng, depth: number): Built {
  const base = rng.pick([() => stringSchema(rng), () => numberSchema(rng), () => arraySchema(rng, depth + 1), () => objectSchema(rng, depth + 1)])();
  const type = String(base.schema.type);
  addMixedKeywords(base.schema, rng, type === 'integer' ? 'number' : type);
  if (rng.chance(0.3) && base.schema.enum === undefined) {
    // An enum holding fitting values and values of other types, so it passes for some wrong types.
    const values = enumOf(base.sample, rng, () => valueOfType(rng.pick(['string', 'integer', 'object', 'array', 'null']), rng));
    base.schema.enum = values;
    return { schema: base.schema, sample: (r) => (r.chance(0.8) ? clone(r.pick(values)) : base.sample(r)) };
  }
  return base;
}

const TYPE_LISTS: ReadonlyArray<readonly string[]> = [
  ['string', 'null'], ['integer', 'string'], ['number', 'integer'], ['object', 'array'], ['object', 'null'],
  ['array', 'null'], ['boolean', 'string', 'null'], ['object', 'array', 'null'], ['integer'], ['string'],
];

function typeListSchema(rng: Rng): Built {
  const types = rng.pick(TYPE_LISTS);
  const schema: JsonObject = { type: [...types] };
  addMixedKeywords(schema, rng, undefined);
  if (!types.includes('null') && rng.chance(0.3)) schema.nullable = true;
  return { schema, sample: (r) => valueOfType(r.pick(types), r) };
}

/** No type at all: every group's keywords apply to data of their own type only. */
function untypedSchema(rng: Rng): Built {
  const schema: JsonObject = {};
  addMixedKeywords(schema, rng, undefined);
  addMixedKeywords(schema, rng, undefined);
  return { schema, sample: (r) => randomJson(r, 1) };
}

function enumSchema(rng: Rng): Built {
  const values = enumOf((r) => randomJson(r, 1), rng, () => randomJson(rng, 0));
  if (values.length === 1 && rng.chance(0.5)) return { schema: { const: values[0] ?? null }, sample: () => clone(values[0] ?? null) };
  return { schema: { enum: values }, sample: (r) => clone(r.pick(values)) };
}

/** A subschema: simpler the deeper it is. */
function child(rng: Rng, depth: number): Built {
  if (depth >= 3) return rng.chance(0.8) ? scalarSchema(rng) : randomRef(rng);
  return schemaAt(rng, depth);
}

function schemaAt(rng: Rng, depth: number): Built {
  const kinds: ReadonlyArray<[number, () => Built]> = [
    [3, () => scalarSchema(rng)],
    [4, () => arraySchema(rng, depth)],
    [4, () => objectSchema(rng, depth)],
    [1, () => randomRef(rng)],
    [3, () => unionSchema(rng, depth)],
    [1, () => allOfSchema(rng, depth)],
    [1, () => notSchema(rng, depth)],
    [2, () => typeListSchema(rng)],
    [3, () => mixedSchema(rng, depth)],
    [1, () => untypedSchema(rng)],
    [1, () => enumSchema(rng)],
  ];
  let roll = rng.next() * kinds.reduce((sum, [weight]) => sum + weight, 0);
  for (const [weight, make] of kinds) {
    roll -= weight;
    if (roll < 0) return annotate(make(), rng);
  }
  return annotate(scalarSchema(rng), rng);
}

function annotate(built: Built, rng: Rng): Built {
  if (built.schema.$ref === undefined) maybeAnnotated(built.schema, rng);
  return built;
}

/** A root schema; its values come from `valuesFor`. */
export function randomSchema(rng: Rng): Built {
  return schemaAt(rng, 0);
}

/* ---------------------------------------------------------------------------------------------
 * Values: a fitting one, near misses of it, and anything at all.
 */

type Path = Array<string | number>;

function isMap(value: Json): value is JsonMap {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function pathsOf(value: Json, path: Path = [], into: Path[] = []): Path[] {
  into.push(path);
  if (Array.isArray(value)) value.forEach((item, index) => pathsOf(item, [...path, index], into));
  else if (isMap(value)) for (const [key, item] of Object.entries(value)) pathsOf(item, [...path, key], into);
  return into;
}

function replaceAt(root: Json, path: Path, replacement: Json): Json {
  if (path.length === 0) return replacement;
  let parent: Json = root;
  for (const segment of path.slice(0, -1)) parent = (parent as Record<string | number, Json>)[segment] as Json;
  const last = path[path.length - 1] as string | number;
  if (Array.isArray(parent)) parent[last as number] = replacement;
  else put(parent as JsonMap, String(last), replacement);
  return root;
}

function nodeAt(root: Json, path: Path): Json {
  return path.reduce<Json>((node, segment) => (node as Record<string | number, Json>)[segment] as Json, root);
}

function mutateObject(value: JsonMap, rng: Rng): Json {
  const keys = Object.keys(value);
  const move = rng.int(0, 4);
  if (move === 0 && keys.length > 0) {
    // Drop a property: a required one goes missing.
    const copy: JsonMap = {};
    const dropped = rng.pick(keys);
    for (const key of keys) if (key !== dropped) put(copy, key, value[key] as Json);
    return copy;
  }
  if (move <= 2) {
    put(value, rng.pick(EXTRA_KEYS), rng.chance(0.5) ? randomJson(rng, 0) : clone(value[rng.pick(keys.length > 0 ? keys : ['x'])] ?? 1));
    return value;
  }
  if (move === 3 && keys.length > 0) {
    put(value, rng.pick(keys), randomJson(rng, 1));
    return value;
  }
  return randomJson(rng, 1);
}

function mutateArray(value: Json[], rng: Rng): Json {
  const move = rng.int(0, 4);
  if (move <= 1 && value.length > 0) {
    // A duplicate, anywhere: uniqueItems names the pair it finds first.
    value.splice(rng.int(0, value.length), 0, clone(rng.pick(value)));
    return value;
  }
  if (move === 2 && value.length > 0) {
    value.splice(rng.int(0, value.length - 1), 1);
    return value;
  }
  if (move === 3) {
    value.push(randomJson(rng, 0));
    return value;
  }
  return randomJson(rng, 1);
}

function mutateString(value: string, rng: Rng): Json {
  return rng.pick<() => Json>([
    () => `${value}xyz`,
    () => value.slice(0, 1),
    () => value.toUpperCase(),
    () => `${value}😀`,
    () => pickString(rng),
    () => rng.pick(NUMBERS),
    () => '',
    () => null,
  ])();
}

function mutateNumber(value: number, rng: Rng): Json {
  return rng.pick<() => Json>([
    () => value + 1,
    () => value - 1,
    () => value + 0.5,
    () => -value,
    () => value * 1000,
    () => rng.pick(NUMBERS),
    () => String(value),
    () => null,
  ])();
}

function mutateNode(node: Json, rng: Rng): Json {
  if (Array.isArray(node)) return mutateArray(node, rng);
  if (isMap(node)) return mutateObject(node, rng);
  if (typeof node === 'string') return mutateString(node, rng);
  if (typeof node === 'number') return mutateNumber(node, rng);
  if (typeof node === 'boolean') return rng.pick<Json>([!node, String(node), 1]);
  return rng.pick<Json>([0, '', false, {}, []]);
}

/** `value` broken in `times` places (on a copy). */
export function mutate(value: Json, rng: Rng, times: number): Json {
  let result = clone(value);
  for (let i = 0; i < times; i += 1) {
    const path = rng.pick(pathsOf(result));
    result = replaceAt(result, path, mutateNode(nodeAt(result, path), rng));
  }
  return result;
}

/** Values to try against one schema: a fitting one, near misses, and a random one. */
export function valuesFor(built: Built, rng: Rng): Json[] {
  return [
    built.sample(rng),
    built.sample(rng),
    mutate(built.sample(rng), rng, 1),
    mutate(built.sample(rng), rng, 1),
    mutate(built.sample(rng), rng, rng.int(1, 3)),
    rng.chance(0.5) ? randomJson(rng, 2) : mutate(randomJson(rng, 2), rng, 1),
  ];
}
