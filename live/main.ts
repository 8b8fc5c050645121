import { readFileSync, writeFileSync } from 'node:fs';
import type { JWK } from 'jose';
import { parseArgs } from 'node:util';
import { isIP } from 'node:net';
import { FORMATS, render, type Format } from './formats.js';
import { count, type Report } from './report.js';
import { secretForms } from './redaction.js';
import { boundedLine } from './bounded-report.js';
import { DEFAULT_LINT_MEMORY_MB, runChecks, runStatic, TargetError, type RunOptions } from './run.js';
import { packageVersion } from './version.js';
import { TLS_DEADLINE_MS } from './context.js';
import { chooseLintRuleset, RulesetError } from './lint/ruleset.js';
import { AllowEntryError, createAddressPolicy, type AddressPolicy } from './address-policy.js';

const HELP = `adr-check: tests a running API against the Dutch API Design Rules, and lints its description.

usage: adr-check <base-url> [options]      (the base URL includes /v<major>)
       adr-check --static <file> [options]  (lint a description on this machine, no live checks)
       adr-check serve [--port 8080] [--data <dir>]  (the web checker: adr-check serve --help)

options:
  --format <name>          report format: text (default), json, junit, sarif, github-actions, html
  --static                 the argument is a description file: lint it only (its file $refs are read)
  --output <file>          write the report to a file instead of stdout
  --ruleset <set|file>     the static lint's ruleset: a module set (nlgov-adr, nlgov-adr/core,
                           /geo, /signing, /oauth) or a ruleset file; default the working
                           directory's .spectral.yaml (.yml, .json, .js, .mjs, .cjs), else nlgov-adr
  --fail-on <level>        exit 1 from this level on: error (default) or warn
  --verbose                text: list every static finding and the full TLS tables
  --header "Name: value"   send this header (credentials) with every request; repeatable; redacted in reports
  --ca <file>              trust this CA (PEM) besides the system's
  --insecure               do not verify certificates (the TLS check is then not done)
  --dns-server <ip>        resolve host names with this DNS server (ip or ip:port) instead of
                           the system's; either way each name is resolved once per run
  --public-only            connect to public addresses only: refuse loopback, private,
                           link-local (cloud metadata), CGNAT, ULA, multicast and other
                           special addresses, also inside IPv6 (docs/live/address-policy.md)
  --allow <entry>          with --public-only: connect to this address, CIDR range or host
                           name all the same; repeatable
  --unsafe                 also send writes (docs/live/unsafe.md): undeclared POST, PUT and
                           PATCH with a body no server can take (405 probes; DELETE only where
                           GET says 404), a protected DELETE of a made-up resource, and POSTs
                           of copies of a feature with Content-Crs (deleted again only where
                           adr-check proves it created them; the rest is named in the report)
  --path </p>              also probe this path; repeatable
  --cors-origin <origin>   an origin the API allows, to test that it is echoed
  --plain-http-port <n>    where plain HTTP would answer on the same host (default 80)
  --timeout <ms>           per request (default 5000)
  --deadline <s>           for the whole run, the static lint included (default 60)
  --tls-deadline <s>       for the TLS enumeration, within the deadline (default ${TLS_DEADLINE_MS / 1000})
  --max-requests <n>       requests at most (default 300)
  --max-body <bytes>       bytes read of one body at most (default 5000000)
  --concurrency <n>        requests at once (default 8)
  --lint-memory <mb>       heap of the static lint (default ${DEFAULT_LINT_MEMORY_MB})
  --signing-jwks <file>    verify signatures with these keys (a JWK Set) instead of the x5c
                           certificate (needed where signatures carry no x5c)
  --signing-ca <file>      judge the trust of signing certificates: a path from x5c to any
                           certificate of this PEM file
  --oauth-metadata <url>   the authorization server's metadata (RFC 8414), also on another host
  -h, --help               this text
  --version                the version of nlgov-adr

environment: ADR_CHECK_TOKEN is sent as a bearer token (redacted in reports).
exit codes: 0 all pass; 1 a verdict or finding at or above --fail-on; 2 not checked or incomplete (one line on stderr).`;

const USAGE = 'usage: adr-check <base-url> [options]; adr-check --help lists them';

class UsageError extends Error {}

interface Cli {
  baseUrl: string;
  format: Format;
  verbose: boolean;
  /** --static: baseUrl is a description file. */
  staticOnly: boolean;
  failOn: 'error' | 'warn';
  output?: string;
  /** --ruleset as given. */
  ruleset?: string;
  run: RunOptions;
  secrets: string[];
}

