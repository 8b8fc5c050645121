
/**
 * The NCSC TLS guidelines (version 2025-05) as data, as summarised in TLS-GUIDELINES.md. Every
 * table below names the guideline section it comes from; anything a table does not list is
 * Insufficient, as the guideline says ("anything not listed as Good, Sufficient or Phase out").
 */
export type TlsClass = 'good' | 'sufficient' | 'phase-out' | 'insufficient';

export const CLASS_LABEL: Record<TlsClass, string> = { good: 'Good', sufficient: 'Sufficient', 'phase-out': 'Phase out', insufficient: 'Insufficient' };

export type ProtocolName = 'SSLv2' | 'SSLv3' | 'TLSv1.0' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';

/** Guideline "Protocol versions". The wire value is the ProtocolVersion of each version. */
export const PROTOCOLS: ReadonlyArray<{ name: ProtocolName; wire: number; class: TlsClass }> = [
  { name: 'TLSv1.3', wire: 0x0304, class: 'good' },
  { name: 'TLSv1.2', wire: 0x0303, class: 'sufficient' },
  { name: 'TLSv1.1', wire: 0x0302, class: 'insufficient' },
  { name: 'TLSv1.0', wire: 0x0301, class: 'insufficient' },
  { name: 'SSLv3', wire: 0x0300, class: 'insufficient' },
  { name: 'SSLv2', wire: 0x0002, class: 'insufficient' },
];

