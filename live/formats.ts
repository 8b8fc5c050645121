import { count, type CheckResult, type Report, type ReportTable, type Verdict } from './report.js';
import { jsonText, mapStrings, printable } from './redaction.js';
import { boundedReport } from './bounded-report.js';
import { html, ruleTitle } from './html.js';
import { findingLocation, locationLabel, place, uriReference } from './finding-location.js';
import { ruleHelp } from './rule-help.js';
import { annotations, commandData, type SarifLog, type SarifResult } from './sarif-annotations.js';
import { documentationPath, repositoryPageUrl } from '../lib/documentation-url.js';

export const FORMATS = ['text', 'json', 'junit', 'sarif', 'github-actions', 'html'] as const;
export type Format = (typeof FORMATS)[number];

const COLOURS: Record<Verdict, string> = { pass: '\u001b[32m', warn: '\u001b[33m', fail: '\u001b[31m', skip: '\u001b[90m', error: '\u001b[35m' };
const RESET = '\u001b[0m';

export interface RenderOptions {
  colour: boolean;
  /** Text: every static finding and the full TLS tables. */
  verbose: boolean;
  /** Every form of the user's credentials (redaction.ts secretForms): replaced before any escaping. */
  secrets: string[];
}

/**
 * The report in one format. Everything in it may come from the server, so every string is
 * redacted and bounded first (bounded-report.ts), then made safe for where it goes: printable for
 * a terminal, for XML (which cannot hold control characters) and for HTML, and \u-escaped beyond
 * what JSON.stringify escapes for JSON and SARIF (redaction.ts jsonText).
 */
export function render(report: Report, format: Format, options: RenderOptions): string {
  const redacted = boundedReport(report, options.secrets);
  const safe = () => mapStrings(redacted, printable);
  switch (format) {
    case 'json':
      return jsonText(redacted);
    case 'junit':
      return junit(safe());
    case 'sarif':
      return jsonText(sarif(redacted));
    case 'github-actions':
      return githubActions(redacted);
    case 'html':
      return html(safe());
    default:
      return text(safe(), options);
  }
}

const STATIC_SHOWN = 20;
const INDENT = '        ';

/**
 * For a person: per check the verdict and summary, then for anything but a pass the evidence
 * (each request, its answer, the deciding headers one per line), then the details. The TLS
 * tables in full only when the TLS check does not pass, or with --verbose.
 */
function text(report: Report, options: RenderOptions): string {
  const paint = (verdict: Verdict, label: string) => (options.colour ? `${COLOURS[verdict]}${label}${RESET}` : label);
  const lines = [`adr-check ${report.target} (nlgov-adr ${report.tool.version}, ruleset ${report.tool.ruleset})`, ...report.notices.map((notice) => `! ${notice}`), ''];
  for (const result of report.results) {
    lines.push(`${paint(result.verdict, result.verdict.toUpperCase().padEnd(5))} ${result.code}  ${result.summary}`);
    if (result.verdict !== 'pass' && result.verdict !== 'skip') lines.push(...evidenceLines(result));
    for (const detail of result.details) lines.push(`${INDENT}- ${detail}`);
    if (result.docs !== undefined && result.verdict !== 'pass') lines.push(`${INDENT}what it requests and compares: ${result.docs}`);
    const tables = result.tables ?? [];
    if (tables.length > 0 && (result.verdict !== 'pass' || options.verbose)) for (const table of tables) lines.push(...tableLines(table, INDENT));
    else if (tables.length > 0) lines.push(`${INDENT}(--verbose shows the ${count(tables.length, 'table')} of the enumeration)`);
  }
  lines.push('', ...staticLines(report, options.verbose));
  lines.push(report.requests === 0 && report.results.length === 0 ? `live: not run (a static run); ${report.durationMs} ms` : `live: ${liveCounts(report.results)}; ${count(report.requests, 'request')} in ${report.durationMs} ms`);
  return lines.join('\n');
}

