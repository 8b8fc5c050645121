/**
 * How long nlgov-adr takes on a large description, against what Spectral itself costs:
 *
 *   npm run bench -- [--runs 3] [--file <openapi.json>] [--builtin]
 *
 * Cases, each run in a fresh child process (tools/bench-child.ts) so that peak memory is per case:
 * - ours: the published ruleset (ruleset.ts);
 * - floor: the same document with one trivial rule, i.e. Spectral's parse + `$ref` resolution;
 * - builtin-examples (with --builtin, once, profiled): our ruleset with spectral:oas's own
 *   oas3-valid-media-example and oas3-valid-schema-example, as before rulesets/oas.ts.
 * Prints medians, the ratio ours/floor against the targets, per-rule function time of one
 * profiled run of ours, and with --builtin whether both versions of the example rules agree.
 * Function time leaves out what Spectral spends around the functions (finding `given` nodes,
 * locating each finding in the source); that is printed as one remainder.
 * Default document: GitHub's REST API description from @octokit/openapi (about 13 MB).
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchCase, BenchResult } from './bench-cases.js';
import { pad } from './util.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CHILD = join(ROOT, 'tools', 'bench-child.ts');
const OUT = join(ROOT, '.bench');
const DEFAULT_FILE = join(ROOT, 'node_modules', '@octokit', 'openapi', 'generated', 'api.github.com.json');
const EXAMPLE_RULES = ['oas3-valid-media-example', 'oas3-valid-schema-example'];

/** From the issue: within 2x the floor and under 1 GB peak. */
const TARGET_RATIO = 2;
const TARGET_PEAK_MB = 1024;

interface Options {
  runs: number;
  file: string;
  builtin: boolean;
}

