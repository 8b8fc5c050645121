/**
 * One measured lint, run by tools/bench.ts in a fresh process so that its peak memory is its own:
 *
 *   tsx tools/bench-child.ts <case> <file> [--profile] [--findings <out.json>]
 *
 * Prints one JSON line (BenchResult) on stdout.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { RulesetDefinition, RulesetFunction, Spectral } from '@stoplight/spectral-core';
import { truthy } from '@stoplight/spectral-functions';
import { oas } from '@stoplight/spectral-rulesets';
import ruleset from '../ruleset.js';
import { coreRules, oasRules } from '../rulesets/core.js';
import { createLinter, lintText } from '../lib/lint.js';

export const CASES = ['ours', 'floor', 'builtin-examples'] as const;
export type BenchCase = (typeof CASES)[number];

export interface RuleCost {
  rule: string;
  calls: number;
  ms: number;
}

export interface BenchResult {
  case: BenchCase;
  /** Parse, resolve and lint of the document, in milliseconds: wall clock. */
  ms: number;
  /** The same span in CPU time of this process (user + system; more than wall clock when GC threads help). */
  cpuMs: number;
  /** Peak resident set size of this process, in MB. */
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

/** Our ruleset as it was before rulesets/oas.ts: the spectral:oas example rules as shipped. */
const BUILTIN_EXAMPLES = {
  extends: [[oas as RulesetDefinition, 'off']],
  rules: { ...oasRules, ...coreRules },
} as RulesetDefinition;

const RULESETS: Record<BenchCase, RulesetDefinition> = { ours: ruleset, floor: FLOOR, 'builtin-examples': BUILTIN_EXAMPLES };

/**
 * Wraps every enabled rule's functions with a stopwatch. Only the synchronous part of a call is
 * timed; the time Spectral spends finding `given` nodes belongs to no rule and stays in the total.
 */
function profile(spectral: Spectral): RuleCost[] {
  const costs: RuleCost[] = [];
  for (const [name, rule] of Object.entries(spectral.ruleset?.rules ?? {})) {
    if (!rule.enabled) continue;
    const cost: RuleCost = { rule: name, calls: 0, ms: 0 };
    costs.push(cost);
    for (const then of rule.then) then.function = timed(then.function, cost);
  }
  return costs;
}

function timed(fn: RulesetFunction, cost: RuleCost): RulesetFunction {
  return (input, options, context) => {
    const start = performance.now();
    try {
      return fn(input, options, context);
    } finally {
      cost.calls += 1;
      cost.ms += performance.now() - start;
    }
  };
}

function countByCode(findings: Array<{ code: string }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { code } of findings) counts[code] = (counts[code] ?? 0) + 1;
  return counts;
}

async function main(argv: string[]): Promise<void> {
  const [benchCase, file] = argv as [BenchCase | undefined, string | undefined];
  if (benchCase === undefined || !CASES.includes(benchCase) || file === undefined) {
    throw new Error(`usage: bench-child <${CASES.join('|')}> <file> [--profile] [--findings <out.json>]`);
  }
  const findingsIndex = argv.indexOf('--findings');
  const findingsFile = findingsIndex > 0 ? argv[findingsIndex + 1] : undefined;
  const source = resolve(file);
  const text = await readFile(source, 'utf8');

  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const spectral = createLinter(RULESETS[benchCase]);
  const costs = argv.includes('--profile') ? profile(spectral) : undefined;
  const findings = await lintText(spectral, text, source);
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);

  // maxRSS is in kilobytes.
  const result: BenchResult = { case: benchCase, ms, cpuMs: (cpu.user + cpu.system) / 1000, peakRssMb: process.resourceUsage().maxRSS / 1024, findings: countByCode(findings) };
  if (costs !== undefined) result.rules = costs;
  if (findingsFile !== undefined) await writeFile(findingsFile, JSON.stringify(findings));
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
