import { resourcePath, type CheckContext, type LiveCheck } from '../context.js';
import type { Exchange } from '../http.js';
import { describeAnswer, evidenceOf, noAnswerResult, pathLabel, worst, type CheckResult, type Evidence, type Verdict } from '../report.js';

const FOREIGN_ORIGIN = 'https://adr-check.invalid';

interface Judgement { verdict: Verdict; detail?: string }

/**
 * A foreign Origin is not allowed, on a simple request (GET) nor on a preflight (OPTIONS with
 * Access-Control-Request-Method); `*` outside /openapi.json is a warning (NOT RECOMMENDED); a
 * configured allowed origin is echoed with `Vary: Origin`, and its preflight is answered.
 */
export const cors: LiveCheck = {
  code: '/core/transport/cors',
  async run(context: CheckContext): Promise<CheckResult> {
    const path = resourcePath(context);
    const url = `${context.baseUrl}${path}`;
    const label = pathLabel(context.baseUrl, path);
    const foreign = await context.send({ method: 'GET', url, headers: { origin: FOREIGN_ORIGIN } });
    const foreignPreflight = await context.send({ method: 'OPTIONS', url, headers: { origin: FOREIGN_ORIGIN, 'access-control-request-method': 'GET' } });
    const unanswered = [foreign, foreignPreflight].filter((exchange) => exchange.status === undefined);
    const judgements = [judgeForeign(foreign, `GET ${label}`), judgeForeign(foreignPreflight, `the preflight (OPTIONS) of ${label}`)];
    const evidence: Evidence[] = [evidenceOf(foreign, ['Access-Control-Allow-Origin', 'Vary']), evidenceOf(foreignPreflight, ['Access-Control-Allow-Origin', 'Access-Control-Allow-Methods'])];
    const notes: string[] = [];
    const allowed = context.options.allowedOrigin;
    if (allowed === undefined) notes.push('allowed origin not tested: give --cors-origin <origin>');
    else {
      const echoed = await context.send({ method: 'GET', url, headers: { origin: allowed } });
      const preflight = await context.send({ method: 'OPTIONS', url, headers: { origin: allowed, 'access-control-request-method': 'GET' } });
      evidence.push(evidenceOf(echoed, ['Access-Control-Allow-Origin', 'Vary']), evidenceOf(preflight, ['Access-Control-Allow-Origin', 'Access-Control-Allow-Methods']));
      unanswered.push(...[echoed, preflight].filter((exchange) => exchange.status === undefined));
      judgements.push(judgeAllowed(echoed, allowed), judgeAllowedPreflight(preflight, allowed));
    }
    const verdict = worst(judgements.map((judgement) => judgement.verdict));
    const details = judgements.flatMap((judgement) => (judgement.detail === undefined ? [] : [judgement.detail]));
    const unansweredLines = unanswered.map((exchange) => `${exchange.method} ${new URL(exchange.url).pathname}: no answer (${exchange.error ?? 'unknown'})`);
    if (verdict === 'fail' || verdict === 'warn') return { code: this.code, verdict, summary: 'CORS does not follow an allowlist', details: [...details, ...unansweredLines, ...notes], evidence };
    if (unanswered.length > 0) return noAnswerResult(this.code, unansweredLines, evidence);
    // An API that sends no CORS header at all allows no other origin: right, but it has no allowlist to speak of.
    const anyCors = [foreign, foreignPreflight].some((exchange) => Object.keys(exchange.headers).some((name) => name.startsWith('access-control-')));
    const summary = anyCors
      ? 'CORS follows an allowlist: a foreign Origin is refused on GET and on a preflight'
      : `no CORS headers on ${label}: a foreign Origin is not allowed on GET nor on a preflight`;
    return { code: this.code, verdict: 'pass', summary, details: notes, evidence: [] };
  },
};

function judgeForeign(exchange: Exchange, what: string): Judgement {
  const allowedOrigin = exchange.headers['access-control-allow-origin'];
  if (exchange.status === undefined) return { verdict: 'pass' };
  if (allowedOrigin === FOREIGN_ORIGIN) return { verdict: 'fail', detail: `${what} allows a foreign Origin: Access-Control-Allow-Origin: ${allowedOrigin}` };
  if (allowedOrigin === '*') return { verdict: 'warn', detail: `${what} has Access-Control-Allow-Origin: * (a wildcard is NOT RECOMMENDED outside /openapi.json)` };
  return { verdict: 'pass' };
}

function judgeAllowed(exchange: Exchange, allowed: string): Judgement {
  if (exchange.status === undefined) return { verdict: 'pass' };
  const echoed = exchange.headers['access-control-allow-origin'];
  if (echoed !== allowed) return { verdict: 'fail', detail: echoed === undefined ? `the allowed origin ${allowed} gets no Access-Control-Allow-Origin` : `the allowed origin ${allowed} gets Access-Control-Allow-Origin: ${echoed}, expected ${allowed}` };
  if (!/\borigin\b/i.test(exchange.headers.vary ?? '')) return { verdict: 'fail', detail: `the allowed origin is echoed but the response lacks Vary: Origin${exchange.headers.vary === undefined ? '' : ` (it has Vary: ${exchange.headers.vary})`}` };
  return { verdict: 'pass' };
}

function judgeAllowedPreflight(preflight: Exchange, allowed: string): Judgement {
  if (preflight.status === undefined) return { verdict: 'pass' };
  const echoed = preflight.headers['access-control-allow-origin'];
  if (preflight.status >= 300 || echoed !== allowed) {
    return { verdict: 'fail', detail: `the preflight for ${allowed} is not allowed: ${describeAnswer(preflight)}, ${echoed === undefined ? 'no Access-Control-Allow-Origin' : `Access-Control-Allow-Origin: ${echoed}`}` };
  }
  return { verdict: 'pass' };
}
