import type { JWK } from 'jose';
import { pathItemFor, type CheckContext, type LiveCheck } from '../context.js';
import type { Exchange } from '../http.js';
import { count, evidenceOf, pathLabel, type CheckResult, type Evidence } from '../report.js';
import { certificateTrust } from '../signing/certificate-path.js';
import { headerDeclaration, responseFor, throughReferences } from '../signing/declared-header.js';
import { COMPUTED_ALGORITHMS, verifyDigest } from '../signing/digest.js';
import { JADES_HTTP_HEADERS, parseDetachedJws, signedData, UNDERSTOOD_CRITICAL, verifyDetached, type SignatureHeader } from '../signing/jades.js';
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

function checkFor(kind: SignatureKind): LiveCheck {
  return {
    code: kind.code,
    applies: async (context) => signs(context, kind.header) || `the description declares no ${kind.header} and no response carried one`,
    async run(context: CheckContext): Promise<CheckResult> {
      const paths = context.getPaths.slice(0, MAX_RESPONSES);
      const exchanges = await Promise.all(paths.map((path) => context.send({ method: 'GET', url: `${context.baseUrl}${path}`, keepBody: true, keepRaw: true })));
      const found: Findings = { problem: [], unjudged: [], warning: [], note: [], evidence: [], verified: 0 };
      for (const [index, exchange] of exchanges.entries()) {
        const path = paths[index] ?? '';
        if (exchange.status === undefined || exchange.status >= 300 || exchange.bodyBytes === 0) continue;
        const outcome = await judge(context, kind, path, exchange);
        for (const key of ['problem', 'unjudged', 'warning'] as const) {
          if (outcome[key] === undefined) continue;
          found[key].push(...outcome[key]);
          found.evidence.push(evidenceOf(exchange, [kind.header, 'Digest']));
        }
        for (const note of outcome.note ?? []) if (!found.note.includes(note)) found.note.push(note);
        if (outcome.verified === true) found.verified += 1;
      }
      return resultOf(kind, found);
    },
  };
}

/** What the responses showed together: the messages of each kind, and how many verified. */
interface Findings { problem: string[]; unjudged: string[]; warning: string[]; note: string[]; evidence: Evidence[]; verified: number }

function resultOf(kind: SignatureKind, found: Findings): CheckResult {
  const { problem, unjudged, warning, note, evidence, verified } = found;
  const details = [...problem, ...unjudged, ...warning, ...note];
  if (problem.length > 0) return { code: kind.code, verdict: 'fail', summary: `${kind.header} is not as the signing module requires`, details, evidence };
  if (unjudged.length > 0) return { code: kind.code, verdict: 'error', summary: `not judged: the ${kind.header} of ${count(unjudged.length, 'response')} could not be verified`, details, evidence };
  if (warning.length > 0) return { code: kind.code, verdict: 'warn', summary: `${kind.header} missing from ${count(warning.length, 'response')} where the description declares it without required: true`, details, evidence };
  if (verified === 0) return { code: kind.code, verdict: 'skip', summary: `no response carried ${kind.header} to verify`, details: note, evidence: [] };
  return { code: kind.code, verdict: 'pass', summary: `${count(verified, 'response')} with one ${kind.header} (PS256, JAdES HTTP headers over ${describePars(kind)}) that verifies, and a matching Digest`, details: note, evidence: [] };
}

function describePars(kind: SignatureKind): string {
  return 'exactly' in kind.pars ? kind.pars.exactly.join(', ') : 'the message headers';
}

/** What one response shows; each list holds at most one message of its kind. */
interface Outcome { problem?: string[]; unjudged?: string[]; warning?: string[]; note?: string[]; verified?: boolean }

const problem = (message: string): Outcome => ({ problem: [message] });
const unjudged = (message: string): Outcome => ({ unjudged: [message] });

