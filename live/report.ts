import type { Finding } from '../lib/lint.js';
import type { Exchange } from './http.js';

export type Verdict = 'pass' | 'warn' | 'fail' | 'skip';
const VERDICT_ORDER: Verdict[] = ['pass', 'skip', 'warn', 'fail'];

export interface Evidence {
  method: string;
  url: string;
  /** The headers the request carried (credentials are redacted in every output). */
  requestHeaders: Record<string, string>;
  status?: number;
  /** The response headers that decided the verdict. */
  headers: Record<string, string>;
  note?: string;
  /** For a failure: the start of the body. */
  bodyExcerpt?: string;
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
  /** What a check enumerated in full (the TLS check: per protocol, suites, groups, ...). */
  tables?: ReportTable[];
}

export interface Report {
  target: string;
  startedAt: string;
  durationMs: number;
  requests: number;
  results: CheckResult[];
  staticFindings: Finding[];
  notices: string[];
}

/** The worst verdict among several: fail > warn > skip > pass. */
export function worst(verdicts: Verdict[]): Verdict {
  return verdicts.reduce<Verdict>((current, next) => (VERDICT_ORDER.indexOf(next) > VERDICT_ORDER.indexOf(current) ? next : current), 'pass');
}

export function evidenceOf(exchange: Exchange, decidingHeaders: string[] = [], note?: string, withBody = false): Evidence {
  const headers: Record<string, string> = {};
  for (const name of decidingHeaders) {
    const value = exchange.headers[name.toLowerCase()];
    if (value !== undefined) headers[name] = value;
  }
  return {
    method: exchange.method,
    url: exchange.url,
    requestHeaders: exchange.requestHeaders,
    status: exchange.status,
    headers,
    ...(note === undefined ? {} : { note }),
    ...(withBody && exchange.body !== '' ? { bodyExcerpt: exchange.body.slice(0, 300) } : {}),
    ...(exchange.error === undefined ? {} : { error: exchange.error }),
  };
}

/** Replaces every secret value wherever it appears in the serialized report. */
export function redact(text: string, secrets: string[]): string {
  return secrets.filter((secret) => secret.length >= 4).reduce((redacted, secret) => redacted.split(secret).join('[REDACTED]'), text);
}
