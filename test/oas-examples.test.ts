import { join } from 'node:path';
import type { RulesetDefinition } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import { createLinter, lintText } from '../lib/lint.js';
import { FIXTURES, findingsOf, type Finding } from './harness.js';
import { PRECHECK_CASES } from './precheck-cases.js';

/*
 * nlgov-adr replaces spectral:oas's oas3-valid-media-example and oas3-valid-schema-example by
 * faster functions under the same names. Each case lints one document with our ruleset and with
 * a linter that has only the built-in rule, and asserts both the exact findings and that the two
 * agree on them.
 */

const MEDIA = 'oas3-valid-media-example';
const SCHEMA = 'oas3-valid-schema-example';

const builtin = createLinter({
  extends: [[oas as RulesetDefinition, 'off']],
  rules: { [MEDIA]: 'error', [SCHEMA]: 'error' },
} as RulesetDefinition);

type Triple = [code: string, path: string, message: string];

function triples(findings: Finding[]): Triple[] {
  return findings.map((finding) => [finding.code, finding.path, finding.message]);
}

/** Ours and the built-in findings of `code`, linted from the same text at the same place. */
async function bothOf(code: string, document: object): Promise<{ ours: Triple[]; builtIn: Triple[] }> {
  const source = join(FIXTURES, 'inline.json');
  const text = JSON.stringify(document, null, 2);
  const builtInFindings = (await lintText(builtin, text, source)).filter((finding) => finding.code === code);
  return { ours: triples(await findingsOf(code, document, source)), builtIn: triples(builtInFindings) };
}

async function expectSame(code: string, document: object, expected: Triple[]): Promise<void> {
  const { ours, builtIn } = await bothOf(code, document);
  expect(ours).toEqual(expected);
  expect(ours).toEqual(builtIn);
}

type Json = Record<string, unknown>;

/** A minimal OpenAPI 3.0 document with one GET operation and the given components. */
function api(operation: Json, components: Json = {}): Json {
  return {
    openapi: '3.0.3',
    info: { title: 'Examples', version: '1.0.0' },
    paths: { '/things': { get: { responses: { '200': { description: 'OK' } }, ...operation } } },
    components,
  };
}

function jsonResponse(media: Json): Json {
  return { responses: { '200': { description: 'OK', content: { 'application/json': media } } } };
}

const THING = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'integer' }, name: { type: 'string' } },
};

test('an invalid media example is reported at the example', async () => {
  const document = api(jsonResponse({ schema: THING, example: { id: 'one', name: 'a' } }));
  await expectSame(MEDIA, document, [
    [MEDIA, 'paths./things.get.responses.200.content.application/json.example.id', '"id" property type must be integer'],
  ]);
});

test('a missing required property in a media example is reported at the example', async () => {
  const document = api(jsonResponse({ schema: THING, example: { id: 1 } }));
  await expectSame(MEDIA, document, [
    [MEDIA, 'paths./things.get.responses.200.content.application/json.example', '"example" property must have required property "name"'],
  ]);
});

test('an invalid schema example is reported at the schema example', async () => {
  const document = api({}, { schemas: { Thing: { ...THING, example: { id: 1, name: 2 } } } });
  await expectSame(SCHEMA, document, [
    [SCHEMA, 'components.schemas.Thing.example.name', '"name" property type must be string'],
  ]);
});

test('an invalid default is reported at the default', async () => {
  const document = api({}, { schemas: { Size: { type: 'string', enum: ['small', 'large'], default: 'medium' } } });
  await expectSame(SCHEMA, document, [
    [SCHEMA, 'components.schemas.Size.default', '"default" property must be equal to one of the allowed values: "small", "large"'],
  ]);
});

test('an invalid example of a nested property is reported at that property', async () => {
  const nested = {
    type: 'object',
    properties: { owner: { type: 'object', properties: { age: { type: 'integer', minimum: 0, example: -3 } } } },
  };
  const document = api({}, { schemas: { Thing: nested } });
  await expectSame(SCHEMA, document, [
    [SCHEMA, 'components.schemas.Thing.properties.owner.properties.age.example', '"example" property must be >= 0'],
  ]);
});