function parse(argv: string[], environment: NodeJS.ProcessEnv): Cli | 'help' | 'version' {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'text' },
      'fail-on': { type: 'string', default: 'error' },
      header: { type: 'string', multiple: true, default: [] },
      ca: { type: 'string' },
      insecure: { type: 'boolean', default: false },
      'dns-server': { type: 'string' },
      'public-only': { type: 'boolean', default: false },
      allow: { type: 'string', multiple: true, default: [] },
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
      'signing-jwks': { type: 'string' },
      'signing-ca': { type: 'string' },
      'oauth-metadata': { type: 'string' },
      output: { type: 'string' },
      ruleset: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      static: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      version: { type: 'boolean', default: false },
    },
  });
  if (values.help) return 'help';
  if (values.version) return 'version';
  if (positionals.length !== 1) throw new UsageError(`give exactly one ${values.static ? 'description file' : 'base URL'}. ${USAGE}`);
  const baseUrl = positionals[0] as string;
  if (!values.static && !/^https?:\/\/[^/]/i.test(baseUrl)) throw new UsageError(`not an http(s) URL: ${baseUrl}`);
  if (!(FORMATS as readonly string[]).includes(values.format)) throw new UsageError(`unknown format: ${values.format} (one of ${FORMATS.join(', ')})`);
  if (values['fail-on'] !== 'error' && values['fail-on'] !== 'warn') throw new UsageError(`--fail-on is error or warn, not ${values['fail-on']}`);
  const headers = Object.fromEntries(values.header.map(parseHeader));
  const token = environment.ADR_CHECK_TOKEN;
  if (token !== undefined && token !== '') headers.authorization = `Bearer ${token}`;
  return {
    baseUrl,
    format: values.format as Format,
    verbose: values.verbose,
    staticOnly: values.static,
    failOn: values['fail-on'],
    output: values.output,
    ruleset: values.ruleset,
    secrets: [...Object.values(headers), ...(token ? [token] : [])],
    run: {
      client: {
        headers,
        ca: values.ca === undefined ? undefined : readCa(values.ca),
        insecure: values.insecure,
        ...(values['dns-server'] === undefined ? {} : { dnsServer: dnsServer(values['dns-server']) }),
        ...addressPolicyOption(values['public-only'], values.allow),
        timeoutMs: positiveNumber('timeout', values.timeout),
        deadlineMs: positiveNumber('deadline', values.deadline) * 1000,
        maxRequests: positiveNumber('max-requests', values['max-requests']),
        maxBodyBytes: positiveNumber('max-body', values['max-body']),
        concurrency: positiveNumber('concurrency', values.concurrency),
      },
      checks: { ...signingOptions(values['signing-jwks'], values['signing-ca']), ...(values['oauth-metadata'] === undefined ? {} : { oauthMetadata: httpUrl('oauth-metadata', values['oauth-metadata']) }), unsafe: values.unsafe, insecure: values.insecure, allowedOrigin: values['cors-origin'], plainHttpPort: positiveNumber('plain-http-port', values['plain-http-port']), tlsDeadlineMs: positiveNumber('tls-deadline', values['tls-deadline']) * 1000 },
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

function httpUrl(flag: string, value: string): string {
  if (!/^https?:\/\/[^/]/i.test(value)) throw new UsageError(`--${flag} takes an http(s) URL, not ${value}`);
  return value;
}

/** An IP address with an optional port, as node:dns takes servers (`[::1]:53` for IPv6 with a port). */
function dnsServer(value: string): string {
  const host = value.replace(/^\[([^\]]+)\](:\d+)?$/, '$1').replace(/^([\d.]+):\d+$/, '$1');
  if (isIP(host) === 0) throw new UsageError(`--dns-server takes an IP address with an optional port, not ${value}`);
  return value;
}

/** --public-only with its --allow entries; without it every address is admitted, and --allow would do nothing. */
function addressPolicyOption(publicOnly: boolean, allow: string[]): { addressPolicy?: AddressPolicy } {
  if (!publicOnly) {
    if (allow.length > 0) throw new UsageError('--allow only makes exceptions to --public-only; without it every address is allowed. Give --public-only too');
    return {};
  }
  try {
    return { addressPolicy: createAddressPolicy({ allow, advice: 'adr-check --public-only connects to public addresses only; give --allow with the address, its range or the host name to check it all the same' }) };
  } catch (error) {
    if (error instanceof AllowEntryError) throw new UsageError(`--allow: ${error.message}`);
    throw error;
  }
}

function positiveNumber(flag: string, value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new UsageError(`--${flag} takes a positive number, not ${value}`);
  return number;
}

/** The signing keys and CA the user gives, read at start: a file that is not what it should be is a usage error. */
function signingOptions(jwksFile: string | undefined, caFile: string | undefined): { signingJwks?: JWK[]; signingCa?: string } {
  const options: { signingJwks?: JWK[]; signingCa?: string } = {};
  if (jwksFile !== undefined) {
    let keys: unknown;
    try {
      keys = (JSON.parse(readFileSync(jwksFile, 'utf8')) as { keys?: unknown }).keys;
    } catch (error) {
      throw new UsageError(`cannot read --signing-jwks ${jwksFile}: ${(error as Error).message}`);
    }
    if (!Array.isArray(keys) || keys.length === 0) throw new UsageError(`--signing-jwks ${jwksFile} is not a JWK Set (an object with a keys array)`);
    options.signingJwks = keys as JWK[];
  }
  if (caFile !== undefined) options.signingCa = readCa(caFile, 'signing-ca');
  return options;
}

function readCa(file: string, flag = 'ca'): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --${flag} ${file}: ${(error as Error).message}`);
  }
}

/**
 * Exit code: 2 when adr-check itself failed (a check threw); 1 when a live verdict or a static
 * finding reaches --fail-on; 2 when nothing failed but the report is incomplete (a check could not
 * observe what it needs, or the static lint did not finish); else 0.
 */
export function exitCode(report: Report, failOn: 'error' | 'warn'): number {
  if (report.results.some((result) => result.internalError === true)) return 2;
  const live = report.results.some((result) => result.verdict === 'fail' || (failOn === 'warn' && result.verdict === 'warn'));
  const findings = report.staticFindings.some((finding) => finding.severity === 'error' || (failOn === 'warn' && finding.severity === 'warn'));
  if (live || findings) return 1;
  const lintUnfinished = report.lint.status === 'timeout' || report.lint.status === 'out-of-memory' || report.lint.status === 'failed';
  return lintUnfinished || report.results.some((result) => result.verdict === 'error') ? 2 : 0;
}

/** A progress line on stderr while the checks run, only on a terminal: overwritten in place, cleared at the end. */
function progressLine(): { update: RunOptions['onProgress']; clear(): void } {
  if (process.stderr.isTTY !== true) return { update: undefined, clear: () => undefined };
  return {
    update: ({ check, index, total, requests }) => process.stderr.write(`\r\u001b[K[${index + 1}/${total}] ${check}: ${count(requests, 'request')} so far`),
    clear: () => process.stderr.write('\r\u001b[K'),
  };
}

export async function main(argv: string[], environment: NodeJS.ProcessEnv = process.env): Promise<number> {
  // The web checker (docs/web.md): loaded only when asked for, so that a check never loads its server.
  if (argv[0] === 'serve') return (await import('../web/serve.js')).serve(argv.slice(1));
  let parsed: Cli | 'help' | 'version';
  try {
    parsed = parse(argv, environment);
  } catch (error) {
    process.stderr.write(`adr-check: ${(error as Error).message}\n`);
    return 2;
  }
  if (parsed === 'help') {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (parsed === 'version') {
    process.stdout.write(`nlgov-adr ${packageVersion()}\n`);
    return 0;
  }
  const cli = parsed;
  let ruleset: ReturnType<typeof chooseLintRuleset>;
  try {
    ruleset = chooseLintRuleset(cli.ruleset, process.cwd());
  } catch (error) {
    if (!(error instanceof RulesetError)) throw error;
    process.stderr.write(`adr-check: ${error.message}\n`);
    return 2;
  }
  const progress = progressLine();
  const forms = secretForms(cli.secrets);
  try {
    const report = cli.staticOnly
      ? await runStatic(cli.baseUrl, { deadlineMs: cli.run.client.deadlineMs, ...(cli.run.lintMemoryMb === undefined ? {} : { lintMemoryMb: cli.run.lintMemoryMb }), ruleset: ruleset.ruleset, rulesetLabel: ruleset.label })
      : await runChecks(cli.baseUrl, { ...cli.run, onProgress: progress.update, ruleset: ruleset.ruleset, rulesetLabel: ruleset.label });
    progress.clear();
    const output = render(report, cli.format, { colour: cli.output === undefined && process.stdout.isTTY === true, verbose: cli.verbose, secrets: forms });
    if (cli.output === undefined) process.stdout.write(`${output}\n`);
    else writeFileSync(cli.output, `${output}\n`);
    const failed = report.results.find((result) => result.internalError === true);
    if (failed !== undefined) process.stderr.write(`adr-check: ${boundedLine(`${failed.code}: ${failed.summary}`, forms)}\n`);
    return exitCode(report, cli.failOn);
  } catch (error) {
    progress.clear();
    const message = error instanceof TargetError ? error.message : `internal error: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`;
    process.stderr.write(`adr-check: ${boundedLine(message, forms)}\n`);
    return 2;
  }
}
