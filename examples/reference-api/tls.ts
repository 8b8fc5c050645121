import { constants, generateKeyPair, X509Certificate } from 'node:crypto';
import { promisify } from 'node:util';
import { isIP } from 'node:net';
import type { SecureContextOptions, TlsOptions } from 'node:tls';
import { generate } from 'selfsigned';

/**
 * TLS set up to be graded "Good/Sufficient" on every point of the NCSC guidelines
 * (shared/TLS-GUIDELINES.md), so the reference API passes /core/transport/tls without a
 * phase-out warning. Node's defaults do not: its cipher list includes CBC-SHA and TLS_RSA
 * suites, and OpenSSL 3 offers the ffdhe groups in TLS 1.3.
 */

// TLS 1.3 suites first (Good before Sufficient), then the eight Sufficient TLS 1.2 suites: only
// ECDHE with AEAD, no CBC, no RSA key exchange, no DHE.
const CIPHERS = [
  'TLS_AES_256_GCM_SHA384',
  'TLS_CHACHA20_POLY1305_SHA256',
  'TLS_AES_128_GCM_SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
].join(':');

// Only the Sufficient ECDHE groups; leaving it to OpenSSL would also offer ffdhe2048.
const GROUPS = 'X25519:P-256:P-384:P-521:X448';

// SHA-256 or better for the key-exchange signature; SHA-1 and SHA-224 are left out.
const SIGALGS = [
  'ecdsa_secp256r1_sha256', 'ecdsa_secp384r1_sha384', 'ecdsa_secp521r1_sha512',
  'rsa_pss_rsae_sha256', 'rsa_pss_rsae_sha384', 'rsa_pss_rsae_sha512',
  'rsa_pss_pss_sha256', 'rsa_pss_pss_sha384', 'rsa_pss_pss_sha512',
  'rsa_pkcs1_sha256', 'rsa_pkcs1_sha384', 'rsa_pkcs1_sha512',
  'ed25519', 'ed448',
].join(':');

export interface CertificateSet {
  key: string;
  cert: string;
  /** The PEM a client trusts: the generated root, or what the caller supplied. */
  caPem: string;
  /** The generated root's key and certificate, which also issue the payload signing certificate; unknown for supplied certificates. */
  issuer?: { key: string; cert: string };
}

export function tlsServerOptions(certificates: CertificateSet): TlsOptions & SecureContextOptions {
  return {
    key: certificates.key,
    cert: certificates.cert,
    minVersion: 'TLSv1.2',
    ciphers: CIPHERS,
    honorCipherOrder: true,
    ecdhCurve: GROUPS,
    sigalgs: SIGALGS,
    // Client-initiated renegotiation "not allowed" is the Good grade; compression is off anyway.
    secureOptions: constants.SSL_OP_NO_RENEGOTIATION | constants.SSL_OP_NO_COMPRESSION,
  };
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

function subjectAltNames(hosts: string[]): Array<{ type: 2; value: string } | { type: 7; ip: string }> {
  return hosts.map((host) => (isIP(host) === 0 ? { type: 2 as const, value: host } : { type: 7 as const, ip: host }));
}

/** Hosts the leaf certificate names: the loopback names, plus the listen host when it is a real name. */
export function certificateHosts(host: string): string[] {
  const wildcard = host === '0.0.0.0' || host === '::' || host === '';
  return [...new Set([...LOOPBACK_NAMES, ...(wildcard ? [] : [host])])];
}

const generateKeyPairAsync = promisify(generateKeyPair);

// RSA 3072: the guidelines grade 2048-bit RSA as "phase out", 3072 as Sufficient. Node's own
// generator runs in the thread pool, so the root's and the leaf's keys are made side by side.
async function rsaKeyPair(): Promise<{ privateKey: string; publicKey: string }> {
  return generateKeyPairAsync('rsa', {
    modulusLength: 3072,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

// A root and a leaf rather than one self-signed leaf: a checker then sees a real chain to grade,
// with the leaf (the certificate the guidelines judge) separate from the trust anchor.
async function generateCertificates(hosts: string[]): Promise<CertificateSet> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 90 * 24 * 3600 * 1000);
  const [rootKeys, leafKeys] = await Promise.all([rsaKeyPair(), rsaKeyPair()]);
  const root = await generate([{ name: 'commonName', value: 'nlgov-adr reference API test root' }], {
    keyType: 'rsa', keyPair: rootKeys, algorithm: 'sha256', notBeforeDate, notAfterDate,
    extensions: [{ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true }],
  });
  const leaf = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'rsa', keyPair: leafKeys, algorithm: 'sha256', notBeforeDate, notAfterDate,
    ca: { key: root.private, cert: root.cert },
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: subjectAltNames(hosts) },
    ],
  });
  return { key: leaf.private, cert: leaf.cert, caPem: root.cert, issuer: { key: root.private, cert: root.cert } };
}

// Key generation takes seconds; tests start many servers, so one set per host list and process.
const generated = new Map<string, Promise<CertificateSet>>();

export function certificatesFor(host: string): Promise<CertificateSet> {
  const hosts = certificateHosts(host);
  const cacheKey = hosts.join(' ');
  let pending = generated.get(cacheKey);
  if (pending === undefined) {
    pending = generateCertificates(hosts);
    generated.set(cacheKey, pending);
    pending.catch(() => generated.delete(cacheKey));
  }
  return pending;
}

/** Certificates the caller brings: with no separate CA, the certificate itself is the anchor. */
export function suppliedCertificates(tls: { key: string; cert: string; ca?: string }): CertificateSet {
  new X509Certificate(tls.cert); // fails early, with a clear error, on a malformed PEM
  return { key: tls.key, cert: tls.cert, caPem: tls.ca ?? tls.cert };
}
