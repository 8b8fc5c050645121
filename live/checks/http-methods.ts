import { answeredNeedsCredentials, pathItemFor, type CheckContext, type LiveCheck } from '../context.js';
import { count, describeAnswer, evidenceOf, headerValue, isSuccess, noAnswerResult, pathLabel, type CheckResult, type Evidence } from '../report.js';
import type { Exchange } from '../http.js';

const STANDARD = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface PathOutcome {
  problems: string[];
  evidence: Evidence[];
  /** What could not be observed: requests without an answer. */
  unanswered: string[];
}

/**
 * GET and HEAD work on each concrete GET path (the base URL included); an undeclared method gets
 * 405 with a non-empty Allow that lists the declared ones. TRACE is the probe (safe); unsafe
 * undeclared methods only with --unsafe. A path the description protects that answers 401
 * without credentials is not judged: it is named in the report.
 */
export const httpMethods: LiveCheck = {
  code: '/core/http-methods',
  async run(context: CheckContext): Promise<CheckResult> {
    if (context.getPaths.length === 0) return { code: this.code, verdict: 'skip', summary: 'no concrete GET path to probe', details: [], evidence: [] };
    const outcomes = await Promise.all(context.getPaths.map((path) => judgePath(context, path)));
    const problems = outcomes.flatMap((outcome) => outcome.problems);
    const unanswered = outcomes.flatMap((outcome) => outcome.unanswered);
    const evidence = outcomes.flatMap((outcome) => outcome.evidence);
    const judged = outcomes.filter((outcome, index) => !context.needCredentials.has(pathLabel(context.getPaths[index] ?? '')) && outcome.unanswered.length === 0).length;
    if (problems.length > 0) return { code: this.code, verdict: 'fail', summary: 'methods are not handled as the standard requires', details: [...problems, ...unanswered], evidence };
    if (unanswered.length > 0) return noAnswerResult(this.code, unanswered, evidence);
    if (judged === 0) return { code: this.code, verdict: 'skip', summary: 'no path could be probed without credentials: give --header "Authorization: ..."', details: [], evidence: [] };
    return { code: this.code, verdict: 'pass', summary: `GET and HEAD work on ${count(judged, 'path')}; undeclared methods get 405 with Allow`, details: [], evidence: [] };
  },
};

async function judgePath(context: CheckContext, path: string): Promise<PathOutcome> {
  const outcome: PathOutcome = { problems: [], evidence: [], unanswered: [] };
  const label = pathLabel(path);
  const get = await context.get(path);
  if (get.status === undefined) {
    outcome.unanswered.push(`GET ${label}: no answer (${get.error ?? 'unknown'})`);
    outcome.evidence.push(evidenceOf(get));
    return outcome;
  }
  if (answeredNeedsCredentials(context, path, get)) return outcome;
  const declared = declaredMethods(context, path);
  const head = await context.send({ method: 'HEAD', url: `${context.baseUrl}${path}` });
  if (!isSuccess(get.status)) { outcome.problems.push(`GET ${label}: ${describeAnswer(get)}, expected 2xx`); outcome.evidence.push(evidenceOf(get, [], undefined, true)); }
  if (head.status === undefined) outcome.unanswered.push(`HEAD ${label}: no answer (${head.error ?? 'unknown'})`);
  else if (head.status !== get.status) { outcome.problems.push(`HEAD ${label}: ${describeAnswer(head)}, GET gave ${get.status}`); outcome.evidence.push(evidenceOf(head)); }
  for (const method of probeMethods(declared, context.options.unsafe)) {
    const probe = await context.send({ method, url: `${context.baseUrl}${path}` });
    const problem = probeProblem(probe, method, label, declared);
    if (problem === undefined) continue;
    if (probe.status === undefined) outcome.unanswered.push(problem);
    else outcome.problems.push(problem);
    outcome.evidence.push(evidenceOf(probe, ['Allow']));
  }
  return outcome;
}

/** What is wrong with the answer to an undeclared method, or undefined when it is a 405 with a complete Allow. */
function probeProblem(probe: Exchange, method: string, label: string, declared: string[]): string | undefined {
  if (probe.status === undefined) return `${method} ${label}: no answer (${probe.error ?? 'unknown'})`;
  if (probe.status !== 405) return `${method} ${label} (undeclared): ${describeAnswer(probe)}, expected 405`;
  const allowValue = probe.headers.allow;
  if (allowValue === undefined) return `${method} ${label}: 405 lacks Allow`;
  const allow = allowValue.split(',').map((item) => item.trim().toUpperCase()).filter(Boolean);
  if (allow.length === 0) return `${method} ${label}: 405 has ${headerValue('Allow', allowValue)}, expected the allowed methods`;
  const missing = declared.filter((item) => !allow.includes(item));
  if (missing.length > 0) return `${method} ${label}: 405 has ${headerValue('Allow', allowValue)}, which lacks ${missing.join(', ')}`;
  return undefined;
}

/** The standard methods the description declares on the path item the concrete path came from. */
function declaredMethods(context: CheckContext, concretePath: string): string[] {
  const item = pathItemFor(context.description, concretePath);
  return STANDARD.filter((method) => item[method.toLowerCase()] !== undefined);
}

function probeMethods(declared: string[], unsafe: boolean): string[] {
  const unsafeUndeclared = unsafe ? STANDARD.filter((method) => method !== 'GET' && !declared.includes(method)) : [];
  return ['TRACE', ...unsafeUndeclared];
}
