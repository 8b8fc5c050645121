import { isIP } from 'node:net';
import { TLS_DEADLINE_MS, type CheckContext, type LiveCheck } from '../context.js';
import type { Exchange } from '../http.js';
import { count, evidenceOf, noAnswerResult, pathLabel, worst, type CheckResult, type Evidence } from '../report.js';
import { probeTls, findingsOf, type ProbeResult } from '../tls/prober.js';
import { gradeFindings, type TlsGrade } from '../tls/grading.js';
import { IANA_CIPHER_SUITES } from '../tls/suites.js';
import { enumerationLines, gradeSummary, tlsTables } from '../tls/summary.js';

const ACCEPTED_PROTOCOLS = new Set(['TLSv1.2', 'TLSv1.3']);

/**
 * /core/transport/tls: the certificate verifies for the host and is not expired, the negotiated
 * protocol is TLS 1.2 or newer, plain HTTP on the same host serves no API content, and what the
 * server accepts (protocols, suites, groups, signature hashes, chain keys, options), enumerated by
 * the TLS prober, is graded against the NCSC guidelines: fail on Insufficient, warn on Phase out.
 */
export const tls: LiveCheck = {
  code: '/core/transport/tls',
  async run(context: CheckContext): Promise<CheckResult> {
    const base = new URL(context.baseUrl);
    if (base.protocol !== 'https:') {
      return { code: this.code, verdict: 'fail', summary: `the API is served over ${base.protocol.replace(':', '')}, not https`, details: [], evidence: [] };
    }
    const details: string[] = [];
    const evidence: Evidence[] = [];
    const root = await context.get('');
    const info = root.tls;
    if (context.options.insecure) details.push('certificate not verified (--insecure): the TLS check is not done');
    else if (root.error !== undefined && info === undefined) details.push(`no TLS connection: ${root.error}`);
    if (info !== undefined && !ACCEPTED_PROTOCOLS.has(info.protocol ?? '')) details.push(`negotiated ${info.protocol ?? 'unknown protocol'}, below TLS 1.2`);
    if (info?.validTo !== undefined && Date.parse(info.validTo) < Date.now()) details.push(`certificate expired on ${info.validTo}`);
    // The enumeration opens its own sockets, so it runs beside the plain-HTTP request.
    const probing = context.options.insecure ? undefined : probeAndGrade(context, base);
    // Plain HTTP is tried on the API's own paths, not only the base URL: a server may answer 404 at
    // the base and serve /openapi.json and the resources all the same.
    const plainAnswers = await Promise.all(plainProbePaths(context).map((path) => context.send({ method: 'GET', url: plainHttpUrl(context, base, path), anonymous: true })));
    const plain = plainAnswers.find(servesApiContent) ?? plainAnswers[0] as Exchange;
    const probed = await probing;
    for (const answer of plainAnswers.filter(servesApiContent)) {
      details.push(`plain HTTP serves API content: GET ${answer.url}: ${answer.status} ${answer.headers['content-type']}`);
      evidence.push(evidenceOf(answer, ['Content-Type'], undefined, true));
    }
    if (context.options.insecure) return { code: this.code, verdict: 'skip', summary: 'not done: --insecure skips certificate checks', details, evidence };
    // Nothing to judge: no connection for the request, and the prober saw no protocol accepted either.
    const probedSomething = probed !== undefined && probed.result.protocols.some((protocol) => protocol.accepted);
    if (info === undefined && root.error !== undefined && !probedSomething) return noAnswerResult(this.code, [`GET ${pathLabel(context.baseUrl, '')}: no TLS connection (${root.error})`], [evidenceOf(root)]);
    const gradeLines = probed === undefined ? [] : [...probed.grade.evidence, ...enumerationLines(probed.result)];
    const gradeNote = probed === undefined ? '' : `; ${gradeSummary(probed.result, probed.grade)}`;
    const tables = probed === undefined ? {} : { tables: tlsTables(probed.result, probed.grade) };
    if (details.length > 0) return { code: this.code, verdict: 'fail', summary: `transport security is not as the standard requires${gradeNote}`, details: [...details, ...gradeLines], evidence: [evidenceOf(root), ...evidence], ...tables };
    const plainNote = plain.status === undefined ? 'plain HTTP is closed' : `plain HTTP answers ${plain.status} without API content`;
    // A grade over what could be enumerated is not a pass for what could not: incomplete warns.
    const incomplete = probed !== undefined && probed.result.notes.length > 0;
    const verdict = worst(['pass', probed?.grade.verdict ?? 'pass', incomplete ? 'warn' : 'pass']);
    const incompleteNote = incomplete ? `; enumeration incomplete (${count(probed.result.notes.length, 'item')} not determined)` : '';
    return { code: this.code, verdict, summary: `${info?.protocol ?? 'TLS'} with a valid certificate; ${plainNote}${gradeNote}${incompleteNote}`, details: gradeLines, evidence: [], ...tables };
  },
};

const PLAIN_PROBES = 3;

/** The base URL, /openapi.json and a few of the API's resources: where API content would be. */
function plainProbePaths(context: CheckContext): string[] {
  return [...new Set(['', '/openapi.json', ...context.getPaths.filter((path) => path !== '').slice(0, PLAIN_PROBES)])];
}

function servesApiContent(exchange: Exchange): boolean {
  return exchange.status !== undefined && exchange.status < 300 && /json|yaml/i.test(exchange.headers['content-type'] ?? '');
}

function plainHttpUrl(context: CheckContext, base: URL, path: string): string {
  const plain = new URL(`${context.baseUrl}${path}`);
  plain.protocol = 'http:';
  plain.port = context.options.plainHttpPort === 80 ? '' : String(context.options.plainHttpPort);
  plain.hostname = base.hostname;
  return plain.href;
}

async function probeAndGrade(context: CheckContext, base: URL): Promise<{ result: ProbeResult; grade: TlsGrade } | undefined> {
  const { timeoutMs, deadline: runDeadline, concurrency, ca } = context.client.options;
  const name = base.hostname.replace(/^\[|\]$/g, '');
  const deadline = Math.min(runDeadline, Date.now() + (context.options.tlsDeadlineMs ?? TLS_DEADLINE_MS));
  // The run's pinned address: the prober's own sockets go where the HTTP requests went, the name stays
  // the SNI. No admitted address (unresolved, or refused by the address policy): no probe, since
  // probing the name would resolve it again past the pinning and the policy.
  const pinned = await context.client.resolver.resolve(name).catch(() => undefined);
  if (pinned === undefined) return undefined;
  const serverName = isIP(name) === 0 ? { serverName: name } : {};
  const result = await probeTls({ host: pinned.address, ...serverName, port: base.port === '' ? 443 : Number(base.port), timeoutMs, deadline, concurrency, ...(ca === undefined ? {} : { ca }) });
  return { result, grade: gradeFindings(findingsOf(result), IANA_CIPHER_SUITES) };
}
