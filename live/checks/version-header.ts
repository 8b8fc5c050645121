import type { CheckContext, LiveCheck } from '../context.js';
import type { Exchange } from '../http.js';
import { count, evidenceOf, requestKey, type CheckResult } from '../report.js';
import { asObject } from '../../lib/json.js';

/** A full version as /core/semver has it: major.minor.patch, an optional pre-release. */
const FULL_VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

/** Web servers and proxies whose own error pages name them (Server header or page footer). */
const PROXY_NAME = /\b(nginx|openresty|apache|httpd|envoy|haproxy|caddy|traefik|varnish|squid|cloudflare|awselb|akamai|kong|istio)\b/i;

/** Headers every server sets: their presence says nothing about who made a response. */
const GENERIC_HEADERS = new Set(['date', 'content-length', 'content-type', 'connection', 'keep-alive', 'server', 'transfer-encoding', 'vary', 'etag', 'last-modified', 'allow', 'location', 'api-version']);

/**
 * Every response of the API seen in the run carries `API-Version`, equal to info.version where a
 * description gives it, else present and a full version (RULES.md). A proxy-generated error MAY
 * omit it (SPEC.md, Errors 5): an error page told apart by evidence (HTML or no body, a Server
 * or footer naming a proxy, none of the headers the API's own responses all carry) is left out
 * and named. Runs last.
 */
export const versionHeader: LiveCheck = {
  code: '/core/version-header',
  async run(context: CheckContext): Promise<CheckResult> {
    const declared = asObject(context.description?.info).version;
    // An empty info.version is no value to compare with (the static /core/semver reports it): each response is judged for a full version.
    const expected = typeof declared === 'string' && declared.trim() !== '' ? declared : undefined;
    const emptyDeclared = typeof declared === 'string' && expected === undefined;
    if (context.exchanges.length === 0) await context.get('');
    const answered = context.exchanges.filter((exchange) => exchange.status !== undefined);
    if (answered.length === 0) return { code: this.code, verdict: 'error', summary: 'not judged: no request got an answer', details: [], evidence: [] };
    const apiHeaders = headersOfEveryApiResponse(answered);
    const byProxy = answered.filter((exchange) => isProxyError(exchange, apiHeaders));
    const judged = answered.filter((exchange) => !byProxy.includes(exchange));
    const leftOut = byProxy.length === 0 ? [] : [`left out: ${count(new Set(byProxy.map(requestKey)).size, 'proxy-generated error')}, which MAY omit API-Version (${describeProxyErrors(byProxy)})`];
    const wrong = new Map<string, Exchange>();
    for (const exchange of judged) if (versionProblem(exchange.headers['api-version'], expected) !== undefined && !wrong.has(requestKey(exchange))) wrong.set(requestKey(exchange), exchange);
    const requests = new Set(judged.map(requestKey)).size;
    const wanted = expected === undefined ? `API-Version with a full version${emptyDeclared ? ' (info.version is empty: nothing to compare with)' : ''}` : `API-Version: ${expected}`;
    if (wrong.size > 0) {
      const shown = [...wrong.values()].slice(0, 10);
      return {
        code: this.code,
        verdict: 'fail',
        summary: `${wrong.size} of ${count(requests, 'request')} ${wrong.size === 1 ? 'lacks' : 'lack'} ${wanted}`,
        details: [...shown.map((exchange) => `${requestKey(exchange)}: ${versionProblem(exchange.headers['api-version'], expected) ?? ''}`), ...leftOut],
        evidence: shown.map((exchange) => evidenceOf(exchange, ['API-Version'])),
      };
    }
    const values = [...new Set(judged.map((exchange) => exchange.headers['api-version'] ?? ''))];
    const carried = expected ?? values.join(', ');
    const noDescription = emptyDeclared ? ' (info.version is empty: not compared with it)' : expected === undefined ? ' (no description: not compared with info.version)' : '';
    return { code: this.code, verdict: 'pass', summary: `${requests === 1 ? 'the 1 request carries' : `all ${requests} requests carry`} API-Version: ${carried}${noDescription}`, details: leftOut, evidence: [] };
  },
};

/** What is wrong with an API-Version value, or undefined. */
function versionProblem(value: string | undefined, expected: string | undefined): string | undefined {
  if (value === undefined) return 'lacks API-Version';
  const shown = value.trim() === '' ? '(empty)' : value;
  if (expected !== undefined) return value === expected ? undefined : `has API-Version: ${shown}, expected ${expected}`;
  return FULL_VERSION.test(value.trim()) ? undefined : `has API-Version: ${shown}, expected a full version (major.minor.patch, no prefix)`;
}

/** The non-generic headers that every response carrying API-Version has: the API's own signature. */
function headersOfEveryApiResponse(exchanges: Exchange[]): string[] {
  const fromApi = exchanges.filter((exchange) => exchange.headers['api-version'] !== undefined);
  if (fromApi.length === 0) return [];
  return Object.keys(fromApi[0]?.headers ?? {}).filter((name) => !GENERIC_HEADERS.has(name) && fromApi.every((exchange) => exchange.headers[name] !== undefined));
}

function isProxyError(exchange: Exchange, apiHeaders: string[]): boolean {
  if ((exchange.status ?? 0) < 400 || exchange.headers['api-version'] !== undefined) return false;
  const type = exchange.headers['content-type'] ?? '';
  const htmlOrEmpty = /^text\/html\b/i.test(type) || exchange.bodyBytes === 0;
  const namesProxy = PROXY_NAME.test(exchange.headers.server ?? '') || /<center>[^<]{1,40}<\/center>\s*<\/body>/i.test(exchange.body) && PROXY_NAME.test(exchange.body);
  return htmlOrEmpty && namesProxy && apiHeaders.every((name) => exchange.headers[name] === undefined);
}

function describeProxyErrors(exchanges: Exchange[]): string {
  const shown = [...new Map(exchanges.map((exchange) => [requestKey(exchange), exchange])).values()].sort((a, b) => requestKey(a).localeCompare(requestKey(b))).slice(0, 3);
  const more = exchanges.length > shown.length ? ', ...' : '';
  return `${shown.map((exchange) => `${requestKey(exchange)}: ${exchange.status} ${exchange.headers['content-type'] ?? 'without a body'} from ${exchange.headers.server ?? 'a proxy'}`).join('; ')}${more}`;
}
