import type { CheckContext, LiveCheck } from '../context.js';
import type { Exchange } from '../http.js';
import { evidenceOf, type CheckResult } from '../report.js';

interface HeaderRule {
  header: string;
  ok(value: string | undefined, exchange: Exchange): boolean;
  expected: string;
}

const RULES: HeaderRule[] = [
  { header: 'Cache-Control', ok: (value) => /\bno-store\b/i.test(value ?? ''), expected: 'no-store' },
  { header: 'Content-Security-Policy', ok: (value) => /frame-ancestors\s+'none'/i.test(value ?? ''), expected: "frame-ancestors 'none'" },
  { header: 'Strict-Transport-Security', ok: (value, exchange) => !exchange.url.startsWith('https:') || /max-age=\d+/i.test(value ?? ''), expected: 'max-age=...' },
  { header: 'X-Content-Type-Options', ok: (value) => (value ?? '').trim().toLowerCase() === 'nosniff', expected: 'nosniff' },
  { header: 'X-Frame-Options', ok: (value) => (value ?? '').trim().toUpperCase() === 'DENY', expected: 'DENY' },
  { header: 'Content-Type', ok: (value, exchange) => exchange.bodyBytes === 0 || (value !== undefined && value !== ''), expected: 'the type of the body' },
];

/**
 * The root and every response seen carry the security headers SPEC.md lists (SHOULD: a missing
 * one is a warning). Runs late, so that it judges the responses the other checks caused.
 */
export const securityHeaders: LiveCheck = {
  code: '/core/transport/security-headers',
  async run(context: CheckContext): Promise<CheckResult> {
    await context.get('');
    const answered = context.exchanges.filter((exchange) => exchange.status !== undefined);
    const firstProblem = new Map<string, string>();
    let failing = 0;
    const evidence = [];
    for (const exchange of answered) {
      const missing = RULES.filter((rule) => !rule.ok(exchange.headers[rule.header.toLowerCase()], exchange));
      if (missing.length === 0) continue;
      failing += 1;
      for (const rule of missing) {
        if (!firstProblem.has(rule.header)) firstProblem.set(rule.header, `${rule.header} is ${exchange.headers[rule.header.toLowerCase()] ?? 'missing'}, expected ${rule.expected} (first on ${exchange.method} ${new URL(exchange.url).pathname})`);
      }
      if (evidence.length < 5) evidence.push(evidenceOf(exchange, missing.map((rule) => rule.header)));
    }
    if (failing > 0) {
      return { code: this.code, verdict: 'warn', summary: `security headers missing or wrong on ${failing} of ${answered.length} responses`, details: [...firstProblem.values()], evidence };
    }
    return { code: this.code, verdict: 'pass', summary: `all ${answered.length} responses carry the security headers`, details: [], evidence: [] };
  },
};
