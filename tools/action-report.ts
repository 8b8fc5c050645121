/**
 * The GitHub Action's report (action.yml), after the static lint and, with `url`, adr-check ran:
 *
 * - the annotations, one workflow command per line: the static lint's as Spectral printed them
 *   (its output need not end in a newline), then adr-check's, made from its report;
 * - one SARIF log to upload: the static lint's run as nlgov-adr's (Spectral names itself in the
 *   driver), every rule of ours with its help, and adr-check's run. When the lint did not run (no
 *   file matched, a bad ruleset or severity) the log is still written and valid: a run with the
 *   tool, no results, and why as a tool execution notification, so the upload step does not fail
 *   a second time;
 * - the step summary (tools/action-summary.ts) in $GITHUB_STEP_SUMMARY, and one count line.
 *
 * usage: tsx tools/action-report.ts --sarif <out.sarif> --fail-severity <severity> --status <exit status>
 *          --static-sarif <file> --static-json <file> --static-output <file> --static-stderr <file>
 *          [--url <url> --live-report <adr-check json> --live-stderr <file>]
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Severity } from '../lib/lint.js';
import { place } from '../live/finding-location.js';
import { render } from '../live/formats.js';
import { printable } from '../live/redaction.js';
import type { Report } from '../live/report.js';
import { ruleHelp } from '../live/rule-help.js';
import { annotations, type SarifLog, type SarifRun } from '../live/sarif-annotations.js';
import { countLine, SEVERITIES, stepSummary, type CountedFinding, type SummaryInput } from './action-summary.js';
import { isMain } from './util.js';

export { annotations };
export type { SarifLog, SarifResult, SarifRun, SarifToolComponent } from '../live/sarif-annotations.js';

export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** Characters of a tool's error kept in the SARIF log and the summary. */
const MAX_FAILURE = 2000;

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; version: string; homepage: string };
const identity = { name: manifest.name, version: manifest.version, semanticVersion: manifest.version, informationUri: manifest.homepage };

/** Spectral's run as nlgov-adr's: its name, version and home page in the driver, Spectral (which ran the rules) as an extension. */
export function asNlgovAdr(run: SarifRun): SarifRun {
  const { name, version, informationUri, ...driver } = run.tool.driver;
  return { ...run, tool: { driver: { ...driver, ...identity }, extensions: [{ name, version, informationUri }] } };
}

/** Each rule with a page of ours gets that page's why and how to fix as its help. */
export function withHelp(run: SarifRun): SarifRun {
  const rules = run.tool.driver.rules?.map((rule) => {
    const help = rule.help ?? (rule.helpUri === undefined ? undefined : ruleHelp(rule.id, rule.helpUri));
    return help === undefined ? rule : { ...rule, help };
  });
  return rules === undefined ? run : { ...run, tool: { ...run.tool, driver: { ...run.tool.driver, rules } } };
}

/** The run of a lint that did not run: the tool, no results, and why, so that the log is still valid SARIF to upload. */
export function failedRun(failure: string, exitCode: number): SarifRun {
  return {
    tool: { driver: identity },
    invocations: [{ executionSuccessful: false, exitCode, toolExecutionNotifications: [{ level: 'error', message: { text: failure } }] }],
    results: [],
  };
}

export function merged(staticLog: SarifLog, liveLog?: SarifLog): SarifLog {
  return { $schema: SARIF_SCHEMA, version: '2.1.0', runs: [...staticLog.runs.map((run) => withHelp(asNlgovAdr(run))), ...(liveLog?.runs ?? [])] };
}

/**
 * What a tool said on stderr when it stopped, for a person: its last paragraph (yargs prints its
 * whole usage before the line that matters), printable, at most MAX_FAILURE characters.
 */
