import type { IFunctionResult, RulesetFunctionContext } from '@stoplight/spectral-core';
import { extractDraftVersion, oas3_0, oas3_1, oas3_2 } from '@stoplight/spectral-formats';
import { schema as schemaFunction, type SchemaOptions } from '@stoplight/spectral-functions';
import { MissingRefError, type ValidateFunction } from 'ajv';
import ajvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import { copySchema, withoutAnnotations, type Relaxation } from './example-schema.js';
import { describeErrors } from './example-messages.js';
import { isObject, type JsonObject, type JsonPath } from './json.js';

/**
 * Validation of examples against their schema for oas3-valid-media-example and
 * oas3-valid-schema-example, with the outcome and messages of spectral:oas's `oasExample` +
 * `oasSchema` + spectral-functions' `schema`, without their cost. Those copy the schema with
 * every `$ref` expanded and compile that copy anew for every example they check: GitHub's
 * description spends a minute and gigabytes there. Here, in an OpenAPI 3.0 document, every
 * schema under components.schemas is compiled once per relaxation and referenced from the
 * others, and every other schema is compiled once. Documents in other versions, and schemas that
 * draw on an invalid shared schema (whose error message names a path in the expanded copy), go
 * through spectral's own `schema` function with the expanded copy, as the built-in rules do.
 */

export type { Relaxation };

const REQUEST_MEDIA_PATHS: JsonPath[] = [
  ['components', 'requestBodies'],
  ['paths', '*', '*', 'requestBody'],
];
const RESPONSE_MEDIA_PATHS: JsonPath[] = [
  ['components', 'responses'],
  ['paths', '*', '*', 'responses'],
];

function isUnder(path: JsonPath, prefixes: JsonPath[]): boolean {
  return prefixes.some((prefix) => prefix.every((segment, index) => segment === '*' || segment === path[index]));
}

/**
 * The relaxation spectral applies to a media type, parameter or header at `path`. The path is
 * the one in the resolved document, so a shared component is judged as the place that uses it.
 */
export function mediaRelaxation(path: JsonPath): Relaxation {
  if (isUnder(path, REQUEST_MEDIA_PATHS)) return 'readOnly';
  if (isUnder(path, RESPONSE_MEDIA_PATHS)) return 'writeOnly';
  return 'none';
}

/** Validates one example value; result paths extend `path`, as relative as the caller wants them. */
export function validateExample(
  value: unknown,
  path: JsonPath,
  schema: JsonObject,
  relaxation: Relaxation,
  context: RulesetFunctionContext,
): IFunctionResult[] {
  // spectral's `schema` says so before it looks at the schema; {{print}} is filled in by Spectral.
  if (value === undefined) return [{ message: '#{{print("property")}}must exist', path }];
  const engine = engineFor(context);
  const judge = engine === undefined ? undefined : compiledRoot(engine, schema, relaxation);
  if (judge === undefined) return validateExpanded(value, path, schema, relaxation, context);
  if (judge.kind === 'unresolved') return [];
  if (judge.kind === 'broken') return [{ message: judge.message, path }];
  return judge.validate(value) ? [] : describeErrors(judge.validate.errors ?? [], value, path);
}

/* ---------------------------------------------------------------------------------------------
 * The fast path: one ajv instance per run, shared schemas registered once per relaxation.
 */

/** What a compiled root says about every value: valid or errors, nothing (a `$ref` ajv cannot resolve), or a compile error. */
type Judge = { kind: 'validator'; validate: ValidateFunction } | { kind: 'unresolved' } | { kind: 'broken'; message: string };

interface Registration {
  id: string;
  /** The schema, or one it references, fails the meta-schema: ajv's message would name another path. */
  tainted: boolean;
  /** The prepared copy as JSON, to see whether a relaxation changed it. */
  body: string;
}

interface Engine {
  ajv: InstanceType<typeof AjvDraft04>;
  /** The resolved objects under components.schemas: `$ref`s to them are shared objects. */
  shared: Map<object, number>;
  registrations: Map<string, Registration>;
  /** Judges of root schemas, or undefined where the expanded path must decide. */
  roots: WeakMap<JsonObject, Partial<Record<Relaxation, Judge | undefined>>>;
  /** Judges of root schemas by their prepared copy as JSON. */
  byBody: Map<string, Judge>;
}