test('an inline schema of a response is checked where it is written', async () => {
  const document = api(jsonResponse({ schema: { type: 'array', items: { type: 'string', example: 5 } } }));
  await expectSame(SCHEMA, document, [
    [SCHEMA, 'paths./things.get.responses.200.content.application/json.schema.items.example', '"example" property type must be string'],
  ]);
});

test('an example of a component reached through several $refs is reported once, at its definition', async () => {
  const ref = { $ref: '#/components/schemas/Thing' };
  const document = {
    ...api(jsonResponse({ schema: ref })),
    paths: {
      '/things': { get: jsonResponse({ schema: { type: 'array', items: ref } }) },
      '/things/{id}': { get: jsonResponse({ schema: ref }) },
      '/others': { get: jsonResponse({ schema: { type: 'object', properties: { thing: ref } } }) },
    },
    components: { schemas: { Thing: { ...THING, properties: { ...THING.properties, id: { type: 'integer', example: 'x' } } } } },
  };
  await expectSame(SCHEMA, document, [
    [SCHEMA, 'components.schemas.Thing.properties.id.example', '"example" property type must be integer'],
  ]);
});

test('nullable: true accepts a null example and names null in the message of a wrong one', async () => {
  const document = api({}, {
    schemas: {
      Note: { type: 'string', nullable: true, example: null },
      Count: { type: 'integer', nullable: true, example: 'many' },
    },
  });
  await expectSame(SCHEMA, document, [
    [SCHEMA, 'components.schemas.Count.example', '"example" property type must be integer,null'],
  ]);
});

test('a nullable list of types: null is named twice, as spectral names it (ajv adds null to the list, the rewrite once more)', async () => {
  const document = api(jsonResponse({ schema: { type: ['string'], nullable: true }, example: 5 }));
  await expectSame(MEDIA, document, [
    [MEDIA, 'paths./things.get.responses.200.content.application/json.example', '"example" property type must be string,null,null'],
  ]);
});

// Found in review: spectral looks the nullable flag up along the schema path and gives up at a
// list, so below allOf, anyOf, oneOf or a tuple it says `must be string`; and a shared schema's
// error given again for a second branch was worded twice (`string,null,null`).
test('below allOf, anyOf, oneOf or a tuple a nullable type error is worded as ajv words it, as in spectral; once per error', async () => {
  const document = api(jsonResponse({
    schema: { oneOf: [{ $ref: '#/components/schemas/Ding' }, { $ref: '#/components/schemas/Ander' }] },
    examples: { beide: { value: { code: 5 } } },
  }), {
    schemas: {
      Code: { type: 'string', nullable: true },
      Ding: { type: 'object', properties: { code: { $ref: '#/components/schemas/Code' } } },
      Ander: { type: 'object', required: ['code'], properties: { code: { $ref: '#/components/schemas/Code' } } },
      Samengesteld: { type: 'object', properties: { code: { allOf: [{ type: 'string', nullable: true }] } }, example: { code: 5 } },
      Paar: { type: 'array', items: [{ type: 'string', nullable: true }], example: [5] },
      Direct: { type: 'object', properties: { code: { $ref: '#/components/schemas/Code' } }, example: { code: 5 } },
    },
  });
  await expectSame(MEDIA, document, [
    [MEDIA, 'paths./things.get.responses.200.content.application/json.examples.beide.value', '"value" property must match exactly one schema in oneOf. None of the schemas matched, see the other errors reported for this value'],
    [MEDIA, 'paths./things.get.responses.200.content.application/json.examples.beide.value.code', '"code" property type must be string'],
  ]);
  await expectSame(SCHEMA, document, [
    [SCHEMA, 'components.schemas.Samengesteld.example.code', '"code" property type must be string'],
    [SCHEMA, 'components.schemas.Paar.example.0', 'Item at index 0 must be string'],
    [SCHEMA, 'components.schemas.Direct.example.code', '"code" property type must be string,null'],
  ]);
});

