import { detachedPrefix } from '../lib/uri.js';
import type { Finding } from '../lib/lint.js';
import type { Exchange } from './http.js';

/** `error`: the check could not observe what it needs (nothing answered, an internal error). */
export type Verdict = 'pass' | 'warn' | 'fail' | 'skip' | 'error';
const VERDICT_ORDER: Verdict[] = ['pass', 'skip', 'warn', 'error', 'fail'];

export interface Evidence {
  method: string;
  url: string;
  /** The headers the request carried (credentials are redacted in every output). */
  requestHeaders: Record<string, string>;
  status?: number;
  /** The response headers that decided the verdict. */
  headers: Record<string, string>;
  note?: string;
  /**
   * For a failure: the start of the body. Kept longer than shown (RAW_BODY_EXCERPT): a report
   * redacts it before it cuts it to BODY_EXCERPT, so that no cut leaves part of a secret.
   */
  bodyExcerpt?: string;
  /** The body was cut at --max-body (the server sent more). */
  bodyTruncatedAt?: number;
  error?: string;
}

/** Rows under named columns: the text report aligns them, a page renders the JSON as it is. */
export interface ReportTable {
  /** Stable key for a page to find a table by (the title may carry results). */
  id: string;
  title: string;
  columns: string[];
  rows: string[][];
}

export interface CheckResult {
  code: string;
  verdict: Verdict;
  summary: string;
  /** Why a check was skipped, or what failed, item by item. */
  details: string[];
  evidence: Evidence[];
  /** Pieces of evidence the report's size budget left out (live/bounded-report.ts): in no format. */
  evidenceOmitted?: number;
  /** What a check enumerated in full (the TLS check: per protocol, suites, groups, ...). */
  tables?: ReportTable[];
  /** The check threw: a defect of adr-check, not a verdict on the API. */
  internalError?: boolean;
  /** The page that says what the check requests and compares, relative to the package root. */
  docs?: string;
}

export interface LintSummary {
  status: 'done' | 'too-deep' | 'timeout' | 'out-of-memory' | 'failed' | 'not-run';
  /** The one-line description of each rule with a finding. */
  descriptions?: Record<string, string>;
  /** Findings beyond the cap, counted but not listed. */
  omitted: number;
  durationMs: number;
}

export interface Report {
  /** What made the report: nlgov-adr's version, and the ruleset's that linted the description. */
  tool: { name: string; version: string; ruleset: string };
  target: string;
  /** Where the linted description came from (its URL, or the file of a static run). */
  document?: string;
  startedAt: string;
  durationMs: number;
  requests: number;
  results: CheckResult[];
  staticFindings: Finding[];
  lint: LintSummary;
  notices: string[];
}

/** The worst verdict among several: fail > error > warn > skip > pass. */
export function worst(verdicts: Verdict[]): Verdict {
  return verdicts.reduce<Verdict>((current, next) => (VERDICT_ORDER.indexOf(next) > VERDICT_ORDER.indexOf(current) ? next : current), 'pass');
}

/** The start of a body a report shows as evidence. */
export const BODY_EXCERPT = 300;

/** What evidence keeps of a body: room for secrets in their longest forms past the part shown. */
const RAW_BODY_EXCERPT = BODY_EXCERPT + 8192;

export function evidenceOf(exchange: Exchange, decidingHeaders: string[] = [], note?: string, withBody = false): Evidence {
  const headers: Record<string, string> = {};
  for (const name of decidingHeaders) {
    const value = exchange.headers[name.toLowerCase()];
    if (value !== undefined) headers[exchange.headerNames[name.toLowerCase()] ?? name] = value;
  }
  return {
    method: exchange.method,
    url: exchange.url,
    requestHeaders: exchange.requestHeaders,
    status: exchange.status,
    headers,
    ...(note === undefined ? {} : { note }),
    ...(withBody && exchange.body !== '' ? { bodyExcerpt: detachedPrefix(exchange.body, RAW_BODY_EXCERPT) } : {}),
    ...(exchange.bodyTruncated ? { bodyTruncatedAt: exchange.bodyBytes } : {}),
    ...(exchange.error === undefined ? {} : { error: exchange.error }),
  };
}


