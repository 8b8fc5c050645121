import { randomBytes } from 'node:crypto';
import { isUnderBase } from '../../lib/url-scope.js';
import { answeredNeedsCredentials, pathItemFor, type CheckContext, type LiveCheck } from '../context.js';
import { count, describeAnswer, evidenceOf, headerValue, isSuccess, noAnswerResult, pathLabel, type CheckResult, type Evidence } from '../report.js';
import type { Exchange, RequestSpec } from '../http.js';

const STANDARD = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface PathOutcome {
  problems: string[];
  evidence: Evidence[];
  /** What could not be observed: requests without an answer. */
  unanswered: string[];
  /** Undeclared DELETEs not sent because the resource exists. */
  deleteNotProbed: boolean;
}

/**
 * GET and HEAD work on each concrete GET path (the base URL included); an undeclared method gets
 * 405 with a non-empty Allow that lists the declared ones. TRACE is the probe (safe); unsafe
 * undeclared methods only with --unsafe, and then so that they cannot change anything: see
 * writeProbe. A path the description protects that answers 401 without credentials is not judged:
 * it is named in the report. Paths that leave the base URL are never requested.
 */
export const httpMethods: LiveCheck = {
  code: '/core/http-methods',
  async run(context: CheckContext): Promise<CheckResult> {
    const outside = context.getPaths.filter((path) => !isUnderBase(context.baseUrl, `${context.baseUrl}${path}`));
    const paths = context.getPaths.filter((path) => !outside.includes(path));
    if (paths.length === 0) return { code: this.code, verdict: 'skip', summary: 'no concrete GET path to probe', details: outsideNote(outside), evidence: [] };
    const outcomes = await Promise.all(paths.map((path) => judgePath(context, path)));
    const problems = outcomes.flatMap((outcome) => outcome.problems);
    const unanswered = outcomes.flatMap((outcome) => outcome.unanswered);
    const evidence = outcomes.flatMap((outcome) => outcome.evidence);
    const notes = [...deleteNote(context.baseUrl, paths.filter((_path, index) => outcomes[index]?.deleteNotProbed === true)), ...outsideNote(outside)];
    const judged = outcomes.filter((outcome, index) => !context.needCredentials.has(pathLabel(context.baseUrl, paths[index] ?? '')) && outcome.unanswered.length === 0).length;
    if (problems.length > 0) return { code: this.code, verdict: 'fail', summary: 'methods are not handled as the standard requires', details: [...problems, ...unanswered, ...notes], evidence };
    if (unanswered.length > 0) return { ...noAnswerResult(this.code, unanswered, evidence), details: [...unanswered, ...notes] };
    if (judged === 0) return { code: this.code, verdict: 'skip', summary: 'no path could be probed without credentials: give --header "Authorization: ..."', details: notes, evidence: [] };
    return { code: this.code, verdict: 'pass', summary: `GET and HEAD work on ${count(judged, 'path')}; undeclared methods get 405 with Allow`, details: notes, evidence: [] };
  },
};

function outsideNote(outside: string[]): string[] {
  return outside.length === 0 ? [] : [`not requested: ${outside.join(', ')} ${outside.length === 1 ? 'leaves' : 'leave'} the base URL (dot segments, encoded dots, slashes or backslashes). adr-check sends nothing outside the API it checks`];
}

/** Paths a note names before it counts the rest. */
const NAMED_PATHS = 5;

function deleteNote(baseUrl: string, existing: string[]): string[] {
  if (existing.length === 0) return [];
  const named = existing.slice(0, NAMED_PATHS).map((path) => pathLabel(baseUrl, path)).join(', ');
  const more = existing.length > NAMED_PATHS ? ` and ${count(existing.length - NAMED_PATHS, 'more path')}` : '';
  return [`undeclared DELETE not sent to ${named}${more}: ${existing.length === 1 ? 'it exists' : 'they exist'}, and a server that deletes without declaring DELETE (or ignores If-Match) would lose ${existing.length === 1 ? 'it' : 'them'}; TRACE, POST, PUT and PATCH judge the 405 there`];
}

