/**
 * One measured lint, run by tools/bench.ts in a fresh process so that its peak memory is its own:
 *
 *   tsx tools/bench-child.ts <case> <file> [--profile] [--findings <out.json>]
 *
 * Prints one JSON line (BenchResult) on stdout.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { RulesetFunction, Spectral } from '@stoplight/spectral-core';
import { createLinter, lintText } from '../lib/lint.js';
import { CASE_NAMES, rulesetOf, type BenchCase, type BenchResult, type RuleCost } from './bench-cases.js';

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
  const definition = benchCase === undefined ? undefined : rulesetOf(benchCase);
  if (benchCase === undefined || definition === undefined || file === undefined) {
    throw new Error(`usage: bench-child <${CASE_NAMES.join('|')}> <file> [--profile] [--findings <out.json>]`);
  }
  const findingsIndex = argv.indexOf('--findings');
  const findingsFile = findingsIndex > 0 ? argv[findingsIndex + 1] : undefined;
  const source = resolve(file);
  const text = await readFile(source, 'utf8');

  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const spectral = createLinter(definition);
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
