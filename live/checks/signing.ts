import type { JWK } from 'jose';
import { pathItemFor, type CheckContext, type LiveCheck } from '../context.js';
import type { Exchange } from '../http.js';
import { count, evidenceOf, pathLabel, type CheckResult, type Evidence } from '../report.js';
import { bodyDigest, certificateTrust, JADES_HTTP_HEADERS, parseDetachedJws, sha256Of, signedData, verifyDetached, type SignatureHeader } from '../signing/jades.js';
import { asArray, asObject, isObject, type JsonObject } from '../../lib/json.js';

/** What the signing module fixes per signature header (SPEC.md, "Payload and message signing"). */
interface SignatureKind {
  code: string;
  header: 'Payload-Signature' | 'Message-Signature';
  /** sigD.pars must be exactly these (payload), or only these with digest among them (message). */
  pars: { exactly: string[] } | { allowed: string[]; required: string[] };
}

const PAYLOAD: SignatureKind = { code: '/signing/payload', header: 'Payload-Signature', pars: { exactly: ['digest'] } };
const MESSAGE: SignatureKind = {
  code: '/signing/message',
  header: 'Message-Signature',
  pars: { allowed: ['(request-target)', 'host', 'origin', 'content-encoding', 'content-type', 'content-length', 'digest'], required: ['digest'] },
};

/** Responses judged at most: the concrete GET paths, each fetched whole. */
const MAX_RESPONSES = 6;

/** Whether the signing module applies: the description declares the header, or a response carried it. */
export function signs(context: CheckContext, header: string): boolean {
  const lower = header.toLowerCase();
  return declaresHeader(context.description, lower) || context.exchanges.some((exchange) => exchange.headers[lower] !== undefined);
}

/**
 * The description names the header among components.headers, a response's headers or a header
 * parameter. A walk of those places only, not of the whole document: it runs on the thread that
 * waits for the live answers, and a description may be 50 MB.
 */
function declaresHeader(description: JsonObject | undefined, lower: string): boolean {
  const named = (map: unknown) => Object.keys(asObject(map)).some((name) => name.toLowerCase() === lower);
  const components = asObject(description?.components);
  if (named(components.headers)) return true;
  const responseDeclares = (responses: unknown) => Object.values(asObject(responses)).some((response) => named(asObject(response).headers));
  const parameterDeclares = (parameters: unknown) => asArray(parameters).some((parameter) => asObject(parameter).in === 'header' && String(asObject(parameter).name).toLowerCase() === lower);
  if (responseDeclares(components.responses) || parameterDeclares(Object.values(asObject(components.parameters)))) return true;
  return Object.values(asObject(description?.paths)).some((item) => parameterDeclares(asObject(item).parameters)
    || Object.values(asObject(item)).some((operation) => isObject(operation) && (responseDeclares(operation.responses) || parameterDeclares(operation.parameters))));
}

function declaredFor(context: CheckContext, path: string, status: number, header: string): boolean {
  const responses = asObject(asObject(pathItemFor(context.description, path).get).responses);
  const response = asObject(responses[String(status)] ?? responses.default);
  return Object.keys(asObject(response.headers)).some((name) => name.toLowerCase() === header.toLowerCase());
}

function checkFor(kind: SignatureKind): LiveCheck {
  return {
    code: kind.code,
    applies: async (context) => signs(context, kind.header) || `the description declares no ${kind.header} and no response carried one`,
    async run(context: CheckContext): Promise<CheckResult> {
      const paths = context.getPaths.slice(0, MAX_RESPONSES);
      const exchanges = await Promise.all(paths.map((path) => context.send({ method: 'GET', url: `${context.baseUrl}${path}`, keepBody: true, keepRaw: true })));
      const problems: string[] = [];
      const notes = new Set<string>();
      const evidence: Evidence[] = [];
      let verified = 0;
      for (const [index, exchange] of exchanges.entries()) {
        const path = paths[index] ?? '';
        if (exchange.status === undefined || exchange.status >= 300 || exchange.bodyBytes === 0) continue;
        const outcome = await judge(context, kind, path, exchange);
        if (outcome.problem !== undefined) { problems.push(outcome.problem); evidence.push(evidenceOf(exchange, [kind.header, 'Digest'])); }
        if (outcome.note !== undefined) notes.add(outcome.note);
        if (outcome.verified) verified += 1;
      }
      if (problems.length > 0) return { code: kind.code, verdict: 'fail', summary: `${kind.header} is not as the signing module requires`, details: [...problems, ...notes], evidence };
      if (verified === 0) return { code: kind.code, verdict: 'skip', summary: `no response carried ${kind.header} to verify`, details: [...notes], evidence: [] };
      return { code: kind.code, verdict: 'pass', summary: `${count(verified, 'response')} carry one ${kind.header} (PS256, JAdES HTTP headers over ${describePars(kind)}) that verifies, with a matching Digest`, details: [...notes], evidence: [] };
    },
  };
}

function describePars(kind: SignatureKind): string {
  return 'exactly' in kind.pars ? kind.pars.exactly.join(', ') : 'the message headers';
}

interface Outcome { problem?: string; note?: string; verified?: boolean }

