import type { ProbeResult } from './prober.js';
import type { ReportTable } from '../report.js';
import { CLASS_LABEL, PROTOCOLS, gradeGroup, gradeCertificateKey, gradeCertificateSignature, gradeDhPrime, gradeSignatureScheme, gradeSuite, describeKey, signatureSchemeName, type TlsClass, type TlsGrade } from './grading.js';
import { IANA_CIPHER_SUITES } from './suites.js';

const hex = (code: number) => `0x${code.toString(16).padStart(4, '0')}`;
const label = (tlsClass: TlsClass) => CLASS_LABEL[tlsClass];

/** What the report says besides the tables: the graded offenders, what was not determined, the cost. */
export function enumerationLines(result: ProbeResult): string[] {
  return result.notes.map((note) => `not determined: ${note}`);
}

const GRADE_WORDS: Record<'pass' | 'warn' | 'fail', string> = {
  pass: 'what the server offers meets the NCSC guidelines',
  warn: 'the server offers settings the NCSC guidelines phase out',
  fail: 'the server offers settings the NCSC guidelines call insufficient',
};

/**
 * One line for a summary: how the enumeration grades and the protocols it rests on. Worded, not
 * "grade pass", so that a check failing for another reason never reads as passing.
 */
export function gradeSummary(result: ProbeResult, grade: TlsGrade): string {
  const protocols = result.protocols.filter((protocol) => protocol.accepted).map((protocol) => protocol.protocol);
  const cost = `${result.connections} connections in ${result.durationMs} ms`;
  // Nothing enumerated is nothing graded: it must not read as meeting the guidelines.
  if (protocols.length === 0) return `the enumeration found no protocol accepted (${cost})`;
  // The protocols are what was enumerated, not the offending items: said so, so they cannot read as the insufficient ones.
  return `${GRADE_WORDS[grade.verdict]} (enumerated over ${protocols.join(', ')}; ${cost})`;
}

function protocolTable(result: ProbeResult): ReportTable {
  const rows = PROTOCOLS.map(({ name, class: tlsClass }) => {
    const probed = result.protocols.find((protocol) => protocol.protocol === name);
    // A class next to a version that is not accepted would read like a grade of the server.
    return [name, probed?.accepted === true ? 'accepted' : 'not accepted', probed?.accepted === true ? label(tlsClass) : '', probed?.preference === undefined ? '' : `${probed.preference} order`, probed?.outcome ?? 'not probed'];
  });
  return { id: 'protocols', title: 'Protocols', columns: ['protocol', 'accepted', 'class', 'suite order', 'first probe'], rows };
}

/** The full list per accepted protocol, in the order the server picked them. */
function suiteTables(result: ProbeResult): ReportTable[] {
  return result.protocols
    .filter((protocol) => protocol.accepted && protocol.suites.length > 0)
    .map((protocol) => ({
      id: `suites-${protocol.protocol}`,
      title: `${protocol.protocol} cipher suites${protocol.preference === undefined ? '' : ` (${protocol.preference} order)`}`,
      columns: ['cipher suite', 'code point', 'class'],
      rows: protocol.suites.map((code) => [IANA_CIPHER_SUITES.get(code) ?? `unassigned suite ${hex(code)}`, hex(code), label(gradeSuite(code))]),
    }));
}

function keyExchangeTable(result: ProbeResult): ReportTable {
  const rows = [
    ...result.groups['TLSv1.3'].map((code) => [gradeGroup(code).name, 'TLSv1.3', label(gradeGroup(code).class)]),
    ...result.groups['TLSv1.2'].map((code) => [gradeGroup(code).name, 'TLSv1.2 and lower (ECDHE)', label(gradeGroup(code).class)]),
    ...result.dhGroups.map(({ primeHex, generatorHex }) => {
      const graded = gradeDhPrime(primeHex, generatorHex);
      return [graded.name, 'TLSv1.2 and lower (DHE)', label(graded.class)];
    }),
  ];
  return { id: 'groups', title: 'Key exchange groups (in the order found)', columns: ['group', 'protocol', 'class'], rows };
}

/** In TLS 1.2 an ECDSA scheme names only the hash: the curve is the certificate's, whatever it is. */
function tls12SchemeName(code: number): string {
  const ecdsa: Record<number, string> = { 0x0403: 'ecdsa_sha256', 0x0503: 'ecdsa_sha384', 0x0603: 'ecdsa_sha512' };
  return ecdsa[code] ?? signatureSchemeName(code);
}

function signatureTable(result: ProbeResult): ReportTable {
  const rows = [
    ...result.tls13SignatureSchemes.map((code) => [signatureSchemeName(code), 'TLSv1.3 CertificateVerify', label(gradeSignatureScheme(code))]),
    ...result.signatureSchemes.map((code) => [tls12SchemeName(code), 'TLSv1.2 ServerKeyExchange', label(gradeSignatureScheme(code))]),
  ];
  return { id: 'signatures', title: 'Key exchange signatures (what the server signs with when a client offers it)', columns: ['signature scheme', 'where', 'class'], rows };
}

/** Node's verification of the chain is reported here and graded by the check's HTTPS request. */
function chainTitle(result: ProbeResult): string {
  const verification = result.chainVerification;
  if (verification === undefined) return 'Certificate chain (the root is not graded)';
  const verified = verification.authorized ? 'verified for the host name' : `not verified: ${verification.error ?? 'unknown reason'}`;
  return `Certificate chain (the root is not graded): ${verified}${verification.notAfter === undefined ? '' : `; leaf valid until ${verification.notAfter}`}`;
}

function certificateTable(result: ProbeResult): ReportTable {
  const rows = result.certificates.map((certificate) => [
    certificate.subject,
    describeKey(certificate.key),
    label(gradeCertificateKey(certificate.key)),
    certificate.signatureAlgorithm ?? 'unknown',
    certificate.signatureAlgorithm === undefined ? '' : label(gradeCertificateSignature(certificate.signatureAlgorithm)),
  ]);
  return { id: 'certificates', title: chainTitle(result), columns: ['certificate', 'key', 'key class', 'signature', 'signature class'], rows };
}

function optionTable(grade: TlsGrade): ReportTable {
  return { id: 'options', title: 'Options', columns: ['option', 'class'], rows: grade.items.filter((item) => item.kind === 'option').map((item) => [item.item, label(item.class)]) };
}

/** The whole enumeration as tables, for the text report and for a page rendering the JSON one. */
export function tlsTables(result: ProbeResult, grade: TlsGrade): ReportTable[] {
  return [protocolTable(result), ...suiteTables(result), keyExchangeTable(result), signatureTable(result), certificateTable(result), optionTable(grade)].filter((table) => table.rows.length > 0);
}
