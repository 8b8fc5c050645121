import type { IFunctionResult, RulesetFunctionContext } from '@stoplight/spectral-core';
import { extractDraftVersion, oas3_0, oas3_1, oas3_2 } from '@stoplight/spectral-formats';
import { schema as schemaFunction, type SchemaOptions } from '@stoplight/spectral-functions';
import { MissingRefError, type ErrorObject, type ValidateFunction } from 'ajv';
import ajvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import { copySchema, type Relaxation } from './example-schema.js';
import { describeErrors } from './example-messages.js';
import { NULLABLE_WITHOUT_TYPE, understood, validationErrors, type ExampleError, type Findings, type PrecheckEnv } from './ajv-interpreter.js';
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
  const root = engine === undefined ? undefined : preparedRoot(engine, schema, relaxation);
  if (engine === undefined || root === undefined) return validateExpanded(value, path, schema, relaxation, context);
  // A schema made of plain keywords is applied as ajv's code would apply it, without compiling that code.
  root.understood ??= rootUnderstood(engine, root);
  if (root.understood === 'yes') {
    const errors = validationErrors(root.schema, value, engine.precheck);
    return errors.length === 0 ? [] : describeErrors(errors, value, path);
  }
  const judge = (root.judge ??= root.understood === 'nullable without type' ? { kind: 'broken', message: NULLABLE_WITHOUT_TYPE } : judgeOf(root.compile));
  if (judge.kind === 'unresolved') return [];
  if (judge.kind === 'broken') return [{ message: judge.message, path }];
  if (judge.validate(value)) return [];
  const errors = markedErrors(judge.validate.errors ?? [], root.schema);
  // Whether spectral words such an error `string,null` depends on the path to it in the expanded
  // schema, which only the expanded schema shows: that example is judged as spectral judges it.
  if (errors.some(isNullableTypeErrorOffRoot)) return validateExpanded(value, path, schema, relaxation, context);
  return describeErrors(errors, value, path);
}

function isNullableTypeErrorOffRoot(error: ExampleError): boolean {
  return error.keyword === 'type' && error.throughList === undefined && isObject(error.parentSchema) && error.parentSchema.nullable === true;
}

/**
 * ajv's errors, each marked with whether its schema path from the root passes a list (see
 * ExampleError.throughList), where that path lies in the root itself: followed from the root, it
 * must end at the error's own `parentSchema`. An error inside a shared schema, compiled apart,
 * has a path relative to that schema; it stays unmarked, and the caller sees to it.
 */
function markedErrors(errors: ErrorObject[], root: JsonObject): ExampleError[] {
  return errors.map((error) => {
    const throughList = listOnSchemaPath(root, error);
    return throughList === undefined ? error : { ...error, throughList };
  });
}

