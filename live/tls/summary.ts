import type { ProbeResult } from './prober.js';
import type { TlsGrade } from './grading.js';
import { GROUPS, signatureSchemeName } from './grading.js';
import { IANA_CIPHER_SUITES } from './suites.js';

const groupName = (code: number) => GROUPS.find((group) => group.code === code)?.name ?? `0x${code.toString(16).padStart(4, '0')}`;

/** The enumeration as report lines: what was accepted, per protocol, then what was not determined. */
export function enumerationLines(result: ProbeResult): string[] {
  const lines = result.protocols
    .filter((protocol) => protocol.accepted)
    .map((protocol) => `${protocol.protocol}: ${protocol.suites.map((code) => IANA_CIPHER_SUITES.get(code) ?? `0x${code.toString(16)}`).join(', ') || 'accepted'}${protocol.preference === undefined ? '' : ` (${protocol.preference} order)`}`);
  const refused = result.protocols.filter((protocol) => !protocol.accepted).map((protocol) => protocol.protocol);
  if (refused.length > 0) lines.push(`not accepted: ${refused.join(', ')}`);
  for (const [protocol, groups] of Object.entries(result.groups)) if (groups.length > 0) lines.push(`${protocol} groups: ${groups.map(groupName).join(', ')}`);
  if (result.signatureSchemes.length > 0) lines.push(`TLSv1.2 key exchange signed with: ${result.signatureSchemes.map(signatureSchemeName).join(', ')}`);
  return [...lines, ...result.notes.map((note) => `not determined: ${note}`), `${result.connections} connections in ${result.durationMs} ms`];
}

/** One line for a summary: the grade and the protocols it rests on. */
export function gradeSummary(result: ProbeResult, grade: TlsGrade): string {
  const protocols = result.protocols.filter((protocol) => protocol.accepted).map((protocol) => protocol.protocol);
  return `NCSC grade ${grade.verdict} (${protocols.join(', ') || 'no protocol accepted'})`;
}