export function failureText(stderr: string, fallback: string): string {
  const paragraphs = stderr.replace(/\r/g, '').split(/\n\s*\n/).map((paragraph) => paragraph.trim()).filter((paragraph) => paragraph !== '');
  const last = paragraphs.at(-1) ?? fallback;
  const text = printable(last.replace(/\n\s*/g, ' '));
  return text.length > MAX_FAILURE ? `${text.slice(0, MAX_FAILURE - 1)}…` : text;
}

/** Every line a tool printed, each ending in a newline. */
export function ownLines(output: string): string[] {
  return output.split(/\r?\n/).filter((line) => line !== '');
}

interface SpectralJsonResult { code: string | number; severity: number; source?: string }

function countedFindings(results: SpectralJsonResult[]): CountedFinding[] {
  return results.map((result) => ({ code: String(result.code), severity: SEVERITIES[result.severity] ?? 'hint', file: result.source === undefined ? '' : place(result.source).label }));
}

function readText(file: string | undefined): string {
  return file !== undefined && existsSync(file) ? readFileSync(file, 'utf8') : '';
}

function readJson<T>(file: string | undefined): T | undefined {
  return file !== undefined && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
}

/** adr-check's report as SARIF: the same run `adr-check --format sarif` writes. */
function liveSarif(report: Report): SarifLog {
  return JSON.parse(render(report, 'sarif', { colour: false, verbose: false, secrets: [] })) as SarifLog;
}

function severity(value: string | undefined): Severity {
  return (SEVERITIES as string[]).includes(value ?? '') ? (value as Severity) : 'error';
}

function main(argv: string[]): void {
  const { values } = parseArgs({
    args: argv,
    options: {
      sarif: { type: 'string' },
      'fail-severity': { type: 'string', default: 'error' },
      status: { type: 'string', default: '0' },
      'static-sarif': { type: 'string' },
      'static-json': { type: 'string' },
      'static-output': { type: 'string' },
      'static-stderr': { type: 'string' },
      url: { type: 'string' },
      'live-report': { type: 'string' },
      'live-stderr': { type: 'string' },
    },
  });
  if (values.sarif === undefined) throw new Error('usage: action-report --sarif <out.sarif> --static-sarif <file> ...; see the comment at the top of tools/action-report.ts');
  const status = Number(values.status);
  const staticLog = readJson<SarifLog>(values['static-sarif']);
  const staticFailure = staticLog === undefined ? failureText(readText(values['static-stderr']), `the lint stopped with exit code ${status} and wrote no SARIF log`) : undefined;
  const report = readJson<Report>(values['live-report']);
  const live = report === undefined ? undefined : liveSarif(report);

  for (const line of [...ownLines(readText(values['static-output'])), ...(live === undefined ? [] : annotations(live))]) process.stdout.write(`${line}\n`);
  writeFileSync(values.sarif, `${JSON.stringify(merged(staticLog ?? { version: '2.1.0', runs: [failedRun(staticFailure ?? '', status)] }, live), null, 2)}\n`);

  const findings = countedFindings(readJson<SpectralJsonResult[]>(values['static-json']) ?? []);
  const lint: SummaryInput['lint'] = staticFailure === undefined ? { findings, files: new Set(findings.map((finding) => finding.file)).size } : { failure: staticFailure };
  const pages = new Map((staticLog?.runs ?? []).flatMap((run) => (run.tool.driver.rules ?? []).flatMap((rule) => (rule.helpUri === undefined ? [] : [[rule.id, rule.helpUri] as const]))));
  const input: SummaryInput = {
    exitStatus: status,
    failSeverity: severity(values['fail-severity']),
    lint,
    pages,
    ...(values.url === undefined || values.url === '' ? {} : { live: { url: values.url, ...(report === undefined ? { failure: failureText(readText(values['live-stderr']), 'adr-check wrote no report') } : { report }) } }),
  };
  console.log(countLine(input));
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (summaryFile !== undefined && summaryFile !== '') appendFileSync(summaryFile, stepSummary(input));
}

if (isMain(import.meta.url)) main(process.argv.slice(2));