function evidenceLines(result: CheckResult): string[] {
  const lines: string[] = [];
  for (const evidence of result.evidence.slice(0, 5)) {
    lines.push(`${INDENT}${evidence.method} ${evidence.url} -> ${evidence.status ?? evidence.error ?? '?'}${evidence.note === undefined ? '' : ` ${evidence.note}`}`);
    for (const [name, value] of Object.entries(evidence.headers)) lines.push(`${INDENT}  ${name}: ${value.trim() === '' ? '(empty)' : value}`);
    if (evidence.bodyExcerpt !== undefined) lines.push(`${INDENT}  body: ${evidence.bodyExcerpt.replace(/\s+/g, ' ').slice(0, 160)}`);
    if (evidence.bodyTruncatedAt !== undefined) lines.push(`${INDENT}  body truncated at ${evidence.bodyTruncatedAt} bytes (--max-body)`);
  }
  const more = moreEvidence(Math.max(0, result.evidence.length - 5), result.evidenceOmitted ?? 0);
  if (more !== undefined) lines.push(`${INDENT}(${more})`);
  return lines;
}

/** The requests not shown: in the JSON report, or left out of every format by the report's size budget. */
function moreEvidence(inJson: number, omitted: number): string | undefined {
  const leftOut = `${count(omitted, 'more request')} left out of every format: the report's size is bounded`;
  if (omitted === 0) return inJson === 0 ? undefined : `${count(inJson, 'more request')}: --format json has them all`;
  return inJson === 0 ? leftOut : `${count(inJson, 'more request')} in --format json; ${leftOut}`;
}

/** The static findings: errors and warnings first, up to STATIC_SHOWN unless verbose; what is left out is counted. */
function staticLines(report: Report, verbose: boolean): string[] {
  if (report.lint.status === 'not-run') return ['static: not run (no description)'];
  if (report.lint.status !== 'done' && report.lint.status !== 'too-deep') return [`static: not finished (${report.lint.status}); no static verdict`];
  const findings = report.staticFindings;
  const bySeverity = (severity: string) => findings.filter((finding) => finding.severity === severity).length;
  const total = findings.length + report.lint.omitted;
  const lines = [`static: ${count(total, 'finding')} (${count(bySeverity('error'), 'error')}, ${count(bySeverity('warn'), 'warning')}, ${bySeverity('info')} info, ${count(bySeverity('hint'), 'hint')})`];
  const ordered = ['error', 'warn', 'info', 'hint'].flatMap((severity) => findings.filter((finding) => finding.severity === severity));
  const shown = verbose ? ordered : ordered.filter((finding) => finding.severity === 'error' || finding.severity === 'warn').slice(0, STATIC_SHOWN);
  for (const finding of shown) lines.push(`${INDENT}${finding.severity.padEnd(5)} ${finding.code}  ${locationLabel(findingLocation(finding, report))}${finding.path === '' ? '' : `  ${finding.path}`}  ${finding.message}`);
  const hidden = ordered.length - shown.length;
  if (hidden > 0) lines.push(`${INDENT}(${count(hidden, 'more finding')} not shown: --verbose lists them all)`);
  if (report.lint.omitted > 0) lines.push(`${INDENT}(${count(report.lint.omitted, 'finding')} beyond the first ${findings.length} not kept)`);
  return lines;
}