test('the same nullable wording where ajv judges the schema (a keyword the interpreter leaves to ajv), in the root and in a shared schema', async () => {
  const document = api({}, {
    schemas: {
      Code: { type: 'string', nullable: true },
      Deps: { type: 'object', dependencies: { a: ['b'] } },
      InDeWortel: { type: 'object', dependencies: { a: ['b'] }, properties: { code: { allOf: [{ type: 'string', nullable: true }] } }, example: { code: 5 } },
      Gedeeld: { type: 'object', properties: { code: { oneOf: [{ $ref: '#/components/schemas/Code' }] }, x: { $ref: '#/components/schemas/Deps' } }, example: { code: 5 } },
      Rechtstreeks: { type: 'object', properties: { code: { $ref: '#/components/schemas/Code' }, x: { $ref: '#/components/schemas/Deps' } }, example: { code: 5 } },
    },
  });
  await expectSame(SCHEMA, document, [
    [SCHEMA, 'components.schemas.InDeWortel.example.code', '"code" property type must be string'],
    [SCHEMA, 'components.schemas.Gedeeld.example.code', '"code" property type must be string'],
    [SCHEMA, 'components.schemas.Gedeeld.example.code', '"code" property must match exactly one schema in oneOf. None of the schemas matched, see the other errors reported for this value'],
    [SCHEMA, 'components.schemas.Rechtstreeks.example.code', '"code" property type must be string,null'],
  ]);
});

// Found in review: ajv's compile adds null to the list in the schema it is given, and the list in
// Spectral's resolved document is frozen, so the compile failed with a TypeError as the finding.
test('a nullable list of types in a schema only ajv judges (dependencies) gives ajv\'s finding, not a compile failure', async () => {
  const document = api(jsonResponse({
    schema: { type: 'object', properties: { a: { type: ['integer'], nullable: true } }, dependencies: { a: ['b'] } },
    examples: { wrongType: { value: { a: true, b: 1 } }, missing: { value: { a: 1 } } },
  }));
  await expectSame(MEDIA, document, [
    [MEDIA, 'paths./things.get.responses.200.content.application/json.examples.wrongType.value.a', '"a" property type must be integer,null,null'],
    [MEDIA, 'paths./things.get.responses.200.content.application/json.examples.missing.value', '"value" property must have property b when property a is present'],
  ]);
});

test('an empty name in required is passed over, as ajv\'s generated check passes over it', async () => {
  const document = api(jsonResponse({ schema: { type: 'object', required: ['', 'a'] }, example: {} }));
  await expectSame(MEDIA, document, [
    [MEDIA, 'paths./things.get.responses.200.content.application/json.example', '"example" property must have required property "a"'],
  ]);
});

test('null is no valid example of a schema that is not nullable', async () => {
  const document = api(jsonResponse({ schema: { type: 'object', properties: { note: { type: 'string' } } }, example: { note: null } }));
  await expectSame(MEDIA, document, [
    [MEDIA, 'paths./things.get.responses.200.content.application/json.example.note', '"note" property type must be string'],
  ]);
});

test('every inline example of an examples map is checked (findings come in document order); externalValue is skipped, a missing value reported', async () => {
  const document = api(
    jsonResponse({
      schema: THING,
      examples: {
        good: { value: { id: 1, name: 'a' } },
        bad: { value: { id: 1, name: false } },
        shared: { $ref: '#/components/examples/Shared' },
        remote: { externalValue: 'https://example.org/thing.json' },
        empty: { summary: 'no value' },
      },
    }),
    { examples: { Shared: { value: { id: 'two', name: 'b' } } } },
  );
  await expectSame(MEDIA, document, [
    [MEDIA, 'paths./things.get.responses.200.content.application/json.examples.bad.value.name', '"name" property type must be string'],
    [MEDIA, 'paths./things.get.responses.200.content.application/json.examples.empty', '"empty.value" property must exist'],
    [MEDIA, 'components.examples.Shared.value.id', '"id" property type must be integer'],
  ]);
});

