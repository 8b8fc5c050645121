/**
 * The GitHub Action's step summary ($GITHUB_STEP_SUMMARY): the verdict, the static findings
 * counted per rule and severity (the rules that fail the step first), and with `url` adr-check's
 * verdict per check. GitHub shows at most 10 error and 10 warning annotations of a step; the
 * summary counts them all. Descriptions, their file names and what a server sent are untrusted
 * text: each cell is made printable, cut, and every Markdown character in it escaped; the tables
 * are cut at a number of rows, so the summary stays far below GitHub's 1 MiB.
 */
import { countVerdicts } from '../live/formats.js';
import { count, type Report, type Verdict } from '../live/report.js';
import { place, uriReference } from '../live/finding-location.js';
import { printable } from '../live/redaction.js';
import type { Severity } from '../lib/lint.js';

export const SEVERITIES: Severity[] = ['error', 'warn', 'info', 'hint'];

const atOrAbove = (severity: Severity, threshold: Severity) => SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(threshold);

/** One static finding as the summary counts it. */
export interface CountedFinding { code: string; severity: Severity; file: string }

export interface SummaryInput {
  /** The step's exit status. */
  exitStatus: number;
  failSeverity: Severity;
  /** The static lint's findings, or why it did not run. */
  lint: { findings: CountedFinding[]; files: number } | { failure: string };
  /** The rules' pages, by code. */
  pages: Map<string, string>;
  /** With `url`: adr-check's report, or why there is none. */
  live?: { url: string; report?: Report; failure?: string };
}

export const MAX_RULE_ROWS = 50;
export const MAX_CELL = 300;

