import { answeredNeedsCredentials, resourcePath, type CheckContext, type LiveCheck } from '../context.js';
import type { Exchange } from '../http.js';
import { describeAnswer, evidenceOf, noAnswerResult, pathLabel, type CheckResult, type Evidence } from '../report.js';

/** Traces of a stack or of the implementation in an error body (SPEC.md: no internal detail). */
const INTERNAL_DETAIL = /\bat [\w.<>$]{1,200} \([^)\n]{0,300}:\d+:\d+\)|\n\s+at \S+:\d+:\d+|Traceback \(most recent call last\)|\.java:\d+\)|node_modules\/|Exception in thread|\bstack\b["']?\s*:/;
const UNSERVABLE = 'application/x-adr-check-unservable';

/**
 * What is wrong with an error response, with the strength of the SPEC sentence it breaks: a MUST
 * (the right status, no internal detail, never the Accept value as Content-Type) fails, a SHOULD
 * (problem+json) or an "ideally" (406) warns.
 */
interface Problem { text: string; level: 'must' | 'should' }

/**
 * An unknown path gives 404 without internal detail (problem+json: SHOULD); an unservable Accept is
 * never copied into Content-Type and ideally gives 406 (SPEC.md, Errors).
 */
export const httpResponseCode: LiveCheck = {
  code: '/core/http-response-code',
  async run(context: CheckContext): Promise<CheckResult> {
    const problems: Problem[] = [];
    const evidence: Evidence[] = [];
    const unanswered: string[] = [];
    const unknown = await context.send({ method: 'GET', url: `${context.baseUrl}/adr-check-unknown-${Date.now().toString(36)}` });
    if (unknown.status === undefined) unanswered.push(`GET ${new URL(unknown.url).pathname}: no answer (${unknown.error ?? 'unknown'})`);
    else {
      const found = unknownPathProblems(unknown);
      problems.push(...found);
      if (found.length > 0) evidence.push(evidenceOf(unknown, ['Content-Type'], undefined, true));
    }
    const path = resourcePath(context);
    const notAcceptable = await context.send({ method: 'GET', url: `${context.baseUrl}${path}`, headers: { accept: UNSERVABLE } });
    const notes: string[] = [];
    if (notAcceptable.status === undefined) unanswered.push(`GET ${pathLabel(context.baseUrl, path)} with Accept: ${UNSERVABLE}: no answer (${notAcceptable.error ?? 'unknown'})`);
    else if (answeredNeedsCredentials(context, path, notAcceptable)) notes.push(`Accept not tested: ${pathLabel(context.baseUrl, path)} needs credentials`);
    else {
      const problem = notAcceptableProblem(notAcceptable);
      if (problem !== undefined) { problems.push(problem); evidence.push(evidenceOf(notAcceptable, ['Content-Type'])); }
    }
    const details = problems.map((problem) => `${problem.text}${problem.level === 'should' ? ' (SHOULD: a warning)' : ''}`);
    if (problems.some((problem) => problem.level === 'must')) return { code: this.code, verdict: 'fail', summary: 'error responses are not as the standard requires', details: [...details, ...unanswered], evidence };
    if (unanswered.length > 0) return noAnswerResult(this.code, [...details, ...unanswered], evidence);
    if (problems.length > 0) return { code: this.code, verdict: 'warn', summary: 'error responses are not as the standard recommends', details, evidence };
    const acceptNote = notes.length > 0 ? '' : '; an unservable Accept gives 406';
    return { code: this.code, verdict: 'pass', summary: `unknown paths give 404 problem+json${acceptNote}`, details: notes, evidence: [] };
  },
};

function unknownPathProblems(unknown: Exchange): Problem[] {
  const problems: Problem[] = [];
  const contentType = unknown.headers['content-type'];
  if (unknown.status !== 404) problems.push({ text: `an unknown path gives ${describeAnswer(unknown)}, expected 404`, level: 'must' });
  // Only an error response is held to the error media type: a 200 or a redirect is already wrong by its status.
  if (!isErrorStatus(unknown.status)) return problems;
  if (contentType === undefined) problems.push({ text: `the ${unknown.status} lacks Content-Type, expected application/problem+json`, level: 'should' });
  else if (!/^application\/problem\+(json|xml)/i.test(contentType)) problems.push({ text: `the ${unknown.status} has Content-Type: ${contentType}, expected application/problem+json`, level: 'should' });
  if (INTERNAL_DETAIL.test(unknown.body)) problems.push({ text: 'the error body shows a stack trace or internal detail', level: 'must' });
  return problems;
}

function isErrorStatus(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status < 600;
}

function notAcceptableProblem(exchange: Exchange): Problem | undefined {
  const served = exchange.headers['content-type'] ?? '';
  if (served.toLowerCase().startsWith(UNSERVABLE)) return { text: `the Accept value is copied into Content-Type: ${served}`, level: 'must' };
  if (exchange.status !== 406) return { text: `Accept: ${UNSERVABLE} gives ${describeAnswer(exchange)}, expected 406`, level: 'should' };
  return undefined;
}
