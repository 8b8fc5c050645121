import type { CheckContext, LiveCheck } from '../context.js';
import type { Exchange } from '../http.js';
import { count, evidenceOf, requestKey, type CheckResult, type Evidence } from '../report.js';

interface HeaderRule {
  header: string;
  ok(value: string | undefined, exchange: Exchange): boolean;
  expected: string;
}

const RULES: HeaderRule[] = [
  { header: 'Cache-Control', ok: (value) => /\bno-store\b/i.test(value ?? ''), expected: 'no-store' },
  { header: 'Content-Security-Policy', ok: (value) => /frame-ancestors\s+'none'/i.test(value ?? ''), expected: "frame-ancestors 'none'" },
  { header: 'Strict-Transport-Security', ok: (value, exchange) => !exchange.url.startsWith('https:') || /max-age=\d+/i.test(value ?? ''), expected: 'max-age=...' },
  // Repeated fields arrive joined with commas. Fetch reads the first value of X-Content-Type-Options,
  // HTML takes X-Frame-Options only when every value is the same: app and proxy both sending it is fine.
  { header: 'X-Content-Type-Options', ok: (value) => listOf(value)[0] === 'nosniff', expected: 'nosniff' },
  { header: 'X-Frame-Options', ok: (value) => new Set(listOf(value)).size === 1 && listOf(value)[0] === 'deny', expected: 'DENY' },
  { header: 'Content-Type', ok: (value, exchange) => exchange.bodyBytes === 0 || (value !== undefined && value !== ''), expected: 'the type of the body' },
];

/** A header's comma-separated values, trimmed and lower-cased. */
function listOf(value: string | undefined): string[] {
  return (value ?? '').split(',').map((item) => item.trim().toLowerCase());
}

/** "lacks X (expected Y)" for a missing header, "has X: v, expected Y" for a wrong one. */
function problemOf(rule: HeaderRule, exchange: Exchange): string {
  const value = exchange.headers[rule.header.toLowerCase()];
  const where = `(first on ${requestKey(exchange)})`;
  if (value === undefined) return `lacks ${rule.header} (expected ${rule.expected}) ${where}`;
  return `has ${rule.header}: ${value.trim() === '' ? '(empty)' : value}, expected ${rule.expected} ${where}`;
}

/**
 * The root and every response seen carry the security headers SPEC.md lists (SHOULD: a missing
 * one is a warning). Runs late, so that it judges the responses the other checks caused.
 */
export const securityHeaders: LiveCheck = {
  code: '/core/transport/security-headers',
  async run(context: CheckContext): Promise<CheckResult> {
    await context.get('');
    const answered = context.exchanges.filter((exchange) => exchange.status !== undefined);
    if (answered.length === 0) return { code: this.code, verdict: 'error', summary: 'not judged: no request got an answer', details: [], evidence: [] };
    const firstProblem = new Map<string, string>();
    const failing = new Set<string>();
    const evidence: Evidence[] = [];
    for (const exchange of answered) {
      const missing = RULES.filter((rule) => !rule.ok(exchange.headers[rule.header.toLowerCase()], exchange));
      if (missing.length === 0) continue;
      const key = requestKey(exchange);
      if (!failing.has(key) && evidence.length < 5) evidence.push(evidenceOf(exchange, missing.map((rule) => rule.header)));
      failing.add(key);
      for (const rule of missing) if (!firstProblem.has(rule.header)) firstProblem.set(rule.header, problemOf(rule, exchange));
    }
    const requests = new Set(answered.map(requestKey)).size;
    if (failing.size > 0) {
      return { code: this.code, verdict: 'warn', summary: `security headers missing or wrong on ${failing.size} of ${count(requests, 'request')}`, details: [...firstProblem.values()], evidence };
    }
    return { code: this.code, verdict: 'pass', summary: `${requests === 1 ? 'the 1 request carries' : `all ${requests} requests carry`} the security headers`, details: [], evidence: [] };
  },
};
