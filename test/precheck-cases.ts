type Json = Record<string, unknown>;

/*
 * Schemas with examples ajv accepts (`ok`) and examples it rejects (`bad`), on the edges where
 * JSON Schema and JavaScript differ: lib/ajv-interpreter.ts must judge each as ajv does. Used by
 * test/oas-examples.test.ts (against spectral's own rule) and test/ajv-interpreter.test.ts.
 * `#/components/schemas/Base` is `{ type: object, required: [id], properties: { id: integer } }`.
 */
export const PRECHECK_CASES: Array<[name: string, schema: Json, ok: unknown[], bad: unknown[]]> = [
  ['integer', { type: 'integer' }, [1, -0, 1e3], [1.5, '1', null]],
  ['nullable', { type: 'string', nullable: true }, [null, 'a'], [1, false]],
  ['nullable enum', { type: 'string', nullable: true, enum: ['a'] }, ['a'], [null, 'b']],
  ['type list', { type: ['string', 'integer'] }, ['a', 2], [2.5, {}]],
  ['lengths count code points', { type: 'string', minLength: 2, maxLength: 2 }, ['😀😀', 'ab'], ['😀', '😀😀😀']],
  ['pattern', { type: 'string', pattern: '^[a-z]+$' }, ['abc'], ['ABC', 'a1']],
  ['formats', { type: 'object', properties: { at: { type: 'string', format: 'date-time' }, home: { type: 'string', format: 'uri' }, mail: { type: 'string', format: 'email' }, n: { type: 'integer', format: 'int32' }, free: { type: 'string', format: 'whatever' } } },
    [{ at: '2024-01-01T10:00:00Z', home: 'https://example.nl/x', mail: 'a@example.nl', n: 7, free: 'x' }],
    [{ at: 'yesterday' }, { home: 'not a uri' }, { mail: 'nobody' }, { n: 2147483648 }]],
  ['number limits', { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 10, multipleOf: 0.5 }, [0.5, 10], [0, 10.5, 0.3]],
  ['multipleOf and floating point', { type: 'number', multipleOf: 0.01 }, [0.5, 2], [0.07, 0.001]],
  ['enum of objects and arrays', { enum: [{ a: 1 }, [1, 2]] }, [{ a: 1 }, [1, 2]], [{ a: 2 }, [2, 1], 'a']],
  ['unique objects', { type: 'array', items: { type: 'object' }, uniqueItems: true }, [[{ a: 1 }, { a: 2 }]], [[{ a: 1, b: 2 }, { b: 2, a: 1 }]]],
  ['unique scalars', { type: 'array', items: { type: 'string' }, uniqueItems: true, minItems: 1, maxItems: 3 }, [['a', 'b']], [['a', 'a'], [], ['a', 'b', 'c', 'd']]],
  ['tuple', { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false }, [['a', 1], ['a']], [['a', 1, 2], [1]]],
  ['tuple with more', { type: 'array', items: [{ type: 'string' }], additionalItems: { type: 'integer' } }, [['a', 1, 2]], [['a', 'b']]],
  ['closed object', { type: 'object', properties: { a: { type: 'string' } }, patternProperties: { '^x-': { type: 'integer' } }, additionalProperties: false, minProperties: 1, maxProperties: 2 },
    [{ a: 'x' }, { 'x-n': 1 }], [{}, { b: 1 }, { 'x-n': 'one' }, { a: 'x', 'x-1': 1, 'x-2': 2 }]],
  ['map of integers', { type: 'object', additionalProperties: { type: 'integer' }, required: ['k'] }, [{ k: 1 }], [{ k: 'v' }, { j: 1 }]],
  ['untyped properties', { properties: { a: { type: 'integer' } } }, ['text', { a: 1 }], [{ a: 'one' }]],
  ['oneOf is exactly one', { oneOf: [{ type: 'string' }, { type: 'string', maxLength: 3 }] }, ['long text'], ['abc', 1]],
  ['anyOf, allOf and not', { allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { not: { enum: [0, ''] } }] }, [1, 'a'], [0, '', true]],
  ['a shared schema through $ref', { type: 'array', items: { $ref: '#/components/schemas/Base' } }, [[{ id: 1 }]], [[{ id: '1' }], [{}]]],
];
