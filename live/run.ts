import { readFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { asArray, asObject, isObject, type JsonObject } from '../lib/json.js';
import { isUnderBase } from '../lib/url-scope.js';
import { describeError, HttpClient, type ClientOptions, type Exchange } from './http.js';
import { concreteGetPaths, createContext, oncePerRun, repeatedBasePath, type CheckContext, type CheckOptions, type LiveCheck } from './context.js';
import { LIVE_CHECKS } from './registry.js';
import { geoTarget } from './geo/discover.js';
import { lintInWorker, type LintOutcome, type ReferenceFetcher } from './lint/run-lint.js';
import type { LintRuleset } from './lint/ruleset.js';
import { describeAnswer, type CheckResult, type Report } from './report.js';
import { packageVersion } from './version.js';
import { liveCheckPath } from '../lib/documentation-url.js';
import { AddressRefusedError } from './address-policy.js';
import { noteUnreadServiceDesc, openApiDescription, otherOriginReason, shownUrl, unreadServiceDescs, whatWasServed } from './service-desc.js';

export interface RunOptions {
  client: Omit<ClientOptions, 'deadline'> & { deadlineMs: number };
  checks: CheckOptions;
  extraPaths: string[];
  /** Heap of the lint worker, MB. */
  lintMemoryMb?: number;
  /** The static lint's ruleset (lint/ruleset.ts); default the full nlgov-adr. */
  ruleset?: LintRuleset;
  /** What the report says linted the description (report.tool.ruleset); default `nlgov-adr <version>`. */
  rulesetLabel?: string;
  /** The checks to run; default every live check (tests give their own). */
  liveChecks?: LiveCheck[];
  /** Called as each check starts, for a progress line. */
  onProgress?: (progress: { check: string; index: number; total: number; requests: number }) => void;
}

export const DEFAULT_LINT_MEMORY_MB = 1024;

/** Raised when the API cannot be checked at all: the CLI prints it as one line and exits 2. */
export class TargetError extends Error {}

export async function runChecks(baseUrl: string, options: RunOptions): Promise<Report> {
  const started = Date.now();
  const client = new HttpClient({ ...options.client, deadline: started + options.client.deadlineMs });
  const context = createContext(client, baseUrl, options.checks);
  await refuseBaseUrl(client, context.baseUrl);
  const first = await context.send({ method: 'GET', url: `${context.baseUrl}/openapi.json`, anonymous: true, keepBody: true });
  if (first.status === undefined && isUnreachable(first.error)) throw new TargetError(`cannot reach ${context.baseUrl}/openapi.json: ${first.error}`);
  if (first.status === undefined && requiresClientCertificate(first.error)) {
    throw new TargetError(`${new URL(context.baseUrl).host} requires a client certificate (mutual TLS; the server's alert certificate_required). adr-check does not send one`);
  }
  if (first.status === undefined && isCertificateError(first.error)) {
    throw new TargetError(`certificate of ${new URL(context.baseUrl).host} does not verify: ${first.error}. Give its CA with --ca, or --insecure to skip the check`);
  }
  // Behind authentication /core/publish-openapi fails; with credentials the other checks still get the description.
  let described = first.status !== 200 && Object.keys(options.client.headers).length > 0
    ? await context.send({ method: 'GET', url: `${context.baseUrl}/openapi.json`, keepBody: true })
    : first;
  // Every step is guarded: one that throws is an internal error in the report, and the run goes on.
  const failures: CheckResult[] = [];
  const step = <T>(what: string, run: () => T | Promise<T>, fallback: T) => guardedStep(what, run, fallback, failures);
  context.description = openApiDescription(described);
  // An OGC API names its description on the landing page (rel=service-desc) when /openapi.json is absent.
  const linked = context.description === undefined ? await step('following the landing page\'s service-desc link', () => serviceDescription(context), undefined) : undefined;
  if (linked !== undefined) {
    described = linked;
    context.description = openApiDescription(linked);
    context.descriptionFoundAt = linked.url;
  }
  context.descriptionBytes = described.bodyBytes;
  // The description's `/` is the base URL itself, '' here: it is probed once.
  // The base URL is probed as a resource only where the description declares `/` (or there is no description).
  context.getPaths = await step('finding the paths to probe', () => concreteGetPaths(context.description, options.extraPaths), []);
  context.pathKeyPrefix = repeatedBasePath(context.baseUrl, context.description);
  const unrepeated = context.pathKeyPrefix === '' ? undefined : await step('trying the paths without the base URL\'s path they repeat', () => pathsAsServed(context, options.extraPaths), undefined);
  // Without a description the API still says where its resources are: the landing page's links.
  if (context.description === undefined) context.getPaths = await step('reading the landing page\'s links', async () => [...new Set(['', ...context.getPaths, ...linkedPaths(context.baseUrl, await landingPage(context))])], ['', ...context.getPaths]);
  // The lint runs on its own thread within the run's deadline: the live verdicts never wait on it.
  const linting: Promise<LintOutcome | undefined> = context.description === undefined
    ? Promise.resolve(undefined)
    : step('linting the description', () => lintInWorker(described.body, described.url, { deadline: started + options.client.deadlineMs, memoryMb: options.lintMemoryMb ?? DEFAULT_LINT_MEMORY_MB }, sameOriginFetcher(client, described.url), { ...(options.ruleset === undefined ? {} : { ruleset: options.ruleset }) }), undefined);
  const results: CheckResult[] = [];
  const { checks, leftOut } = await step('choosing the checks that apply', () => applicableChecks(options.liveChecks ?? LIVE_CHECKS, context), { checks: options.liveChecks ?? LIVE_CHECKS, leftOut: [] });
  for (const [index, check] of checks.entries()) {
    options.onProgress?.({ check: check.code, index, total: checks.length, requests: client.requestCount });
    const result = await runGuarded(check, context);
    results.push(withDocs(result));
  }
  const lint = await linting;
  const firstAnswer = context.exchanges.find((exchange) => exchange.status !== undefined);
  if (firstAnswer === undefined) throw new TargetError(`nothing answered: ${client.requestCount} requests to ${context.baseUrl}, none got a response (the first: ${first.error ?? 'no answer'})`);
  const notices = options.client.insecure ? ['--insecure: certificates are NOT verified; /core/transport/tls is not done'] : [];
  if (context.description === undefined) notices.push(...(await step('looking for the description elsewhere', () => missingDescriptionNotices(context, described), [])));
  if (unrepeated !== undefined) notices.push(unrepeated);
  if (linked !== undefined) notices.push(`the description was found at ${linked.url} (the landing page's service-desc link), not at ${context.baseUrl}/openapi.json: it is linted and the checks use it`);
  if (lint !== undefined && lint.reason !== undefined) notices.push(lint.reason);
  notices.push(...leftOut);
  const geospatial = await geoTarget(context).catch(() => undefined);
  if (geospatial !== undefined) notices.push(`geospatial checks run: ${geospatial.reason}`);
  if (context.needCredentials.size > 0) {
    const paths = [...context.needCredentials];
    notices.push(`not judged without credentials (the description protects ${paths.length === 1 ? 'it' : 'them'} and ${paths.length === 1 ? 'it' : 'they'} answered 401): ${paths.join(', ')}; give --header "Authorization: ..." to check ${paths.length === 1 ? 'it' : 'them'}`);
  }
  const version = packageVersion();
  return {
    tool: { name: 'nlgov-adr', version, ruleset: options.rulesetLabel ?? `nlgov-adr ${version}` },
    target: context.baseUrl,
    ...(context.description === undefined ? {} : { document: described.url }),
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    requests: client.requestCount,
    results: [...results, ...failures],
    staticFindings: lint?.findings ?? [],
    lint: lint === undefined ? { status: 'not-run', omitted: 0, durationMs: 0 } : { status: lint.status, omitted: lint.omitted, durationMs: lint.durationMs, ...(lint.descriptions === undefined ? {} : { descriptions: lint.descriptions }) },
    notices,
  };
}

/** How a static lint runs: its budget and ruleset, and what the report names the ruleset. */
export interface StaticOptions {
  deadlineMs: number;
  lintMemoryMb?: number;
  ruleset?: LintRuleset;
  rulesetLabel?: string;
}

/**
 * A static-only report of a description on the user's own disk (--static): the same lint, in the
 * same worker and budget, with its file `$ref`s read and no request sent anywhere.
 */
export async function runStatic(file: string, options: StaticOptions): Promise<Report> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new TargetError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const refuse: ReferenceFetcher = async (url) => ({ reason: `not fetched: ${url}; a static run reads only files on this machine` });
  return staticReport(text, { target: file, document: resolvePath(file) }, options, refuse, { localFile: true, notice: 'static run: the description only, no live checks' });
}

