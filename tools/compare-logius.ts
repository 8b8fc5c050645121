/**
 * Compares nlgov-adr with the official ADR linter on the official linter's own test suite:
 * `<case>/openapi.json` + `<case>/expected-output.txt` (stylish output of the official ruleset).
 *
 *   npm run compare:logius -- /work/shared/corpus/logius-testcases
 *
 * Exit: 0 when every disagreement is explained (tools/official-mapping.ts), 1 when one is not or
 * a case could not be linted, 2 when the folder does not exist.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import ruleset from '../ruleset.js';
import { createLinter, lintFile, type Finding, type Severity } from '../lib/lint.js';
import { parseStylish, type OfficialFinding } from './stylish.js';
import {
  EXPLAINED_DIFFERENCES,
  OFFICIAL_RULE_MAPPING,
  type DifferenceKind,
  type ExplainedDifference,
} from './official-mapping.js';
import { isDirectory, isMain, pad } from './util.js';

const MAPPING_DOC = new URL('../docs/official-rule-mapping.md', import.meta.url);
const DIFFERENCES_DOC = new URL('../docs/differences-from-official-linter.md', import.meta.url);

export interface Difference {
  kind: DifferenceKind;
  /** Official code for official-only and severity, our code for ours-only. */
  code: string;
  path: string;
  line: number;
  severity: Severity;
  detail: string;
  /** The entry of EXPLAINED_DIFFERENCES it matches, if any. */
  explainedBy?: ExplainedDifference;
}

export interface CaseComparison {
  name: string;
  official: OfficialFinding[];
  ours: Finding[];
  /** Each official finding with the findings of ours that report it (same mapped code and path). */
  pairs: Array<{ official: OfficialFinding; ours: Finding[] }>;
  differences: Difference[];
  /** Info and hint findings of ours with no official counterpart: listed, not counted. */
  uncounted: Finding[];
  error?: string;
}

const COUNTED_SEVERITIES: ReadonlySet<Severity> = new Set(['error', 'warn']);

export function mappedCodes(officialCode: string): readonly string[] {
  return OFFICIAL_RULE_MAPPING[officialCode]?.ours ?? [];
}

function reports(official: OfficialFinding, ours: Finding): boolean {
  return ours.path === official.path && mappedCodes(official.code).includes(ours.code);
}

/** Pure: pairs the two finding lists of one case and names every disagreement. */
export function compareCase(name: string, official: OfficialFinding[], ours: Finding[]): CaseComparison {
  const pairs = official.map((finding) => ({ official: finding, ours: ours.filter((candidate) => reports(finding, candidate)) }));
  const differences: Difference[] = [];
  for (const pair of pairs) {
    const { official: finding } = pair;
    if (pair.ours.length === 0) {
      differences.push({
        kind: 'official-only', code: finding.code, path: finding.path, line: finding.line, severity: finding.severity,
        detail: mappedCodes(finding.code).length === 0 ? 'no counterpart in nlgov-adr' : `no ${mappedCodes(finding.code).join(' / ')} finding on this path`,
      });
    }
    for (const match of pair.ours.filter((candidate) => candidate.severity !== finding.severity)) {
      differences.push({
        kind: 'severity', code: finding.code, path: finding.path, line: finding.line, severity: match.severity,
        detail: `official ${finding.severity}, ours ${match.severity} (${match.code})`,
      });
    }
  }
  const unmatched = ours.filter((finding) => !official.some((candidate) => reports(candidate, finding)));
  for (const finding of unmatched.filter((candidate) => COUNTED_SEVERITIES.has(candidate.severity))) {
    differences.push({ kind: 'ours-only', code: finding.code, path: finding.path, line: finding.line, severity: finding.severity, detail: finding.message });
  }
  const explained = differences.map((difference) => ({ ...difference, explainedBy: explanationFor(name, difference) }));
  return { name, official, ours, pairs, differences: explained, uncounted: unmatched.filter((finding) => !COUNTED_SEVERITIES.has(finding.severity)) };
}

