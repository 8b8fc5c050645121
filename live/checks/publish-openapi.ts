import { isDeepStrictEqual } from 'node:util';
import YAML from 'yaml';
import type { CheckContext, LiveCheck } from '../context.js';
import { evidenceOf, type CheckResult } from '../report.js';
import { isObject } from '../../lib/json.js';

/** GET /openapi.json without credentials: 200, JSON, OpenAPI 3.0.x, `*` origin; /openapi.yaml the same content. */
export const publishOpenapi: LiveCheck = {
  code: '/core/publish-openapi',
  async run(context: CheckContext): Promise<CheckResult> {
    const json = await context.send({ method: 'GET', url: `${context.baseUrl}/openapi.json`, anonymous: true });
    const problems: string[] = [];
    const deciding = ['content-type', 'access-control-allow-origin'];
    if (json.status !== 200) problems.push(`/openapi.json answered ${json.status ?? json.error} without credentials, not 200`);
    else {
      if (!/json/i.test(json.headers['content-type'] ?? '')) problems.push(`Content-Type is ${json.headers['content-type'] ?? 'missing'}, not JSON`);
      if (json.headers['access-control-allow-origin'] !== '*') problems.push(`Access-Control-Allow-Origin is ${json.headers['access-control-allow-origin'] ?? 'missing'}, not *`);
      if (!/^3\.0\.\d+$/.test(String(context.description?.openapi))) problems.push(`openapi is ${String(context.description?.openapi ?? 'not readable')}, not 3.0.x`);
    }
    const evidence = [evidenceOf(json, deciding, undefined, problems.length > 0)];
    const yaml = await context.send({ method: 'GET', url: `${context.baseUrl}/openapi.yaml`, anonymous: true });
    evidence.push(evidenceOf(yaml, ['content-type']));
    const details = [...problems, ...yamlProblems(yaml.status, yaml.body, context.description)];
    if (details.length > 0) return { code: this.code, verdict: 'fail', summary: 'the description is not published as the standard requires', details, evidence };
    const yamlNote = yaml.status === 200 ? '; /openapi.yaml has the same content' : '; /openapi.yaml is not served (optional)';
    return { code: this.code, verdict: 'pass', summary: `/openapi.json is public OpenAPI ${String(context.description?.openapi)} with Access-Control-Allow-Origin: *${yamlNote}`, details: [], evidence };
  },
};

function yamlProblems(status: number | undefined, body: string, description: unknown): string[] {
  if (status === 404 || status === 406) return [];
  if (status !== 200) return [`/openapi.yaml answered ${status ?? 'nothing'}`];
  let parsed: unknown;
  try {
    parsed = YAML.parse(body);
  } catch {
    return ['/openapi.yaml is not YAML'];
  }
  if (!isObject(description) || !isDeepStrictEqual(parsed, description)) return ['/openapi.yaml differs in content from /openapi.json'];
  return [];
}