/**
 * The report of a static lint of `text` (the CLI's --static, the web checker's uploads): the
 * lint in a worker within the options' budget, `$ref`s answered by `fetchReference`.
 */
export async function staticReport(
  text: string,
  source: { target: string; document: string },
  options: StaticOptions,
  fetchReference: ReferenceFetcher,
  how: { localFile?: boolean; notice: string },
): Promise<Report> {
  const started = Date.now();
  const lint = await lintInWorker(text, source.document, { deadline: started + options.deadlineMs, memoryMb: options.lintMemoryMb ?? DEFAULT_LINT_MEMORY_MB }, fetchReference, {
    localFile: how.localFile === true,
    ...(options.ruleset === undefined ? {} : { ruleset: options.ruleset }),
  });
  const version = packageVersion();
  return {
    tool: { name: 'nlgov-adr', version, ruleset: options.rulesetLabel ?? `nlgov-adr ${version}` },
    target: source.target,
    document: source.document,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    requests: 0,
    results: [],
    staticFindings: lint.findings,
    lint: { status: lint.status, omitted: lint.omitted, durationMs: lint.durationMs, ...(lint.descriptions === undefined ? {} : { descriptions: lint.descriptions }) },
    notices: [how.notice, ...(lint.reason === undefined ? [] : [lint.reason])],
  };
}