function liveCounts(results: CheckResult[]): string {
  const counts = countVerdicts(results);
  return (['pass', 'warn', 'fail', 'skip', 'error'] as const).filter((verdict) => verdict !== 'error' || counts.error > 0).map((verdict) => `${counts[verdict]} ${verdict}`).join(', ');
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

/** Text for XML 1.0: what it cannot hold (control characters, U+FFFE/U+FFFF, lone surrogates) made visible, markup escaped. */
function escapeXml(value: string): string {
  return printable(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * JUnit XML: a suite of the live checks (one testcase per check) and a suite of the static
 * findings (one testcase per finding, at its file and line: errors and warnings fail, info and
 * hints pass with the finding as output), each with the versions as properties.
 */
function junit(report: Report): string {
  const properties = `    <properties><property name="nlgov-adr" value="${escapeXml(report.tool.version)}"/><property name="ruleset" value="${escapeXml(report.tool.ruleset)}"/></properties>`;
  const suites = [...(isStaticRun(report) ? [] : [liveSuite(report)]), ...staticSuite(report)];
  const total = (key: keyof SuiteCounts) => suites.reduce((sum, suite) => sum + suite.counts[key], 0);
  const totals: SuiteCounts = { tests: total('tests'), failures: total('failures'), errors: total('errors'), skipped: total('skipped') };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="adr-check ${escapeXml(report.target)}" ${countAttributes(totals)} time="${report.durationMs / 1000}">`,
    ...suites.flatMap((suite) => [`  <testsuite name="${escapeXml(suite.name)}" ${countAttributes(suite.counts)}${suite.time}>`, properties, ...suite.cases, '  </testsuite>']),
    '</testsuites>',
  ].join('\n');
}

interface SuiteCounts { tests: number; failures: number; errors: number; skipped: number }
interface Suite { name: string; counts: SuiteCounts; time: string; cases: string[] }

function countAttributes(counts: SuiteCounts): string {
  return `tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}" skipped="${counts.skipped}"`;
}

function isStaticRun(report: Report): boolean {
  return report.requests === 0 && report.results.length === 0;
}

function liveSuite(report: Report): Suite {
  const verdicts = countVerdicts(report.results);
  const cases = report.results.map((result) => {
    const body = result.verdict === 'fail'
      ? `<failure message="${escapeXml(result.summary)}">${escapeXml(result.details.join('\n'))}</failure>`
      : result.verdict === 'error' ? `<error message="${escapeXml(result.summary)}">${escapeXml(result.details.join('\n'))}</error>`
        : result.verdict === 'skip' ? `<skipped message="${escapeXml(result.summary)}"/>`
          : result.verdict === 'warn' ? `<system-out>${escapeXml([result.summary, ...result.details].join('\n'))}</system-out>` : '';
    return `    <testcase classname="adr-check" name="${escapeXml(result.code)}">${body}</testcase>`;
  });
  const counts = { tests: report.results.length, failures: verdicts.fail, errors: verdicts.error, skipped: verdicts.skip };
  return { name: `adr-check ${report.target}`, counts, time: ` time="${report.durationMs / 1000}"`, cases };
}

/** The static findings' suite; none where no description was linted. */
function staticSuite(report: Report): Suite[] {
  if (report.lint.status === 'not-run') return [];
  const name = `adr-check static ${place(report.document ?? report.target).label}`;
  if (report.lint.status !== 'done' && report.lint.status !== 'too-deep') {
    const unfinished = `    <testcase classname="static" name="static lint"><error message="not finished (${escapeXml(report.lint.status)}); no static verdict"/></testcase>`;
    return [{ name, counts: { tests: 1, failures: 0, errors: 1, skipped: 0 }, time: '', cases: [unfinished] }];
  }
  const cases = report.staticFindings.map((finding) => {
    const location = findingLocation(finding, report);
    const where = `${locationLabel(location)}${finding.path === '' ? '' : ` ${finding.path}`}`;
    const attributes = `classname="${escapeXml(location.label)}" name="${escapeXml(`${finding.code}${finding.path === '' ? '' : ` at ${finding.path}`}`)}" file="${escapeXml(location.label)}"${location.line === undefined ? '' : ` line="${location.line}"`}`;
    const body = finding.severity === 'error' || finding.severity === 'warn'
      ? `<failure type="${finding.severity}" message="${escapeXml(finding.message)}">${escapeXml(where)}\n${escapeXml(finding.message)}</failure>`
      : `<system-out>${escapeXml(`${finding.severity}: ${where}`)}\n${escapeXml(finding.message)}</system-out>`;
    return `    <testcase ${attributes}>${body}</testcase>`;
  });
  if (cases.length === 0) cases.push('    <testcase classname="static" name="static lint: no findings"/>');
  if (report.lint.omitted > 0) cases.push(`    <system-out>${count(report.lint.omitted, 'finding')} beyond the first ${report.staticFindings.length} not kept</system-out>`);
  const failures = report.staticFindings.filter((finding) => finding.severity === 'error' || finding.severity === 'warn').length;
  return [{ name, counts: { tests: Math.max(1, report.staticFindings.length), failures, errors: 0, skipped: 0 }, time: '', cases }];
}

/** Where a rule is explained: its page in the repository at this version's tag (lib/documentation-url.ts); Spectral's own rules on Spectral's site. */
function helpUri(code: string, version: string, docs: string | undefined): string {
  const path = docs ?? documentationPath(code);
  return path === undefined ? `https://docs.stoplight.io/docs/spectral/4dec24461f3af-open-api-rules#${code}` : repositoryPageUrl(path, version);
}

/** Spectral's own diagnostics have no rule to take a description from. */
const SPECTRAL_DIAGNOSTICS: Record<string, string> = {
  'invalid-ref': 'A $ref does not resolve.',
  parser: 'The description is not valid JSON or YAML.',
  'unrecognized-format': 'The document is not an OpenAPI description Spectral recognises.',
};

const SARIF_LEVELS: Record<string, 'error' | 'warning' | 'note'> = { error: 'error', warn: 'warning', info: 'note', hint: 'note' };

/**
 * Live verdicts and static findings as one SARIF 2.1.0 run, every rule with its description, its
 * page and the page's why and how to fix. A static finding is at its file (relative to the working
 * directory) and line; in a live run at the URL of the description it was found in.
 */
function sarif(report: Report): SarifLog {
  const live = report.results
    .filter((result) => result.verdict === 'fail' || result.verdict === 'warn' || result.verdict === 'error')
    .map((result): SarifResult => ({
      ruleId: result.code,
      level: result.verdict === 'warn' ? 'warning' : 'error',
      ...(result.docs === undefined ? {} : { properties: { docs: result.docs } }),
      message: { text: [result.summary, ...result.details].join(' ') },
      locations: [{ physicalLocation: { artifactLocation: { uri: uriReference(result.evidence[0]?.url ?? report.target) } } }],
    }));
  const statics = report.staticFindings.map((finding): SarifResult => {
    const location = findingLocation(finding, report);
    return {
      ruleId: finding.code,
      level: SARIF_LEVELS[finding.severity] ?? 'note',
      message: { text: finding.message },
      locations: [{
        physicalLocation: { artifactLocation: { uri: location.uri }, ...(location.line === undefined ? {} : { region: { startLine: location.line } }) },
        ...(finding.path === '' ? {} : { logicalLocations: [{ fullyQualifiedName: finding.path }] }),
      }],
    };
  });
  const docsOf = new Map(report.results.map((result) => [result.code, result.docs]));
  const codes = [...new Set([...report.results.map((result) => result.code), ...report.staticFindings.map((finding) => finding.code)])];
  const rules = codes.map((code) => {
    const page = helpUri(code, report.tool.version, docsOf.get(code));
    const help = ruleHelp(code, page);
    return {
      id: code,
      shortDescription: { text: report.lint.descriptions?.[code] ?? ruleTitle(code) ?? SPECTRAL_DIAGNOSTICS[code] ?? code },
      ...(help === undefined ? {} : { help }),
      helpUri: page,
    };
  });
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'adr-check', version: report.tool.version, semanticVersion: report.tool.version, informationUri: 'https://github.com/nlgov-adr/nlgov-adr', properties: { ruleset: report.tool.ruleset }, rules } }, results: [...live, ...statics] }],
  };
}

/**
 * A notice naming what was checked and by what, then an annotation per live verdict that is not a
 * pass and per static finding (at its file and line), as the SARIF log has them.
 */
function githubActions(report: Report): string {
  const made = `::notice title=adr-check::${commandData(`${report.target} checked by nlgov-adr ${report.tool.version} (ruleset ${report.tool.ruleset})`)}`;
  return [made, ...annotations(sarif(report))].join('\n');
}
