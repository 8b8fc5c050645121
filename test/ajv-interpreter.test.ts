import type { ErrorObject } from 'ajv';
import { understood, validationErrors, type ExampleError, type Findings, type PrecheckEnv } from '../lib/ajv-interpreter.js';
import { createAjv } from '../lib/example-validation.js';
import { PRECHECK_CASES } from './precheck-cases.js';
import { errorView, type ErrorView } from './support/error-view.js';
import { clone, type Json } from './support/schema-fuzz.js';

/*
 * lib/ajv-interpreter.ts applies schemas without ajv's compile. test/oas-examples.test.ts holds
 * its findings to spectral's own rule; these tests hold that it judges those schemas itself, with
 * ajv's very errors, and that it refuses what ajv would compile differently or not at all.
 * test/ajv-interpreter-fuzz.test.ts compares it with ajv on generated schemas and values.
 */

// The ajv example-validation.ts validates with, so that errors compare option for option.
const ajv = createAjv();
const BASE_ID = '#/components/schemas/Base';
const BASE = { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } };
ajv.addSchema(BASE, BASE_ID);
const CODE_ID = '#/components/schemas/Code';
const CODE = { type: 'string', enum: ['a'] };
ajv.addSchema(CODE, CODE_ID);
const env: PrecheckEnv = {
  shared: (id) => (id === BASE_ID ? BASE : id === CODE_ID ? CODE : undefined),
  formats: ajv.formats as Record<string, unknown>,
};

function accepts(schema: Record<string, unknown>, value: unknown): boolean {
  return validationErrors(schema, value, env).length === 0;
}

function essentials(errors: ReadonlyArray<ExampleError | ErrorObject>): ErrorView[] {
  return errors.map(errorView);
}

/**
 * ajv compiles a copy: its compile adds `null` to a nullable list of types in the schema it is
 * given. The copy is made in this realm (structuredClone's arrays are the outer realm's under
 * jest, and ajv's deep equality tells arrays apart by constructor).
 */
function ajvErrors(schema: object, value: unknown): ErrorView[] {
  const validate = ajv.compile(clone(schema as Json) as object);
  return validate(value) ? [] : essentials(validate.errors ?? []);
}

function findingsOf(schema: unknown): Findings & { understood: boolean } {
  const found: Findings = { refs: [], nullableWithoutType: false };
  return { understood: understood(schema, found, env.formats), ...found };
}

test.each(PRECHECK_CASES)('judged without ajv, with ajv\'s errors: %s', (_name, schema, ok, bad) => {
  expect(findingsOf(schema)).toMatchObject({ understood: true, nullableWithoutType: false });
  expect(ok.map((value) => accepts(schema, value))).toEqual(ok.map(() => true));
  expect(bad.map((value) => accepts(schema, value))).toEqual(bad.map(() => false));
  expect(bad.map((value) => essentials(validationErrors(schema, value, env)))).toEqual(bad.map((value) => ajvErrors(schema, value)));
});

/*
 * ajv reports the first keyword that fails in the order of its generated code, which is not the
 * order a schema is written in. Each case below has two or more failing keywords.
 */
