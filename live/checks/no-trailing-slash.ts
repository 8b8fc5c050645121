import { answeredNeedsCredentials, type CheckContext, type LiveCheck } from '../context.js';
import type { Exchange } from '../http.js';
import { count, describeAnswer, evidenceOf, isSuccess, noAnswerResult, type CheckResult } from '../report.js';

/**
 * Each concrete GET path, and /openapi.json, with `/` appended gives 404, never a redirect. A 404
 * counts only where the path without the slash answers 2xx: where both are 404 the probe says
 * nothing about the slash (a description whose paths repeat the server URL's version, say).
 */
export const noTrailingSlash: LiveCheck = {
  code: '/core/no-trailing-slash',
  async run(context: CheckContext): Promise<CheckResult> {
    const paths = [...new Set([...context.getPaths.filter((path) => path !== '/' && path !== ''), '/openapi.json'])];
    const probes = await Promise.all(paths.map(async (path) => {
      const [plain, slashed] = await Promise.all([context.get(path), context.send({ method: 'GET', url: `${context.baseUrl}${path}/` })]);
      return { path, plain, slashed };
    }));
    const unanswered = probes.flatMap(({ plain, slashed }) => [plain, slashed]).filter((exchange) => exchange.status === undefined);
    const answered = probes.filter(({ path, plain, slashed }) => plain.status !== undefined && slashed.status !== undefined && !answeredNeedsCredentials(context, path, slashed));
    const wrong = answered.filter(({ slashed }) => slashed.status !== 404).map(({ slashed }) => slashed);
    const judged = answered.filter(({ plain, slashed }) => slashed.status !== 404 || isSuccess(plain.status ?? 0));
    const unjudged = answered.filter(({ plain, slashed }) => slashed.status === 404 && !isSuccess(plain.status ?? 0));
    const unjudgedLines = unjudged.map(({ plain }) => `not judged: GET ${new URL(plain.url).pathname} gives ${describeAnswer(plain)} without the slash too`);
    const unansweredLines = unanswered.map((exchange) => `GET ${new URL(exchange.url).pathname}: no answer (${exchange.error ?? 'unknown'})`);
    if (wrong.length > 0) {
      return {
        code: this.code,
        verdict: 'fail',
        summary: `${count(wrong.length, 'path')} with a trailing slash ${wrong.length === 1 ? 'does' : 'do'} not give 404`,
        details: [...wrong.map((exchange) => `GET ${new URL(exchange.url).pathname}: ${describeAnswer(exchange)}, expected 404`), ...unansweredLines, ...unjudgedLines],
        evidence: wrong.map((exchange: Exchange) => evidenceOf(exchange, ['Location'])),
      };
    }
    if (unanswered.length > 0) return noAnswerResult(this.code, [...unansweredLines, ...unjudgedLines], unanswered.map((exchange) => evidenceOf(exchange)));
    if (judged.length === 0) {
      const why = unjudged.length > 0 ? 'no path that exists without the slash to probe' : 'no path could be probed without credentials: give --header "Authorization: ..."';
      return { code: this.code, verdict: 'skip', summary: why, details: unjudgedLines, evidence: [] };
    }
    return { code: this.code, verdict: 'pass', summary: `${count(judged.length, 'path')} with a trailing slash ${judged.length === 1 ? 'gives' : 'give'} 404`, details: unjudgedLines, evidence: [] };
  },
};