/**
 * What /openapi.json gave instead of a description, and where the description may be: a base URL
 * without a /v<major> segment is most often the host's root, with the API one level down.
 */
async function missingDescriptionNotices(context: CheckContext, described: Exchange): Promise<string[]> {
  const notices = [`/openapi.json is not an OpenAPI description (${whatWasServed(described)}): it is not linted and no check judges the API against it`];
  for (const link of unreadServiceDescs(context)) notices.push(`the landing page links a description at ${shownUrl(link.href)} (rel=service-desc), not read: ${link.reason}`);
  const basePath = new URL(context.baseUrl).pathname.replace(/\/+$/, '');
  if (/\/v\d+(\/|$)/.test(basePath)) return notices;
  const root = await context.get('');
  const majors = new Set(['1', ...[...root.body.matchAll(/\/v(\d+)\b/g)].map((match) => match[1] ?? '1')]);
  for (const major of [...majors].slice(0, 3)) {
    const candidate = `${context.baseUrl}/v${major}`;
    const answer = await context.client.send({ method: 'GET', url: `${candidate}/openapi.json`, anonymous: true, keepBody: true });
    if (openApiDescription(answer) !== undefined) {
      notices.push(`did you mean adr-check ${candidate}? ${candidate}/openapi.json is an OpenAPI description`);
      break;
    }
  }
  return notices;
}

/**
 * The checks whose module applies to this API, and a notice per module left out. A module test
 * that throws keeps its checks in: each then reports the internal error itself.
 */
async function applicableChecks(all: LiveCheck[], context: CheckContext): Promise<{ checks: LiveCheck[]; leftOut: string[] }> {
  const checks: LiveCheck[] = [];
  const reasons = new Map<string, string[]>();
  for (const check of all) {
    const applies = check.applies === undefined ? true : await check.applies(context).catch(() => true as const);
    if (applies === true) checks.push(check);
    else reasons.set(applies, [...(reasons.get(applies) ?? []), check.code]);
  }
  const leftOut = [...reasons].map(([reason, codes]) => `${moduleLabel(codes)} not run: ${reason}`);
  return { checks, leftOut };
}

/** `/geo/* checks` for a whole module's codes, else the codes. */
function moduleLabel(codes: string[]): string {
  const prefix = /^\/[^/]+\//.exec(codes[0] ?? '')?.[0];
  return codes.length > 1 && prefix !== undefined && codes.every((code) => code.startsWith(prefix)) ? `the ${prefix}* checks` : codes.join(', ');
}

