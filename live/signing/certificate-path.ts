import { X509Certificate } from 'node:crypto';
import * as pkijs from 'pkijs';

/**
 * Whether a signing certificate (x5c: DER base64, the signer's first, RFC 7515 section 4.1.6) is
 * valid today and, with --signing-ca, issued under a certificate of that file. The path is built
 * as `openssl verify -CAfile <file> -untrusted <the rest of x5c>` builds it: from the signer
 * through the other x5c certificates (and the file's) to any certificate of the file, each
 * signature checked, each certificate within its validity dates (RFC 5280 section 6.1.3), by
 * PKI.js's chain validation engine.
 */

export interface Trust {
  summary: string;
  /** false: the certificate fails (expired, not under the CA, not a certificate); absent: not judged. */
  trusted?: boolean;
  /** The user's --signing-ca cannot be used: the check is not judged. */
  unusable?: string;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----/g;

/** Every certificate of a PEM file, not only its first. */
export function pemCertificates(text: string): Buffer[] {
  return [...text.matchAll(PEM_CERTIFICATE)].map((match) => Buffer.from((match[1] ?? '').replace(/\s+/g, ''), 'base64'));
}

/** PKI.js CertificateChainValidationEngine's resultCode for a certificate not yet valid or expired. */
const DATES_OUT_OF_RANGE = 8;

const nameOf = (certificate: X509Certificate) => certificate.subject.replace(/\n/g, ', ');

const namesOf = (anchors: Buffer[]) => anchors.map((der) => nameOf(new X509Certificate(der))).join('; ');

/** Why the certificate does not count today, or undefined. */
function outOfDate(certificate: X509Certificate, now: Date): string | undefined {
  if (Date.parse(certificate.validTo) < now.getTime()) return `expired on ${certificate.validTo}`;
  if (Date.parse(certificate.validFrom) > now.getTime()) return `not valid before ${certificate.validFrom}`;
  return undefined;
}

function pkijsCertificate(der: Buffer): pkijs.Certificate {
  return pkijs.Certificate.fromBER(new Uint8Array(der));
}

/** The certificate of the --signing-ca file the path ends at, and where in the file it stands. */
function anchorOf(path: pkijs.Certificate[] | undefined, trusted: pkijs.Certificate[], anchors: Buffer[]): string {
  const index = trusted.indexOf(path?.[path.length - 1] as pkijs.Certificate);
  const anchor = anchors[index];
  if (anchor === undefined) return namesOf(anchors);
  return `${nameOf(new X509Certificate(anchor))}${anchors.length > 1 ? ` (certificate ${index + 1} of ${anchors.length} in the file)` : ''}`;
}

/** A signer's chain is a handful of certificates; more is a server making path building costly. */
const MAX_X5C = 10;

export async function certificateTrust(x5c: string[], caPem: string | undefined, now = new Date()): Promise<Trust> {
  if (x5c.length > MAX_X5C) return { summary: `x5c holds ${x5c.length} certificates: adr-check builds a path through at most ${MAX_X5C}`, trusted: false };
  let chain: X509Certificate[];
  try {
    chain = x5c.map((entry) => new X509Certificate(Buffer.from(entry, 'base64')));
  } catch (error) {
    return { summary: `x5c is not a certificate: ${error instanceof Error ? error.message : String(error)}`, trusted: false };
  }
  const [signer] = chain;
  if (signer === undefined) return { summary: 'x5c is empty', trusted: false };
  const described = `x5c: ${nameOf(signer)}, issued by ${signer.issuer.replace(/\n/g, ', ')}, valid until ${signer.validTo}`;
  const signerDates = outOfDate(signer, now);
  if (signerDates !== undefined) return { summary: `the signing certificate ${nameOf(signer)} (x5c) ${signerDates}: a signature made with it today does not count (RFC 5280 section 6.1.3). Sign with a certificate valid today`, trusted: false };
  if (caPem === undefined) return { summary: `${described}; trust not judged (give --signing-ca)` };
  const anchors = pemCertificates(caPem);
  if (anchors.length === 0) return { summary: described, unusable: '--signing-ca holds no PEM certificate (-----BEGIN CERTIFICATE-----)' };
  let trusted: pkijs.Certificate[];
  try {
    trusted = anchors.map(pkijsCertificate);
    anchors.forEach((der) => new X509Certificate(der));
  } catch (error) {
    return { summary: described, unusable: `--signing-ca holds a certificate that does not parse: ${error instanceof Error ? error.message : String(error)}` };
  }
  let certs: pkijs.Certificate[];
  try {
    certs = [...x5c.map((entry) => pkijsCertificate(Buffer.from(entry, 'base64'))), ...trusted];
  } catch (error) {
    return { summary: `x5c is not a certificate: ${error instanceof Error ? error.message : String(error)}`, trusted: false };
  }
  const result = await new pkijs.CertificateChainValidationEngine({ trustedCerts: trusted, certs, checkDate: now }).verify().catch((error: unknown) => ({ result: false, resultCode: -1, resultMessage: error instanceof Error ? error.message : String(error), certificatePath: undefined }));
  if (result.result) return { summary: `${described}; issued under the --signing-ca ${anchorOf(result.certificatePath, trusted, anchors)}`, trusted: true };
  // PKI.js's code 8: a certificate on the path it found is out of its dates; name which one.
  const stale = result.resultCode !== DATES_OUT_OF_RANGE ? undefined : [...chain.slice(1), ...anchors.map((der) => new X509Certificate(der))].map((certificate) => ({ certificate, dates: outOfDate(certificate, now) })).find((entry) => entry.dates !== undefined);
  if (stale !== undefined) return { summary: `${described}; the path to the --signing-ca goes through ${nameOf(stale.certificate)}, which ${stale.dates ?? ''}: the signature does not count until that certificate is renewed`, trusted: false };
  return { summary: `${described}; NOT issued under the --signing-ca ${namesOf(anchors)} (no path from x5c to a certificate of that file: ${result.resultMessage ?? 'no reason given'})`, trusted: false };
}
