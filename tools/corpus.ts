/**
 * Robustness run: lints every OpenAPI/Swagger description under a folder with the full ruleset
 * and lists each document on which a rule function threw.
 *
 *   npm run corpus -- /work/shared/corpus [--network]
 *
 * Without --network, http(s) $refs are refused at once (tools/offline-resolver.ts); with it they
 * are fetched exactly as `createLinter` does for users.
 * Exit: 0 when nothing threw, 1 when a function threw (or a run failed otherwise), 2 when the
 * folder does not exist.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { Spectral } from '@stoplight/spectral-core';
import Parsers from '@stoplight/spectral-parsers';
import ruleset from '../ruleset.js';
import { createLinter, lintFile, type Finding, type Severity } from '../lib/lint.js';
import { createOfflineResolver } from '../lib/offline-resolver.js';
import { isDirectory, isMain, pad } from './util.js';
import { describeFailures, rulesByGiven, type Failure } from './failures.js';

const DESCRIPTION_EXTENSIONS = /\.(json|ya?ml)$/i;
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git']);
const SEVERITIES: readonly Severity[] = ['error', 'warn', 'info', 'hint'];

export interface DocumentResult {
  file: string;
  version: string;
  findings: Finding[];
  failures: Failure[];
  /** Wall-clock and CPU time; CPU time stays comparable when other processes load the machine. */
  milliseconds: number;
  cpuMilliseconds: number;
}

/** `openapi` / `swagger` of a parsed file, or undefined when it is not a description. */
export function descriptionVersion(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const record = data as Record<string, unknown>;
  if (record.openapi !== undefined) return `openapi ${String(record.openapi)}`;
  if (record.swagger !== undefined) return `swagger ${String(record.swagger)}`;
  return undefined;
}

async function* walk(directory: string): AsyncGenerator<string> {
  const entries = (await readdir(directory, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const path = join(directory, entry.name);
    if (entry.isDirectory() && !SKIPPED_DIRECTORIES.has(entry.name)) yield* walk(path);
    else if (entry.isFile() && DESCRIPTION_EXTENSIONS.test(entry.name)) yield path;
  }
}

/** Readable files with `openapi` or `swagger` at the top; $ref-ed fragments lack both. */
async function findDescriptions(root: string): Promise<{ descriptions: Array<{ file: string; version: string }>; skipped: number }> {
  const descriptions: Array<{ file: string; version: string }> = [];
  let skipped = 0;
  for await (const file of walk(root)) {
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) {
      skipped += 1;
      continue;
    }
    const parser = file.toLowerCase().endsWith('.json') ? Parsers.Json : Parsers.Yaml;
    const version = descriptionVersion(parser.parse(text).data);
    if (version === undefined) skipped += 1;
    else descriptions.push({ file, version });
  }
  return { descriptions, skipped };
}

async function lintDocument(spectral: Spectral, file: string, version: string, byGiven: Map<string, string[]>): Promise<DocumentResult> {
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const timing = (): Pick<DocumentResult, 'milliseconds' | 'cpuMilliseconds'> => ({
    milliseconds: performance.now() - started,
    cpuMilliseconds: cpuMilliseconds(process.cpuUsage(cpuStarted)),
  });
  try {
    const findings = await lintFile(spectral, file);
    return { file, version, findings, failures: [], ...timing() };
  } catch (error) {
    return { file, version, findings: [], failures: describeFailures(error, byGiven), ...timing() };
  }
}

