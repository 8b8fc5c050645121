import { answeredNeedsCredentials, type CheckContext, type LiveCheck } from '../context.js';
import { count, describeAnswer, evidenceOf, noAnswerResult, type CheckResult } from '../report.js';

/** Each concrete GET path with `/` appended gives 404, never a redirect. */
export const noTrailingSlash: LiveCheck = {
  code: '/core/no-trailing-slash',
  async run(context: CheckContext): Promise<CheckResult> {
    const paths = context.getPaths.filter((path) => path !== '/' && path !== '');
    if (paths.length === 0) return { code: this.code, verdict: 'skip', summary: 'no concrete GET path to probe', details: [], evidence: [] };
    const exchanges = await Promise.all(paths.map((path) => context.send({ method: 'GET', url: `${context.baseUrl}${path}/` })));
    const judged = exchanges.filter((exchange, index) => exchange.status !== undefined && !answeredNeedsCredentials(context, paths[index] ?? '', exchange));
    const unanswered = exchanges.filter((exchange) => exchange.status === undefined);
    const wrong = judged.filter((exchange) => exchange.status !== 404);
    const unansweredLines = unanswered.map((exchange) => `GET ${new URL(exchange.url).pathname}: no answer (${exchange.error ?? 'unknown'})`);
    if (wrong.length > 0) {
      return {
        code: this.code,
        verdict: 'fail',
        summary: `${count(wrong.length, 'path')} with a trailing slash ${wrong.length === 1 ? 'does' : 'do'} not give 404`,
        details: [...wrong.map((exchange) => `GET ${new URL(exchange.url).pathname}: ${describeAnswer(exchange)}, expected 404`), ...unansweredLines],
        evidence: wrong.map((exchange) => evidenceOf(exchange, ['Location'])),
      };
    }
    if (unanswered.length > 0) return noAnswerResult(this.code, unansweredLines, unanswered.map((exchange) => evidenceOf(exchange)));
    if (judged.length === 0) return { code: this.code, verdict: 'skip', summary: 'no path could be probed without credentials: give --header "Authorization: ..."', details: [], evidence: [] };
    return { code: this.code, verdict: 'pass', summary: `${count(judged.length, 'path')} with a trailing slash ${judged.length === 1 ? 'gives' : 'give'} 404`, details: [], evidence: [] };
  },
};
