import type { CheckContext, LiveCheck } from '../context.js';
import type { Exchange } from '../http.js';
import { count, evidenceOf, requestKey, type CheckResult } from '../report.js';
import { asObject } from '../../lib/json.js';

/** Every response seen in the run carries `API-Version` equal to info.version. Runs last. */
export const versionHeader: LiveCheck = {
  code: '/core/version-header',
  async run(context: CheckContext): Promise<CheckResult> {
    const expected = asObject(context.description?.info).version;
    if (typeof expected !== 'string') {
      return { code: this.code, verdict: 'skip', summary: 'no info.version in the description to compare with', details: [], evidence: [] };
    }
    if (context.exchanges.length === 0) await context.get('');
    const answered = context.exchanges.filter((exchange) => exchange.status !== undefined);
    if (answered.length === 0) return { code: this.code, verdict: 'error', summary: 'not judged: no request got an answer', details: [], evidence: [] };
    const wrong = new Map<string, Exchange>();
    for (const exchange of answered) if (exchange.headers['api-version'] !== expected && !wrong.has(requestKey(exchange))) wrong.set(requestKey(exchange), exchange);
    const requests = new Set(answered.map(requestKey)).size;
    if (wrong.size > 0) {
      const shown = [...wrong.values()].slice(0, 10);
      return {
        code: this.code,
        verdict: 'fail',
        summary: `${wrong.size} of ${count(requests, 'request')} ${wrong.size === 1 ? 'lacks' : 'lack'} API-Version: ${expected}`,
        details: shown.map((exchange) => {
          const value = exchange.headers['api-version'];
          return `${requestKey(exchange)}: ${value === undefined ? 'lacks API-Version' : `has API-Version: ${value.trim() === '' ? '(empty)' : value}, expected ${expected}`}`;
        }),
        evidence: shown.map((exchange) => evidenceOf(exchange, ['API-Version'])),
      };
    }
    return { code: this.code, verdict: 'pass', summary: `${requests === 1 ? 'the 1 request carries' : `all ${requests} requests carry`} API-Version: ${expected}`, details: [], evidence: [] };
  },
};
