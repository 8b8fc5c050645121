import { createHash, generateKeyPair, X509Certificate } from 'node:crypto';
import { promisify } from 'node:util';
import { FlattenedSign, importPKCS8, type CryptoKey } from 'jose';
import { generate } from 'selfsigned';

/**
 * Payload signing (SPEC.md, "Payload and message signing"): every response with a body carries
 * `Digest: SHA-256=<base64>` (RFC 3230) and `Payload-Signature`, a detached compact JWS (RFC 7515
 * appendix F) with unencoded payload (RFC 7797) over the data of the JAdES HTTP headers mechanism
 * (ETSI TS 119 182-1) as the EU DSS library builds it: one line per header named in sigD.pars,
 * the lowercased name, `: `, the value, joined by `\n`, no trailing newline. The payload module
 * signs `digest` only, so the signed data is exactly `digest: SHA-256=...`.
 */

export const JADES_HTTP_HEADERS = 'http://uri.etsi.org/19182/HttpHeaders';

export interface SigningFaults {
  /** `signature-other-data`: the signature covers the Digest value alone, without `digest: `. */
  otherData: boolean;
  /** `digest-mismatch`: Digest (and the signature over it) is of the body with a newline appended. */
  digestMismatch: boolean;
  /** `signature-rs256`: alg RS256 (RSASSA-PKCS1-v1_5) instead of PS256. */
  rs256: boolean;
  /** `two-signature-headers`: a second Payload-Signature field, as a gateway that signs again would add. */
  twoHeaders: boolean;
}

export interface SigningIdentity {
  /** PEM of the signing certificate, which x5c carries. */
  certPem: string;
  /** PEM of the CA that issued it: what `adr-check --signing-ca` is given. */
  caPem: string;
  /** The certificate, DER in base64, as x5c holds it. */
  x5c: string[];
  ps256: CryptoKey;
  rs256: CryptoKey;
}

const generateKeyPairAsync = promisify(generateKeyPair);

// RSA 3072, as the TLS keys: PS256 needs RSA, and 2048 bits is "phase out" in the NCSC guidelines.
function rsaKeyPair(): Promise<{ privateKey: string; publicKey: string }> {
  return generateKeyPairAsync('rsa', {
    modulusLength: 3072,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

// Key generation takes seconds and the tests start many servers: one signing key per process.
let signingKeys: Promise<{ privateKey: string; publicKey: string }> | undefined;

/** The process's signing key pair, made on first use; call early to make it beside the TLS keys. */
export function signingKeyPair(): Promise<{ privateKey: string; publicKey: string }> {
  if (signingKeys === undefined) {
    signingKeys = rsaKeyPair();
    signingKeys.catch(() => { signingKeys = undefined; });
  }
  return signingKeys;
}

export interface Issuer {
  key: string;
  cert: string;
}

async function issueCertificate(issuer: Issuer): Promise<{ cert: string }> {
  const keys = await signingKeyPair();
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 90 * 24 * 3600 * 1000);
  const leaf = await generate([{ name: 'commonName', value: 'nlgov-adr reference API payload signing' }], {
    keyType: 'rsa', keyPair: keys, algorithm: 'sha256', notBeforeDate, notAfterDate,
    ca: { key: issuer.key, cert: issuer.cert },
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      // Signatures only: digitalSignature, and nonRepudiation (contentCommitment) for signed content.
      { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
    ],
  });
  return { cert: leaf.cert };
}

/** A throwaway root of its own, when the TLS certificate came from the caller and its CA key is unknown. */
async function ownIssuer(): Promise<Issuer> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 90 * 24 * 3600 * 1000);
  const root = await generate([{ name: 'commonName', value: 'nlgov-adr reference API signing root' }], {
    keyType: 'rsa', keyPair: await rsaKeyPair(), algorithm: 'sha256', notBeforeDate, notAfterDate,
    extensions: [{ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true }],
  });
  return { key: root.private, cert: root.cert };
}

async function makeIdentity(given: Issuer | undefined): Promise<SigningIdentity> {
  const issuer = given ?? (await ownIssuer());
  const [{ cert }, keys] = await Promise.all([issueCertificate(issuer), signingKeyPair()]);
  const [ps256, rs256] = await Promise.all([importPKCS8(keys.privateKey, 'PS256'), importPKCS8(keys.privateKey, 'RS256')]);
  return { certPem: cert, caPem: issuer.cert, x5c: [new X509Certificate(cert).raw.toString('base64')], ps256, rs256 };
}

const identities = new Map<string, Promise<SigningIdentity>>();

/**
 * The signing certificate, issued by `issuer` (the TLS root, so one CA serves for --ca and
 * --signing-ca) or, without one, by a root of its own. One per issuer and process.
 */
export function signingIdentity(issuer: Issuer | undefined): Promise<SigningIdentity> {
  const cacheKey = issuer?.cert ?? '';
  let pending = identities.get(cacheKey);
  if (pending === undefined) {
    pending = makeIdentity(issuer);
    identities.set(cacheKey, pending);
    pending.catch(() => identities.delete(cacheKey));
  }
  return pending;
}

/** RFC 3230 instance digest: `SHA-256=` and the base64 (not base64url) SHA-256 of the body. */
export function digestHeader(body: Buffer): string {
  return `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
}

/** The JAdES HTTP headers data for sigD.pars ["digest"]. */
export function signedData(digest: string): string {
  return `digest: ${digest}`;
}

// Identical bodies are signed over identical data; a signature made once is as valid the next time.
const CACHE_LIMIT = 512;

export class PayloadSigner {
  readonly #identity: SigningIdentity;
  readonly #faults: SigningFaults;
  readonly #signatures = new Map<string, Promise<string>>();

  constructor(identity: SigningIdentity, faults: SigningFaults) {
    this.#identity = identity;
    this.#faults = faults;
  }

  /** The Digest and Payload-Signature fields for a body (two Payload-Signature values with the fault). */
  async headersFor(body: Buffer): Promise<{ Digest: string; 'Payload-Signature': string | string[] }> {
    const digest = digestHeader(this.#faults.digestMismatch ? Buffer.concat([body, Buffer.from('\n')]) : body);
    const data = this.#faults.otherData ? digest : signedData(digest);
    const signature = await this.#cached(data);
    if (!this.#faults.twoHeaders) return { Digest: digest, 'Payload-Signature': signature };
    return { Digest: digest, 'Payload-Signature': [signature, await this.sign(data)] };
  }

  #cached(data: string): Promise<string> {
    let signature = this.#signatures.get(data);
    if (signature === undefined) {
      if (this.#signatures.size >= CACHE_LIMIT) this.#signatures.clear();
      signature = this.sign(data);
      this.#signatures.set(data, signature);
      signature.catch(() => this.#signatures.delete(data));
    }
    return signature;
  }

  /** A detached compact JWS over `data`: `header..signature`. */
  async sign(data: string): Promise<string> {
    const alg = this.#faults.rs256 ? 'RS256' : 'PS256';
    const jws = await new FlattenedSign(new TextEncoder().encode(data))
      .setProtectedHeader({ alg, b64: false, crit: ['b64', 'sigD'], sigD: { mId: JADES_HTTP_HEADERS, pars: ['digest'] }, x5c: this.#identity.x5c })
      .sign(this.#faults.rs256 ? this.#identity.rs256 : this.#identity.ps256, { crit: { sigD: true } });
    return `${jws.protected ?? ''}..${jws.signature}`;
  }
}
