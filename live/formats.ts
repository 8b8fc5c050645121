import type { CheckResult, Report, ReportTable, Verdict } from './report.js';
import { mapStrings, printable, redactText } from './redaction.js';

export const FORMATS = ['text', 'json', 'junit', 'sarif', 'github-actions'] as const;
export type Format = (typeof FORMATS)[number];

const COLOURS: Record<Verdict, string> = { pass: '\u001b[32m', warn: '\u001b[33m', fail: '\u001b[31m', skip: '\u001b[90m', error: '\u001b[35m' };
const RESET = '\u001b[0m';

export interface RenderOptions {
  colour: boolean;
  /** Every form of the user's credentials (redaction.ts secretForms): replaced before any escaping. */
  secrets: string[];
}

/**
 * The report in one format. Everything in it may come from the server, so every string is
 * redacted first, then made safe for where it goes: printable for a terminal and for XML (which
 * cannot hold control characters), escaped by JSON.stringify for JSON and SARIF.
 */
export function render(report: Report, format: Format, options: RenderOptions): string {
  const redacted = mapStrings(report, (value) => redactText(value, options.secrets));
  const safe = () => mapStrings(redacted, printable);
  switch (format) {
    case 'json':
      return JSON.stringify(redacted, null, 2);
    case 'junit':
      return junit(safe());
    case 'sarif':
      return JSON.stringify(sarif(redacted), null, 2);
    case 'github-actions':
      return githubActions(safe());
    default:
      return text(safe(), options.colour);
  }
}

function text(report: Report, colour: boolean): string {
  const paint = (verdict: Verdict, label: string) => (colour ? `${COLOURS[verdict]}${label}${RESET}` : label);
  const lines = [`adr-check ${report.target}`, ...report.notices.map((notice) => `! ${notice}`), ''];
  for (const result of report.results) {
    lines.push(`${paint(result.verdict, result.verdict.toUpperCase().padEnd(4))}  ${result.code}  ${result.summary}`);
    for (const detail of result.details) lines.push(`        - ${detail}`);
    for (const table of result.tables ?? []) lines.push(...tableLines(table, '        '));
    if (result.verdict === 'fail' || result.verdict === 'warn') {
      for (const evidence of result.evidence.slice(0, 5)) {
        const headers = Object.entries(evidence.headers).map(([name, value]) => `${name}: ${value}`).join('; ');
        lines.push(`        ${evidence.method} ${evidence.url} -> ${evidence.status ?? evidence.error ?? '?'}${headers === '' ? '' : ` (${headers})`}${evidence.note === undefined ? '' : ` ${evidence.note}`}`);
        if (evidence.bodyExcerpt !== undefined) lines.push(`          body: ${evidence.bodyExcerpt.replace(/\s+/g, ' ').slice(0, 160)}`);
        if (evidence.bodyTruncatedAt !== undefined) lines.push(`          body truncated at ${evidence.bodyTruncatedAt} bytes (--max-body)`);
      }
    }
  }
  const counts = countVerdicts(report.results);
  const staticErrors = report.staticFindings.filter((finding) => finding.severity === 'error').length;
  const staticWarnings = report.staticFindings.filter((finding) => finding.severity === 'warn').length;
  lines.push('', report.lint.status === 'done' || report.lint.status === 'too-deep'
    ? `static: ${report.staticFindings.length + report.lint.omitted} findings (${staticErrors} errors, ${staticWarnings} warnings)${report.lint.omitted > 0 ? `; ${report.lint.omitted} beyond the first ${report.staticFindings.length} not kept` : ''}`
    : `static: ${report.lint.status === 'not-run' ? 'not run, no description' : `not finished (${report.lint.status}); no static verdict`}`);
  for (const finding of report.staticFindings.filter((item) => item.severity === 'error' || item.severity === 'warn').slice(0, 20)) {
    lines.push(`        ${finding.severity.padEnd(5)} ${finding.code}  ${finding.path}  ${finding.message}`);
  }
  lines.push(`live: ${counts.pass} pass, ${counts.warn} warn, ${counts.fail} fail, ${counts.skip} skip${counts.error > 0 ? `, ${counts.error} error` : ''}; ${report.requests} requests in ${report.durationMs} ms`);
  return lines.join('\n');
}

/** A title, then the header and rows with each column as wide as its widest cell. */
export function tableLines(table: ReportTable, indent: string): string[] {
  const widths = table.columns.map((column, index) => Math.max(column.length, ...table.rows.map((row) => (row[index] ?? '').length)));
  const line = (cells: string[]) => `${indent}  ${cells.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join('  ')}`.trimEnd();
  return [`${indent}${table.title}`, line(table.columns), ...table.rows.map(line)];
}

export function countVerdicts(results: CheckResult[]): Record<Verdict, number> {
  const counts: Record<Verdict, number> = { pass: 0, warn: 0, fail: 0, skip: 0, error: 0 };
  for (const result of results) counts[result.verdict] += 1;
  return counts;
}

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function junit(report: Report): string {
  const counts = countVerdicts(report.results);
  const cases = report.results.map((result) => {
    const body = result.verdict === 'fail'
      ? `<failure message="${escapeXml(result.summary)}">${escapeXml(result.details.join('\n'))}</failure>`
      : result.verdict === 'error' ? `<error message="${escapeXml(result.summary)}">${escapeXml(result.details.join('\n'))}</error>`
        : result.verdict === 'skip' ? `<skipped message="${escapeXml(result.summary)}"/>` : '';
    return `    <testcase classname="adr-check" name="${escapeXml(result.code)}">${body}</testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuite name="adr-check ${escapeXml(report.target)}" tests="${report.results.length}" failures="${counts.fail}" errors="${counts.error}" skipped="${counts.skip}" time="${report.durationMs / 1000}">`,
    ...cases,
    '</testsuite>',
  ].join('\n');
}

function sarif(report: Report): object {
  const results = report.results
    .filter((result) => result.verdict === 'fail' || result.verdict === 'warn' || result.verdict === 'error')
    .map((result) => ({
      ruleId: result.code,
      level: result.verdict === 'warn' ? 'warning' : 'error',
      message: { text: [result.summary, ...result.details].join(' ') },
      locations: [{ physicalLocation: { artifactLocation: { uri: result.evidence[0]?.url ?? report.target } } }],
    }));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'adr-check', rules: report.results.map((result) => ({ id: result.code })) } }, results }],
  };
}

function githubActions(report: Report): string {
  return report.results
    .filter((result) => result.verdict === 'fail' || result.verdict === 'warn' || result.verdict === 'error')
    .map((result) => `::${result.verdict === 'warn' ? 'warning' : 'error'} title=${result.code}::${escapeWorkflow([result.summary, ...result.details].join(' '))}`)
    .join('\n');
}

function escapeWorkflow(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
