import { createHash } from 'node:crypto';

/**
 * The Digest header (RFC 3230 section 4.3.2): `algorithm=value` instances, comma-separated, the
 * algorithm names case-insensitive, from the IANA "HTTP Digest Algorithm Values" registry. SPEC.md
 * names only "the payload digest (RFC 3230)", so every registered algorithm node:crypto computes is
 * verified; a registered one it does not compute, or an unregistered one, is named and passed over,
 * as RFC 3230 lets a recipient ignore a digest it does not understand.
 */

interface Computable { hash: 'md5' | 'sha1' | 'sha256' | 'sha512'; name: string; /** RFC 9530's id-sha-*: of the unencoded body. */ identity?: boolean }

/** Registered and computable here, by lower-case name; values in base64 (RFC 3230, RFC 5843). */
const COMPUTABLE = new Map<string, Computable>([
  ['md5', { hash: 'md5', name: 'MD5' }],
  ['sha', { hash: 'sha1', name: 'SHA' }],
  ['sha-256', { hash: 'sha256', name: 'SHA-256' }],
  ['sha-512', { hash: 'sha512', name: 'SHA-512' }],
  ['id-sha-256', { hash: 'sha256', name: 'ID-SHA-256', identity: true }],
  ['id-sha-512', { hash: 'sha512', name: 'ID-SHA-512', identity: true }],
]);

/** Registered, but checksums node:crypto has no function for. */
const REGISTERED_NOT_COMPUTED = new Set(['adler32', 'crc32c', 'unixsum', 'unixcksum']);

/** A header with more instances than the registry has algorithms is not a digest; the rest is not read. */
const MAX_INSTANCES = 16;

export const COMPUTED_ALGORITHMS = [...COMPUTABLE.values()].map((algorithm) => algorithm.name);

export interface DigestInstance { algorithm: string; value: string }

export interface DigestVerdict {
  /** Algorithms whose value is the body's. */
  matched: string[];
  /** Instances whose value is not the body's, with the body's value under that algorithm. */
  mismatched: Array<DigestInstance & { expected: string }>;
  /** Instances not verified, with why (not registered, no function here, a content coding). */
  passedOver: string[];
}

export function digestInstances(header: string): DigestInstance[] {
  return header.split(',').map((part) => part.trim()).filter((part) => part !== '').map((part) => {
    const equals = part.indexOf('=');
    return equals < 0 ? { algorithm: part, value: '' } : { algorithm: part.slice(0, equals).trim(), value: part.slice(equals + 1).trim() };
  });
}

/**
 * Each instance of the header against the body as received (the instance, content coding applied).
 * An id-sha-* digest is of the body without content coding: verified only where none was applied.
 */
export function verifyDigest(header: string, body: Buffer, contentEncoding: string | undefined): DigestVerdict {
  const verdict: DigestVerdict = { matched: [], mismatched: [], passedOver: [] };
  // Each function runs once over the body, however many instances name it.
  const computed = new Map<Computable['hash'], string>();
  const bodyDigest = (hash: Computable['hash']) => computed.get(hash) ?? computed.set(hash, createHash(hash).update(body).digest('base64')).get(hash) as string;
  const encoded = contentEncoding !== undefined && contentEncoding.trim().toLowerCase() !== 'identity' && contentEncoding.trim() !== '';
  const instances = digestInstances(header);
  if (instances.length > MAX_INSTANCES) verdict.passedOver.push(`${instances.length - MAX_INSTANCES} instances after the first ${MAX_INSTANCES}`);
  for (const instance of instances.slice(0, MAX_INSTANCES)) {
    const lower = instance.algorithm.toLowerCase();
    const computable = COMPUTABLE.get(lower);
    if (computable === undefined) {
      verdict.passedOver.push(REGISTERED_NOT_COMPUTED.has(lower) ? `${instance.algorithm} (registered, not computed by adr-check)` : `${instance.algorithm} (not in the RFC 3230 registry)`);
      continue;
    }
    if (computable.identity === true && encoded) {
      verdict.passedOver.push(`${instance.algorithm} (of the body before Content-Encoding ${contentEncoding}, which adr-check does not undo)`);
      continue;
    }
    const expected = bodyDigest(computable.hash);
    if (instance.value === expected) verdict.matched.push(computable.name);
    else verdict.mismatched.push({ ...instance, expected });
  }
  return verdict;
}