export function explanationFor(caseName: string, difference: Difference): ExplainedDifference | undefined {
  return EXPLAINED_DIFFERENCES.find((entry) =>
    entry.kind === difference.kind
    && entry.code === difference.code
    && (entry.case === undefined || entry.case === caseName)
    && (entry.path === undefined || entry.path === difference.path));
}

/** A disagreement in the sense of the report: severity differences are shown but not counted. */
function isDisagreement(difference: Difference): boolean {
  return difference.kind !== 'severity';
}

async function compareFolder(caseDir: string, name: string, lint: (file: string) => Promise<Finding[]>): Promise<CaseComparison> {
  const official = parseStylish(await readFile(join(caseDir, 'expected-output.txt'), 'utf8'));
  try {
    return compareCase(name, official, await lint(join(caseDir, 'openapi.json')));
  } catch (error) {
    return { ...compareCase(name, official, []), error: error instanceof Error ? error.message : String(error) };
  }
}

function location(line: number, column?: number): string {
  return column === undefined ? `L${line}` : `${line}:${column}`;
}

function explanation(difference: Difference): string {
  return difference.explainedBy === undefined ? 'UNEXPLAINED' : `explained: ${difference.explainedBy.reason.id}`;
}

function printCase(comparison: CaseComparison): void {
  const disagreements = comparison.differences.filter(isDisagreement);
  const unexplained = comparison.differences.filter((difference) => difference.explainedBy === undefined);
  const verdict = comparison.error !== undefined ? 'ERROR' : disagreements.length === 0 ? 'agree' : 'differ';
  console.log(`\n=== ${comparison.name}: ${verdict} (official ${comparison.official.length}, ours ${comparison.ours.length}, `
    + `disagreements ${disagreements.length}, unexplained ${unexplained.length})`);
  if (comparison.error !== undefined) console.log(`  lint failed: ${comparison.error}`);
  for (const { official, ours } of comparison.pairs) {
    const left = `${pad(location(official.line, official.column), 8)} ${pad(official.severity, 5)} ${official.code}`;
    const right = ours.length === 0 ? '-' : ours.map((finding) => `${finding.code} ${finding.severity} ${location(finding.line)}`).join('; ');
    console.log(`  ${pad(left, 56)} -> ${right}   @ ${official.path || '(root)'}`);
  }
  for (const difference of comparison.differences) {
    console.log(`  ! ${pad(difference.kind, 13)} ${pad(difference.severity, 5)} ${difference.code} @ ${difference.path || '(root)'} `
      + `${location(difference.line)}: ${difference.detail} [${explanation(difference)}]`);
  }
  for (const finding of comparison.uncounted) {
    console.log(`  . not counted ${pad(finding.severity, 5)} ${finding.code} @ ${finding.path || '(root)'} ${location(finding.line)}`);
  }
}

