import type { X509Certificate } from 'node:crypto';
import type { CertificateKey } from './grading.js';

/** X.509 signature algorithm OIDs (RFC 4055, RFC 5758, RFC 8410) by the names the grading reads. */
const SIGNATURE_OIDS: Record<string, string> = {
  '1.2.840.113549.1.1.4': 'md5WithRSAEncryption',
  '1.2.840.113549.1.1.5': 'sha1WithRSAEncryption',
  '1.2.840.113549.1.1.14': 'sha224WithRSAEncryption',
  '1.2.840.113549.1.1.11': 'sha256WithRSAEncryption',
  '1.2.840.113549.1.1.12': 'sha384WithRSAEncryption',
  '1.2.840.113549.1.1.13': 'sha512WithRSAEncryption',
  '1.2.840.113549.1.1.10': 'RSASSA-PSS',
  '1.2.840.10040.4.3': 'dsa-with-SHA1',
  '2.16.840.1.101.3.4.3.1': 'dsa-with-SHA224',
  '2.16.840.1.101.3.4.3.2': 'dsa-with-SHA256',
  '1.2.840.10045.4.1': 'ecdsa-with-SHA1',
  '1.2.840.10045.4.3.1': 'ecdsa-with-SHA224',
  '1.2.840.10045.4.3.2': 'ecdsa-with-SHA256',
  '1.2.840.10045.4.3.3': 'ecdsa-with-SHA384',
  '1.2.840.10045.4.3.4': 'ecdsa-with-SHA512',
  '1.3.101.112': 'Ed25519',
  '1.3.101.113': 'Ed448',
};

/** A DER TLV header: where the value starts and how long it is. */
function tlv(der: Buffer, offset: number): { tag: number; start: number; length: number } {
  const tag = der[offset] ?? 0;
  const first = der[offset + 1] ?? 0;
  if (first < 0x80) return { tag, start: offset + 2, length: first };
  const count = first & 0x7f;
  return { tag, start: offset + 2 + count, length: der.readUIntBE(offset + 2, count) };
}

function decodeOid(bytes: Buffer): string {
  const parts = [Math.floor((bytes[0] ?? 0) / 40), (bytes[0] ?? 0) % 40];
  let value = 0;
  for (const byte of bytes.subarray(1)) {
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

/**
 * Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue }: Node 20's
 * X509Certificate does not expose the signature algorithm, so it is read from the DER.
 */
export function signatureAlgorithmOf(der: Buffer): string | undefined {
  try {
    const certificate = tlv(der, 0);
    const tbs = tlv(der, certificate.start);
    const algorithm = tlv(der, tbs.start + tbs.length);
    const oid = tlv(der, algorithm.start);
    if (oid.tag !== 0x06) return undefined;
    const dotted = decodeOid(der.subarray(oid.start, oid.start + oid.length));
    return SIGNATURE_OIDS[dotted] ?? dotted;
  } catch {
    return undefined;
  }
}

export function keyOf(certificate: X509Certificate): CertificateKey {
  const key = certificate.publicKey;
  const details = key.asymmetricKeyDetails ?? {};
  switch (key.asymmetricKeyType) {
    case 'rsa':
    case 'rsa-pss':
      return { type: 'rsa', ...(details.modulusLength === undefined ? {} : { bits: details.modulusLength }) };
    case 'ec':
      return { type: 'ec', ...(details.namedCurve === undefined ? {} : { curve: details.namedCurve }) };
    case 'ed25519':
      return { type: 'ed25519' };
    case 'ed448':
      return { type: 'ed448' };
    case 'dsa':
      return { type: 'dsa', ...(details.modulusLength === undefined ? {} : { bits: details.modulusLength }) };
    default:
      return { type: 'other' };
  }
}

export function describeCertificate(certificate: X509Certificate): { subject: string; key: CertificateKey; signatureAlgorithm?: string; selfSigned: boolean } {
  const signatureAlgorithm = signatureAlgorithmOf(certificate.raw);
  const subject = certificate.subject.replace(/\n/g, ', ');
  return { subject, key: keyOf(certificate), ...(signatureAlgorithm === undefined ? {} : { signatureAlgorithm }), selfSigned: certificate.subject === certificate.issuer };
}
