import ruleset from '../ruleset.js';
import { createLinter, lintText, type Finding } from '../lib/lint.js';
import { createOfflineResolver } from '../lib/offline-resolver.js';
import { isObject, type JsonObject } from '../lib/json.js';
import { HttpClient, type ClientOptions } from './http.js';
import { concreteGetPaths, createContext, type CheckOptions } from './context.js';
import { LIVE_CHECKS } from './registry.js';
import type { Report } from './report.js';

export interface RunOptions {
  client: Omit<ClientOptions, 'deadline'> & { deadlineMs: number };
  checks: CheckOptions;
  extraPaths: string[];
}

/** Raised when the API cannot be checked at all: the CLI prints it as one line and exits 2. */
export class TargetError extends Error {}

export async function runChecks(baseUrl: string, options: RunOptions): Promise<Report> {
  const started = Date.now();
  const client = new HttpClient({ ...options.client, deadline: started + options.client.deadlineMs });
  const context = createContext(client, baseUrl, options.checks);
  const first = await context.send({ method: 'GET', url: `${context.baseUrl}/openapi.json`, anonymous: true });
  if (first.status === undefined && isUnreachable(first.error)) throw new TargetError(`cannot reach ${context.baseUrl}/openapi.json: ${first.error}`);
  if (first.status === undefined && requiresClientCertificate(first.error)) {
    throw new TargetError(`${new URL(context.baseUrl).host} requires a client certificate (mutual TLS; the server's alert certificate_required). adr-check does not send one`);
  }
  if (first.status === undefined && isCertificateError(first.error)) {
    throw new TargetError(`certificate of ${new URL(context.baseUrl).host} does not verify: ${first.error}. Give its CA with --ca, or --insecure to skip the check`);
  }
  // Behind authentication /core/publish-openapi fails; with credentials the other checks still get the description.
  const described = first.status !== 200 && Object.keys(options.client.headers).length > 0
    ? await context.send({ method: 'GET', url: `${context.baseUrl}/openapi.json` })
    : first;
  context.description = parseDescription(described.body);
  context.getPaths = ['', ...concreteGetPaths(context.description, options.extraPaths)];
  // Linting is CPU work and the checks mostly wait on the network: run them side by side.
  const linting = context.description === undefined ? Promise.resolve([]) : lintDescription(described.body);
  const results = [];
  for (const check of LIVE_CHECKS) results.push(await check.run(context));
  const staticFindings = await linting;
  const notices = options.client.insecure ? ['--insecure: certificates are NOT verified; /core/transport/tls is not done'] : [];
  if (context.description === undefined) notices.push(`/openapi.json gave no JSON description (${first.status ?? first.error}); live checks ran without it`);
  return { target: context.baseUrl, startedAt: new Date(started).toISOString(), durationMs: Date.now() - started, requests: client.requestCount, results, staticFindings, notices };
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

function parseDescription(body: string): JsonObject | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Lints the downloaded description; its `$ref`s to other files are not fetched (reported as unresolvable). */
async function lintDescription(text: string): Promise<Finding[]> {
  const spectral = createLinter(ruleset, createOfflineResolver());
  return lintText(spectral, text, '/adr-check/downloaded/openapi.json');
}