// CommonJS packages that declare `export default`: to TypeScript the default import is the
// module object, at run time the export itself; both carry `.default` (they assign it to themselves).
const AjvDraft04 = ajvDraft04.default;
const addFormats = ajvFormats.default;

const SHARED_ID = 'https://nlgov-adr.invalid/components/schemas';

/**
 * spectral-functions' ajv, as its `createAjvInstance(AjvDraft4, false)` builds it, plus `verbose`
 * for the nullable rewrite and two code generation options; none changes what is valid or the messages.
 */
function createAjv(): InstanceType<typeof AjvDraft04> {
  const ajv = new AjvDraft04({
    allErrors: false,
    meta: true,
    messages: true,
    strict: false,
    allowUnionTypes: true,
    unicodeRegExp: false,
    verbose: true,
    // A referenced schema stays one function, called where it is used; inlining it (ajv's
    // default for schemas without $ref) would generate its code again at every use.
    inlineRefs: false,
    // Each validator runs a few times at most: optimising its generated code costs more than it saves.
    code: { optimize: false },
    logger: {
      warn: (...args: unknown[]) => {
        if (typeof args[0] === 'string' && !args[0].startsWith('unknown format')) console.warn(...args);
      },
      log: console.log,
      error: console.error,
    },
  });
  addFormats(ajv);
  return ajv;
}

/**
 * `oasSchema` decides by `document.formats`, which holds only the formats some rule of the
 * ruleset names; asking the format functions themselves gives the answer it gives under the
 * spectral:oas ruleset, which names them all, whatever ruleset these rules are used in.
 */
function openapiVersion(context: RulesetFunctionContext): '3.0' | '3.1+' | 'other' {
  const document = context.document.data;
  if (oas3_1(document, null) || oas3_2(document, null)) return '3.1+';
  return oas3_0(document, null) ? '3.0' : 'other';
}

const engines = new WeakMap<object, Engine | null>();

/**
 * One engine per run (the inventory is new for every run), shared by both rules. Only OpenAPI
 * 3.0 (draft-4 with nullable) has one; other versions go the way spectral goes.
 */
function engineFor(context: RulesetFunctionContext): Engine | undefined {
  const known = engines.get(context.documentInventory);
  if (known !== undefined) return known ?? undefined;
  const engine = openapiVersion(context) === '3.0' ? createEngine(resolvedDocument(context)) : null;
  engines.set(context.documentInventory, engine);
  return engine ?? undefined;
}

function createEngine(document: unknown): Engine {
  return { ajv: createAjv(), shared: sharedSchemas(document), registrations: new Map(), roots: new WeakMap(), byBody: new Map() };
}

/** The class has it, the interface does not; without it nothing is shared, which is only slower. */
function resolvedDocument(context: RulesetFunctionContext): unknown {
  const inventory = context.documentInventory;
  return 'resolved' in inventory ? inventory.resolved : undefined;
}

function sharedSchemas(document: unknown): Map<object, number> {
  const shared = new Map<object, number>();
  const schemas = isObject(document) && isObject(document.components) ? document.components.schemas : undefined;
  if (isObject(schemas)) Object.values(schemas).forEach((schema, index) => isObject(schema) && shared.set(schema, index));
  return shared;
}

function compiledRoot(engine: Engine, schema: JsonObject, relaxation: Relaxation): Judge | undefined {
  const forSchema = engine.roots.get(schema) ?? {};
  engine.roots.set(schema, forSchema);
  if (relaxation in forSchema) return forSchema[relaxation];
  const judge = compileRoot(engine, schema, relaxation);
  forSchema[relaxation] = judge;
  return judge;
}

function compileRoot(engine: Engine, schema: JsonObject, relaxation: Relaxation): Judge | undefined {
  const registration = register(engine, schema, relaxation);
  if (registration !== undefined) return registration.tainted ? undefined : judgeOf(() => engine.ajv.getSchema(registration.id));
  let tainted = false;
  const copy = copySchema(schema, relaxation, (subschema, subRelaxation) => {
    const shared = register(engine, subschema, subRelaxation);
    tainted ||= shared?.tainted === true;
    return shared?.id;
  });
  if (tainted) return undefined;
  // Schemas are often written alike: `type: array` of the same $ref in many operations, and
  // property schemas that differ only in their example.
  const essential = withoutAnnotations(copy);
  const body = JSON.stringify(essential);
  const known = engine.byBody.get(body);
  if (known !== undefined) return known;
  const judge = judgeOf(() => engine.ajv.compile(essential));
  engine.byBody.set(body, judge);
  return judge;
}

