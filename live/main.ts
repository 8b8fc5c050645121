import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FORMATS, render, type Format } from './formats.js';
import type { Report } from './report.js';
import { printable, redactText, secretForms } from './redaction.js';
import { DEFAULT_LINT_MEMORY_MB, runChecks, TargetError, type RunOptions } from './run.js';
import { TLS_DEADLINE_MS } from './context.js';

const USAGE = 'usage: adr-check <base-url> [--format text|json|junit|sarif|github-actions] [--fail-on error|warn] [--header "Name: value"]... [--ca file] [--insecure] [--unsafe] [--path /p]... [--cors-origin origin] [--plain-http-port n] [--timeout ms] [--deadline s] [--tls-deadline s] [--max-requests n] [--max-body bytes] [--concurrency n] [--lint-memory mb] [--output file]';

class UsageError extends Error {}

interface Cli {
  baseUrl: string;
  format: Format;
  failOn: 'error' | 'warn';
  output?: string;
  run: RunOptions;
  secrets: string[];
}

function parse(argv: string[], environment: NodeJS.ProcessEnv): Cli {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'text' },
      'fail-on': { type: 'string', default: 'error' },
      header: { type: 'string', multiple: true, default: [] },
      ca: { type: 'string' },
      insecure: { type: 'boolean', default: false },
      unsafe: { type: 'boolean', default: false },
      path: { type: 'string', multiple: true, default: [] },
      'cors-origin': { type: 'string' },
      'plain-http-port': { type: 'string', default: '80' },
      timeout: { type: 'string', default: '5000' },
      deadline: { type: 'string', default: '60' },
      'tls-deadline': { type: 'string', default: String(TLS_DEADLINE_MS / 1000) },
      'max-requests': { type: 'string', default: '300' },
      'max-body': { type: 'string', default: '5000000' },
      concurrency: { type: 'string', default: '8' },
      'lint-memory': { type: 'string', default: String(DEFAULT_LINT_MEMORY_MB) },
      output: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) throw new UsageError(USAGE);
  if (positionals.length !== 1) throw new UsageError(`give exactly one base URL. ${USAGE}`);
  const baseUrl = positionals[0] as string;
  if (!/^https?:\/\/[^/]/i.test(baseUrl)) throw new UsageError(`not an http(s) URL: ${baseUrl}`);
  if (!(FORMATS as readonly string[]).includes(values.format)) throw new UsageError(`unknown format: ${values.format} (one of ${FORMATS.join(', ')})`);
  if (values['fail-on'] !== 'error' && values['fail-on'] !== 'warn') throw new UsageError(`--fail-on is error or warn, not ${values['fail-on']}`);
  const headers = Object.fromEntries(values.header.map(parseHeader));
  const token = environment.ADR_CHECK_TOKEN;
  if (token !== undefined && token !== '') headers.authorization = `Bearer ${token}`;
  return {
    baseUrl,
    format: values.format as Format,
    failOn: values['fail-on'],
    output: values.output,
    secrets: [...Object.values(headers), ...(token ? [token] : [])],
    run: {
      client: {
        headers,
        ca: values.ca === undefined ? undefined : readCa(values.ca),
        insecure: values.insecure,
        timeoutMs: positiveNumber('timeout', values.timeout),
        deadlineMs: positiveNumber('deadline', values.deadline) * 1000,
        maxRequests: positiveNumber('max-requests', values['max-requests']),
        maxBodyBytes: positiveNumber('max-body', values['max-body']),
        concurrency: positiveNumber('concurrency', values.concurrency),
      },
      checks: { unsafe: values.unsafe, insecure: values.insecure, allowedOrigin: values['cors-origin'], plainHttpPort: positiveNumber('plain-http-port', values['plain-http-port']), tlsDeadlineMs: positiveNumber('tls-deadline', values['tls-deadline']) * 1000 },
      extraPaths: values.path,
      lintMemoryMb: positiveNumber('lint-memory', values['lint-memory']),
    },
  };
}

function parseHeader(line: string): [string, string] {
  const colon = line.indexOf(':');
  if (colon <= 0) throw new UsageError(`--header takes "Name: value", not ${line}`);
  return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
}

function positiveNumber(flag: string, value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new UsageError(`--${flag} takes a positive number, not ${value}`);
  return number;
}

function readCa(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --ca ${file}: ${(error as Error).message}`);
  }
}

/**
 * Exit code: 2 when adr-check itself failed (a check threw); 1 when a live verdict or a static
 * finding reaches --fail-on; 2 when nothing failed but the report is incomplete (a check could not
 * observe what it needs, or the static lint did not finish); else 0.
 */
function exitCode(report: Report, failOn: 'error' | 'warn'): number {
  if (report.results.some((result) => result.internalError === true)) return 2;
  const live = report.results.some((result) => result.verdict === 'fail' || (failOn === 'warn' && result.verdict === 'warn'));
  const findings = report.staticFindings.some((finding) => finding.severity === 'error' || (failOn === 'warn' && finding.severity === 'warn'));
  if (live || findings) return 1;
  const lintUnfinished = report.lint.status === 'timeout' || report.lint.status === 'out-of-memory' || report.lint.status === 'failed';
  return lintUnfinished || report.results.some((result) => result.verdict === 'error') ? 2 : 0;
}

export async function main(argv: string[], environment: NodeJS.ProcessEnv = process.env): Promise<number> {
  let cli: Cli;
  try {
    cli = parse(argv, environment);
  } catch (error) {
    process.stderr.write(`adr-check: ${(error as Error).message}\n`);
    return 2;
  }
  const forms = secretForms(cli.secrets);
  try {
    const report = await runChecks(cli.baseUrl, cli.run);
    const output = render(report, cli.format, { colour: cli.output === undefined && process.stdout.isTTY === true, secrets: forms });
    if (cli.output === undefined) process.stdout.write(`${output}\n`);
    else writeFileSync(cli.output, `${output}\n`);
    const failed = report.results.find((result) => result.internalError === true);
    if (failed !== undefined) process.stderr.write(`adr-check: ${printable(redactText(`${failed.code}: ${failed.summary}`, forms))}\n`);
    return exitCode(report, cli.failOn);
  } catch (error) {
    const message = error instanceof TargetError ? error.message : `internal error: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`;
    process.stderr.write(`adr-check: ${printable(redactText(message, forms))}\n`);
    return 2;
  }
}
