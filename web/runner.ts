import type { AddressPolicy } from '../live/address-policy.js';
import { render } from '../live/formats.js';
import { boundedLine } from '../live/bounded-report.js';
import { secretForms } from '../live/redaction.js';
import { runChecks, staticReport, TargetError } from '../live/run.js';
import type { ReferenceFetcher } from '../live/lint/run-lint.js';
import { lintWorkers } from '../live/lint/pool.js';
import { worst, type Report, type Verdict } from '../live/report.js';
import type { ServeOptions } from './options.js';
import type { CheckSummary, Store } from './store.js';

/** What a check is given: a base URL (live, with an optional token) or a description's text (static). */
export type CheckInput =
  | { kind: 'live'; baseUrl: string; token?: string }
  | { kind: 'static'; name: string; text: string };

export interface Progress { check: string; index: number; total: number }

/** The checks done so far, per running check: kept in memory only, while it runs. */
export const progressOf = new Map<string, Progress>();

const SEVERITY_VERDICT: Record<string, Verdict> = { error: 'fail', warn: 'warn', info: 'pass', hint: 'pass' };

/** Each rule's worst verdict, live and static together, and the rules that fail (a live fail or a static error). */
export function summarise(report: Report): CheckSummary {
  const rules: Record<string, Verdict> = {};
  const add = (code: string, verdict: Verdict) => { rules[code] = worst([rules[code] ?? 'pass', verdict]); };
  for (const result of report.results) add(result.code, result.verdict);
  for (const finding of report.staticFindings) add(finding.code, SEVERITY_VERDICT[finding.severity] ?? 'pass');
  const unjudged = report.results.filter((result) => result.verdict === 'error').map((result) => result.code);
  const lintUnfinished = report.lint.status === 'timeout' || report.lint.status === 'out-of-memory' || report.lint.status === 'failed';
  const incomplete = [...(lintUnfinished ? [`the static lint did not finish (${report.lint.status})`] : []), ...(unjudged.length === 0 ? [] : [`not judged: ${unjudged.join(', ')}`])];
  return { rules, failing: Object.keys(rules).filter((code) => rules[code] === 'fail').sort(), ...(incomplete.length === 0 ? {} : { incomplete: incomplete.join('; ') }) };
}

/** An uploaded description is linted alone: it may name no file here and no server. */
const refuseEveryReference: ReferenceFetcher = async (url) => ({ reason: `not fetched, the web checker lints an uploaded description alone (no $ref to another document is read): ${url}` });

/** The same report as adr-check --static, of text that never touches the disk. */
function uploadReport(name: string, text: string, options: ServeOptions): Promise<Report> {
  return staticReport(text, { target: name, document: name }, { deadlineMs: options.deadlineMs, lintMemoryMb: options.lintMemoryMb }, refuseEveryReference, { notice: 'static check: the description only, no live checks' });
}

/**
 * Runs one check and keeps its outcome. The token lives only in this call's arguments: it goes
 * into the request headers and into the forms the report is redacted of, and the kept report is
 * the redacted JSON. Never rejects.
 */
export async function runCheck(id: string, input: CheckInput, store: Store, options: ServeOptions, addressPolicy: AddressPolicy): Promise<void> {
  store.update(id, { state: 'running' });
  // As many warm lint workers wait as checks run at once.
  lintWorkers.keepIdle(options.maxRunning);
  const secrets = input.kind === 'live' && input.token !== undefined ? secretForms([input.token, `Bearer ${input.token}`]) : [];
  try {
    const report = input.kind === 'static' ? await uploadReport(input.name, input.text, options) : await runChecks(input.baseUrl, {
      client: {
        headers: input.kind === 'live' && input.token !== undefined ? { authorization: `Bearer ${input.token}` } : {},
        ...(options.ca === undefined ? {} : { ca: options.ca }),
        insecure: false,
        addressPolicy,
        ...(options.dnsServer === undefined ? {} : { dnsServer: options.dnsServer }),
        timeoutMs: options.timeoutMs,
        deadlineMs: options.deadlineMs,
        maxRequests: options.maxRequests,
        maxBodyBytes: options.maxBodyBytes,
        concurrency: options.concurrency,
      },
      checks: { unsafe: false, insecure: false, plainHttpPort: 80 },
      extraPaths: [],
      lintMemoryMb: options.lintMemoryMb,
      onProgress: ({ check, index, total }) => progressOf.set(id, { check, index, total }),
    });
    const redacted = render(report, 'json', { colour: false, verbose: false, secrets });
    store.update(id, { state: 'done', finishedAt: new Date().toISOString(), report: redacted, summary: summarise(JSON.parse(redacted) as Report) });
  } catch (error) {
    const message = error instanceof TargetError ? error.message : `internal error: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`;
    store.update(id, { state: 'failed', finishedAt: new Date().toISOString(), error: boundedLine(message, secrets) });
  } finally {
    progressOf.delete(id);
  }
}