async function judge(context: CheckContext, kind: SignatureKind, path: string, exchange: Exchange): Promise<Outcome> {
  const where = `GET ${pathLabel(context.baseUrl, path)}`;
  const lower = kind.header.toLowerCase();
  const fields = exchange.headerCounts[lower] ?? 0;
  if (fields === 0) return missingHeader(context, kind, path, exchange);
  if (fields > 1) return problem(`${where} has ${fields} ${kind.header} fields: the module makes that signature invalid`);
  const jws = parseDetachedJws(exchange.headers[lower] ?? '');
  if (typeof jws === 'string') return problem(`${where}: ${kind.header} is ${jws}`);
  const headerProblem = protectedHeaderProblem(kind, jws, exchange.headers);
  if (headerProblem !== undefined) return problem(`${where}: ${kind.header} ${headerProblem}`);
  const digest = exchange.headers.digest;
  if (digest === undefined) return problem(`${where} lacks Digest, which ${kind.header} signs`);
  if (exchange.bodyTruncated || exchange.rawBody === undefined) return unjudged(`${where}: the body is larger than --max-body (${exchange.bodyBytes} bytes read), so Digest is not checked: give a larger --max-body`);
  const digestOutcome = judgeDigest(where, digest, exchange.rawBody, exchange.headers['content-encoding']);
  if (!Array.isArray(digestOutcome)) return digestOutcome;
  const data = signedData(asArray(asObject(jws.header.sigD).pars), (name) => (Object.hasOwn(exchange.headers, name) ? exchange.headers[name] : undefined));
  if (typeof data !== 'string') return problem(`${where}: ${kind.header} signs ${data.missing}, which the response lacks`);
  const key = keyFor(context, jws);
  if ('missing' in key) return unjudged(`${where}: ${kind.header} is not verified: ${key.missing}`);
  const verified = await verifyDetached(jws, data, key);
  if (verified !== true) return problem(`${where}: ${kind.header} does not verify over "${data.split('\n')[0]}${data.includes('\n') ? ' ...' : ''}" with ${'x5c' in key ? 'the x5c certificate' : 'the --signing-jwks key'}: ${verified}`);
  const x5c = asArray(jws.header.x5c).filter((entry): entry is string => typeof entry === 'string');
  if (x5c.length === 0) return { verified: true, note: [...digestOutcome, `verified with the --signing-jwks key${'jwk' in key && key.jwk.kid !== undefined ? ` ${key.jwk.kid}` : ''}; no x5c, so no certificate judged`] };
  const trust = await certificateTrust(x5c, context.options.signingCa);
  if (trust.trusted === false) return problem(`${where}: ${trust.summary}`);
  if (trust.unusable !== undefined) return unjudged(`${where}: the trust of ${kind.header} is not judged: ${trust.unusable}. Give a PEM file of the CA certificates`);
  return { verified: true, note: [...digestOutcome, trust.summary] };
}

/** Each Digest instance adr-check computes against the body: a failure, not judged, or the notes of what was passed over. */
function judgeDigest(where: string, digest: string, body: Buffer, contentEncoding: string | undefined): Outcome | string[] {
  const verdict = verifyDigest(digest, body, contentEncoding);
  const [mismatch] = verdict.mismatched;
  if (mismatch !== undefined) return problem(`${where} has Digest: ${mismatch.algorithm}=${mismatch.value}, expected ${mismatch.algorithm}=${mismatch.expected} (the body's)`);
  if (verdict.matched.length === 0) return unjudged(`${where} has Digest: ${digest}, with no algorithm adr-check computes (${verdict.passedOver.join('; ')}), so the body is not checked against the signed digest: adr-check computes ${COMPUTED_ALGORITHMS.join(', ')}`);
  return verdict.passedOver.length === 0 ? [] : [`Digest instances not verified: ${verdict.passedOver.join('; ')}`];
}

/**
 * A response without the header: a failure where the description declares it `required: true`
 * for that status, a warning where it declares it without (OpenAPI's default is not required),
 * nothing where it does not declare it. Responses are read through `$ref`.
 */
function missingHeader(context: CheckContext, kind: SignatureKind, path: string, exchange: Exchange): Outcome {
  const operation = throughReferences(context.description, pathItemFor(context.description, path, context.pathKeyPrefix).get);
  const status = exchange.status ?? 0;
  const declaration = headerDeclaration(context.description, responseFor(context.description, operation, status), kind.header);
  const where = `GET ${pathLabel(context.baseUrl, path)}`;
  if (declaration === 'required') return problem(`${where} lacks ${kind.header}, which the description declares required: true for its ${status}`);
  if (declaration === 'declared') return { warning: [`${where} lacks ${kind.header}, which the description declares (not required) for its ${status}: sign the response, or leave the header out of the description where it is not sent`] };
  return {};
}

/** Headers a response carries that SPEC.md's Message-Signature pars list "each if present". */
const RESPONSE_CONTENT_HEADERS = ['content-encoding', 'content-type', 'content-length'];

