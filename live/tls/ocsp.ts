import * as pkijs from 'pkijs';

/**
 * Guideline "OCSP stapling": optional and informational, but a stapled response that is not
 * valid is Insufficient. Parsing and signature checks are PKI.js's (RFC 6960); what makes a
 * stapled response valid for this server is judged here.
 */
export interface OcspStapling {
  stapled: boolean;
  /** For a stapled response: the leaf's status in it. */
  status?: 'good' | 'revoked' | 'unknown';
  nextUpdate?: string;
  /** Why a stapled response is not valid; absent when it is. */
  problem?: string;
  /** What could not be checked (the issuer was not sent, so the signature is unchecked). */
  unchecked?: string;
}

const BASIC_RESPONSE = '1.3.6.1.5.5.7.48.1.1';
const RESPONSE_STATUS = ['successful', 'malformedRequest', 'internalError', 'tryLater', '(unused)', 'sigRequired', 'unauthorized'];
/** Clock difference tolerated between the responder and this machine. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** PKI.js takes bytes backed by a plain ArrayBuffer; Node's Buffers may share a pool. */
function ownBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}

function parseResponse(der: Buffer): pkijs.OCSPResponse | string {
  try {
    return pkijs.OCSPResponse.fromBER(ownBytes(der));
  } catch (error) {
    return `the stapled response does not parse: ${(error as Error).message}`;
  }
}

function basicResponseOf(response: pkijs.OCSPResponse): pkijs.BasicOCSPResponse | string {
  const status = response.responseStatus.valueBlock.valueDec;
  if (status !== 0) return `the stapled response has status ${RESPONSE_STATUS[status] ?? status}`;
  if (response.responseBytes?.responseType !== BASIC_RESPONSE) return 'the stapled response is not a basic OCSP response';
  try {
    return pkijs.BasicOCSPResponse.fromBER(ownBytes(response.responseBytes.response.valueBlock.valueHexView));
  } catch (error) {
    return `the stapled basic response does not parse: ${(error as Error).message}`;
  }
}

function certificatesOf(chain: Buffer[]): pkijs.Certificate[] {
  const certificates: pkijs.Certificate[] = [];
  for (const der of chain) {
    try {
      certificates.push(pkijs.Certificate.fromBER(ownBytes(der)));
    } catch {
      // A certificate that does not parse is reported by the chain grading, not here.
    }
  }
  return certificates;
}

/** The issuer among the candidates: the one whose subject is the leaf's issuer name. */
function issuerOf(leaf: pkijs.Certificate, candidates: pkijs.Certificate[]): pkijs.Certificate | undefined {
  return candidates.find((candidate) => candidate.subject.isEqual(leaf.issuer));
}

function datesProblem(single: pkijs.SingleResponse, now: Date): string | undefined {
  if (single.thisUpdate.getTime() > now.getTime() + CLOCK_SKEW_MS) return `the stapled response is not yet valid (thisUpdate ${single.thisUpdate.toISOString()})`;
  if (single.nextUpdate !== undefined && single.nextUpdate.getTime() < now.getTime() - CLOCK_SKEW_MS) return `the stapled response expired (nextUpdate ${single.nextUpdate.toISOString()})`;
  return undefined;
}

async function signatureProblem(basic: pkijs.BasicOCSPResponse, issuer: pkijs.Certificate): Promise<string | undefined> {
  try {
    return (await basic.verify({ trustedCerts: [issuer], issuerCerts: [issuer] })) ? undefined : 'the stapled response signature does not verify';
  } catch (error) {
    return `the stapled response signature does not verify: ${(error as Error).message}`;
  }
}

/**
 * Judges a stapled OCSP response for the chain the server sent (leaf first). `extraIssuers` are
 * certificates to look for the leaf's issuer in when the server does not send it (--ca).
 */
export async function judgeOcspStapling(response: Buffer | undefined, chain: Buffer[], extraIssuers: Buffer[] = [], now = new Date()): Promise<OcspStapling> {
  if (response === undefined || response.length === 0) return { stapled: false };
  const parsed = parseResponse(response);
  if (typeof parsed === 'string') return { stapled: true, problem: parsed };
  const basic = basicResponseOf(parsed);
  if (typeof basic === 'string') return { stapled: true, problem: basic };
  const [leaf, ...rest] = certificatesOf(chain);
  if (leaf === undefined) return { stapled: true, unchecked: 'no certificate to match the stapled response with' };
  const single = basic.tbsResponseData.responses.find((entry) => entry.certID.serialNumber.isEqual(leaf.serialNumber));
  if (single === undefined) return { stapled: true, problem: 'the stapled response is for another certificate' };
  const status = single.certStatus.idBlock.tagNumber === 0 ? 'good' : single.certStatus.idBlock.tagNumber === 1 ? 'revoked' : 'unknown';
  const nextUpdate = single.nextUpdate?.toISOString();
  const base: OcspStapling = { stapled: true, status, ...(nextUpdate === undefined ? {} : { nextUpdate }) };
  const dates = datesProblem(single, now);
  if (status !== 'good') return { ...base, problem: `the stapled response says the certificate is ${status}` };
  if (dates !== undefined) return { ...base, problem: dates };
  const issuer = issuerOf(leaf, [...rest, ...certificatesOf(extraIssuers)]);
  if (issuer === undefined) return { ...base, unchecked: 'the issuer certificate was not sent, so the response signature is not checked' };
  const certificateStatus = await basic.getCertificateStatus(leaf, issuer);
  if (!certificateStatus.isForCertificate) return { ...base, problem: 'the stapled response is for a certificate of another issuer' };
  const signature = await signatureProblem(basic, issuer);
  return signature === undefined ? base : { ...base, problem: signature };
}
