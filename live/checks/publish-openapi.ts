import { isDeepStrictEqual } from 'node:util';
import YAML from 'yaml';
import type { CheckContext, LiveCheck } from '../context.js';
import { describeAnswer, evidenceOf, type CheckResult } from '../report.js';
import type { Exchange } from '../http.js';
import { isObject } from '../../lib/json.js';

/** GET /openapi.json without credentials: 200, JSON, OpenAPI 3.0.x, `*` origin; /openapi.yaml the same content. */
export const publishOpenapi: LiveCheck = {
  code: '/core/publish-openapi',
  async run(context: CheckContext): Promise<CheckResult> {
    const json = await context.send({ method: 'GET', url: `${context.baseUrl}/openapi.json`, anonymous: true });
    const problems: string[] = [];
    const deciding = ['content-type', 'access-control-allow-origin'];
    if (json.status !== 200) problems.push(`/openapi.json answered ${describeAnswer(json)} without credentials, not 200`);
    else if (json.bodyTruncated) problems.push(`/openapi.json is larger than --max-body: body truncated at ${json.bodyBytes} bytes`);
    else {
      if (!/json/i.test(json.headers['content-type'] ?? '')) problems.push(`Content-Type is ${json.headers['content-type'] ?? 'missing'}, not JSON`);
      if (json.headers['access-control-allow-origin'] !== '*') problems.push(`Access-Control-Allow-Origin is ${json.headers['access-control-allow-origin'] ?? 'missing'}, not *`);
      if (!/^3\.0\.\d+$/.test(String(context.description?.openapi))) problems.push(`openapi is ${String(context.description?.openapi ?? 'not readable')}, not 3.0.x`);
    }
    const evidence = [evidenceOf(json, deciding, undefined, problems.length > 0)];
    const yaml = await context.send({ method: 'GET', url: `${context.baseUrl}/openapi.yaml`, anonymous: true, keepBody: true });
    evidence.push(evidenceOf(yaml, ['content-type']));
    const details = [...problems, ...yamlProblems(yaml, context.description)];
    if (details.length > 0) return { code: this.code, verdict: 'fail', summary: 'the description is not published as the standard requires', details, evidence };
    const yamlNote = yaml.status === 200 ? '; /openapi.yaml has the same content' : '; /openapi.yaml is not served (optional)';
    return { code: this.code, verdict: 'pass', summary: `/openapi.json is public OpenAPI ${String(context.description?.openapi)} with Access-Control-Allow-Origin: *${yamlNote}`, details: [], evidence };
  },
};

function yamlProblems(yaml: Exchange, description: unknown): string[] {
  if (yaml.status === 404 || yaml.status === 406) return [];
  if (yaml.status !== 200) return [`/openapi.yaml answered ${describeAnswer(yaml)}`];
  if (yaml.bodyTruncated) return [`/openapi.yaml is larger than --max-body: body truncated at ${yaml.bodyBytes} bytes`];
  let parsed: unknown;
  try {
    parsed = YAML.parse(yaml.body);
  } catch {
    return ['/openapi.yaml is not YAML'];
  }
  try {
    if (!isObject(description) || !isDeepStrictEqual(parsed, description)) return ['/openapi.yaml differs in content from /openapi.json'];
  } catch {
    // A comparison that recurses past the stack: the documents are too deep to compare.
    return ['/openapi.yaml could not be compared with /openapi.json: nested too deeply'];
  }
  return [];
}