/** What is wrong with the protected header, or undefined. */
function protectedHeaderProblem(kind: SignatureKind, jws: SignatureHeader, headers: Record<string, string>): string | undefined {
  const { alg, b64, crit, sigD } = jws.header;
  if (alg !== 'PS256') return `has alg ${JSON.stringify(alg)}, expected PS256`;
  if (b64 !== false) return `has b64 ${JSON.stringify(b64)}, expected false (the payload is the HTTP headers' data, not encoded)`;
  const critProblem = criticalProblem(jws.header, crit);
  if (critProblem !== undefined) return critProblem;
  if (!isObject(sigD)) return 'lacks sigD';
  if (sigD.mId !== JADES_HTTP_HEADERS) return `has sigD.mId ${JSON.stringify(sigD.mId)}, expected ${JADES_HTTP_HEADERS}`;
  const pars = asArray(sigD.pars).map((name) => String(name).toLowerCase());
  if ('exactly' in kind.pars) {
    if (pars.join(',') !== kind.pars.exactly.join(',')) return `has sigD.pars ${JSON.stringify(sigD.pars)}, expected ${JSON.stringify(kind.pars.exactly)}`;
    return undefined;
  }
  const foreign = pars.filter((name) => !(kind.pars as { allowed: string[] }).allowed.includes(name));
  if (!pars.includes('digest')) return `has sigD.pars ${JSON.stringify(sigD.pars)}, which lacks digest`;
  if (foreign.length > 0 && foreign.some((name) => name.startsWith('('))) return `has sigD.pars ${JSON.stringify(sigD.pars)}, with ${foreign.join(', ')} the module does not name`;
  const unsigned = RESPONSE_CONTENT_HEADERS.filter((name) => headers[name] !== undefined && !pars.includes(name));
  if (unsigned.length > 0) return `has sigD.pars ${JSON.stringify(sigD.pars)}, which leaves out ${unsigned.join(', ')} that the response carries: the module signs each of ${kind.pars.allowed.filter((name) => name !== 'digest').join(', ')} that is present, and digest`;
  return undefined;
}

/**
 * crit (RFC 7515 section 4.1.11) names b64 and sigD, only parameters a verifier of JAdES
 * understands, each present in the protected header.
 */
function criticalProblem(header: Record<string, unknown>, crit: unknown): string | undefined {
  const critical = asArray(crit);
  if (!critical.includes('b64') || !critical.includes('sigD')) return `has crit ${JSON.stringify(crit)}, expected it to name b64 and sigD`;
  const unknown = critical.filter((name) => typeof name !== 'string' || !UNDERSTOOD_CRITICAL.includes(name));
  if (unknown.length > 0) return `has crit ${JSON.stringify(crit)}, naming ${unknown.map((name) => JSON.stringify(name)).join(', ')}, which neither JAdES (ETSI TS 119 182-1 clause 5.2) nor RFC 7797 defines: a verifier must reject a JWS whose crit names a parameter it does not understand (RFC 7515 section 4.1.11)`;
  const absent = critical.filter((name) => header[name as string] === undefined);
  if (absent.length > 0) return `has crit ${JSON.stringify(crit)}, naming ${absent.map((name) => JSON.stringify(name)).join(', ')}, which the protected header lacks (RFC 7515 section 4.1.11)`;
  return undefined;
}

/** The key: from --signing-jwks (by kid, else the only one), else from x5c; else what the user can give. */
function keyFor(context: CheckContext, jws: SignatureHeader): { x5c: string } | { jwk: JWK } | { missing: string } {
  const keys = context.options.signingJwks;
  const kid = jws.header.kid;
  if (keys !== undefined) {
    const key = keys.find((candidate) => candidate.kid !== undefined && candidate.kid === kid) ?? (keys.length === 1 ? keys[0] : undefined);
    return key === undefined ? { missing: `no key in --signing-jwks has its kid ${JSON.stringify(kid)}: give the signer's public key with that kid` } : { jwk: key };
  }
  const x5c = asArray(jws.header.x5c)[0];
  if (typeof x5c === 'string') return { x5c };
  return { missing: `its header carries no x5c certificate${kid === undefined ? '' : ` (kid ${JSON.stringify(kid)})`} and no --signing-jwks was given. SPEC.md does not require x5c: give the signer's public key as a JWK Set, adr-check --signing-jwks <file>` };
}

export const signingPayload = checkFor(PAYLOAD);
export const signingMessage = checkFor(MESSAGE);
