import { resourcePath, type CheckContext, type LiveCheck } from '../context.js';
import { evidenceOf, worst, type CheckResult, type Evidence, type Verdict } from '../report.js';

const FOREIGN_ORIGIN = 'https://adr-check.invalid';

/**
 * A foreign Origin is not echoed; `*` outside /openapi.json is a warning (NOT RECOMMENDED);
 * a configured allowed origin is echoed with `Vary: Origin`, and its preflight is answered.
 */
export const cors: LiveCheck = {
  code: '/core/transport/cors',
  async run(context: CheckContext): Promise<CheckResult> {
    const path = resourcePath(context);
    const url = `${context.baseUrl}${path}`;
    const verdicts: Verdict[] = [];
    const details: string[] = [];
    const evidence: Evidence[] = [];
    const foreign = await context.send({ method: 'GET', url, headers: { origin: FOREIGN_ORIGIN } });
    const foreignAllowed = foreign.headers['access-control-allow-origin'];
    evidence.push(evidenceOf(foreign, ['Access-Control-Allow-Origin', 'Vary']));
    if (foreignAllowed === FOREIGN_ORIGIN) { verdicts.push('fail'); details.push(`a foreign Origin is echoed on ${path || '/'}: ${foreignAllowed}`); }
    else if (foreignAllowed === '*') { verdicts.push('warn'); details.push(`Access-Control-Allow-Origin: * on ${path || '/'} (a wildcard is NOT RECOMMENDED outside /openapi.json)`); }
    const allowed = context.options.allowedOrigin;
    if (allowed === undefined) {
      details.push('allowed origin not tested: give --cors-origin <origin>');
    } else {
      const echoed = await context.send({ method: 'GET', url, headers: { origin: allowed } });
      evidence.push(evidenceOf(echoed, ['Access-Control-Allow-Origin', 'Vary']));
      if (echoed.headers['access-control-allow-origin'] !== allowed) { verdicts.push('fail'); details.push(`allowed origin ${allowed} is not echoed: ${echoed.headers['access-control-allow-origin'] ?? 'no Access-Control-Allow-Origin'}`); }
      else if (!/\borigin\b/i.test(echoed.headers.vary ?? '')) { verdicts.push('fail'); details.push(`allowed origin echoed without Vary: Origin (Vary: ${echoed.headers.vary ?? 'missing'})`); }
      const preflight = await context.send({ method: 'OPTIONS', url, headers: { origin: allowed, 'access-control-request-method': 'GET' } });
      evidence.push(evidenceOf(preflight, ['Access-Control-Allow-Origin', 'Access-Control-Allow-Methods']));
      if (preflight.status === undefined || preflight.status >= 300 || preflight.headers['access-control-allow-origin'] !== allowed) {
        verdicts.push('fail');
        details.push(`preflight for ${allowed} is not answered: ${preflight.status ?? preflight.error}, Access-Control-Allow-Origin ${preflight.headers['access-control-allow-origin'] ?? 'missing'}`);
      }
    }
    const verdict = worst(verdicts);
    const summary = verdict === 'pass' ? 'CORS follows an allowlist' : 'CORS does not follow an allowlist';
    return { code: this.code, verdict, summary, details, evidence: verdict === 'pass' ? [] : evidence };
  },
};
