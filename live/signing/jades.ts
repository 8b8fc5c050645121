import { flattenedVerify, importJWK, importX509, type JWK } from 'jose';

/**
 * The signing module's signatures as adr-check reads them: a detached compact JWS (RFC 7515
 * appendix F) with unencoded payload (RFC 7797, b64 false) over data built by the JAdES HTTP
 * headers mechanism (ETSI TS 119 182-1): for each name in sigD.pars one line, the lowercased
 * name, `: `, the header's value, joined by `\n`, no trailing newline (as the EU DSS library
 * builds it). Verification is jose's; only the signed data is assembled here.
 */

export const JADES_HTTP_HEADERS = 'http://uri.etsi.org/19182/HttpHeaders';
export const DETACHED_COMPACT = /^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/;

/**
 * The header parameters a verifier of these signatures understands when `crit` names them: those
 * JAdES defines for the JWS Protected Header (ETSI TS 119 182-1 clause 5.2: sigT, x5t#o, sigX5ts,
 * srCms, sigPl, srAts, adoTst, sigPId, sigD) and RFC 7797's b64. RFC 7515 section 4.1.11: a JWS
 * whose crit names any other is invalid.
 */
export const UNDERSTOOD_CRITICAL = ['b64', 'sigT', 'x5t#o', 'sigX5ts', 'srCms', 'sigPl', 'srAts', 'adoTst', 'sigPId', 'sigD'];
/** jose understands b64 itself; the JAdES parameters are declared to it as recognised. */
const JOSE_CRIT = Object.fromEntries(UNDERSTOOD_CRITICAL.filter((name) => name !== 'b64').map((name) => [name, true]));

export interface SignatureHeader {
  protectedHeader: string;
  signature: string;
  header: Record<string, unknown>;
}

/** The protected header of a detached compact JWS, or why the value is not one. */
export function parseDetachedJws(value: string): SignatureHeader | string {
  if (!DETACHED_COMPACT.test(value.trim())) return 'not a detached compact JWS (header..signature)';
  const [protectedHeader = '', , signature = ''] = value.trim().split('.');
  try {
    const header = JSON.parse(Buffer.from(protectedHeader, 'base64url').toString('utf8')) as unknown;
    if (typeof header !== 'object' || header === null || Array.isArray(header)) return 'its protected header is not a JSON object';
    return { protectedHeader, signature, header: header as Record<string, unknown> };
  } catch {
    return 'its protected header is not base64url JSON';
  }
}

/** The data the JAdES HTTP headers mechanism signs: each `pars` header as `name: value`, joined by `\n`. */
export function signedData(pars: unknown[], headerValue: (name: string) => string | undefined): string | { missing: string } {
  const lines: string[] = [];
  for (const name of pars.map((entry) => String(entry).toLowerCase())) {
    const value = headerValue(name);
    if (value === undefined) return { missing: name };
    lines.push(`${name}: ${value}`);
  }
  return lines.join('\n');
}

/** Verifies the JWS over the signed data with a key: an x5c certificate (DER base64) or a JWK. */
export async function verifyDetached(jws: SignatureHeader, data: string, key: { x5c: string } | { jwk: JWK }): Promise<true | string> {
  try {
    const verificationKey = 'x5c' in key
      ? await importX509(derToPem(key.x5c), 'PS256')
      : await importJWK(key.jwk, 'PS256');
    await flattenedVerify({ protected: jws.protectedHeader, payload: new TextEncoder().encode(data), signature: jws.signature }, verificationKey, { algorithms: ['PS256'], crit: JOSE_CRIT });
    return true;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function derToPem(base64: string): string {
  const lines = base64.replace(/\s+/g, '').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