function judgeOf(compile: () => ValidateFunction | undefined): Judge {
  try {
    const validate = compile();
    return validate === undefined ? { kind: 'unresolved' } : { kind: 'validator', validate };
  } catch (error) {
    // A `$ref` left unresolved (the resolver leaves circular ones in place) fails the whole
    // schema, and spectral ignores that failure in resolved rules; anything else it reports.
    if (error instanceof MissingRefError) return { kind: 'unresolved' };
    return { kind: 'broken', message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Registers a shared schema (and those it references) under an id, once per relaxation. A
 * relaxation that changes nothing in it, or in what it references, reuses the plain registration.
 */
function register(engine: Engine, schema: JsonObject, relaxation: Relaxation): Registration | undefined {
  const index = engine.shared.get(schema);
  if (index === undefined) return undefined;
  const id = `${SHARED_ID}/${relaxation}/${index}`;
  const known = engine.registrations.get(id);
  if (known !== undefined) return known;
  const registration: Registration = { id, tainted: false, body: '' };
  // Registered before its body is copied, so a reference back to it (a real cycle) ends here.
  engine.registrations.set(id, registration);
  const copy = copySchema(schema, relaxation, (subschema, subRelaxation) => {
    const shared = register(engine, subschema, subRelaxation);
    if (shared?.tainted === true) registration.tainted = true;
    return shared?.id;
  });
  registration.body = JSON.stringify(copy);
  if (relaxation !== 'none') {
    const plain = register(engine, schema, 'none') as Registration;
    if (plain.body === registration.body) {
      engine.registrations.set(id, plain);
      return plain;
    }
  }
  try {
    engine.ajv.addSchema(copy, id);
  } catch {
    registration.tainted = true;
  }
  return registration;
}

/* ---------------------------------------------------------------------------------------------
 * The expanded path: spectral's own `schema` function with the fully expanded copy, prepared
 * once per schema and relaxation, so that its per-run ajv cache compiles it once.
 */

type AjvError = Parameters<NonNullable<SchemaOptions['prepareResults']>>[0][number];
type Dialect = NonNullable<SchemaOptions['dialect']>;

const expanded = new WeakMap<JsonObject, Partial<Record<Relaxation, SchemaOptions>>>();

function validateExpanded(value: unknown, path: JsonPath, schema: JsonObject, relaxation: Relaxation, context: RulesetFunctionContext): IFunctionResult[] {
  const forSchema = expanded.get(schema) ?? {};
  expanded.set(schema, forSchema);
  const options = (forSchema[relaxation] ??= expandedOptions(copySchema(schema, relaxation), context));
  const results = schemaFunction(value, options, { ...context, path });
  // spectral's `schema` is synchronous; its type also admits promises, which it never returns.
  return Array.isArray(results) ? results : [];
}

/** The dialect and nullable handling `oasSchema` picks for the document's version. */
function expandedOptions(schema: JsonObject, context: RulesetFunctionContext): SchemaOptions {
  switch (openapiVersion(context)) {
    case '3.0':
      return { schema, dialect: 'draft4', prepareResults: (errors) => rewriteNullableAt(schema, errors) };
    case '3.1+':
      return { schema, dialect: jsonSchemaDialect(context.document.data) };
    default:
      return { schema, dialect: 'draft4' };
  }
}

function jsonSchemaDialect(document: unknown): Dialect {
  const declared = isObject(document) && typeof document.jsonSchemaDialect === 'string' ? extractDraftVersion(document.jsonSchemaDialect) : null;
  return (declared ?? 'draft2020-12') as Dialect;
}

/** `oasSchema`'s rewrite: without `verbose`, the nullable flag is found through the schema path. */
function rewriteNullableAt(schema: JsonObject, errors: AjvError[]): void {
  for (const error of errors) {
    if (error.keyword !== 'type') continue;
    const owner = valueAtPointer(schema, error.schemaPath);
    if (isObject(owner) && owner.nullable === true) error.message += ',null';
  }
}

/** The value at a URI-fragment JSON pointer (`#/properties/a~1b/type`), without its last segment. */
function valueAtPointer(root: unknown, pointer: string): unknown {
  const segments = pointer.replace(/^#/, '').split('/').slice(1, -1).map((segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
  let value = root;
  for (const segment of segments) {
    if (!isObject(value) && !Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}
