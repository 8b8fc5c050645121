import type { CheckContext, LiveCheck } from '../context.js';
import { evidenceOf, type CheckResult } from '../report.js';

/** Each concrete GET path with `/` appended gives 404, never a redirect. */
export const noTrailingSlash: LiveCheck = {
  code: '/core/no-trailing-slash',
  async run(context: CheckContext): Promise<CheckResult> {
    const paths = context.getPaths.filter((path) => path !== '/' && path !== '');
    if (paths.length === 0) return { code: this.code, verdict: 'skip', summary: 'no concrete GET path to probe', details: [], evidence: [] };
    const exchanges = await Promise.all(paths.map((path) => context.send({ method: 'GET', url: `${context.baseUrl}${path}/` })));
    const wrong = exchanges.filter((exchange) => exchange.status !== 404);
    if (wrong.length === 0) return { code: this.code, verdict: 'pass', summary: `${paths.length} paths with a trailing slash give 404`, details: [], evidence: [] };
    return {
      code: this.code,
      verdict: 'fail',
      summary: `${wrong.length} paths with a trailing slash do not give 404`,
      details: wrong.map((exchange) => `${exchange.url}: ${exchange.status ?? exchange.error}${exchange.headers.location === undefined ? '' : ` -> ${exchange.headers.location}`}`),
      evidence: wrong.map((exchange) => evidenceOf(exchange, ['Location'])),
    };
  },
};