/** Guideline "Cipher suites": code point, IANA name, class. Unlisted suites are Insufficient. */
export const CIPHER_SUITE_CLASSES: ReadonlyArray<{ code: number; name: string; class: TlsClass }> = [
  // Good (TLS 1.3)
  { code: 0x1302, name: 'TLS_AES_256_GCM_SHA384', class: 'good' },
  { code: 0x1303, name: 'TLS_CHACHA20_POLY1305_SHA256', class: 'good' },
  // Sufficient, TLS 1.3
  { code: 0x1301, name: 'TLS_AES_128_GCM_SHA256', class: 'sufficient' },
  { code: 0x1304, name: 'TLS_AES_128_CCM_SHA256', class: 'sufficient' },
  // Sufficient, TLS 1.2
  { code: 0xcca9, name: 'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256', class: 'sufficient' },
  { code: 0xc02c, name: 'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384', class: 'sufficient' },
  { code: 0xc0ad, name: 'TLS_ECDHE_ECDSA_WITH_AES_256_CCM', class: 'sufficient' },
  { code: 0xc02b, name: 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', class: 'sufficient' },
  { code: 0xc0ac, name: 'TLS_ECDHE_ECDSA_WITH_AES_128_CCM', class: 'sufficient' },
  { code: 0xcca8, name: 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256', class: 'sufficient' },
  { code: 0xc030, name: 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384', class: 'sufficient' },
  { code: 0xc02f, name: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', class: 'sufficient' },
  // Phase out, TLS 1.2: ECDHE_ECDSA
  { code: 0xc087, name: 'TLS_ECDHE_ECDSA_WITH_CAMELLIA_256_GCM_SHA384', class: 'phase-out' },
  { code: 0xc073, name: 'TLS_ECDHE_ECDSA_WITH_CAMELLIA_256_CBC_SHA384', class: 'phase-out' },
  { code: 0xc086, name: 'TLS_ECDHE_ECDSA_WITH_CAMELLIA_128_GCM_SHA256', class: 'phase-out' },
  { code: 0xc072, name: 'TLS_ECDHE_ECDSA_WITH_CAMELLIA_128_CBC_SHA256', class: 'phase-out' },
  { code: 0xc05d, name: 'TLS_ECDHE_ECDSA_WITH_ARIA_256_GCM_SHA384', class: 'phase-out' },
  { code: 0xc049, name: 'TLS_ECDHE_ECDSA_WITH_ARIA_256_CBC_SHA384', class: 'phase-out' },
  { code: 0xc05c, name: 'TLS_ECDHE_ECDSA_WITH_ARIA_128_GCM_SHA256', class: 'phase-out' },
  { code: 0xc048, name: 'TLS_ECDHE_ECDSA_WITH_ARIA_128_CBC_SHA256', class: 'phase-out' },
  { code: 0xc024, name: 'TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384', class: 'phase-out' },
  { code: 0xc023, name: 'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256', class: 'phase-out' },
  // Phase out, TLS 1.2: ECDHE_RSA
  { code: 0xc08b, name: 'TLS_ECDHE_RSA_WITH_CAMELLIA_256_GCM_SHA384', class: 'phase-out' },
  { code: 0xc077, name: 'TLS_ECDHE_RSA_WITH_CAMELLIA_256_CBC_SHA384', class: 'phase-out' },
  { code: 0xc08a, name: 'TLS_ECDHE_RSA_WITH_CAMELLIA_128_GCM_SHA256', class: 'phase-out' },
  { code: 0xc076, name: 'TLS_ECDHE_RSA_WITH_CAMELLIA_128_CBC_SHA256', class: 'phase-out' },
  { code: 0xc061, name: 'TLS_ECDHE_RSA_WITH_ARIA_256_GCM_SHA384', class: 'phase-out' },
  { code: 0xc04d, name: 'TLS_ECDHE_RSA_WITH_ARIA_256_CBC_SHA384', class: 'phase-out' },
  { code: 0xc060, name: 'TLS_ECDHE_RSA_WITH_ARIA_128_GCM_SHA256', class: 'phase-out' },
  { code: 0xc04c, name: 'TLS_ECDHE_RSA_WITH_ARIA_128_CBC_SHA256', class: 'phase-out' },
  { code: 0xc028, name: 'TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384', class: 'phase-out' },
  { code: 0xc027, name: 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256', class: 'phase-out' },
  // Phase out, TLS 1.2: DHE_RSA (acceptable only with a Phase out or better FFDHE group)
  { code: 0xccaa, name: 'TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256', class: 'phase-out' },
  { code: 0xc07d, name: 'TLS_DHE_RSA_WITH_CAMELLIA_256_GCM_SHA384', class: 'phase-out' },
  { code: 0x00c4, name: 'TLS_DHE_RSA_WITH_CAMELLIA_256_CBC_SHA256', class: 'phase-out' },
  { code: 0xc07c, name: 'TLS_DHE_RSA_WITH_CAMELLIA_128_GCM_SHA256', class: 'phase-out' },
  { code: 0x00be, name: 'TLS_DHE_RSA_WITH_CAMELLIA_128_CBC_SHA256', class: 'phase-out' },
  { code: 0xc053, name: 'TLS_DHE_RSA_WITH_ARIA_256_GCM_SHA384', class: 'phase-out' },
  { code: 0xc045, name: 'TLS_DHE_RSA_WITH_ARIA_256_CBC_SHA384', class: 'phase-out' },
  { code: 0xc052, name: 'TLS_DHE_RSA_WITH_ARIA_128_GCM_SHA256', class: 'phase-out' },
  { code: 0xc044, name: 'TLS_DHE_RSA_WITH_ARIA_128_CBC_SHA256', class: 'phase-out' },
  { code: 0x009f, name: 'TLS_DHE_RSA_WITH_AES_256_GCM_SHA384', class: 'phase-out' },
  { code: 0xc09f, name: 'TLS_DHE_RSA_WITH_AES_256_CCM', class: 'phase-out' },
  { code: 0x006b, name: 'TLS_DHE_RSA_WITH_AES_256_CBC_SHA256', class: 'phase-out' },
  { code: 0x009e, name: 'TLS_DHE_RSA_WITH_AES_128_GCM_SHA256', class: 'phase-out' },
  { code: 0xc09e, name: 'TLS_DHE_RSA_WITH_AES_128_CCM', class: 'phase-out' },
  { code: 0x0067, name: 'TLS_DHE_RSA_WITH_AES_128_CBC_SHA256', class: 'phase-out' },
];

/**
 * Guideline "Key exchange": TLS NamedGroup code points (IANA tls-parameters-8). The TLS 1.3
 * brainpool code points (RFC 8734) are the same curves as the TLS 1.2 ones. Finite-field groups
 * are graded here by name; a DHE prime seen in a TLS 1.2 ServerKeyExchange is graded by
 * gradeDhPrime, because the guideline identifies the group by its prime.
 */
export const GROUPS: ReadonlyArray<{ code: number; name: string; class: TlsClass }> = [
  { code: 0x0019, name: 'secp521r1', class: 'sufficient' },
  { code: 0x0018, name: 'secp384r1', class: 'sufficient' },
  { code: 0x0017, name: 'secp256r1', class: 'sufficient' },
  { code: 0x001c, name: 'brainpoolP512r1', class: 'sufficient' },
  { code: 0x001b, name: 'brainpoolP384r1', class: 'sufficient' },
  { code: 0x001a, name: 'brainpoolP256r1', class: 'sufficient' },
  { code: 0x0021, name: 'brainpoolP512r1tls13', class: 'sufficient' },
  { code: 0x0020, name: 'brainpoolP384r1tls13', class: 'sufficient' },
  { code: 0x001f, name: 'brainpoolP256r1tls13', class: 'sufficient' },
  { code: 0x001d, name: 'x25519', class: 'sufficient' },
  { code: 0x001e, name: 'x448', class: 'sufficient' },
  { code: 0x0015, name: 'secp224r1', class: 'phase-out' },
  { code: 0x0104, name: 'ffdhe8192', class: 'phase-out' },
  { code: 0x0103, name: 'ffdhe6144', class: 'phase-out' },
  { code: 0x0102, name: 'ffdhe4096', class: 'phase-out' },
  { code: 0x0101, name: 'ffdhe3072', class: 'phase-out' },
  { code: 0x0100, name: 'ffdhe2048', class: 'insufficient' },
  // Insufficient, listed so that the prober offers them and reports them by name.
  { code: 0x0016, name: 'secp256k1', class: 'insufficient' },
  { code: 0x0014, name: 'secp224k1', class: 'insufficient' },
  { code: 0x0013, name: 'secp192r1', class: 'insufficient' },
  { code: 0x0012, name: 'secp192k1', class: 'insufficient' },
  { code: 0x0011, name: 'secp160r2', class: 'insufficient' },
  { code: 0x0010, name: 'secp160r1', class: 'insufficient' },
  { code: 0x000f, name: 'secp160k1', class: 'insufficient' },
  { code: 0x000e, name: 'sect571r1', class: 'insufficient' },
  { code: 0x000d, name: 'sect571k1', class: 'insufficient' },
  { code: 0x000c, name: 'sect409r1', class: 'insufficient' },
  { code: 0x000b, name: 'sect409k1', class: 'insufficient' },
  { code: 0x000a, name: 'sect283r1', class: 'insufficient' },
  { code: 0x0009, name: 'sect283k1', class: 'insufficient' },
  { code: 0x0008, name: 'sect239k1', class: 'insufficient' },
  { code: 0x0007, name: 'sect233r1', class: 'insufficient' },
  { code: 0x0006, name: 'sect233k1', class: 'insufficient' },
  { code: 0x0005, name: 'sect193r2', class: 'insufficient' },
  { code: 0x0004, name: 'sect193r1', class: 'insufficient' },
  { code: 0x0003, name: 'sect163r2', class: 'insufficient' },
  { code: 0x0002, name: 'sect163r1', class: 'insufficient' },
  { code: 0x0001, name: 'sect163k1', class: 'insufficient' },
];

/** RFC 7919 appendix A: p = 2^b - 2^(b-64) + {[2^(b-130) e] + X} * 2^64 - 1, generator 2. */
const FFDHE_X: ReadonlyArray<{ name: string; bits: number; x: bigint }> = [
  { name: 'ffdhe2048', bits: 2048, x: 560316n },
  { name: 'ffdhe3072', bits: 3072, x: 2625351n },
  { name: 'ffdhe4096', bits: 4096, x: 5736041n },
  { name: 'ffdhe6144', bits: 6144, x: 15705020n },
  { name: 'ffdhe8192', bits: 8192, x: 10965728n },
];

/** floor(2^k * e), from the series e = sum 1/n!, exact enough for k up to 8192 with guard bits. */
function scaledE(k: number): bigint {
  const guard = 64n;
  const one = 1n << (BigInt(k) + guard);
  let term = one;
  let sum = one;
  for (let n = 1n; term > 0n; n += 1n) {
    term /= n;
    sum += term;
  }
  return sum >> guard;
}

/** The RFC 7919 primes, computed from their definition rather than pasted as 8 KiB of hex. */
export const FFDHE_PRIMES: ReadonlyMap<string, string> = new Map(
  FFDHE_X.map(({ name, bits, x }) => {
    const b = BigInt(bits);
    const p = (1n << b) - (1n << (b - 64n)) + (scaledE(bits - 130) + x) * (1n << 64n) - 1n;
    return [p.toString(16), name];
  }),
);

/** Guideline "Key exchange", finite-field DHE: the group is the prime and generator the server sent. */
export function gradeDhPrime(primeHex: string, generatorHex: string): { name: string; class: TlsClass } {
  const prime = primeHex.replace(/^0+/, '').toLowerCase();
  const named = FFDHE_PRIMES.get(prime);
  const bits = prime.length === 0 ? 0 : (prime.length - 1) * 4 + parseInt(prime[0] ?? '0', 16).toString(2).length;
  if (named === undefined || generatorHex.replace(/^0+/, '') !== '2') return { name: `DH ${bits}-bit custom group`, class: 'insufficient' };
  return { name: named, class: GROUPS.find((group) => group.name === named)?.class ?? 'insufficient' };
}

/**
 * Guideline "Hash for key-exchange signatures (TLS 1.2)", by the TLS 1.2 HashAlgorithm byte, which
 * is also the high byte of the RFC 8446 SignatureScheme for the RSA-PKCS1 and ECDSA schemes.
 * 0x08 is the "intrinsic" range (RSA-PSS, Ed25519, Ed448), whose hashes are SHA-256 or better.
 */
export const SIGNATURE_HASHES: ReadonlyArray<{ hashByte: number; name: string; class: TlsClass }> = [
  { hashByte: 0x06, name: 'SHA-512', class: 'good' },
  { hashByte: 0x05, name: 'SHA-384', class: 'good' },
  { hashByte: 0x04, name: 'SHA-256', class: 'good' },
  { hashByte: 0x08, name: 'intrinsic (RSA-PSS/EdDSA)', class: 'good' },
  { hashByte: 0x03, name: 'SHA-224', class: 'phase-out' },
  { hashByte: 0x02, name: 'SHA-1', class: 'insufficient' },
  { hashByte: 0x01, name: 'MD5', class: 'insufficient' },
];

/** SignatureScheme names (RFC 8446 4.2.3 and the TLS 1.2 pairs), for evidence. */
export const SIGNATURE_SCHEMES: ReadonlyMap<number, string> = new Map([
  [0x0201, 'rsa_pkcs1_sha1'], [0x0203, 'ecdsa_sha1'], [0x0101, 'rsa_pkcs1_md5'],
  [0x0301, 'rsa_pkcs1_sha224'], [0x0303, 'ecdsa_sha224'],
  [0x0401, 'rsa_pkcs1_sha256'], [0x0501, 'rsa_pkcs1_sha384'], [0x0601, 'rsa_pkcs1_sha512'],
  [0x0403, 'ecdsa_secp256r1_sha256'], [0x0503, 'ecdsa_secp384r1_sha384'], [0x0603, 'ecdsa_secp521r1_sha512'],
  [0x0804, 'rsa_pss_rsae_sha256'], [0x0805, 'rsa_pss_rsae_sha384'], [0x0806, 'rsa_pss_rsae_sha512'],
  [0x0807, 'ed25519'], [0x0808, 'ed448'],
  [0x0809, 'rsa_pss_pss_sha256'], [0x080a, 'rsa_pss_pss_sha384'], [0x080b, 'rsa_pss_pss_sha512'],
  [0x0202, 'dsa_sha1'], [0x0302, 'dsa_sha224'], [0x0402, 'dsa_sha256'], [0x0502, 'dsa_sha384'], [0x0602, 'dsa_sha512'],
]);

export function signatureSchemeName(code: number): string {
  return SIGNATURE_SCHEMES.get(code) ?? `0x${code.toString(16).padStart(4, '0')}`;
}

export function gradeSignatureScheme(code: number): TlsClass {
  return SIGNATURE_HASHES.find((hash) => hash.hashByte === code >> 8)?.class ?? 'insufficient';
}

/** Guideline "Certificates": key type and size of a certificate in the chain (not the root). */
export interface CertificateKey {
  type: 'rsa' | 'ec' | 'ed25519' | 'ed448' | 'dsa' | 'other';
  bits?: number;
  /** For EC keys: the curve as node:crypto names it (prime256v1, secp384r1, ...). */
  curve?: string;
}

/** Node's asymmetricKeyDetails names the NIST curves differently from TLS. */
const NODE_CURVE_TO_GROUP: Record<string, string> = { prime256v1: 'secp256r1', secp384r1: 'secp384r1', secp521r1: 'secp521r1', secp224r1: 'secp224r1' };

/** The NamedGroup code of an EC certificate key's curve (Node's name), if it is a TLS group. */
export function groupOfCurve(nodeCurve: string | undefined): number | undefined {
  const name = NODE_CURVE_TO_GROUP[nodeCurve ?? ''] ?? nodeCurve ?? '';
  return GROUPS.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase() && candidate.code < 0x0100)?.code;
}

export function gradeCertificateKey(key: CertificateKey): TlsClass {
  if (key.type === 'ed25519' || key.type === 'ed448') return 'good';
  if (key.type === 'rsa') {
    const bits = key.bits ?? 0;
    return bits >= 3072 ? 'sufficient' : bits >= 2048 ? 'phase-out' : 'insufficient';
  }
  if (key.type === 'ec') {
    const curve = NODE_CURVE_TO_GROUP[key.curve ?? ''] ?? key.curve ?? '';
    const group = GROUPS.find((candidate) => candidate.name.toLowerCase() === curve.toLowerCase() && candidate.code < 0x0100);
    return group?.class ?? 'insufficient';
  }
  return 'insufficient';
}

/** Guideline "Certificates", signature: by the OpenSSL/X.509 signature algorithm name. */
export function gradeCertificateSignature(algorithm: string): TlsClass {
  const name = algorithm.toLowerCase();
  if (name === 'ed25519' || name === 'ed448') return 'sufficient';
  // The PSS parameters (hash) are not decoded; PSS with SHA-1 is not seen in the WebPKI.
  if (name === 'rsassa-pss') return 'sufficient';
  if (/sha(2-)?(256|384|512)/.test(name) && /rsa|ecdsa|pss/.test(name)) return 'sufficient';
  if (/sha(2-)?224/.test(name) && /rsa|ecdsa/.test(name)) return 'phase-out';
  return 'insufficient';
}

/** Everything the prober learnt that the guideline grades; each list holds only what was accepted. */
export interface TlsFindings {
  protocols: ProtocolName[];
  /** Cipher suites accepted, by code point, over all protocols. */
  suites: number[];
  /** Key exchange groups accepted (NamedGroup code points). */
  groups: number[];
  /** Finite-field groups seen in TLS 1.2 ServerKeyExchange messages, by prime. */
  dhGroups: Array<{ primeHex: string; generatorHex: string }>;
  /** SignatureSchemes the server signed TLS 1.2 key exchanges or TLS 1.3 CertificateVerify with. */
  signatureSchemes: number[];
  certificates: Array<{ subject: string; key: CertificateKey; signatureAlgorithm?: string }>;
  /** undefined when not determined; those options are then not graded. */
  compression?: boolean;
  secureRenegotiation?: boolean;
  extendedMasterSecret?: boolean;
  /** Where Phase out suites are accepted: did the server pick the better suite offered after them? */
  prefersStrongSuites?: boolean;
  /** Client-initiated renegotiations completed on one connection (at most RENEGOTIATION_LIMIT + 1 are tried). */
  clientRenegotiations?: number;
  ocspStapled?: boolean;
  /** Why a stapled OCSP response is not valid. */
  ocspProblem?: string;
  /** What could not be checked of a stapled response that is otherwise valid. */
  ocspUnchecked?: string;
  /** TLS 1.3: the early data a session ticket allows (0-RTT); 0 when none; undefined when no ticket was seen. */
  maxEarlyData?: number;
}

/** Guideline "Other options": client-initiated renegotiation allowed more often than this is Phase out. */
export const RENEGOTIATION_LIMIT = 10;

export interface GradedItem {
  kind: 'protocol' | 'cipher suite' | 'key exchange group' | 'signature hash' | 'certificate' | 'option';
  item: string;
  class: TlsClass;
}

export interface TlsGrade {
  verdict: 'pass' | 'warn' | 'fail';
  /** Every graded item, best first within its kind. */
  items: GradedItem[];
  /** One line per Insufficient or Phase out item: what, and its class. */
  evidence: string[];
}

export function suiteName(code: number, catalog: ReadonlyMap<number, string>): string {
  return catalog.get(code) ?? `unassigned suite 0x${code.toString(16).padStart(4, '0')}`;
}

export function gradeSuite(code: number): TlsClass {
  return CIPHER_SUITE_CLASSES.find((suite) => suite.code === code)?.class ?? 'insufficient';
}

/** A key exchange group by its IANA code; one not in the guidelines' lists is Insufficient. */
export function gradeGroup(code: number): { name: string; class: TlsClass } {
  const group = GROUPS.find((candidate) => candidate.code === code);
  return group ?? { name: `group 0x${code.toString(16).padStart(4, '0')}`, class: 'insufficient' };
}

/** Grades a probe result: fail if anything Insufficient is accepted, warn if anything Phase out, pass otherwise. */
export function gradeFindings(findings: TlsFindings, catalog: ReadonlyMap<number, string>): TlsGrade {
  const items: GradedItem[] = [
    ...findings.protocols.map((name): GradedItem => ({ kind: 'protocol', item: name, class: PROTOCOLS.find((protocol) => protocol.name === name)?.class ?? 'insufficient' })),
    ...findings.suites.map((code): GradedItem => ({ kind: 'cipher suite', item: `${suiteName(code, catalog)} (0x${code.toString(16).padStart(4, '0')})`, class: gradeSuite(code) })),
    ...findings.groups.map((code): GradedItem => ({ kind: 'key exchange group', item: gradeGroup(code).name, class: gradeGroup(code).class })),
    ...findings.dhGroups.map(({ primeHex, generatorHex }): GradedItem => {
      const graded = gradeDhPrime(primeHex, generatorHex);
      return { kind: 'key exchange group', item: `DHE ${graded.name}`, class: graded.class };
    }),
    ...findings.signatureSchemes.map((code): GradedItem => ({ kind: 'signature hash', item: signatureSchemeName(code), class: gradeSignatureScheme(code) })),
    ...findings.certificates.flatMap((certificate): GradedItem[] => [
      { kind: 'certificate', item: `${certificate.subject}: ${describeKey(certificate.key)}`, class: gradeCertificateKey(certificate.key) },
      ...(certificate.signatureAlgorithm === undefined ? [] : [{ kind: 'certificate' as const, item: `${certificate.subject}: signed with ${certificate.signatureAlgorithm}`, class: gradeCertificateSignature(certificate.signatureAlgorithm) }]),
    ]),
    ...optionItems(findings),
  ];
  const offending = items.filter((item) => item.class === 'insufficient' || item.class === 'phase-out');
  const verdict: TlsGrade['verdict'] = offending.some((item) => item.class === 'insufficient') ? 'fail' : offending.length > 0 ? 'warn' : 'pass';
  const worstFirst = [...offending].sort((a, b) => (a.class === b.class ? 0 : a.class === 'insufficient' ? -1 : 1));
  return { verdict, items, evidence: worstFirst.map((item) => `${CLASS_LABEL[item.class]}: ${item.kind} ${item.item}`) };
}

/** Guideline "Other options" and the cipher-order rule of "Cipher suites". */
function optionItems(findings: TlsFindings): GradedItem[] {
  const items: GradedItem[] = [];
  if (findings.compression !== undefined) items.push({ kind: 'option', item: findings.compression ? 'TLS compression offered' : 'no TLS compression', class: findings.compression ? 'insufficient' : 'good' });
  if (findings.secureRenegotiation !== undefined) items.push({ kind: 'option', item: findings.secureRenegotiation ? 'secure renegotiation supported' : 'secure renegotiation (RFC 5746) not supported', class: findings.secureRenegotiation ? 'good' : 'insufficient' });
  if (findings.extendedMasterSecret !== undefined) items.push({ kind: 'option', item: findings.extendedMasterSecret ? 'Extended Master Secret used' : 'Extended Master Secret (RFC 7627) not supported', class: findings.extendedMasterSecret ? 'good' : 'insufficient' });
  // The guideline words the order rule as a requirement without its own class; a server that
  // prefers a Phase out suite over a Sufficient one is graded as Phase out, not beyond it.
  if (findings.clientRenegotiations !== undefined) items.push(renegotiationItem(findings.clientRenegotiations));
  if (findings.ocspStapled !== undefined) items.push(ocspItem(findings.ocspStapled, findings.ocspProblem, findings.ocspUnchecked));
  if (findings.maxEarlyData !== undefined) items.push(findings.maxEarlyData > 0 ? { kind: 'option', item: `0-RTT early data accepted (session tickets allow ${findings.maxEarlyData} bytes)`, class: 'insufficient' } : { kind: 'option', item: 'no 0-RTT early data', class: 'good' });
  if (findings.prefersStrongSuites !== undefined) items.push({ kind: 'option', item: findings.prefersStrongSuites ? 'server prefers Good/Sufficient suites over Phase out ones' : 'server picks a Phase out suite over a Sufficient one offered', class: findings.prefersStrongSuites ? 'good' : 'phase-out' });
  return items;
}

function renegotiationItem(accepted: number): GradedItem {
  if (accepted === 0) return { kind: 'option', item: 'client-initiated renegotiation refused', class: 'good' };
  if (accepted <= RENEGOTIATION_LIMIT) return { kind: 'option', item: `client-initiated renegotiation allowed (${accepted} times, then refused)`, class: 'sufficient' };
  return { kind: 'option', item: `client-initiated renegotiation allowed more than ${RENEGOTIATION_LIMIT} times`, class: 'phase-out' };
}

/** Stapling is optional and informational; only a stapled response that is not valid counts against. */
function ocspItem(stapled: boolean, problem: string | undefined, unchecked: string | undefined): GradedItem {
  if (!stapled) return { kind: 'option', item: 'no OCSP response stapled (optional)', class: 'good' };
  if (problem !== undefined) return { kind: 'option', item: `stapled OCSP response not valid: ${problem}`, class: 'insufficient' };
  if (unchecked !== undefined) return { kind: 'option', item: `OCSP response stapled, status good; not fully checked: ${unchecked}`, class: 'good' };
  return { kind: 'option', item: 'valid OCSP response stapled', class: 'good' };
}

export function describeKey(key: CertificateKey): string {
  if (key.type === 'rsa') return `RSA ${key.bits ?? '?'} bits`;
  if (key.type === 'ec') return `EC ${key.curve ?? 'unknown curve'}`;
  return key.type;
}