/** The landing page as JSON, asked for once: without an Accept some servers (MapServer) answer HTML. */
const landingPage = oncePerRun((context) => context.send({ method: 'GET', url: context.baseUrl, headers: { accept: 'application/json' } }));

/**
 * The description a landing page links to with rel `service-desc` (OGC API Common), JSON types
 * first: fetched without credentials, only on the API's origin, used only when it is one.
 */
async function serviceDescription(context: CheckContext): Promise<Exchange | undefined> {
  const landing = await landingPage(context);
  const links = linksOf(landing).filter((link) => link.rel === 'service-desc' && typeof link.href === 'string');
  links.sort((a, b) => Number(/json/i.test(String(b.type ?? ''))) - Number(/json/i.test(String(a.type ?? ''))));
  for (const link of links.slice(0, 2)) {
    let url: URL;
    try {
      url = new URL(String(link.href), `${context.baseUrl}/`);
    } catch {
      noteUnreadServiceDesc(context, { href: String(link.href), reason: 'not a URL' });
      continue;
    }
    if (url.origin !== new URL(context.baseUrl).origin) {
      noteUnreadServiceDesc(context, { href: url.href, reason: otherOriginReason(context.baseUrl, url) });
      continue;
    }
    const answer = await context.send({ method: 'GET', url: url.href, anonymous: true, keepBody: true, headers: { accept: 'application/vnd.oai.openapi+json, application/json' } });
    if (openApiDescription(answer) !== undefined) return answer;
    noteUnreadServiceDesc(context, { href: url.href, reason: `it is not an OpenAPI description (${whatWasServed(answer)})` });
  }
  return undefined;
}

/** A landing page's links: OGC `links`, HAL `_links` (a link or a list of them per relation, named by the key). */
function linksOf(landing: Exchange): JsonObject[] {
  if (landing.status !== 200) return [];
  let body: unknown;
  try {
    body = JSON.parse(landing.body);
  } catch {
    return [];
  }
  const root = asObject(body);
  const hal = Object.entries(asObject(root._links)).flatMap(([rel, link]) => (Array.isArray(link) ? link : [link]).filter(isObject).map((entry) => ({ rel, ...entry })));
  return [...asArray(root.links).filter(isObject), ...hal];
}

const MAX_LINKED_PATHS = 10;

/**
 * The paths a landing page links to (OGC `links`, HAL `_links`), relative to the base: only links
 * that stay under the base URL, without a query, at most MAX_LINKED_PATHS.
 */
export function linkedPaths(baseUrl: string, landing: Exchange): string[] {
  const hrefs = linksOf(landing).map((link) => link.href).filter((href): href is string => typeof href === 'string');
  const paths: string[] = [];
  for (const href of hrefs) {
    let url: URL;
    try {
      url = new URL(href, `${baseUrl}/`);
    } catch {
      continue;
    }
    if (url.search !== '' || !isUnderBase(baseUrl, url.href)) continue;
    const path = url.pathname.slice(new URL(baseUrl).pathname.replace(/\/+$/, '').length).replace(/\/+$/, '');
    if (path !== '' && !path.startsWith('/openapi.')) paths.push(path);
  }
  return [...new Set(paths)].slice(0, MAX_LINKED_PATHS);
}

/** The page that says what a check requests and compares, where it has one of its own. */
function withDocs(result: CheckResult): CheckResult {
  const docs = liveCheckPath(result.code);
  return docs === undefined ? result : { ...result, docs };
}