// Found in review: spectral's `oasExample` takes arrays for objects, so a list of examples is
// walked by index and a list in the examples map is an Example whose value is missing.
test('examples written as a list are checked by index, as spectral checks them', async () => {
  const document = api({
    parameters: [{ name: 'n', in: 'query', schema: { type: 'integer' }, examples: [{ value: 'ten' }, { value: 10 }] }],
    ...jsonResponse({ schema: THING, examples: [{ value: { id: 1 } }, {}, [{ value: { id: 'x', name: 'a' } }], null, 'text'] }),
  });
  await expectSame(MEDIA, document, [
    [MEDIA, 'paths./things.get.responses.200.content.application/json.examples.0.value', '"value" property must have required property "name"'],
    [MEDIA, 'paths./things.get.responses.200.content.application/json.examples.1', '"[1].value" property must exist'],
    [MEDIA, 'paths./things.get.responses.200.content.application/json.examples.2', '"[2].value" property must exist'],
    [MEDIA, 'paths./things.get.parameters.0.examples.0.value', '"value" property type must be integer'],
  ]);
});

test('a list in place of an Example object of an examples map is an example without a value, as in spectral', async () => {
  const header = { schema: THING, examples: { a: null, b: [1], c: { value: { id: 1, name: 'a' } }, d: [] } };
  const document = api({}, { headers: { Thing: header } });
  await expectSame(MEDIA, document, [
    [MEDIA, 'components.headers.Thing.examples.b', '"b.value" property must exist'],
    [MEDIA, 'components.headers.Thing.examples.d', '"d.value" property must exist'],
  ]);
});

test('example wins over examples, as in spectral: the examples map is then not looked at', async () => {
  const document = api(jsonResponse({ schema: THING, example: { id: 1, name: 'a' }, examples: { bad: { value: 'no thing' } } }));
  await expectSame(MEDIA, document, []);
});

test('examples of parameters and response headers are checked against their schema', async () => {
  const document = api({
    parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100 }, example: 500 }],
    responses: {
      '200': { description: 'OK', headers: { 'X-Rate-Limit': { schema: { type: 'integer' }, examples: { text: { value: 'ten' } } } } },
    },
  });
  await expectSame(MEDIA, document, [
    [MEDIA, 'paths./things.get.responses.200.headers.X-Rate-Limit.examples.text.value', '"value" property type must be integer'],
    [MEDIA, 'paths./things.get.parameters.0.example', '"example" property must be <= 100'],
  ]);
});

test('a required readOnly property may be left out of a request example, not of a response example', async () => {
  const record = {
    type: 'object',
    required: ['id', 'name'],
    properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } },
  };
  const document = {
    ...api({}),
    paths: {
      '/things': {
        post: {
          requestBody: { content: { 'application/json': { schema: record, example: { name: 'new' } } } },
          ...jsonResponse({ schema: record, example: { name: 'created' } }),
        },
      },
    },
  };
  await expectSame(MEDIA, document, [
    [MEDIA, 'paths./things.post.responses.200.content.application/json.example', '"example" property must have required property "id"'],
  ]);
});

test('a shared component response is judged as a response wherever it is used', async () => {
  const record = {
    type: 'object',
    required: ['secret'],
    properties: { secret: { type: 'string', writeOnly: true }, size: { type: 'integer' } },
  };
  const document = {
    ...api({}),
    paths: {
      '/a': { get: { responses: { '200': { $ref: '#/components/responses/Record' } } } },
      '/b': { get: { responses: { '200': { $ref: '#/components/responses/Record' } } } },
    },
    components: {
      responses: { Record: { description: 'OK', content: { 'application/json': { schema: record, example: { size: 'big' } } } } },
    },
  };
  await expectSame(MEDIA, document, [
    [MEDIA, 'components.responses.Record.content.application/json.example.size', '"size" property type must be integer'],
  ]);
});

test('examples inside a circular schema are left alone, as spectral cannot compile it', async () => {
  const node = {
    type: 'object',
    properties: { name: { type: 'string', example: 3 }, child: { $ref: '#/components/schemas/Node' } },
    example: { name: 4 },
  };
  const document = api(jsonResponse({ schema: { $ref: '#/components/schemas/Node' }, example: { name: 5 } }), { schemas: { Node: node } });
  await expectSame(SCHEMA, document, [
    [SCHEMA, 'components.schemas.Node.properties.name.example', '"example" property type must be string'],
  ]);
  await expectSame(MEDIA, document, []);
});