/**
 * What a server answered, for a sentence: the status with what a reader needs to follow it (a
 * redirect's Location, a body cut at --max-body), or why there was no answer.
 */
export function describeAnswer(exchange: Exchange): string {
  if (exchange.status === undefined) return exchange.error ?? 'no answer';
  const location = exchange.headers.location;
  const notes = [
    ...(exchange.status >= 300 && exchange.status < 400 && location !== undefined ? [`Location: ${location}`] : []),
    ...(exchange.bodyTruncated ? [`body truncated at ${exchange.bodyBytes} bytes`] : []),
  ];
  return notes.length === 0 ? String(exchange.status) : `${exchange.status} (${notes.join('; ')})`;
}

/** A 2xx status. */
export function isSuccess(status: number | undefined): boolean {
  return status !== undefined && status >= 200 && status < 300;
}

/** `1 path`, `3 paths`: counts in a report read as English. */
export function count(number: number, noun: string, plural = `${noun}s`): string {
  return `${number} ${number === 1 ? noun : plural}`;
}

/**
 * A path relative to the base URL as a report names it: the path the server sees (`/v1/items` for
 * `/items` under `https://api.example.nl/v1`), as in the evidence's URLs and the server's own logs,
 * so that every check of one report names a resource alike.
 */
export function pathLabel(baseUrl: string, path: string): string {
  try {
    const url = new URL(`${baseUrl}${path}`);
    return `${url.pathname}${url.search}`;
  } catch {
    return path === '' ? '/' : path;
  }
}

/** `Allow: GET, HEAD`; an empty value shown as `Allow: (empty)`, so that it cannot read as nothing. */
export function headerValue(name: string, value: string): string {
  return `${name}: ${value.trim() === '' ? '(empty)' : value}`;
}

/**
 * A check whose requests got no answer: no verdict on the API, an error with what was not observed.
 * A request the address policy refused was never sent, so the summary says so rather than that the
 * server did not answer: http.ts gives such an exchange the error `refused: <reason>`, which the
 * lines end with in parentheses.
 */
export function noAnswerResult(code: string, unanswered: string[], evidence: Evidence[] = []): CheckResult {
  const reasons = unanswered.map(refusalReason);
  const refused = reasons.filter((reason): reason is string => reason !== undefined);
  const silent = unanswered.length - refused.length;
  const parts = [
    ...(refused.length === 0 ? [] : [`${count(refused.length, 'request')} refused by the address policy (${refusalSummary(refused)})`]),
    ...(silent === 0 ? [] : [refused.length === 0 ? `${count(silent, 'request')} got no answer` : `${silent} got no answer`]),
  ];
  return { code, verdict: 'error', summary: `not judged: ${parts.join(', ')}`, details: unanswered, evidence };
}

/**
 * `127.0.0.2 is a loopback address (127.0.0.0/8, RFC 1122)` of a line whose last parenthesised
 * part is `(refused: <reason>. <advice>)`. Only that last part counts: a path before it is the
 * server's text and may say anything.
 */
function refusalReason(line: string): string | undefined {
  const last = lastParenthesised(line);
  return last?.startsWith('refused: ') === true ? last.slice('refused: '.length).split('. ')[0] : undefined;
}

/** The text inside the parentheses that close a line, nested ones included; undefined when it ends otherwise. */
function lastParenthesised(line: string): string | undefined {
  if (!line.endsWith(')')) return undefined;
  let depth = 0;
  for (let index = line.length - 1; index >= 0; index -= 1) {
    if (line[index] === ')') depth += 1;
    else if (line[index] === '(' && --depth === 0) return line.slice(index + 1, -1);
  }
  return undefined;
}

function refusalSummary(reasons: string[]): string {
  const distinct = [...new Set(reasons)];
  return distinct.length === 1 ? distinct[0] ?? '' : `${distinct[0] ?? ''}; ${count(distinct.length - 1, 'other reason')}`;
}

/** `GET /v1/x`: a request as the report counts it, so that a path fetched twice counts once. */
export function requestKey(exchange: Exchange): string {
  return `${exchange.method} ${new URL(exchange.url).pathname}`;
}