test.each<[string, Record<string, unknown>, unknown, unknown[]]>([
  ['enum before a type of its own group', { type: 'object', properties: { a: { type: 'string' } }, enum: [{ a: 'x' }] }, 'text',
    [{ keyword: 'enum', instancePath: '', params: { allowedValues: [{ a: 'x' }] }, message: 'must be equal to one of the allowed values' }]],
  ['a type without keywords of its group before enum', { type: 'string', enum: ['a'] }, 1,
    [{ keyword: 'type', instancePath: '', params: { type: 'string' }, message: 'must be string', nullable: undefined }]],
  ['a number keyword before the object type', { type: 'object', required: ['a'], minimum: 5 }, 3,
    [{ keyword: 'minimum', instancePath: '', params: { comparison: '>=', limit: 5 }, message: 'must be >= 5' }]],
  ['required before additionalProperties before properties', { type: 'object', required: ['b'], properties: { a: { type: 'string' } }, additionalProperties: false }, { a: 1, c: 2 },
    [{ keyword: 'required', instancePath: '', params: { missingProperty: 'b' }, message: "must have required property 'b'" }]],
  ['additionalProperties before properties', { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }, { a: 1, c: 2 },
    [{ keyword: 'additionalProperties', instancePath: '', params: { additionalProperty: 'c' }, message: 'must NOT have additional properties' }]],
  ['additionalItems before items', { type: 'array', items: [{ type: 'string' }], additionalItems: false }, [1, 2],
    [{ keyword: 'additionalItems', instancePath: '', params: { limit: 1 }, message: 'must NOT have more than 1 items' }]],
  ['the first pair of equal scalars found from the end', { type: 'array', items: { type: 'integer' }, uniqueItems: true }, [1, 2, 1, 2],
    [{ keyword: 'uniqueItems', instancePath: '', params: { i: 1, j: 3 }, message: 'must NOT have duplicate items (items ## 3 and 1 are identical)' }]],
  ['the first pair of equal objects found from the end', { type: 'array', uniqueItems: true }, [{ a: 1 }, { b: 1 }, { a: 1 }, { b: 1 }],
    [{ keyword: 'uniqueItems', instancePath: '', params: { i: 3, j: 1 }, message: 'must NOT have duplicate items (items ## 1 and 3 are identical)' }]],
  ['items of another type skipped by uniqueItems', { type: 'array', items: { type: 'integer' }, uniqueItems: true }, [1.5, 1.5],
    [{ keyword: 'type', instancePath: '/0', params: { type: 'integer' }, message: 'must be integer', nullable: undefined }]],
  ['anyOf: the errors of every branch, then its own', { anyOf: [{ type: 'string' }, { type: 'integer', minimum: 3 }] }, 1, [
    { keyword: 'type', instancePath: '', params: { type: 'string' }, message: 'must be string', nullable: undefined },
    { keyword: 'minimum', instancePath: '', params: { comparison: '>=', limit: 3 }, message: 'must be >= 3' },
    { keyword: 'anyOf', instancePath: '', params: {}, message: 'must match a schema in anyOf' }]],
  ['oneOf with two passing: the pair, and the errors of a branch that failed between', { oneOf: [{ type: 'integer' }, { type: 'string' }, { minimum: 0 }] }, 1, [
    { keyword: 'type', instancePath: '', params: { type: 'string' }, message: 'must be string', nullable: undefined },
    { keyword: 'oneOf', instancePath: '', params: { passingSchemas: [0, 2] }, message: 'must match exactly one schema in oneOf' }]],
  ['patterns before keys, and escaped pointers', { type: 'object', patternProperties: { '^a': { type: 'string' }, '/': { type: 'integer' } } }, { 'x/y~': 'z', a: 1 },
    [{ keyword: 'type', instancePath: '/a', params: { type: 'string' }, message: 'must be string', nullable: undefined }]],
  // The three below were found by test/ajv-interpreter-fuzz.test.ts.
  ['in a union branch, a type checked first is followed by the keywords of no type', { anyOf: [{ type: 'string', enum: ['a'] }] }, 1, [
    { keyword: 'type', instancePath: '', params: { type: 'string' }, message: 'must be string', nullable: undefined },
    { keyword: 'enum', instancePath: '', params: { allowedValues: ['a'] }, message: 'must be equal to one of the allowed values' },
    { keyword: 'anyOf', instancePath: '', params: {}, message: 'must match a schema in anyOf' }]],
  ['a shared schema in a union branch ends at its type error, as a function of its own', { anyOf: [{ $ref: CODE_ID }] }, 1, [
    { keyword: 'type', instancePath: '', params: { type: 'string' }, message: 'must be string', nullable: undefined },
    { keyword: 'anyOf', instancePath: '', params: {}, message: 'must match a schema in anyOf' }]],
  ['items before uniqueItems', { type: 'array', items: { type: 'boolean' }, uniqueItems: true }, [false, 1, false],
    [{ keyword: 'type', instancePath: '/1', params: { type: 'boolean' }, message: 'must be boolean', nullable: undefined }]],
  // Found in review (test/ajv-interpreter-fuzz.test.ts compiled the very schema it then gave the interpreter).
  ['a nullable list of types named with null, as ajv names it after adding null to the list', { type: ['string'], nullable: true }, 5,
    [{ keyword: 'type', instancePath: '', params: { type: ['string', 'null'] }, message: 'must be string,null', nullable: true }]],
  ['a limit of -0 given as 0, as ajv writes it into its code', { type: 'number', maximum: -0 }, 1,
    [{ keyword: 'maximum', instancePath: '', params: { comparison: '<=', limit: 0 }, message: 'must be <= 0' }]],
  ['a nullable type named as written', { type: 'object', nullable: true, properties: { a: { type: 'string', nullable: true } } }, { a: 1 },
    [{ keyword: 'type', instancePath: '/a', params: { type: 'string' }, message: 'must be string', nullable: true }]],
])('errors in ajv\'s order: %s', (_name, schema, value, expected) => {
  expect(findingsOf(schema).understood).toBe(true);
  expect(essentials(validationErrors(schema, value, env))).toEqual(expected);
  expect(ajvErrors(schema, value)).toEqual(expected);
});

test('shared schemas it references are handed back, to be judged too', () => {
  expect(findingsOf({ type: 'array', items: { $ref: 'https://x.invalid/a' }, allOf: [{ $ref: 'https://x.invalid/b' }] }).refs).toEqual(['https://x.invalid/a', 'https://x.invalid/b']);
});

