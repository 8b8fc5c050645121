import { resourcePath, type CheckContext, type LiveCheck } from '../context.js';
import { describeAnswer, evidenceOf, type CheckResult, type Evidence } from '../report.js';

/** Traces of a stack or of the implementation in an error body (SPEC.md: no internal detail). */
const INTERNAL_DETAIL = /\bat [\w.<>$]{1,200} \([^)\n]{0,300}:\d+:\d+\)|\n\s+at \S+:\d+:\d+|Traceback \(most recent call last\)|\.java:\d+\)|node_modules\/|Exception in thread|\bstack\b["']?\s*:/;
const UNSERVABLE = 'application/x-adr-check-unservable';

/** An unknown path gives 404 problem+json without internal detail; an unservable Accept gives 406. */
export const httpResponseCode: LiveCheck = {
  code: '/core/http-response-code',
  async run(context: CheckContext): Promise<CheckResult> {
    const details: string[] = [];
    const evidence: Evidence[] = [];
    const unknown = await context.send({ method: 'GET', url: `${context.baseUrl}/adr-check-unknown-${Date.now().toString(36)}` });
    const contentType = unknown.headers['content-type'] ?? '';
    if (unknown.status !== 404) details.push(`an unknown path gives ${describeAnswer(unknown)}, not 404`);
    if (!/^application\/problem\+(json|xml)/i.test(contentType)) details.push(`the 404 is ${contentType || 'without Content-Type'}, not application/problem+json`);
    if (INTERNAL_DETAIL.test(unknown.body)) details.push('the error body shows a stack trace or internal detail');
    if (details.length > 0) evidence.push(evidenceOf(unknown, ['Content-Type'], undefined, true));
    const path = resourcePath(context);
    const notAcceptable = await context.send({ method: 'GET', url: `${context.baseUrl}${path}`, headers: { accept: UNSERVABLE } });
    const served = notAcceptable.headers['content-type'] ?? '';
    if (served.toLowerCase().startsWith(UNSERVABLE)) details.push(`the Accept value is copied into Content-Type: ${served}`);
    else if (notAcceptable.status !== 406) details.push(`Accept: ${UNSERVABLE} gives ${notAcceptable.status ?? notAcceptable.error}, not 406 (ideally)`);
    if (served.toLowerCase().startsWith(UNSERVABLE) || notAcceptable.status !== 406) evidence.push(evidenceOf(notAcceptable, ['Content-Type']));
    if (details.length > 0) return { code: this.code, verdict: 'fail', summary: 'error responses are not as the standard requires', details, evidence };
    return { code: this.code, verdict: 'pass', summary: 'unknown paths give 404 problem+json; an unservable Accept gives 406', details: [], evidence: [] };
  },
};
