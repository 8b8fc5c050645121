import type { ValidateFunction } from 'ajv';
import { understood, validationErrors, type Findings, type PrecheckEnv } from '../lib/ajv-interpreter.js';
import { createAjv } from '../lib/example-validation.js';
import type { JsonObject } from '../lib/json.js';
import { errorView, type ErrorView } from './support/error-view.js';
import { clone, Rng, SHARED_ID, SHARED_SCHEMAS, randomSchema, valuesFor, type Json } from './support/schema-fuzz.js';

/*
 * lib/ajv-interpreter.ts claims to report, for a schema it understands, exactly the errors ajv's
 * compiled validator reports (allErrors: false: the first failing keyword in ajv's own order,
 * with the branch errors of unions). Hand-written cases cannot reach all the orders in which
 * keywords of several groups, unions and shared schemas meet, so this test draws a few thousand
 * schemas and values from a fixed seed and holds the interpreter's errors to ajv's, one by one.
 */

const SEED = 20240601;
const SCHEMAS = 900;
/** Floors that keep the test from passing on nothing if the generator or `understood` drift. */
const MIN_COMPARED = 3000;
const MIN_INVALID = 1500;
/** Mismatches shown in full; the count says how many more there were. */
const SHOWN = 5;

/** One pair on which the two disagree, one line per schema, value and error, so that a few fit on a screen. */
interface Mismatch {
  schema: string;
  data: string;
  ajv: string[];
  ours: string[] | string;
}

interface Outcome {
  compared: number;
  invalid: number;
  mismatches: number;
  shown: Mismatch[];
}

function line(error: ErrorView): string {
  const nullable = 'nullable' in error ? ` (nullable: ${String(error.nullable)})` : '';
  return `${error.instancePath || '""'} ${error.keyword} ${JSON.stringify(error.params)} ${JSON.stringify(error.message)}${nullable}`;
}

type Ajv = ReturnType<typeof createAjv>;

function setUp(): { ajv: Ajv; env: PrecheckEnv } {
  const ajv = createAjv();
  SHARED_SCHEMAS.forEach((schema, index) => ajv.addSchema(schema, SHARED_ID(index)));
  const byId = new Map(SHARED_SCHEMAS.map((schema, index) => [SHARED_ID(index), schema]));
  const env: PrecheckEnv = { shared: (id) => byId.get(id), formats: ajv.formats as Record<string, unknown> };
  return { ajv, env };
}

/**
 * Whether the interpreter may be asked about `schema`: understood, and compiled by ajv without the
 * nullable error. ajv compiles a copy, because its compile adds `null` to a nullable list of types
 * in the schema it is given, which would hide from the interpreter what it must do itself.
 */
function judgeable(schema: JsonObject, ajv: Ajv, env: PrecheckEnv): ValidateFunction | undefined {
  const found: Findings = { refs: [], nullableWithoutType: false };
  if (!understood(schema, found, env.formats) || found.nullableWithoutType) return undefined;
  if (!ajv.validateSchema(schema)) return undefined;
  try {
    // Copied in this realm: structuredClone's arrays are the outer realm's under jest, and ajv's
    // deep equality tells arrays apart by constructor.
    return ajv.compile(clone(schema as Json) as JsonObject);
  } catch {
    return undefined;
  }
}

/** Our errors, or what the interpreter threw: a throw is a mismatch too, not the end of the run. */
function ourErrors(schema: JsonObject, data: Json, env: PrecheckEnv): ErrorView[] | string {
  try {
    return validationErrors(schema, data, env).map(errorView);
  } catch (error) {
    return `threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  }
}

function run(ajv: Ajv, env: PrecheckEnv): Outcome {
  const rng = new Rng(SEED);
  const outcome: Outcome = { compared: 0, invalid: 0, mismatches: 0, shown: [] };
  for (let drawn = 0; drawn < SCHEMAS; drawn += 1) {
    const built = randomSchema(rng);
    // Values are drawn whether or not the schema is used, so one schema's fate does not shift the next draws.
    const values = valuesFor(built, rng);
    const validate = judgeable(built.schema, ajv, env);
    if (validate === undefined) continue;
    for (const data of values) {
      const theirs = validate(data) ? [] : (validate.errors ?? []).map(errorView);
      const ours = ourErrors(built.schema, data, env);
      outcome.compared += 1;
      if (theirs.length > 0) outcome.invalid += 1;
      if (same(ours, theirs)) continue;
      outcome.mismatches += 1;
      if (outcome.shown.length < SHOWN) {
        outcome.shown.push({ schema: JSON.stringify(built.schema), data: JSON.stringify(data), ajv: theirs.map(line), ours: typeof ours === 'string' ? ours : ours.map(line) });
      }
    }
    // Compiled validators are kept by schema object; these are never used again.
    ajv.removeSchema(validate.schema);
  }
  return outcome;
}

/** Deep equality as toEqual sees it: members that are undefined count as absent, key order does not count. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => same(item, b[index]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  return [...keys].every((key) => same(left[key], right[key]));
}

describe('lib/ajv-interpreter.ts against ajv on random schemas and values', () => {
  let outcome: Outcome;

  beforeAll(() => {
    const { ajv, env } = setUp();
    // The shared schemas must be understood themselves, or every schema that refers to them would be out of reach.
    for (const schema of SHARED_SCHEMAS) expect(understood(schema, { refs: [], nullableWithoutType: false }, env.formats)).toBe(true);
    outcome = run(ajv, env);
  });

  test('compares enough pairs, enough of them invalid', () => {
    expect(outcome.compared).toBeGreaterThanOrEqual(MIN_COMPARED);
    expect(outcome.invalid).toBeGreaterThanOrEqual(MIN_INVALID);
  });

  test("reports ajv's errors, in ajv's order", () => {
    expect({ mismatches: outcome.mismatches, firstMismatches: outcome.shown }).toEqual({ mismatches: 0, firstMismatches: [] });
  });
});