test.each([
  ['a $ref with siblings', { $ref: '#/components/schemas/Base', description: 'x' }],
  ['a keyword it does not apply', { type: 'object', dependencies: { a: ['b'] } }],
  ['a schema id', { id: 'https://example.nl/s', type: 'string' }],
  ['$schema', { $schema: 'http://json-schema.org/draft-07/schema#', type: 'string' }],
  ['a pattern JavaScript cannot compile', { type: 'string', pattern: '(' }],
  ['exclusiveMaximum without maximum (ajv throws)', { type: 'number', exclusiveMaximum: true }],
  ['type null with nullable: false (ajv throws)', { type: 'null', nullable: false }],
  ['an unknown type', { type: 'date' }],
  ['a property name every object inherits', { type: 'object', properties: { constructor: { type: 'string' } } }],
  ['a required name every object inherits', { type: 'object', required: ['toString'] }],
  ['a non-schema subschema', { type: 'object', properties: { a: true } }],
  ['an empty name in required (ajv passes over it below 200 names)', { type: 'object', required: ['', 'a'] }],
  ['NaN as const (ajv compares plain values with ===)', { const: Number.NaN }],
  ['NaN in enum', { enum: [1, Number.NaN] }],
  ['a pattern named __proto__, which ajv skips', JSON.parse('{"type":"object","patternProperties":{"__proto__":{"type":"string"}}}')],
])('not judged, left to ajv: %s', (_name, schema) => {
  expect(findingsOf(schema).understood).toBe(false);
});

test('an async format is left to ajv, which refuses it in a sync schema', () => {
  const withAsync: PrecheckEnv['formats'] = { ...env.formats, later: { async: true, validate: async () => true } };
  expect(understood({ type: 'string', format: 'later' }, { refs: [], nullableWithoutType: false }, withAsync)).toBe(false);
});

test('nullable without type is noted: ajv fails to compile such a schema, with its own message', () => {
  expect(findingsOf({ type: 'object', properties: { size: { nullable: true, allOf: [{ type: 'integer' }] } } })).toMatchObject({ understood: true, nullableWithoutType: true });
  expect(() => ajv.compile({ type: 'object', properties: { size: { nullable: true } } })).toThrow('"nullable" cannot be used without "type"');
});

test('annotations and extensions are ignored, as ajv ignores them', () => {
  const schema = { type: 'string', description: 'd', title: 't', example: 1, default: 2, readOnly: true, deprecated: true, xml: {}, 'x-any': { id: 'x' } };
  expect(findingsOf(schema).understood).toBe(true);
  expect(accepts(schema, 'text')).toBe(true);
});

/** `Niveau<n>` names `Niveau<n-1>` twice, through allOf, anyOf and oneOf in turn, down to a plain object schema. */
function sharedLadder(levels: number): { ids: string[]; schemas: Map<string, Record<string, unknown>> } {
  const schemas = new Map<string, Record<string, unknown>>();
  const id = (level: number) => `#/components/schemas/Niveau${level}`;
  schemas.set(id(0), { type: 'object', required: ['pagina'], properties: { pagina: { type: 'integer', minimum: 1 } } });
  for (let level = 1; level <= levels; level += 1) {
    const below = { $ref: id(level - 1) };
    schemas.set(id(level), { [['allOf', 'anyOf', 'oneOf'][level % 3] as string]: [below, below] });
  }
  return { ids: [...schemas.keys()], schemas };
}

test('a shared schema named twice at every level gives ajv\'s errors, each applied once per value and place', () => {
  const { ids, schemas } = sharedLadder(12);
  const ladderAjv = createAjv();
  for (const [id, schema] of schemas) ladderAjv.addSchema(clone(schema as Json) as object, id);
  const ladderEnv: PrecheckEnv = { shared: (id) => schemas.get(id), formats: ladderAjv.formats as Record<string, unknown> };
  for (const level of [1, 2, 3, 4, 12]) {
    const root = { $ref: ids[level] as string };
    for (const value of [{ pagina: 2 }, { pagina: 0 }, { pagina: 'een' }, {}, [{ pagina: 1 }]]) {
      const validate = ladderAjv.getSchema(ids[level] as string)!;
      const expected = validate(value) ? [] : essentials(validate.errors ?? []);
      expect([level, value, essentials(validationErrors(root, value, ladderEnv))]).toEqual([level, value, expected]);
    }
  }
});

test('40 levels of a shared schema named twice are judged at once (2^40 applications before)', () => {
  const { ids, schemas } = sharedLadder(40);
  const ladderEnv: PrecheckEnv = { shared: (id) => schemas.get(id), formats: env.formats };
  const errors = validationErrors({ $ref: ids[40] as string }, { pagina: 0 }, ladderEnv);
  expect(errors.map((error) => [error.keyword, error.instancePath]).slice(0, 1)).toEqual([['minimum', '/pagina']]);
});