/** Text for a Markdown table cell: printable, on one line, cut, and every ASCII punctuation character backslash-escaped (CommonMark renders each literally). */
export function markdownCell(text: string, limit = MAX_CELL): string {
  const line = printable(text.replace(/\s+/g, ' ')).trim();
  const cut = line.length > limit ? `${line.slice(0, limit - 1)}…` : line;
  return cut.replace(/[!-/:-@[-`{-~]/g, (character) => `\\${character}`);
}

/** A link to a rule's page: only an http(s) URL, as a valid URI with no parenthesis to end the link early. */
function ruleLink(code: string, page: string | undefined): string {
  const label = markdownCell(code, 120);
  if (page === undefined || !/^https?:\/\//i.test(page)) return label;
  return `[${label}](${uriReference(page).replace(/\(/g, '%28').replace(/\)/g, '%29')})`;
}

interface RuleRow { code: string; severity: Severity; findings: number; files: Set<string> }

/** Per rule and severity, by severity (so the rules at or above fail-severity come first), then the most findings first. */
export function ruleRows(findings: CountedFinding[]): RuleRow[] {
  const rows = new Map<string, RuleRow>();
  for (const finding of findings) {
    const key = `${finding.severity} ${finding.code}`;
    const row = rows.get(key) ?? { code: finding.code, severity: finding.severity, findings: 0, files: new Set<string>() };
    row.findings += 1;
    row.files.add(finding.file);
    rows.set(key, row);
  }
  const rank = (severity: Severity) => SEVERITIES.indexOf(severity);
  return [...rows.values()].sort((a, b) => rank(a.severity) - rank(b.severity) || b.findings - a.findings || a.code.localeCompare(b.code));
}

function severityCounts(findings: Array<{ severity: Severity }>): string {
  const of = (severity: Severity) => findings.filter((finding) => finding.severity === severity).length;
  return `${count(of('error'), 'error')}, ${count(of('warn'), 'warning')}, ${of('info')} info, ${count(of('hint'), 'hint')}`;
}

const VERDICT_ORDER: Verdict[] = ['fail', 'error', 'warn', 'skip', 'pass'];
const VERDICT_WORDS: Record<Verdict, string> = { fail: 'fail', error: 'not judged', warn: 'warn', skip: 'skip', pass: 'pass' };

function staticSection(input: SummaryInput): string[] {
  if ('failure' in input.lint) return ['### Static lint: did not run', '', markdownCell(input.lint.failure, 2000)];
  const { findings, files } = input.lint;
  const failing = findings.filter((finding) => atOrAbove(finding.severity, input.failSeverity)).length;
  const lines = [
    `### Static lint: ${count(findings.length, 'finding')} in ${count(files, 'file')} (${severityCounts(findings)})`,
    '',
    `${count(failing, 'finding')} at or above fail\\-severity ${markdownCell(input.failSeverity)}.`,
  ];
  const rows = ruleRows(findings);
  if (rows.length === 0) return lines;
  lines.push('', '| Rule | Severity | Findings | Files |', '|---|---|---:|---|');
  for (const row of rows.slice(0, MAX_RULE_ROWS)) {
    const shownFiles = [...row.files].slice(0, 3).map((file) => markdownCell(file, 100)).join(', ');
    const more = row.files.size > 3 ? ` and ${row.files.size - 3} more` : '';
    lines.push(`| ${ruleLink(row.code, input.pages.get(row.code))} | ${row.severity} | ${row.findings} | ${shownFiles}${more} |`);
  }
  const left = rows.slice(MAX_RULE_ROWS);
  if (left.length > 0) lines.push('', `${count(left.length, 'more rule')} with ${count(left.reduce((sum, row) => sum + row.findings, 0), 'finding')} not shown: the SARIF log has every finding.`);
  return lines;
}

function liveSection(live: NonNullable<SummaryInput['live']>): string[] {
  const heading = `### Live checks of ${markdownCell(live.url, 500)}`;
  if (live.report === undefined) return [`${heading}: did not run`, '', markdownCell(live.failure ?? 'adr-check wrote no report', 2000)];
  const report = live.report;
  const verdicts = countVerdicts(report.results);
  const counts = VERDICT_ORDER.filter((verdict) => verdicts[verdict] > 0).map((verdict) => `${verdicts[verdict]} ${VERDICT_WORDS[verdict]}`).join(', ');
  const lines = [`${heading}: ${counts === '' ? 'no checks' : counts}`, ''];
  if (report.results.length > 0) {
    lines.push('| Check | Verdict | Summary |', '|---|---|---|');
    const ordered = [...report.results].sort((a, b) => VERDICT_ORDER.indexOf(a.verdict) - VERDICT_ORDER.indexOf(b.verdict));
    for (const result of ordered.slice(0, MAX_RULE_ROWS)) lines.push(`| ${markdownCell(result.code, 120)} | ${VERDICT_WORDS[result.verdict]} | ${markdownCell(result.summary)} |`);
    if (ordered.length > MAX_RULE_ROWS) lines.push('', `${count(ordered.length - MAX_RULE_ROWS, 'more check')} not shown.`);
  }
  if (report.lint.status === 'done' || report.lint.status === 'too-deep') {
    const described = place(report.document ?? report.target).label;
    lines.push('', `The served description ${markdownCell(described, 500)}: ${count(report.staticFindings.length + report.lint.omitted, 'finding')} (${severityCounts(report.staticFindings)}); the SARIF log has them.`);
  } else {
    lines.push('', `The served description: not linted (${markdownCell(report.lint.status)}).`);
  }
  return lines;
}

/** The step's verdict in one line (its exit status decides), with what made it fail. */
function verdictLine(input: SummaryInput): string {
  if (input.exitStatus === 0) return '**Passed.**';
  const reasons: string[] = [];
  if ('failure' in input.lint) reasons.push('the static lint did not run');
  else {
    const failing = input.lint.findings.filter((finding) => atOrAbove(finding.severity, input.failSeverity)).length;
    if (failing > 0) reasons.push(`${count(failing, 'static finding')} at or above ${input.failSeverity}`);
  }
  const report = input.live?.report;
  if (input.live !== undefined && report === undefined) reasons.push('adr-check did not finish');
  if (report !== undefined) {
    const verdicts = countVerdicts(report.results);
    const liveFailOn: Severity = input.failSeverity === 'error' ? 'error' : 'warn';
    if (verdicts.fail > 0) reasons.push(`${count(verdicts.fail, 'live check')} failed`);
    if (verdicts.error > 0) reasons.push(`${count(verdicts.error, 'live check')} not judged`);
    if (liveFailOn === 'warn' && verdicts.warn > 0) reasons.push(`${count(verdicts.warn, 'live check')} warned`);
    const served = report.staticFindings.filter((finding) => atOrAbove(finding.severity, liveFailOn)).length;
    if (served > 0) reasons.push(`${count(served, 'finding')} at or above ${liveFailOn} in the served description`);
  }
  return `**Failed** (exit code ${input.exitStatus})${reasons.length === 0 ? '.' : `: ${reasons.join('; ')}.`}`;
}

/** The counts in one line of the step's log. */
export function countLine(input: SummaryInput): string {
  if ('failure' in input.lint) return `nlgov-adr: the static lint did not run: ${input.lint.failure}`;
  const { findings, files } = input.lint;
  return `nlgov-adr: ${count(findings.length, 'static finding')} (${severityCounts(findings)}) in ${count(files, 'file')}; the step summary counts them per rule`;
}

export function stepSummary(input: SummaryInput): string {
  return [
    '## nlgov-adr: API Design Rules',
    '',
    verdictLine(input),
    '',
    ...staticSection(input),
    ...(input.live === undefined ? [] : ['', ...liveSection(input.live)]),
    '',
  ].join('\n');
}