test('examples of x-webhooks, as GitHub describes webhooks in OpenAPI 3.0, are checked too', async () => {
  const document = {
    ...api({}),
    'x-webhooks': { ping: { post: { requestBody: { content: { 'application/json': { schema: THING, example: { id: 'x', name: 'a' } } } } } } },
  };
  await expectSame(MEDIA, document, [
    [MEDIA, 'x-webhooks.ping.post.requestBody.content.application/json.example.id', '"id" property type must be integer'],
  ]);
});

test('examples of the headers of a multipart encoding are checked too', async () => {
  const multipart = {
    schema: { type: 'object', properties: { file: { type: 'string' } } },
    encoding: { file: { headers: { 'X-Part': { schema: { type: 'integer' }, example: 'one' } } } },
  };
  const document = { ...api({}), paths: { '/things': { post: { requestBody: { content: { 'multipart/form-data': multipart } }, responses: { '204': { description: 'OK' } } } } } };
  await expectSame(MEDIA, document, [
    [MEDIA, 'paths./things.post.requestBody.content.multipart/form-data.encoding.file.headers.X-Part.example', '"example" property type must be integer'],
  ]);
});

test('a schema ajv cannot compile is reported at every example it judges, in spectral\'s words', async () => {
  const shared = { type: 'object', properties: { size: { nullable: true, allOf: [{ type: 'integer' }] } } };
  const document = api(jsonResponse({ schema: { $ref: '#/components/schemas/Shared' }, example: { size: 1 } }), {
    schemas: { Shared: shared, Holder: { type: 'object', properties: { shared: { $ref: '#/components/schemas/Shared' } }, example: {} } },
  });
  const message = '"nullable" cannot be used without "type"';
  await expectSame(MEDIA, document, [[MEDIA, 'paths./things.get.responses.200.content.application/json.example', message]]);
  await expectSame(SCHEMA, document, [[SCHEMA, 'components.schemas.Holder.example', message]]);
});

test('a shared schema the meta-schema rejects gives the message of the expanded schema, as spectral does', async () => {
  const document = api(jsonResponse({ schema: { type: 'array', items: { $ref: '#/components/schemas/Thing' } }, example: [] }), {
    schemas: { Thing: { type: 'object', properties: { id: { type: 'integr' } } } },
  });
  const { ours, builtIn } = await bothOf(MEDIA, document);
  expect(ours).toHaveLength(1);
  expect(ours[0]?.[2]).toMatch(/^schema is invalid: data\/items\/properties\/id\/type /);
  expect(ours).toEqual(builtIn);
});

test('an OpenAPI 3.1 document is judged with JSON Schema 2020-12, as spectral does', async () => {
  const document = {
    ...api(jsonResponse({ schema: { type: ['string', 'null'], maxLength: 3 }, example: 'long' })),
    openapi: '3.1.0',
  };
  await expectSame(MEDIA, document, [
    [MEDIA, 'paths./things.get.responses.200.content.application/json.example', '"example" property must not have more than 3 characters'],
  ]);
});

test('a valid document has no example findings from either rule', async () => {
  const document = api(jsonResponse({ schema: { ...THING, example: { id: 1, name: 'a' } }, example: { id: 2, name: 'b' } }));
  await expectSame(MEDIA, document, []);
  await expectSame(SCHEMA, document, []);
});

/* Examples are judged without ajv's compile where the schema's keywords allow (lib/ajv-interpreter.ts): every verdict and message must be ajv's. */
test.each(PRECHECK_CASES)('valid and invalid examples as ajv judges them: %s', async (_name, schema, ok, bad) => {
  const examples = Object.fromEntries([
    ...ok.map((value, index) => [`ok${index}`, { value }]),
    ...bad.map((value, index) => [`bad${index}`, { value }]),
  ]);
  const base = { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } };
  const document = api(jsonResponse({ schema, examples }), { schemas: { Base: base } });
  const { ours, builtIn } = await bothOf(MEDIA, document);
  expect(ours).toEqual(builtIn);
  const judged = new Set(ours.map(([, path]) => /\.examples\.(\w+)\./.exec(path)?.[1]));
  expect([...judged].sort()).toEqual(bad.map((_value, index) => `bad${index}`).sort());
});
