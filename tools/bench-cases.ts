/** What tools/bench.ts measures and tools/bench-child.ts runs, shared by both. */
import type { RulesetDefinition } from '@stoplight/spectral-core';
import { truthy } from '@stoplight/spectral-functions';
import { oas } from '@stoplight/spectral-rulesets';
import ruleset from '../ruleset.js';
import { coreRules, oasRules } from '../rulesets/core.js';

export const CASE_NAMES = ['ours', 'floor', 'builtin-examples'] as const;
type CaseName = (typeof CASE_NAMES)[number];
/** A named case, or `rule:<name>`: our ruleset with only that rule on. */
export type BenchCase = CaseName | `rule:${string}`;

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

/** Our ruleset as it was before rulesets/oas.ts: the spectral:oas example rules as shipped. */
const BUILTIN_EXAMPLES = { extends: EXTENDS_OAS_OFF, rules: { ...oasRules, ...coreRules } } as RulesetDefinition;

const NAMED: Record<CaseName, RulesetDefinition> = { ours: ruleset, floor: FLOOR, 'builtin-examples': BUILTIN_EXAMPLES };

/** Our rules by name: a definition, or a severity that turns on the spectral:oas rule of that name. */
const OUR_RULES: Record<string, unknown> = 'rules' in ruleset && ruleset.rules !== undefined ? ruleset.rules : {};

export const RULE_NAMES = Object.keys(OUR_RULES);

export function rulesetOf(benchCase: string): RulesetDefinition | undefined {
  if (!benchCase.startsWith('rule:')) return (CASE_NAMES as readonly string[]).includes(benchCase) ? NAMED[benchCase as CaseName] : undefined;
  const name = benchCase.slice('rule:'.length);
  return name in OUR_RULES ? ({ extends: EXTENDS_OAS_OFF, rules: { [name]: OUR_RULES[name] } } as RulesetDefinition) : undefined;
}