function cpuMilliseconds(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

function severityCounts(findings: Finding[]): string {
  return SEVERITIES.map((severity) => pad(String(findings.filter((finding) => finding.severity === severity).length), 6)).join('');
}

function printDocuments(root: string, results: DocumentResult[]): void {
  const width = Math.max(8, ...results.map((result) => relative(root, result.file).length));
  console.log(`\n=== documents\n  ${pad('document', width)} ${pad('version', 14)} error warn  info  hint  ms     cpu ms status`);
  for (const result of results) {
    const status = result.failures.length === 0 ? 'ok' : result.failures.some((failure) => failure.functionThrew) ? 'THREW' : 'FAILED';
    console.log(`  ${pad(relative(root, result.file), width)} ${pad(result.version, 14)} ${severityCounts(result.findings)}${pad(String(Math.round(result.milliseconds)), 7)}${pad(String(Math.round(result.cpuMilliseconds)), 7)}${status}`);
  }
}

function printRules(results: DocumentResult[]): void {
  const rows = new Map<string, { code: string; severity: Severity; count: number; documents: Set<string> }>();
  for (const result of results) {
    for (const finding of result.findings) {
      const key = `${finding.code}\u0000${finding.severity}`;
      const row = rows.get(key) ?? { code: finding.code, severity: finding.severity, count: 0, documents: new Set<string>() };
      row.count += 1;
      row.documents.add(result.file);
      rows.set(key, row);
    }
  }
  const sorted = [...rows.values()].sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || b.count - a.count);
  console.log(`\n=== findings per rule\n  ${pad('code', 40)} ${pad('severity', 9)} ${pad('count', 7)} documents`);
  for (const row of sorted) console.log(`  ${pad(row.code, 40)} ${pad(row.severity, 9)} ${pad(String(row.count), 7)} ${row.documents.size}`);
}

function printFailures(root: string, results: DocumentResult[]): void {
  const failed = results.filter((result) => result.failures.length > 0);
  console.log(`\n=== functions that threw / failed runs: ${failed.length} document(s)`);
  for (const result of failed) {
    for (const failure of result.failures) {
      const rule = failure.rules.length > 0 ? failure.rules.join(', ') : failure.given ?? 'unknown rule';
      console.log(`  ${relative(root, result.file)}: ${failure.functionThrew ? `function ${failure.functionName || '(anonymous)'} threw` : 'run failed'} `
        + `(${rule}): ${failure.message}${failure.frame === undefined ? '' : `\n      ${failure.frame}`}`);
    }
  }
}

async function main(args: string[]): Promise<number> {
  const folder = args.find((arg) => !arg.startsWith('--'));
  if (folder === undefined || !(await isDirectory(folder))) {
    console.error(`corpus: folder not found: ${folder ?? '(none given)'}; usage: npm run corpus -- <folder> [--network]`);
    return 2;
  }
  const network = args.includes('--network');
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const root = resolve(folder);
  const { descriptions, skipped } = await findDescriptions(root);
  if (descriptions.length === 0) {
    console.error(`corpus: no OpenAPI or Swagger description under ${root}`);
    return 2;
  }
  const spectral = network ? createLinter(ruleset) : new Spectral({ resolver: createOfflineResolver() });
  if (!network) spectral.setRuleset(ruleset);
  const byGiven = rulesByGiven(ruleset);
  console.log(`corpus: ${root}: ${descriptions.length} descriptions (${skipped} other .json/.yaml files skipped); `
    + `$refs: ${network ? 'file and http(s)' : 'files only, http(s) refused (--network to fetch)'}`);
  const results: DocumentResult[] = [];
  for (const { file, version } of descriptions) results.push(await lintDocument(spectral, file, version, byGiven));
  printDocuments(root, results);
  printRules(results);
  printFailures(root, results);
  const findings = results.reduce((sum, result) => sum + result.findings.length, 0);
  const failed = results.filter((result) => result.failures.length > 0).length;
  console.log(`\ntotal: ${results.length} documents, ${findings} findings, ${failed} with a throw or failed run; `
    + `time ${((performance.now() - started) / 1000).toFixed(1)} s (cpu ${(cpuMilliseconds(process.cpuUsage(cpuStarted)) / 1000).toFixed(1)} s)`);
  return failed === 0 ? 0 : 1;
}

if (isMain(import.meta.url)) process.exitCode = await main(process.argv.slice(2));