async function judgePath(context: CheckContext, path: string): Promise<PathOutcome> {
  const outcome: PathOutcome = { problems: [], evidence: [], unanswered: [], deleteNotProbed: false };
  const label = pathLabel(context.baseUrl, path);
  const get = await context.get(path);
  if (get.status === undefined) {
    outcome.unanswered.push(`GET ${label}: no answer (${get.error ?? 'unknown'})`);
    outcome.evidence.push(evidenceOf(get));
    return outcome;
  }
  if (answeredNeedsCredentials(context, path, get)) return outcome;
  const declared = declaredMethods(context, path);
  const url = `${context.baseUrl}${path}`;
  const head = await context.send({ method: 'HEAD', url });
  if (!isSuccess(get.status)) { outcome.problems.push(`GET ${label}: ${describeAnswer(get)}, expected 2xx`); outcome.evidence.push(evidenceOf(get, [], undefined, true)); }
  if (head.status === undefined) outcome.unanswered.push(`HEAD ${label}: no answer (${head.error ?? 'unknown'})`);
  else if (head.status !== get.status) { outcome.problems.push(`HEAD ${label}: ${describeAnswer(head)}, GET gave ${get.status}`); outcome.evidence.push(evidenceOf(head)); }
  const methods = probeMethods(declared, context.options.unsafe);
  // A DELETE cannot be made harmless (no body to spoil, and If-Match may be ignored): only where GET said there is nothing to delete.
  outcome.deleteNotProbed = methods.includes('DELETE') && !GONE.includes(get.status);
  for (const method of methods.filter((candidate) => candidate !== 'DELETE' || !outcome.deleteNotProbed)) {
    const probe = method === 'TRACE' ? await context.send({ method, url }) : await writeProbe(context, method, url);
    const problem = probeProblem(probe, method, label, declared);
    if (problem === undefined) continue;
    if (probe.status === undefined) outcome.unanswered.push(problem);
    else outcome.problems.push(problem);
    outcome.evidence.push(evidenceOf(probe, ['Allow']));
  }
  return outcome;
}

/** A GET answer that says there is no resource: a DELETE there has nothing to remove. */
const GONE = [404, 410];

/** Not JSON, nor XML, nor a form any server reads as a resource: a server that implements the method can only refuse it. */
const UNPARSEABLE_BODY = '\u0000{"adr-check": "405 probe, not a resource"';

/**
 * An undeclared POST, PUT or PATCH sent so that it cannot create or change anything on a server
 * that implements the method after all: a body no parser takes, and preconditions that hold for
 * no resource (If-Match with an entity tag made up now, If-Unmodified-Since 1970). It goes
 * without the user's credentials; only when that gets 401 or 403 (a server that authenticates
 * before it routes) is it sent again with them, since only then are they needed to see the 405.
 */
async function writeProbe(context: CheckContext, method: string, url: string): Promise<Exchange> {
  const spec: RequestSpec = {
    method,
    url,
    body: UNPARSEABLE_BODY,
    headers: { 'content-type': 'application/json', 'if-match': `"adr-check-${randomBytes(12).toString('hex')}"`, 'if-unmodified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' },
  };
  const anonymous = await context.send({ ...spec, anonymous: true });
  if (!context.hasCredentials || (anonymous.status !== 401 && anonymous.status !== 403)) return anonymous;
  return context.send(spec);
}

/** What is wrong with the answer to an undeclared method, or undefined when it is a 405 with a complete Allow. */
function probeProblem(probe: Exchange, method: string, label: string, declared: string[]): string | undefined {
  if (probe.status === undefined) return `${method} ${label}: no answer (${probe.error ?? 'unknown'})`;
  if (probe.status !== 405) return `${method} ${label} (undeclared): ${describeAnswer(probe)}, expected 405${method !== 'TRACE' && isSuccess(probe.status) ? acceptedWrite(probe) : ''}`;
  const allowValue = probe.headers.allow;
  if (allowValue === undefined) return `${method} ${label}: 405 lacks Allow`;
  const allow = allowValue.split(',').map((item) => item.trim().toUpperCase()).filter(Boolean);
  if (allow.length === 0) return `${method} ${label}: 405 has ${headerValue('Allow', allowValue)}, expected the allowed methods`;
  const missing = declared.filter((item) => !allow.includes(item));
  if (missing.length > 0) return `${method} ${label}: 405 has ${headerValue('Allow', allowValue)}, which lacks ${missing.join(', ')}`;
  return undefined;
}

/** A write probe the API took although its body is no document: what it may have made, so that the user can look. */
function acceptedWrite(probe: Exchange): string {
  const location = probe.headers.location;
  return `; the API took a body that is no document${location === undefined ? '' : ` and names ${location} (Location) as what it made: see whether to delete it`}`;
}

/** The standard methods the description declares on the path item the concrete path came from. */
function declaredMethods(context: CheckContext, concretePath: string): string[] {
  const item = pathItemFor(context.description, concretePath, context.pathKeyPrefix);
  return STANDARD.filter((method) => item[method.toLowerCase()] !== undefined);
}

function probeMethods(declared: string[], unsafe: boolean): string[] {
  const unsafeUndeclared = unsafe ? STANDARD.filter((method) => method !== 'GET' && !declared.includes(method)) : [];
  return ['TRACE', ...unsafeUndeclared];
}
