import { createHash, X509Certificate } from 'node:crypto';
import { flattenedVerify, importX509 } from 'jose';

/**
 * Reading a response's payload signature the way the signing module defines it, independently
 * of the reference API's code: jose verifies the detached JWS over the JAdES HTTP headers data,
 * `digest: <the Digest header>`, with the certificate in x5c.
 */

export const JADES_HTTP_HEADERS = 'http://uri.etsi.org/19182/HttpHeaders';
export const DETACHED_COMPACT = /^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/;

/** The values of every field named `name` (any case) in Node's rawHeaders list. */
export function fieldValues(rawHeaders: string[], name: string): string[] {
  const values: string[] = [];
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    if (rawHeaders[index]?.toLowerCase() === name.toLowerCase()) values.push(rawHeaders[index + 1] ?? '');
  }
  return values;
}

export function sha256Digest(body: Buffer): string {
  return `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
}

export function protectedHeaderOf(jws: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jws.split('.')[0] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

export function certificateOf(jws: string): X509Certificate {
  const x5c = protectedHeaderOf(jws).x5c as string[];
  return new X509Certificate(Buffer.from(x5c[0] ?? '', 'base64'));
}

/** Whether the detached JWS verifies over `data` with the x5c certificate, for `alg`. */
export async function verifies(jws: string, data: string, alg = 'PS256'): Promise<boolean> {
  const [header = '', , signature = ''] = jws.split('.');
  try {
    const key = await importX509(certificateOf(jws).toString(), alg);
    await flattenedVerify({ protected: header, payload: new TextEncoder().encode(data), signature }, key, { algorithms: [alg], crit: { sigD: true } });
    return true;
  } catch {
    return false;
  }
}

/** What is wrong with a response's payload signing; empty when it is as the module requires. */
export async function signatureProblems(rawHeaders: string[], body: Buffer): Promise<string[]> {
  const signatures = fieldValues(rawHeaders, 'payload-signature');
  const digests = fieldValues(rawHeaders, 'digest');
  if (signatures.length !== 1) return [`${signatures.length} Payload-Signature fields`];
  if (digests.length !== 1) return [`${digests.length} Digest fields`];
  const [jws = ''] = signatures;
  const [digest = ''] = digests;
  if (!DETACHED_COMPACT.test(jws)) return [`not a detached compact JWS: ${jws.slice(0, 40)}`];
  const problems: string[] = [];
  if (digest !== sha256Digest(body)) problems.push(`Digest ${digest}, body ${sha256Digest(body)}`);
  const header = protectedHeaderOf(jws);
  const expected = { alg: 'PS256', b64: false, crit: ['b64', 'sigD'], sigD: { mId: JADES_HTTP_HEADERS, pars: ['digest'] } };
  for (const [name, value] of Object.entries(expected)) {
    if (JSON.stringify(header[name]) !== JSON.stringify(value)) problems.push(`${name} ${JSON.stringify(header[name])}`);
  }
  if (!(await verifies(jws, `digest: ${digest}`))) problems.push('the signature does not verify over "digest: <Digest>"');
  return problems;
}