function listOnSchemaPath(root: JsonObject, error: ErrorObject): boolean | undefined {
  let value: unknown = root;
  let passedList = false;
  for (const segment of pointerSegments(error.schemaPath).slice(0, -1)) {
    if (Array.isArray(value)) passedList = true;
    else if (!isObject(value)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value === error.parentSchema ? passedList : undefined;
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
  /** The prepared copy, as ajv has it under `id`. */
  schema: JsonObject;
}

/** A root schema prepared for ajv; compiled only when an example needs ajv's judgement. */
interface Root {
  /** What ajv compiles: a shared schema's registered copy, or the root's own copy without annotations. */
  schema: JsonObject;
  compile: () => ValidateFunction | undefined;
  /**
   * Whether ajv would compile it without error and ajv-interpreter.ts can apply it, or ajv
   * would fail on `nullable` without `type` and on nothing else (decided once).
   */
  understood?: Understood;
  judge?: Judge;
}

type Understood = 'yes' | 'nullable without type' | 'no';

/** Whether a shared schema alone can be judged by the precheck, and what it references. */
interface SharedCheck extends Findings {
  ok: boolean;
}

interface Engine {
  ajv: InstanceType<typeof AjvDraft04>;
  /** The resolved objects under components.schemas: `$ref`s to them are shared objects. */
  shared: Map<object, number>;
  registrations: Map<string, Registration>;
  /** Prepared root schemas, or undefined where the expanded path must decide. */
  roots: WeakMap<JsonObject, Partial<Record<Relaxation, Root | undefined>>>;
  /** Prepared root schemas by their copy as JSON. */
  byBody: Map<string, Root>;
  /** Per shared id: whether the schema alone is understood, and what it references. */
  sharedChecks: Map<string, SharedCheck>;
  /** Shared ids whose whole reference closure is understood and clean ('yes') or known not to be ('no'). */
  closures: Map<string, Understood>;
  precheck: PrecheckEnv;
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
export function createAjv(): InstanceType<typeof AjvDraft04> {
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
  const ajv = createAjv();
  const registrations = new Map<string, Registration>();
  const precheck: PrecheckEnv = {
    shared: (id) => registrations.get(id)?.schema,
    formats: ajv.formats as Record<string, unknown>,
  };
  return { ajv, shared: sharedSchemas(document), registrations, roots: new WeakMap(), byBody: new Map(), sharedChecks: new Map(), closures: new Map(), precheck };
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

function preparedRoot(engine: Engine, schema: JsonObject, relaxation: Relaxation): Root | undefined {
  const forSchema = engine.roots.get(schema) ?? {};
  engine.roots.set(schema, forSchema);
  if (relaxation in forSchema) return forSchema[relaxation];
  const root = prepareRoot(engine, schema, relaxation);
  forSchema[relaxation] = root;
  return root;
}

function prepareRoot(engine: Engine, schema: JsonObject, relaxation: Relaxation): Root | undefined {
  const registration = register(engine, schema, relaxation);
  if (registration !== undefined) {
    return registration.tainted ? undefined : { schema: registration.schema, compile: () => engine.ajv.getSchema(registration.id) };
  }
  let tainted = false;
  // Schemas are often written alike: `type: array` of the same $ref in many operations, and
  // property schemas that differ only in their example (annotations are dropped).
  const essential = copySchema(schema, relaxation, (subschema, subRelaxation) => {
    const shared = register(engine, subschema, subRelaxation);
    tainted ||= shared?.tainted === true;
    return shared?.id;
  }, 'drop');
  if (tainted) return undefined;
  const body = JSON.stringify(essential);
  const known = engine.byBody.get(body);
  if (known !== undefined) return known;
  const root: Root = { schema: essential, compile: () => engine.ajv.compile(essential) };
  engine.byBody.set(body, root);
  return root;
}

/**
 * 'yes' when ajv would compile the root without error, so that ajv-interpreter.ts may judge examples:
 * it passes the meta-schema (ajv's compile checks that), and it and every shared schema it
 * references are made of keywords ajv-interpreter.ts applies as ajv does. 'nullable without
 * type' when ajv's compile would fail on that and on nothing else (compiling it only to fail
 * costs as much as a compile).
 */
function rootUnderstood(engine: Engine, root: Root): Understood {
  const found: Findings = { refs: [], nullableWithoutType: false };
  if (!understood(root.schema, found, engine.precheck.formats)) return 'no';
  if (engine.ajv.validateSchema(root.schema) !== true) return 'no';
  const closure = closureUnderstood(engine, found.refs);
  return closure === 'yes' && found.nullableWithoutType ? 'nullable without type' : closure;
}

/**
 * Whether every shared schema reachable from `start` is understood. A walk that finds them all
 * understood and clean settles every schema it met (their closures lie within it); one that
 * finds a schema not understood settles that schema only.
 */
function closureUnderstood(engine: Engine, start: string[]): Understood {
  const queue = [...start];
  const met = new Set<string>();
  let nullableWithoutType = false;
  while (queue.length > 0) {
    const id = queue.pop() as string;
    const settled = engine.closures.get(id);
    if (settled === 'no') return 'no';
    if (settled === 'yes' || met.has(id)) continue;
    met.add(id);
    const check = sharedCheck(engine, id);
    if (!check.ok) {
      engine.closures.set(id, 'no');
      return 'no';
    }
    nullableWithoutType ||= check.nullableWithoutType;
    queue.push(...check.refs);
  }
  if (nullableWithoutType) return 'nullable without type';
  for (const id of met) engine.closures.set(id, 'yes');
  return 'yes';
}

/** A shared schema as ajv has it: registered under this very id, untainted, and understood. */
function sharedCheck(engine: Engine, id: string): SharedCheck {
  const known = engine.sharedChecks.get(id);
  if (known !== undefined) return known;
  const registration = engine.registrations.get(id);
  const found: Findings = { refs: [], nullableWithoutType: false };
  const ok = registration !== undefined && registration.id === id && !registration.tainted && understood(registration.schema, found, engine.precheck.formats);
  const check = { ok, ...found };
  engine.sharedChecks.set(id, check);
  return check;
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
  const registration: Registration = { id, tainted: false, body: '', schema: {} };
  // Registered before its body is copied, so a reference back to it (a real cycle) ends here.
  engine.registrations.set(id, registration);
  const copy = copySchema(schema, relaxation, (subschema, subRelaxation) => {
    const shared = register(engine, subschema, subRelaxation);
    if (shared?.tainted === true) registration.tainted = true;
    return shared?.id;
  });
  registration.body = JSON.stringify(copy);
  registration.schema = copy;
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

/**
 * `oasSchema`'s rewrite: without `verbose`, the nullable flag is found through the schema path,
 * which stops at a list (its getSchemaProperty looks into plain objects only).
 */
function rewriteNullableAt(schema: JsonObject, errors: AjvError[]): void {
  for (const error of errors) {
    if (error.keyword !== 'type') continue;
    const owner = valueAtPointer(schema, error.schemaPath);
    if (isObject(owner) && owner.nullable === true) error.message += ',null';
  }
}

/** The segments of a URI-fragment JSON pointer (`#/properties/a~1b/type`). */
function pointerSegments(pointer: string): string[] {
  return pointer.replace(/^#/, '').split('/').slice(1).map((segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value at a URI-fragment JSON pointer, without its last segment. */
function valueAtPointer(root: unknown, pointer: string): unknown {
  let value = root;
  for (const segment of pointerSegments(pointer).slice(0, -1)) {
    if (!isObject(value)) return undefined;
    value = value[segment];
  }
  return value;
}
