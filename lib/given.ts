import type { Format, IFunctionResult, RuleDefinition, RulesetFunction, RulesetFunctionContext, RulesetFunctionWithValidator } from '@stoplight/spectral-core';
import type { JsonPath } from '@stoplight/types';

/*
 * Why rules hand Spectral a fixed `given` and find their wildcard nodes here (docs/performance.md):
 * Spectral's JSONPath engine (nimma) limits its walk to the parts of the document that some `given`
 * can reach ("traversal zones"), but only when the document is an ordinary object. The resolved
 * document Spectral lints is frozen (its `$ref` resolver builds it with immer), so nimma skips the
 * zones and walks all of it as soon as one `given` has a wildcard: every node, and every shared
 * schema again at each place that uses it (about two million nodes on GitHub's description, some
 * 5 s). A `given` made of plain member names (`$.paths`) is looked up directly, without a walk.
 * So a rule keeps its narrow JSONPath (`$.paths[*][get,post].responses`), Spectral is given its
 * fixed start (`$.paths`), and the rest is matched here, over the few nodes it can reach.
 */

/** A step after the fixed start: some member names (`.name`, `['name']`, `[a,b]`) or `[*]`. */
export type Step = { kind: 'members'; names: ReadonlySet<string> } | { kind: 'wildcard' };

export interface ParsedGiven {
  expression: string;
  /** The leading member names: the part Spectral can look up without a walk. */
  start: string[];
  /** What follows, matched by {@link matchAll}. */
  steps: Step[];
}

const NAME = /^[A-Za-z_$][A-Za-z0-9_$-]*/;

/**
 * Parses the JSONPath subset our rules use: `$`, `.name`, `['name']`, `[*]` and `[a,b,c]`.
 * Anything else (`..`, filters, slices) throws, so that a rule written with it fails at load
 * instead of being matched differently from Spectral.
 */
export function parseGiven(expression: string): ParsedGiven {
  if (!expression.startsWith('$')) throw new Error(`given must start with $: ${expression}`);
  const all: Step[] = [];
  let rest = expression.slice(1);
  while (rest.length > 0) {
    const [step, length] = nextStep(rest, expression);
    all.push(step);
    rest = rest.slice(length);
  }
  const fixed = all.findIndex((step) => step.kind !== 'members' || step.names.size !== 1);
  const startLength = fixed < 0 ? all.length : fixed;
  const start = all.slice(0, startLength).map((step) => [...(step as { names: ReadonlySet<string> }).names][0] as string);
  return { expression, start, steps: all.slice(startLength) };
}

function nextStep(rest: string, expression: string): [Step, number] {
  if (rest.startsWith('..')) throw new Error(`unsupported given (descendant): ${expression}`);
  if (rest.startsWith('.')) {
    const name = NAME.exec(rest.slice(1))?.[0];
    if (name === undefined) throw new Error(`unsupported given: ${expression}`);
    return [{ kind: 'members', names: new Set([name]) }, name.length + 1];
  }
  const close = rest.indexOf(']');
  if (!rest.startsWith('[') || close < 0) throw new Error(`unsupported given: ${expression}`);
  const inside = rest.slice(1, close);
  if (inside === '*') return [{ kind: 'wildcard' }, close + 1];
  const quoted = /^'([^']*)'$/.exec(inside) ?? /^"([^"]*)"$/.exec(inside);
  if (quoted !== null) return [{ kind: 'members', names: new Set([quoted[1] as string]) }, close + 1];
  const names = inside.split(',');
  if (!names.every((name) => NAME.exec(name)?.[0] === name)) throw new Error(`unsupported given: ${expression}`);
  return [{ kind: 'members', names: new Set(names) }, close + 1];
}

/** `['paths']` -> `$.paths`: a `given` Spectral looks up without a walk. */
export function startExpression(start: readonly string[]): string {
  return `$${start.map((name) => (NAME.exec(name)?.[0] === name ? `.${name}` : `['${name}']`)).join('')}`;
}

export interface Match {
  /** Index of the expression that matched, in the order given. */
  expression: number;
  value: unknown;
  path: JsonPath;
}

/**
 * Where one expression stands after some of its steps: built once per expression, so that the
 * walk advances by following `next` instead of allocating (it runs for every rule on every path
 * item and operation of the document).
 */
interface State {
  expression: number;
  /** The step still to match, or undefined when the expression is complete. */
  step: Step | undefined;
  next: State | undefined;
}

function statesOf(expression: number, steps: readonly Step[]): State {
  let state: State = { expression, step: undefined, next: undefined };
  for (let index = steps.length - 1; index >= 0; index -= 1) state = { expression, step: steps[index], next: state };
  return state;
}

/**
 * Every node under `value` (at `path`) that one of the step lists reaches, in the order Spectral's
 * walk reported them: document order, parent before child, and at one node the expressions in
 * the order given. Children are the own keys of an object and the indices of an array; a member
 * name matches object keys only, `[*]` any child, primitives included (as in nimma).
 */
export function matchAll(value: unknown, path: JsonPath, stepLists: ReadonlyArray<readonly Step[]>): Match[] {
  const found: Match[] = [];
  visit(value, path, stepLists.map((steps, expression) => statesOf(expression, steps)), found);
  return found;
}

