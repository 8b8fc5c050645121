import type { CheckContext, LiveCheck } from '../context.js';
import { describeAnswer, evidenceOf, noAnswerResult, type CheckResult } from '../report.js';
import type { Exchange } from '../http.js';
import type { JsonObject } from '../../lib/json.js';
import { compareYamlInWorker } from '../lint/run-lint.js';
import { openApiDescription, shownUrl, unreadServiceDescs, whatWasServed } from '../service-desc.js';

/**
 * GET /openapi.json without credentials: 200, JSON, OpenAPI 3.0.x, `*` origin; /openapi.yaml the
 * same content. /openapi.json is judged by its own body, never by a description found elsewhere
 * (a landing page's service-desc link): an answer that is no description fails as that, naming
 * where the API links its description.
 */
export const publishOpenapi: LiveCheck = {
  code: '/core/publish-openapi',
  async run(context: CheckContext): Promise<CheckResult> {
    const json = await context.send({ method: 'GET', url: `${context.baseUrl}/openapi.json`, anonymous: true, keepBody: true });
    if (json.status === undefined) return noAnswerResult(this.code, [`GET /openapi.json: no answer (${json.error ?? 'unknown'})`], [evidenceOf(json)]);
    const own = openApiDescription(json);
    const problems = json.status !== 200 ? [`/openapi.json answered ${describeAnswer(json)} without credentials, expected 200`, ...elsewhere(context)]
      : own === undefined && !json.bodyTruncated ? [`GET /openapi.json is not an OpenAPI description (${whatWasServed(json)}), expected the API's description in JSON`, ...elsewhere(context)]
        : documentProblems(json, own);
    const deciding = ['content-type', 'access-control-allow-origin'];
    const evidence = [evidenceOf(json, deciding, undefined, problems.length > 0)];
    // /openapi.yaml is the same description in YAML: with none at /openapi.json there is nothing to compare it with.
    const yaml = own === undefined ? undefined : await context.send({ method: 'GET', url: `${context.baseUrl}/openapi.yaml`, anonymous: true, keepBody: true });
    if (yaml !== undefined) evidence.push(evidenceOf(yaml, ['content-type']));
    const judged = yaml === undefined ? { problems: [], notJudged: [] } : await yamlProblems(yaml, json, context);
    const details = [...problems, ...judged.problems];
    if (details.length > 0) return { code: this.code, verdict: 'fail', summary: 'the description is not published as the standard requires', details: [...details, ...judged.notJudged], evidence };
    if (judged.notJudged.length > 0) return { code: this.code, verdict: 'error', summary: `not judged: ${judged.notJudged.join('; ')}`, details: ['/openapi.json is published as the standard requires'], evidence };
    const yamlNote = yaml?.status === 200 ? '; /openapi.yaml has the same content' : '; /openapi.yaml is not served (optional)';
    return { code: this.code, verdict: 'pass', summary: `/openapi.json is public OpenAPI ${String(own?.openapi)} with Access-Control-Allow-Origin: *${yamlNote}`, details: [], evidence };
  },
};

/** Where the API says its description is, when /openapi.json does not give it: the landing page's service-desc link, read or not. */
function elsewhere(context: CheckContext): string[] {
  if (context.descriptionFoundAt !== undefined) return [`the description is published at ${shownUrl(context.descriptionFoundAt)} (the landing page's service-desc link): serve it at /openapi.json too`];
  return unreadServiceDescs(context).map((link) => `the landing page links a description at ${shownUrl(link.href)} (rel=service-desc), not read: ${link.reason}`);
}

function documentProblems(json: Exchange, description: JsonObject | undefined): string[] {
  if (json.bodyTruncated) return [`/openapi.json is larger than --max-body: body truncated at ${json.bodyBytes} bytes`];
  const problems: string[] = [];
  const contentType = json.headers['content-type'];
  const allowOrigin = json.headers['access-control-allow-origin'];
  if (contentType === undefined) problems.push('/openapi.json lacks Content-Type (expected application/json)');
  else if (!/json/i.test(contentType)) problems.push(`/openapi.json has Content-Type: ${contentType}, expected application/json`);
  if (allowOrigin === undefined) problems.push('/openapi.json lacks Access-Control-Allow-Origin (expected *)');
  else if (allowOrigin !== '*') problems.push(`/openapi.json has Access-Control-Allow-Origin: ${allowOrigin}, expected *`);
  if (description?.openapi === undefined) problems.push(`/openapi.json is a Swagger ${versionShown(description?.swagger)} description, expected OpenAPI 3.0.x`);
  else if (!/^3\.0\.\d+$/.test(String(description.openapi))) problems.push(`/openapi.json has openapi: ${versionShown(description.openapi)}, expected 3.0.x`);
  return problems;
}

/** A version a server wrote, as a sentence shows it: a server's string is cut, not printed whole. */
function versionShown(value: unknown): string {
  const text = String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** Of the time left to the deadline, the share the YAML comparison may take: the checks after it need the rest. */
const COMPARISON_SHARE = 0.25;

/**
 * What is wrong with /openapi.yaml, and what could not be judged. It is parsed and compared with
 * /openapi.json on a worker thread, within a share of the time left and the limits every document
 * is read with: a YAML document built to be slow to parse is not judged, and never holds the run.
 */
async function yamlProblems(yaml: Exchange, json: Exchange, context: CheckContext): Promise<{ problems: string[]; notJudged: string[] }> {
  const none = { problems: [], notJudged: [] };
  if (yaml.status === 404 || yaml.status === 406) return none;
  if (yaml.status === undefined) return { problems: [], notJudged: [`/openapi.yaml got no answer (${yaml.error ?? 'unknown'})`] };
  if (yaml.status !== 200) return { problems: [`/openapi.yaml answered ${describeAnswer(yaml)}`], notJudged: [] };
  if (yaml.bodyTruncated) return { problems: [`/openapi.yaml is larger than --max-body: body truncated at ${yaml.bodyBytes} bytes`], notJudged: [] };
  // A page is no YAML description that merely differs: say what it is.
  const type = yaml.headers['content-type'] ?? '';
  if (/^text\/html\b/i.test(type) || /^\s*</.test(yaml.body)) return { problems: [`/openapi.yaml answers 200 with a page (${type === '' ? 'without Content-Type' : type}), not the description in YAML: serve the description there, or 404`], notJudged: [] };
  const { deadline } = context.client.options;
  const outcome = await compareYamlInWorker(yaml.body, json.body, { deadline, workMs: Math.max(0, deadline - Date.now()) * COMPARISON_SHARE });
  switch (outcome.kind) {
    case 'same': return none;
    case 'different': return { problems: [`/openapi.yaml differs from /openapi.json, first at ${outcome.at}`], notJudged: [] };
    case 'not-yaml': return { problems: [`/openapi.yaml is not YAML: ${outcome.error}`], notJudged: [] };
    case 'not-judged': return { problems: [], notJudged: [`/openapi.yaml was not compared with /openapi.json (${outcome.reason})`] };
  }
}
