import { createHash, X509Certificate } from 'node:crypto';
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

/** `SHA-256=<base64>` among the Digest header's comma-separated values (RFC 3230), or undefined. */
export function sha256Of(digestHeader: string): string | undefined {
  for (const part of digestHeader.split(',')) {
    const [algorithm, ...value] = part.trim().split('=');
    if (algorithm?.toLowerCase() === 'sha-256') return value.join('=');
  }
  return undefined;
}

export function bodyDigest(body: Buffer): string {
  return createHash('sha256').update(body).digest('base64');
}

/** The data the JAdES HTTP headers mechanism signs: each `pars` header as `name: value`, joined by `\n`. */
export function signedData(pars: string[], headerValue: (name: string) => string | undefined): string | { missing: string } {
  const lines: string[] = [];
  for (const name of pars) {
    const value = headerValue(name.toLowerCase());
    if (value === undefined) return { missing: name };
    lines.push(`${name.toLowerCase()}: ${value}`);
  }
  return lines.join('\n');
}

/** Verifies the JWS over the signed data with a key: an x5c certificate (DER base64) or a JWK. */
export async function verifyDetached(jws: SignatureHeader, data: string, key: { x5c: string } | { jwk: JWK }): Promise<true | string> {
  try {
    const verificationKey = 'x5c' in key
      ? await importX509(derToPem(key.x5c), 'PS256')
      : await importJWK(key.jwk, 'PS256');
    await flattenedVerify({ protected: jws.protectedHeader, payload: new TextEncoder().encode(data), signature: jws.signature }, verificationKey, { algorithms: ['PS256'], crit: { sigD: true } });
    return true;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function derToPem(base64: string): string {
  const lines = base64.replace(/\s+/g, '').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

/** Who the x5c certificate names, its validity, and (with a CA given) whether that CA issued it. */
export function certificateTrust(x5c: string[], caPem: string | undefined): { summary: string; trusted?: boolean } {
  try {
    const leaf = new X509Certificate(Buffer.from(x5c[0] ?? '', 'base64'));
    const expired = Date.parse(leaf.validTo) < Date.now();
    const summary = `x5c: ${leaf.subject.replace(/\n/g, ', ')}, issued by ${leaf.issuer.replace(/\n/g, ', ')}, valid until ${leaf.validTo}${expired ? ' (EXPIRED)' : ''}`;
    if (caPem === undefined) return { summary: `${summary}; trust not judged (give --signing-ca)` };
    const ca = new X509Certificate(caPem);
    const chain = x5c.slice(1).map((entry) => new X509Certificate(Buffer.from(entry, 'base64')));
    const trusted = !expired && issuedAlong([leaf, ...chain], ca);
    return { summary: `${summary}; ${trusted ? 'issued under' : 'NOT issued under'} the --signing-ca ${ca.subject.replace(/\n/g, ', ')}`, trusted };
  } catch (error) {
    return { summary: `x5c is not a certificate: ${error instanceof Error ? error.message : String(error)}`, trusted: false };
  }
}

/** Each certificate issued by the next, the last by the CA. */
function issuedAlong(chain: X509Certificate[], ca: X509Certificate): boolean {
  return chain.every((certificate, index) => {
    const issuer = chain[index + 1] ?? ca;
    return certificate.checkIssued(issuer) && certificate.verify(issuer.publicKey);
  });
}