/** Reports the expressions complete at this node, then walks on with the others. */
function visit(value: unknown, path: JsonPath, states: State[], found: Match[]): void {
  const pending: State[] = [];
  for (const state of states) {
    if (state.step === undefined) found.push({ expression: state.expression, value, path });
    else pending.push(state);
  }
  if (pending.length === 0 || typeof value !== 'object' || value === null) return;
  const record = value as Record<string | number, unknown>;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) visitChild(record, path, index, pending, found);
  } else {
    for (const key of Object.keys(value)) visitChild(record, path, key, pending, found);
  }
}

function visitChild(parent: Record<string | number, unknown>, path: JsonPath, key: string | number, states: State[], found: Match[]): void {
  const advanced: State[] = [];
  for (const state of states) {
    if (stepMatches(state.step as Step, key)) advanced.push(state.next as State);
  }
  if (advanced.length > 0) visit(parent[key], [...path, key], advanced, found);
}

function stepMatches(step: Step, key: string | number): boolean {
  return step.kind === 'wildcard' || (typeof key === 'string' && step.names.has(key));
}

/** Expressions that apply to documents of some formats only, as in Spectral's scoped aliases. */
export interface ScopedGiven {
  formats: Format[];
  given: string[];
}

type AnyRulesetFunction = RulesetFunction<unknown, unknown> | RulesetFunctionWithValidator<unknown, unknown>;
type Results = IFunctionResult[] | void;

/**
 * The rule with a `given` Spectral looks up without a walk: the fixed start of each expression,
 * once each. Its functions are called for every node the full expressions match, with the same
 * input, options and path as Spectral would pass; a result without a path is placed at that
 * node, as Spectral places it. Rules whose `given` is fixed already come back unchanged.
 */
export function withFixedGiven<R extends RuleDefinition>(definition: R, scoped: ScopedGiven[] = []): R {
  const plain = (Array.isArray(definition.given) ? definition.given : [definition.given]).map(parseGiven);
  const scopedParsed = scoped.map(({ formats, given }) => ({ formats, parsed: given.map(parseGiven) }));
  const all = [...plain, ...scopedParsed.flatMap(({ parsed }) => parsed)];
  if (all.every((parsed) => parsed.steps.length === 0)) return definition;
  const thens = Array.isArray(definition.then) ? definition.then : [definition.then];
  if (thens.some((then) => then.field !== undefined)) throw new Error('withFixedGiven: `field` is not supported');
  const applies = (context: RulesetFunctionContext): ParsedGiven[] => [
    ...plain,
    ...scopedParsed.filter(({ formats }) => formats.some((format) => context.document.formats?.has(format) === true)).flatMap(({ parsed }) => parsed),
  ];
  const wrapped = thens.map((then) => ({ ...then, function: matchingEach(then.function as AnyRulesetFunction, applies) }));
  return {
    ...definition,
    given: [...new Set(all.map((parsed) => startExpression(parsed.start)))],
    then: Array.isArray(definition.then) ? wrapped : wrapped[0],
  };
}

/** Calls `fn` for each node that the expressions starting at the given node match. */
function matchingEach(fn: AnyRulesetFunction, applies: (context: RulesetFunctionContext) => ParsedGiven[]): RulesetFunction<unknown, unknown> {
  const each = (input: unknown, options: unknown, context: RulesetFunctionContext): Results | Promise<Results> => {
    const here = applies(context).filter((parsed) => samePath(parsed.start, context.path));
    // A ruleset that reuses this `then` under a `given` of its own: judge the node it was given.
    if (here.length === 0) return fn(input, options, context);
    const matches = cachedMatches(input, context.path, here);
    const outputs = matches.map(({ value, path }) => placed(fn(value, options, { ...context, path: [...path] }), path));
    if (!outputs.some((output) => output instanceof Promise)) return (outputs as Results[]).flatMap((output) => output ?? []);
    return Promise.all(outputs).then((settled) => settled.flatMap((output) => output ?? []));
  };
  // Spectral names the function in its error messages, and checks functionOptions when it loads
  // the ruleset with the function's `validator`: both stay the rule function's own.
  Reflect.defineProperty(each, 'name', { value: fn.name });
  for (const property of ['validator', 'schemas'] as const) {
    if (property in fn) Reflect.defineProperty(each, property, { value: (fn as unknown as Record<string, unknown>)[property] });
  }
  return each;
}

/**
 * Matches per start node and expression list. Several rules share an expression list (the
 * operations, the responses, the parameters), so each list is matched once per document. Only
 * frozen nodes are cached (Spectral's resolved document is): their matches cannot change.
 */
const matchCache = new WeakMap<object, Map<string, Match[]>>();

function cachedMatches(input: unknown, path: JsonPath, expressions: ParsedGiven[]): Match[] {
  const steps = expressions.map((parsed) => parsed.steps);
  if (typeof input !== 'object' || input === null || !Object.isFrozen(input)) return matchAll(input, path, steps);
  const key = `${path.join('\u0000')}\u0001${expressions.map((parsed) => parsed.expression).join('\u0001')}`;
  const byKey = matchCache.get(input) ?? new Map<string, Match[]>();
  matchCache.set(input, byKey);
  const cached = byKey.get(key) ?? matchAll(input, path, steps);
  byKey.set(key, cached);
  return cached;
}

function placed(output: Results | Promise<Results>, path: JsonPath): Results | Promise<Results> {
  if (output instanceof Promise) return output.then((results) => placed(results, path) as Results);
  return output?.map((result) => (result.path === undefined ? { ...result, path } : result));
}

function samePath(start: readonly string[], path: JsonPath): boolean {
  return start.length === path.length && start.every((name, index) => path[index] === name);
}
