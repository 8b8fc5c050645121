import type { CheckContext, LiveCheck } from '../context.js';
import { evidenceOf, type CheckResult } from '../report.js';
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
    const wrong = answered.filter((exchange) => exchange.headers['api-version'] !== expected);
    const evidence = wrong.slice(0, 10).map((exchange) => evidenceOf(exchange, ['API-Version']));
    if (wrong.length > 0) {
      return {
        code: this.code,
        verdict: 'fail',
        summary: `${wrong.length} of ${answered.length} responses lack API-Version: ${expected}`,
        details: wrong.slice(0, 10).map((exchange) => `${exchange.method} ${exchange.url}: ${exchange.headers['api-version'] ?? 'no API-Version'}`),
        evidence,
      };
    }
    return { code: this.code, verdict: 'pass', summary: `all ${answered.length} responses carry API-Version: ${expected}`, details: [], evidence: [] };
  },
};