function printSummary(comparisons: CaseComparison[]): boolean {
  const all = comparisons.flatMap((comparison) => comparison.differences);
  const disagreements = all.filter(isDisagreement);
  const unexplained = all.filter((difference) => difference.explainedBy === undefined);
  const failed = comparisons.filter((comparison) => comparison.error !== undefined);
  const differ = comparisons.filter((comparison) => comparison.error !== undefined || comparison.differences.some(isDisagreement));
  const differUnexplained = differ.filter((comparison) => comparison.error !== undefined
    || comparison.differences.some((difference) => difference.explainedBy === undefined));
  console.log('\n=== summary');
  console.log(`cases: ${comparisons.length}, agree: ${comparisons.length - differ.length}, differ: ${differ.length} `
    + `(only explained differences: ${differ.length - differUnexplained.length}, unexplained: ${differUnexplained.length}`
    + `${differUnexplained.length > 0 ? ` - ${differUnexplained.map((comparison) => comparison.name).join(', ')}` : ''})`);
  if (failed.length > 0) console.log(`lint failed: ${failed.map((comparison) => `${comparison.name}: ${comparison.error ?? ''}`).join('; ')}`);
  const unexplainedDisagreements = disagreements.filter((difference) => difference.explainedBy === undefined).length;
  console.log(`disagreements: ${disagreements.length} (explained ${disagreements.length - unexplainedDisagreements}, unexplained ${unexplainedDisagreements}); `
    + `severity differences (shown, not counted as disagreement): ${all.length - disagreements.length}`);
  for (const [reason, count] of countByReason(all)) console.log(`  ${pad(String(count), 4)} ${reason}`);
  const used = new Set(all.map((difference) => difference.explainedBy));
  for (const entry of EXPLAINED_DIFFERENCES.filter((candidate) => !used.has(candidate))) {
    console.log(`note: explained-differences entry matched nothing in this run: ${entry.kind} ${entry.code} case=${entry.case ?? '*'} path=${entry.path ?? '*'}`);
  }
  return unexplained.length === 0 && failed.length === 0;
}

function countByReason(differences: Difference[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const difference of differences) {
    const reason = difference.explainedBy?.reason;
    const key = reason === undefined ? 'UNEXPLAINED' : `${reason.id}: ${reason.title}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort(([a], [b]) => a.localeCompare(b));
}

/**
 * The tables in tools/official-mapping.ts are the source of truth, the docs say why; a code or
 * reason missing from the docs means someone changed one and not the other.
 */
export function documentationGaps(mappingDoc: string, differencesDoc: string): string[] {
  const headings = new Set([...differencesDoc.matchAll(/^## (\S+)\s*$/gm)].map((match) => match[1]));
  const missingCodes = Object.keys(OFFICIAL_RULE_MAPPING)
    .filter((code) => !mappingDoc.includes(`| \`${code}\` |`))
    .map((code) => `docs/official-rule-mapping.md has no row for ${code}`);
  const missingReasons = [...new Set(EXPLAINED_DIFFERENCES.map((entry) => entry.reason.id))]
    .filter((id) => !headings.has(id))
    .map((id) => `docs/differences-from-official-linter.md has no section "## ${id}"`);
  return [...missingCodes, ...missingReasons];
}

async function checkDocumentation(): Promise<boolean> {
  const read = (url: URL): Promise<string> => readFile(url, 'utf8').catch(() => '');
  const gaps = documentationGaps(await read(MAPPING_DOC), await read(DIFFERENCES_DOC));
  for (const gap of gaps) console.log(`docs out of date: ${gap}`);
  return gaps.length === 0;
}

async function main(folder: string | undefined): Promise<number> {
  if (folder === undefined || !(await isDirectory(folder))) {
    console.error(`compare-logius: folder not found: ${folder ?? '(none given)'}; usage: npm run compare:logius -- <logius-testcases folder>`);
    return 2;
  }
  const root = resolve(folder);
  const names = (await readdir(root, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const spectral = createLinter(ruleset);
  const comparisons: CaseComparison[] = [];
  for (const name of names) {
    const caseDir = join(root, name);
    const hasBoth = await Promise.all(['openapi.json', 'expected-output.txt'].map((file) => stat(join(caseDir, file)).then(() => true, () => false)));
    if (hasBoth.includes(false)) continue;
    const comparison = await compareFolder(caseDir, name, (file) => lintFile(spectral, file));
    comparisons.push(comparison);
    printCase(comparison);
  }
  if (comparisons.length === 0) {
    console.error(`compare-logius: no cases (<case>/openapi.json + <case>/expected-output.txt) in ${root}`);
    return 2;
  }
  const agreed = printSummary(comparisons);
  return (await checkDocumentation()) && agreed ? 0 : 1;
}

if (isMain(import.meta.url)) process.exitCode = await main(process.argv[2]);