async function judge(context: CheckContext, kind: SignatureKind, path: string, exchange: Exchange): Promise<Outcome> {
  const where = `GET ${pathLabel(path)}`;
  const lower = kind.header.toLowerCase();
  const fields = exchange.headerCounts[lower] ?? 0;
  if (fields === 0) return declaredFor(context, path, exchange.status ?? 0, kind.header) ? { problem: `${where} lacks ${kind.header}, which the description declares for its ${exchange.status}` } : {};
  if (fields > 1) return { problem: `${where} has ${fields} ${kind.header} fields: the module makes that signature invalid` };
  const jws = parseDetachedJws(exchange.headers[lower] ?? '');
  if (typeof jws === 'string') return { problem: `${where}: ${kind.header} is ${jws}` };
  const headerProblem = protectedHeaderProblem(kind, jws);
  if (headerProblem !== undefined) return { problem: `${where}: ${kind.header} ${headerProblem}` };
  const digest = exchange.headers.digest;
  if (digest === undefined) return { problem: `${where} lacks Digest, which ${kind.header} signs` };
  if (exchange.bodyTruncated || exchange.rawBody === undefined) return { problem: `${where}: body larger than --max-body (${exchange.bodyBytes} bytes read): Digest not checked` };
  const claimed = sha256Of(digest);
  const actual = bodyDigest(exchange.rawBody);
  if (claimed !== actual) return { problem: `${where} has Digest: ${digest}, expected SHA-256=${actual} (the body's)` };
  const data = signedData(jws.header.sigD === undefined ? [] : (asObject(jws.header.sigD).pars as string[]), (name) => exchange.headers[name]);
  if (typeof data !== 'string') return { problem: `${where}: ${kind.header} signs ${data.missing}, which the response lacks` };
  const key = await keyFor(context, jws);
  if (typeof key === 'string') return { problem: `${where}: ${kind.header} cannot be verified: ${key}` };
  const verified = await verifyDetached(jws, data, key);
  if (verified !== true) return { problem: `${where}: ${kind.header} does not verify over "${data.split('\n')[0]}${data.includes('\n') ? ' ...' : ''}" with ${'x5c' in key ? 'the x5c certificate' : 'the --signing-jwks key'}: ${verified}` };
  const x5c = asArray(jws.header.x5c).filter((entry): entry is string => typeof entry === 'string');
  if (x5c.length === 0) return { verified: true };
  const trust = certificateTrust(x5c, context.options.signingCa);
  return trust.trusted === false ? { problem: `${where}: ${trust.summary}` } : { verified: true, note: trust.summary };
}

/** What is wrong with the protected header, or undefined. */
function protectedHeaderProblem(kind: SignatureKind, jws: SignatureHeader): string | undefined {
  const { alg, b64, crit, sigD } = jws.header;
  if (alg !== 'PS256') return `has alg ${JSON.stringify(alg)}, expected PS256`;
  if (b64 !== false) return `has b64 ${JSON.stringify(b64)}, expected false (the payload is the HTTP headers' data, not encoded)`;
  const critical = asArray(crit);
  if (!critical.includes('b64') || !critical.includes('sigD')) return `has crit ${JSON.stringify(crit)}, expected it to name b64 and sigD`;
  if (!isObject(sigD)) return 'lacks sigD';
  if (sigD.mId !== JADES_HTTP_HEADERS) return `has sigD.mId ${JSON.stringify(sigD.mId)}, expected ${JADES_HTTP_HEADERS}`;
  const pars = asArray(sigD.pars).map((name) => String(name).toLowerCase());
  if ('exactly' in kind.pars) {
    if (pars.join(',') !== kind.pars.exactly.join(',')) return `has sigD.pars ${JSON.stringify(sigD.pars)}, expected ${JSON.stringify(kind.pars.exactly)}`;
  } else {
    const foreign = pars.filter((name) => !(kind.pars as { allowed: string[] }).allowed.includes(name));
    if (!pars.includes('digest')) return `has sigD.pars ${JSON.stringify(sigD.pars)}, which lacks digest`;
    if (foreign.length > 0 && foreign.some((name) => name.startsWith('('))) return `has sigD.pars ${JSON.stringify(sigD.pars)}, with ${foreign.join(', ')} the module does not name`;
  }
  return undefined;
}

/** The key: from --signing-jwks (by kid, else the only one), else from x5c. */
async function keyFor(context: CheckContext, jws: SignatureHeader): Promise<{ x5c: string } | { jwk: JWK } | string> {
  const keys = context.options.signingJwks;
  if (keys !== undefined) {
    const kid = jws.header.kid;
    const key = keys.find((candidate) => candidate.kid !== undefined && candidate.kid === kid) ?? (keys.length === 1 ? keys[0] : undefined);
    return key === undefined ? `no key in --signing-jwks with kid ${JSON.stringify(kid)}` : { jwk: key };
  }
  const x5c = asArray(jws.header.x5c)[0];
  return typeof x5c === 'string' ? { x5c } : 'no x5c in its header and no --signing-jwks given';
}

export const signingPayload = checkFor(PAYLOAD);
export const signingMessage = checkFor(MESSAGE);
