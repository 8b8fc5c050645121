import YAML from 'yaml';
import type { CheckContext, LiveCheck } from '../context.js';
import { describeAnswer, evidenceOf, noAnswerResult, type CheckResult } from '../report.js';
import type { Exchange } from '../http.js';
import { isObject, type JsonObject } from '../../lib/json.js';
import { firstDifference } from '../../lib/json-difference.js';

/** GET /openapi.json without credentials: 200, JSON, OpenAPI 3.0.x, `*` origin; /openapi.yaml the same content. */
export const publishOpenapi: LiveCheck = {
  code: '/core/publish-openapi',
  async run(context: CheckContext): Promise<CheckResult> {
    const json = await context.send({ method: 'GET', url: `${context.baseUrl}/openapi.json`, anonymous: true });
    if (json.status === undefined) return noAnswerResult(this.code, [`GET /openapi.json: no answer (${json.error ?? 'unknown'})`], [evidenceOf(json)]);
    const problems = json.status === 200 ? documentProblems(json, context.description) : [`/openapi.json answered ${describeAnswer(json)} without credentials, expected 200`];
    const deciding = ['content-type', 'access-control-allow-origin'];
    const evidence = [evidenceOf(json, deciding, undefined, problems.length > 0)];
    const yaml = await context.send({ method: 'GET', url: `${context.baseUrl}/openapi.yaml`, anonymous: true, keepBody: true });
    evidence.push(evidenceOf(yaml, ['content-type']));
    const details = [...problems, ...yamlProblems(yaml, context.description)];
    if (details.length > 0) return { code: this.code, verdict: 'fail', summary: 'the description is not published as the standard requires', details, evidence };
    const yamlNote = yaml.status === 200 ? '; /openapi.yaml has the same content' : '; /openapi.yaml is not served (optional)';
    return { code: this.code, verdict: 'pass', summary: `/openapi.json is public OpenAPI ${String(context.description?.openapi)} with Access-Control-Allow-Origin: *${yamlNote}`, details: [], evidence };
  },
};

function documentProblems(json: Exchange, description: JsonObject | undefined): string[] {
  if (json.bodyTruncated) return [`/openapi.json is larger than --max-body: body truncated at ${json.bodyBytes} bytes`];
  const problems: string[] = [];
  const contentType = json.headers['content-type'];
  const allowOrigin = json.headers['access-control-allow-origin'];
  if (contentType === undefined) problems.push('/openapi.json lacks Content-Type (expected application/json)');
  else if (!/json/i.test(contentType)) problems.push(`/openapi.json has Content-Type: ${contentType}, expected application/json`);
  if (allowOrigin === undefined) problems.push('/openapi.json lacks Access-Control-Allow-Origin (expected *)');
  else if (allowOrigin !== '*') problems.push(`/openapi.json has Access-Control-Allow-Origin: ${allowOrigin}, expected *`);
  if (description === undefined) problems.push('/openapi.json is not an OpenAPI description (no openapi member in a JSON object)');
  else if (!/^3\.0\.\d+$/.test(String(description.openapi))) problems.push(`/openapi.json has openapi: ${String(description.openapi)}, expected 3.0.x`);
  return problems;
}

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
  if (!isObject(description)) return [];
  const difference = firstDifference(description, parsed);
  return difference === undefined ? [] : [`/openapi.yaml differs from /openapi.json, first at ${difference}`];
}
