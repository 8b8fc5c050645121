import type { CheckContext, LiveCheck } from '../context.js';
import { evidenceOf, type CheckResult, type Evidence } from '../report.js';
import { asObject } from '../../lib/json.js';
import { matchesPathTemplate } from '../../lib/path-template.js';

const STANDARD = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * GET and HEAD work on each concrete GET path; an undeclared method gets 405 with an Allow that
 * lists the declared ones. TRACE is the probe (safe); unsafe undeclared methods only with --unsafe.
 */
export const httpMethods: LiveCheck = {
  code: '/core/http-methods',
  async run(context: CheckContext): Promise<CheckResult> {
    if (context.getPaths.length === 0) return { code: this.code, verdict: 'skip', summary: 'no concrete GET path to probe', details: [], evidence: [] };
    const details: string[] = [];
    const evidence: Evidence[] = [];
    await Promise.all(context.getPaths.map(async (path) => {
      const declared = declaredMethods(context, path);
      const get = await context.get(path);
      const head = await context.send({ method: 'HEAD', url: `${context.baseUrl}${path}` });
      if (!isSuccess(get.status)) { details.push(`GET ${path}: ${get.status ?? get.error}`); evidence.push(evidenceOf(get, [], undefined, true)); }
      if (head.status !== get.status) { details.push(`HEAD ${path}: ${head.status ?? head.error}, GET gave ${get.status ?? get.error}`); evidence.push(evidenceOf(head)); }
      for (const method of probeMethods(declared, context.options.unsafe)) {
        const probe = await context.send({ method, url: `${context.baseUrl}${path}` });
        const allow = (probe.headers.allow ?? '').split(',').map((item) => item.trim().toUpperCase()).filter(Boolean);
        const missing = declared.filter((item) => !allow.includes(item));
        if (probe.status !== 405) details.push(`${method} ${path} (undeclared): ${probe.status ?? probe.error}, not 405`);
        else if (probe.headers.allow === undefined) details.push(`${method} ${path}: 405 without Allow`);
        else if (missing.length > 0) details.push(`${method} ${path}: Allow ${probe.headers.allow} lacks ${missing.join(', ')}`);
        else continue;
        evidence.push(evidenceOf(probe, ['Allow']));
      }
    }));
    if (details.length > 0) return { code: this.code, verdict: 'fail', summary: 'methods are not handled as the standard requires', details, evidence };
    return { code: this.code, verdict: 'pass', summary: `GET and HEAD work on ${context.getPaths.length} paths; undeclared methods get 405 with Allow`, details: [], evidence: [] };
  },
};

function isSuccess(status: number | undefined): boolean {
  return status !== undefined && status >= 200 && status < 300;
}

/** The standard methods the description declares on the path item the concrete path came from. */
function declaredMethods(context: CheckContext, concretePath: string): string[] {
  const paths = asObject(context.description?.paths);
  // A literal path wins over a template that also fits it, as OpenAPI matches them.
  const key = paths[concretePath] !== undefined ? concretePath : Object.keys(paths).find((pathKey) => matchesPathTemplate(pathKey, concretePath));
  const item = asObject(key === undefined ? undefined : paths[key]);
  return STANDARD.filter((method) => item[method.toLowerCase()] !== undefined);
}

function probeMethods(declared: string[], unsafe: boolean): string[] {
  const unsafeUndeclared = unsafe ? STANDARD.filter((method) => method !== 'GET' && !declared.includes(method)) : [];
  return ['TRACE', ...unsafeUndeclared];
}
