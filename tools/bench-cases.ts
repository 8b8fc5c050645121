/** What tools/bench.ts measures and tools/bench-child.ts runs, shared by both. */
import type { RulesetDefinition } from '@stoplight/spectral-core';
import { truthy } from '@stoplight/spectral-functions';
import { oas } from '@stoplight/spectral-rulesets';
import ruleset from '../ruleset.js';
import { oasExampleRules } from '../rulesets/oas.js';

export const CASE_NAMES = ['ours', 'floor', 'builtin-examples'] as const;
export type BenchCase = (typeof CASE_NAMES)[number];

export interface RuleCost {
  rule: string;
  calls: number;
  ms: number;
}

export interface BenchResult {
  case: BenchCase;
  /** Parse, resolve and lint of the document, in milliseconds: wall clock. */
  ms: number;
  /** The same span in CPU time of the process (user + system; above wall clock when GC threads help). */
  cpuMs: number;
  /** Peak resident set size of the process, in MB. */
  peakRssMb: number;
  findings: Record<string, number>;
  /** Time inside each rule's functions, when profiled. */
  rules?: RuleCost[];
}

/**
 * The floor is what Spectral costs with nearly nothing to do: the same parse and `$ref`
 * resolution of the same document, and one trivial rule.
 */
const FLOOR: RulesetDefinition = {
  rules: { floor: { given: '$.info', severity: 'error', then: { function: truthy } } },
};

const EXTENDS_OAS_OFF: Array<[RulesetDefinition, 'off']> = [[oas as RulesetDefinition, 'off']];

/** Our rules by name: a definition, or a severity that turns on the spectral:oas rule of that name. */
const OUR_RULES: Record<string, unknown> = 'rules' in ruleset && ruleset.rules !== undefined ? ruleset.rules : {};

/** Our ruleset with spectral:oas's own example rules in place of rulesets/oas.ts, as before it. */
const BUILTIN_EXAMPLES = {
  extends: EXTENDS_OAS_OFF,
  rules: { ...OUR_RULES, ...Object.fromEntries(Object.keys(oasExampleRules).map((name) => [name, 'error'])) },
} as RulesetDefinition;

const NAMED: Record<BenchCase, RulesetDefinition> = { ours: ruleset, floor: FLOOR, 'builtin-examples': BUILTIN_EXAMPLES };

export function rulesetOf(benchCase: string): RulesetDefinition | undefined {
  return (CASE_NAMES as readonly string[]).includes(benchCase) ? NAMED[benchCase as BenchCase] : undefined;
}
