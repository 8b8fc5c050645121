import ajvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import { accepts, understood, type Findings, type PrecheckEnv } from '../lib/example-precheck.js';
import { PRECHECK_CASES } from './precheck-cases.js';

/*
 * lib/example-precheck.ts judges valid examples without ajv. test/oas-examples.test.ts holds its
 * verdicts to spectral's own rule; these tests hold that it does judge those schemas itself, and
 * that it refuses what ajv would compile differently or not at all.
 */

const ajv = new ajvDraft04.default({ strict: false });
ajvFormats.default(ajv);
const BASE = { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } };
const env: PrecheckEnv = {
  shared: (id) => (id === '#/components/schemas/Base' ? BASE : undefined),
  formats: ajv.formats as Record<string, unknown>,
};

function findingsOf(schema: unknown): Findings & { understood: boolean } {
  const found: Findings = { refs: [], nullableWithoutType: false };
  return { understood: understood(schema, found, env.formats), ...found };
}

test.each(PRECHECK_CASES)('judged without ajv: %s', (_name, schema, ok, bad) => {
  expect(findingsOf(schema)).toMatchObject({ understood: true, nullableWithoutType: false });
  expect(ok.map((value) => accepts(schema, value, env))).toEqual(ok.map(() => true));
  expect(bad.map((value) => accepts(schema, value, env))).toEqual(bad.map(() => false));
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
  expect(accepts(schema, 'text', env)).toBe(true);
});