/** A step of the run (not a check) that throws: an internal error named in the report, and `fallback` to go on with. */
async function guardedStep<T>(what: string, run: () => T | Promise<T>, fallback: T, failures: CheckResult[]): Promise<T> {
  try {
    return await run();
  } catch (error) {
    failures.push({ code: 'adr-check/run', verdict: 'error', summary: `internal error while ${what}: ${firstLine(error)}`, details: [], evidence: [], internalError: true });
    return fallback;
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/** A check that throws reports an error verdict: the other checks and the report go on. */
async function runGuarded(check: LiveCheck, context: CheckContext): Promise<CheckResult> {
  try {
    return await check.run(context);
  } catch (error) {
    return { code: check.code, verdict: 'error', summary: `internal error: ${firstLine(error)}`, details: [], evidence: [], internalError: true };
  }
}

/**
 * The documents a downloaded description's `$ref`s name: fetched from the description's own
 * origin, without credentials, through the run's client and its limits; anything else refused.
 */
function sameOriginFetcher(client: HttpClient, descriptionUrl: string): ReferenceFetcher {
  const origin = new URL(descriptionUrl).origin;
  return async (url) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return { reason: `not fetched: ${url} is not a URL` };
    }
    if (target.origin !== origin) return { reason: `not fetched: ${target.origin} is not the origin of the description (${origin}); a downloaded description may only reference documents of its own server` };
    target.hash = '';
    const exchange = await client.send({ method: 'GET', url: target.href, anonymous: true, keepBody: true });
    if (exchange.status !== 200) return { reason: `GET ${target.href} answered ${exchange.status ?? exchange.error}` };
    if (exchange.bodyTruncated) return { reason: `GET ${target.href}: larger than --max-body (${client.options.maxBodyBytes} bytes)` };
    return { text: exchange.body };
  };
}

/**
 * A base URL the address policy refuses is not checked at all: not one connection is made. Under a
 * policy a host that does not resolve ends the run here too, so that nothing later (the TLS
 * prober's sockets) could reach the name by another way than the checked address.
 */
async function refuseBaseUrl(client: HttpClient, baseUrl: string): Promise<void> {
  const failure = await client.resolver.resolve(new URL(baseUrl).hostname).then(() => undefined, (error: Error) => error);
  if (failure instanceof AddressRefusedError) throw new TargetError(`${baseUrl} is not checked: ${failure.message}`);
  if (failure !== undefined && client.options.addressPolicy?.allowsAll === false) throw new TargetError(`cannot reach ${baseUrl}/openapi.json: ${describeError(failure)}`);
}

/** Nothing listens there: no report can say anything useful. A server that misbehaves gets a report. */
function isUnreachable(error: string | undefined): boolean {
  return /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)\b/.test(error ?? '') || /^not a URL/.test(error ?? '');
}

/** The server's alert, not our verification: TLS 1.3 certificate_required (116), or TLS 1.2's handshake failure after a CertificateRequest is indistinguishable and not matched. */
function requiresClientCertificate(error: string | undefined): boolean {
  return /CERTIFICATE_REQUIRED|alert certificate required|alert number 116/i.test(error ?? '');
}

function isCertificateError(error: string | undefined): boolean {
  return /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS_CERT_ALTNAME_INVALID|unable to get local issuer/i.test(error ?? '');
}


/**
 * Where every path key repeats the base URL's path (`/v1/items` under `https://host/v1`), the
 * description's URLs (`/v1/v1/items`) may not be the API's. When the first of them answers 404 and
 * the same path without the repetition answers, the checks probe the paths as the API serves them
 * (the static lint names the repetition), and the notice says so. Returns that notice, or undefined
 * when the paths are probed as declared.
 */
async function pathsAsServed(context: CheckContext, extraPaths: string[]): Promise<string | undefined> {
  const prefix = context.pathKeyPrefix;
  const repeating = (path: string) => !extraPaths.includes(path) && (path === prefix || path.startsWith(`${prefix}/`));
  const first = context.getPaths.find((path) => repeating(path) && !/[{}]/.test(path));
  if (first === undefined) return undefined;
  const declared = await context.get(first);
  if (declared.status !== 404) return undefined;
  const served = await context.get(first.slice(prefix.length));
  if (served.status === undefined || served.status === 404) return undefined;
  context.getPaths = [...new Set(context.getPaths.map((path) => (repeating(path) ? path.slice(prefix.length) : path)))];
  const label = (path: string) => new URL(`${context.baseUrl}${path}`).pathname;
  return `the description's paths repeat ${prefix}, the base URL's path: GET ${label(first)} answered 404 and GET ${label(first.slice(prefix.length))} answered ${describeAnswer(served)}, so the checks probe the paths as the API serves them (the static finding of /core/uri-version names the repetition)`;
}
