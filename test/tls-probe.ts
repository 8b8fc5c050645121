/** Probe-and-grade helpers shared by the tests that run real TLS servers (s_server, nginx). */
import { probeTls, findingsOf, type ProbeOptions, type ProbeResult } from '../live/tls/prober.js';
import { gradeFindings, type TlsGrade } from '../live/tls/grading.js';
import { IANA_CIPHER_SUITES } from '../live/tls/suites.js';

/** Probes a loopback server with the bounds a live check uses, and grades what it found. */
export async function probeAndGrade(port: number, trust: Pick<ProbeOptions, 'ca' | 'serverName'> = {}): Promise<{ result: ProbeResult; grade: TlsGrade }> {
  const result = await probeTls({ host: '127.0.0.1', port, timeoutMs: 3000, deadline: Date.now() + 20000, concurrency: 8, ...trust });
  return { result, grade: gradeFindings(findingsOf(result), IANA_CIPHER_SUITES) };
}

export const suiteNames = (codes: number[]): string[] => codes.map((code) => IANA_CIPHER_SUITES.get(code) ?? code.toString(16));
export const acceptedProtocols = (result: ProbeResult): string[] => result.protocols.filter((protocol) => protocol.accepted).map((protocol) => protocol.protocol);
export const suitesOf = (result: ProbeResult, protocol: string): string[] => suiteNames(result.protocols.find((entry) => entry.protocol === protocol)?.suites ?? []);
export const protocolEntry = (result: ProbeResult, protocol: string) => result.protocols.find((entry) => entry.protocol === protocol);

/** NamedGroup code points the tests assert on. */
export const GROUP = { secp256r1: 0x0017, secp384r1: 0x0018, secp521r1: 0x0019, x25519: 0x001d, x448: 0x001e } as const;