function parseOptions(argv: string[]): Options {
  const valueOf = (flag: string): string | undefined => {
    const index = argv.indexOf(flag);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const runs = Number(valueOf('--runs') ?? 3);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a positive whole number');
  return { runs, file: resolve(valueOf('--file') ?? DEFAULT_FILE), builtin: argv.includes('--builtin') };
}

/** Runs one case in a child with the same node flags as this process (tsx's loader among them). */
function runChild(benchCase: BenchCase, file: string, extra: string[] = []): Promise<BenchResult> {
  return new Promise((resolveResult, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, CHILD, benchCase, file, ...extra], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      if (code === 0 && line.startsWith('{')) resolveResult(JSON.parse(line) as BenchResult);
      else reject(new Error(`${benchCase} child exited with ${String(code)}: ${stdout}`));
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const seconds = (ms: number): string => (ms / 1000).toFixed(1);
const megabytes = (mb: number): string => String(Math.round(mb));

interface CaseSummary {
  name: string;
  medianMs: number;
  runsMs: number[];
  medianCpuMs: number;
  peakMb: number;
}

function summarise(name: string, results: BenchResult[]): CaseSummary {
  return {
    name,
    medianMs: median(results.map((result) => result.ms)),
    runsMs: results.map((result) => result.ms),
    medianCpuMs: median(results.map((result) => result.cpuMs)),
    peakMb: Math.max(...results.map((result) => result.peakRssMb)),
  };
}

function printCases(cases: CaseSummary[]): void {
  const runs = cases.map(({ runsMs }) => runsMs.map(seconds).join(' '));
  // Wide enough for the longest list of runs (double-digit seconds on a slow host), with a gap.
  const runsWidth = Math.max(24, ...runs.map((text) => text.length + 2));
  console.log(`${pad('case', 18)}${pad('median s', 10)}${pad('runs s', runsWidth)}${pad('median CPU s', 14)}peak RSS MB (max of runs)`);
  cases.forEach(({ name, medianMs, medianCpuMs, peakMb }, index) => {
    console.log(`${pad(name, 18)}${pad(seconds(medianMs), 10)}${pad(runs[index] ?? '', runsWidth)}${pad(seconds(medianCpuMs), 14)}${megabytes(peakMb)}`);
  });
}

function printRuleCosts(title: string, result: BenchResult, floorMs: number): void {
  const costs = [...(result.rules ?? [])].sort((a, b) => b.ms - a.ms);
  const inRules = costs.reduce((sum, cost) => sum + cost.ms, 0);
  console.log(`\n${title}: ${seconds(result.ms)} s in total, ${megabytes(result.peakRssMb)} MB peak`);
  console.log(`${pad('rule', 42)}${pad('calls', 9)}${pad('ms', 10)}findings`);
  for (const { rule, calls, ms } of costs) {
    console.log(`${pad(rule, 42)}${pad(String(calls), 9)}${pad(ms.toFixed(0), 10)}${result.findings[rule] ?? 0}`);
  }
  const outside = result.ms - inRules;
  console.log(`${pad('(outside rule functions: parse, resolve, given traversal, results)', 42)} ${outside.toFixed(0)} ms; floor median ${floorMs.toFixed(0)} ms`);
}

interface Located {
  code: string;
  path: string;
  message: string;
}

/** Findings of the example rules in one output and not the other, by code, path and message. */
async function compareExampleFindings(oursFile: string, builtinFile: string): Promise<void> {
  const load = async (file: string): Promise<Set<string>> => {
    const findings = JSON.parse(await readFile(file, 'utf8')) as Located[];
    return new Set(findings.filter((f) => EXAMPLE_RULES.includes(f.code)).map((f) => `${f.code} ${f.path} ${f.message}`));
  };
  const [ours, builtin] = await Promise.all([load(oursFile), load(builtinFile)]);
  const onlyOurs = [...ours].filter((key) => !builtin.has(key));
  const onlyBuiltin = [...builtin].filter((key) => !ours.has(key));
  console.log(`\nExample rules, ours vs built-in: ${ours.size} vs ${builtin.size} findings; ${onlyOurs.length} only ours, ${onlyBuiltin.length} only built-in`);
  for (const key of onlyOurs.slice(0, 10)) console.log(`  only ours:     ${key}`);
  for (const key of onlyBuiltin.slice(0, 10)) console.log(`  only built-in: ${key}`);
}

/**
 * The ratio of each floor run to the ours run right after it: a pair shares the machine's load of
 * the moment, so the spread of these says how much the load moved the ratio of the medians.
 */
function pairRatios(floor: BenchResult[], ours: BenchResult[], measure: 'ms' | 'cpuMs'): string {
  const ratios = ours.map((result, index) => result[measure] / (floor[index] as BenchResult)[measure]);
  const sorted = [...ratios].sort((a, b) => a - b);
  const range = `${(sorted[0] as number).toFixed(2)}-${(sorted[sorted.length - 1] as number).toFixed(2)}x`;
  return `median ${median(ratios).toFixed(2)}x (${range})`;
}

/** The one-minute load average: the machine is shared, and wall-clock times move with it. */
function loadNow(): string {
  return (loadavg()[0] ?? 0).toFixed(2);
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const size = (await stat(options.file)).size / 1024 / 1024;
  await mkdir(OUT, { recursive: true });
  console.log(`nlgov-adr bench: ${options.file} (${size.toFixed(1)} MB), ${options.runs} run(s) per case, node ${process.version}\n`);

  const loadAtStart = loadNow();
  // Alternating the cases spreads any drift in machine load over both.
  const floor: BenchResult[] = [];
  const ours: BenchResult[] = [];
  for (let run = 0; run < options.runs; run += 1) {
    floor.push(await runChild('floor', options.file));
    ours.push(await runChild('ours', options.file));
  }
  const oursFindings = join(OUT, 'ours-findings.json');
  const profiled = await runChild('ours', options.file, ['--profile', '--findings', oursFindings]);
  const builtin = options.builtin
    ? await runChild('builtin-examples', options.file, ['--profile', '--findings', join(OUT, 'builtin-findings.json')])
    : undefined;

  const cases = [summarise('floor', floor), summarise('ours', ours)];
  if (builtin !== undefined) cases.push(summarise('builtin-examples', [builtin]));
  printCases(cases);
  const [floorCase, oursCase] = cases as [CaseSummary, CaseSummary];
  const ratio = oursCase.medianMs / floorCase.medianMs;
  const verdict = (ok: boolean): string => (ok ? 'ok' : 'MISSED');
  // CPU time is reported beside wall clock because it moves less when other work shares the machine.
  const cpuRatio = oursCase.medianCpuMs / floorCase.medianCpuMs;
  console.log(`\nratio ours/floor: ${ratio.toFixed(2)}x wall clock, ${cpuRatio.toFixed(2)}x CPU (target <= ${TARGET_RATIO}x: ${verdict(ratio <= TARGET_RATIO)})`);
  console.log(`ratio per back-to-back pair: ${pairRatios(floor, ours, 'ms')} wall clock, ${pairRatios(floor, ours, 'cpuMs')} CPU`);
  console.log(`load average: ${loadAtStart} at the start, ${loadNow()} at the end`);
  console.log(`peak memory ours: ${megabytes(oursCase.peakMb)} MB (target < ${TARGET_PEAK_MB} MB: ${verdict(oursCase.peakMb < TARGET_PEAK_MB)})`);

  printRuleCosts('Per-rule function time, ours (one profiled run)', profiled, floorCase.medianMs);
  if (builtin !== undefined) {
    printRuleCosts('Per-rule function time, builtin-examples (one profiled run)', builtin, floorCase.medianMs);
    await compareExampleFindings(oursFindings, join(OUT, 'builtin-findings.json'));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
