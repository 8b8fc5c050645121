import net from 'node:net';
import { X509Certificate } from 'node:crypto';
import { buildClientHello, buildSsl2ClientHello, ALL_SIGNATURE_SCHEMES, X25519, type ClientHelloOptions } from './client-hello.js';
import { parseFlight, type Flight, type ParseGoal } from './server-hello.js';
import { IANA_CIPHER_SUITES } from './suites.js';
import { GROUPS, PROTOCOLS, gradeSuite, groupOfCurve, type CertificateKey, type ProtocolName, type TlsFindings } from './grading.js';
import { describeCertificate } from './certificate.js';
import { clientRenegotiation, fullHandshake, tls13SignatureSchemes, type FullHandshake, type RenegotiationResult } from './handshake.js';
import { judgeOcspStapling, type OcspStapling } from './ocsp.js';

export interface ProbeOptions {
  host: string;
  port: number;
  /** SNI; defaults to host when it is a DNS name. */
  serverName?: string;
  /** Per socket: connect, send, and the server's whole first flight. */
  timeoutMs: number;
  /** Absolute time (ms since epoch) after which no probe starts and running ones are ended. */
  deadline: number;
  /** Sockets open at once. */
  concurrency: number;
  /** Extra trusted CA (PEM), as the HTTP client takes it: for chain verification and OCSP issuers. */
  ca?: string;
}

/** What one probe connection ended with; everything but a flight is a per-probe failure to report. */
export type Outcome = Flight | { kind: 'timeout' } | { kind: 'closed' } | { kind: 'reset' } | { kind: 'error'; reason: string } | { kind: 'deadline' };

export interface ProtocolResult {
  protocol: ProtocolName;
  accepted: boolean;
  /** How the first probe for this protocol ended, for the report. */
  outcome: string;
  /** Accepted suites in the order the server picked them (its preference if it enforces one). */
  suites: number[];
  /** Whether the server's order or the client's decides; undefined with fewer than two suites. */
  preference?: 'server' | 'client';
}

/** What grading needs, per protocol where the prober knows more than the grade uses. */
export interface ProbeResult extends Omit<TlsFindings, 'protocols' | 'suites' | 'groups' | 'clientRenegotiations' | 'ocspStapled' | 'ocspProblem' | 'ocspUnchecked' | 'maxEarlyData'> {
  target: string;
  protocols: ProtocolResult[];
  /** Groups per protocol: TLS 1.3 via key_share/HelloRetryRequest, TLS 1.2 via ServerKeyExchange. */
  groups: { 'TLSv1.3': number[]; 'TLSv1.2': number[] };
  /** TLS 1.3 CertificateVerify schemes the server completes a handshake with (signatureSchemes is TLS 1.2). */
  tls13SignatureSchemes: number[];
  /** Client-initiated renegotiation on one TLS 1.2-or-lower connection; absent when not determined. */
  renegotiation?: RenegotiationResult;
  /** The stapled OCSP response, judged; absent when no full handshake succeeded. */
  ocsp?: OcspStapling;
  /** Node's verdict on the chain (trust store plus --ca, host name), for the report: the HTTP check grades it. */
  chainVerification?: { authorized: boolean; error?: string; protocol: string; notAfter?: string };
  /** TLS 1.3 0-RTT: what the first session ticket allows; absent without a TLS 1.3 ticket. */
  earlyData?: { maxEarlyData: number };
  /** Probes that ended without a usable answer and what was not determined. */
  notes: string[];
  connections: number;
  durationMs: number;
}

const TLS13_SUITES = new Set([0x1301, 0x1302, 0x1303, 0x1304, 0x1305, 0x00c6, 0x00c7]);
const RENEGOTIATION_SCSV = 0x00ff;
/** Signalling values, not suites: offering them asks for behaviour, not a cipher. */
const SCSV = new Set([RENEGOTIATION_SCSV, 0x5600]);
const LEGACY_SUITES: readonly number[] = [...IANA_CIPHER_SUITES.keys()].filter((code) => !TLS13_SUITES.has(code) && !SCSV.has(code));
const MODERN_SUITES: readonly number[] = [...TLS13_SUITES];
const EC_GROUPS: readonly number[] = GROUPS.filter((group) => group.code < 0x0100).map((group) => group.code);
const ALL_GROUPS: readonly number[] = GROUPS.map((group) => group.code);
/** Client order of groups when the group is not what is being probed: what browsers send. */
const COMMON_GROUPS: readonly number[] = [0x001d, 0x0017, 0x0018, 0x0019, 0x001e];
const TLS13_GROUPS: readonly number[] = [...COMMON_GROUPS, ...ALL_GROUPS.filter((code) => !COMMON_GROUPS.includes(code))];

/** Bounds sockets in flight; a plain FIFO semaphore. */
class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly limit: number) {}
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    try {
      return await task();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }
}

export function keyExchangeOf(suite: number): 'ecdhe' | 'dhe' | 'other' {
  const name = IANA_CIPHER_SUITES.get(suite) ?? '';
  if (/^(OLD_)?TLS_ECDHE_(RSA|ECDSA)_/.test(name)) return 'ecdhe';
  if (/^(OLD_)?TLS_DHE_(RSA|DSS)_/.test(name)) return 'dhe';
  return 'other';
}

/** How the server proves its identity under a suite: which certificate it sends. */
export function authenticationOf(suite: number): 'rsa' | 'ecdsa' | 'dsa' | 'other' {
  const name = IANA_CIPHER_SUITES.get(suite) ?? '';
  if (/_ECDSA_/.test(name)) return 'ecdsa';
  if (/_DSS_/.test(name)) return 'dsa';
  if (/^(OLD_)?TLS_(RSA|ECDHE_RSA|DHE_RSA|DH_RSA|ECDH_RSA|RSA_PSK|SRP_SHA_RSA)_/.test(name) && !/_anon_/.test(name)) return 'rsa';
  return 'other';
}

export function describeOutcome(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'server-hello':
      return `ServerHello ${versionName(outcome.hello.version)} ${IANA_CIPHER_SUITES.get(outcome.hello.cipherSuite) ?? `suite 0x${outcome.hello.cipherSuite.toString(16).padStart(4, '0')}`}`;
    case 'hello-retry':
      return `HelloRetryRequest for group ${GROUPS.find((group) => group.code === outcome.hello.group)?.name ?? `0x${(outcome.hello.group ?? 0).toString(16).padStart(4, '0')}`}`;
    case 'alert':
      return `alert ${outcome.name}`;
    case 'ssl2-server-hello':
      return 'SSLv2 SERVER-HELLO';
    case 'garbage':
      return `unparseable answer (${outcome.reason})`;
    case 'timeout':
      return 'no answer within the timeout';
    case 'closed':
      return 'connection closed without an answer';
    case 'reset':
      return 'connection reset';
    case 'deadline':
      return 'not probed: overall deadline passed';
    case 'error':
      return outcome.reason;
  }
}

function versionName(wire: number): string {
  return PROTOCOLS.find((entry) => entry.wire === wire)?.name ?? `version 0x${wire.toString(16).padStart(4, '0')}`;
}

/** One connection: send a hello, read until the parser decides, always bounded by the timeout. */
function exchange(options: ProbeOptions, hello: Buffer, goal: ParseGoal): Promise<Outcome> {
  const remaining = options.deadline - Date.now();
  if (remaining <= 0) return Promise.resolve({ kind: 'deadline' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = net.connect({ host: options.host, port: options.port });
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    // One timer for the whole exchange: a server that trickles bytes cannot extend it.
    const timer = setTimeout(() => finish(remaining < options.timeoutMs ? { kind: 'deadline' } : { kind: 'timeout' }), Math.min(options.timeoutMs, remaining));
    socket.once('connect', () => socket.write(hello));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const received = Buffer.concat(chunks);
      if (received.length > 1_000_000) return finish({ kind: 'garbage', reason: 'more than 1 MB before the end of the first flight' });
      const flight = parseFlight(received, goal);
      if (flight !== undefined) finish(flight);
    });
    socket.on('end', () => {
      const received = Buffer.concat(chunks);
      finish(received.length === 0 ? { kind: 'closed' } : { kind: 'garbage', reason: `connection closed after ${received.length} bytes of an incomplete flight` });
    });
    socket.on('error', (error: NodeJS.ErrnoException) => finish(error.code === 'ECONNRESET' ? { kind: 'reset' } : { kind: 'error', reason: `${error.code ?? 'error'}: ${error.message}` }));
  });
}

interface Prober {
  options: ProbeOptions;
  limiter: Limiter;
  notes: string[];
  connections: number;
}

function helloFor(prober: Prober, protocol: ProtocolName, suites: readonly number[], extra: Partial<ClientHelloOptions> = {}): Buffer {
  const wire = wireOf(protocol);
  const serverName = prober.options.serverName ?? prober.options.host;
  if (protocol === 'TLSv1.3') {
    // Every group is listed, so that a server with only finite-field or brainpool groups answers
    // with a HelloRetryRequest instead of refusing; the one key share stays x25519.
    return buildClientHello({ version: 0x0303, suites, serverName, groups: TLS13_GROUPS, signatureSchemes: ALL_SIGNATURE_SCHEMES, supportedVersions: [0x0304], keyShareGroups: [X25519], ...extra });
  }
  if (protocol === 'SSLv3') {
    // SSLv3 predates extensions; a server old enough to speak it may refuse a hello that has them.
    // The renegotiation SCSV (RFC 5746) still asks for renegotiation_info in the answer.
    return buildClientHello({ version: wire, suites: [...suites, RENEGOTIATION_SCSV], groups: [], signatureSchemes: [], noExtensions: true, ...extra });
  }
  return buildClientHello({ version: wire, suites, serverName, groups: [...COMMON_GROUPS, ...EC_GROUPS.filter((code) => !COMMON_GROUPS.includes(code))], signatureSchemes: ALL_SIGNATURE_SCHEMES, ...extra });
}

async function send(prober: Prober, hello: Buffer, goal: Partial<ParseGoal> = {}): Promise<Outcome> {
  return prober.limiter.run(async () => {
    if (Date.now() >= prober.options.deadline) return { kind: 'deadline' } as const;
    prober.connections += 1;
    return exchange(prober.options, hello, { untilHelloDone: false, keyExchangeOf, ...goal });
  });
}

function wireOf(protocol: ProtocolName): number {
  return PROTOCOLS.find((entry) => entry.name === protocol)?.wire ?? 0;
}

const UNANSWERED = new Set<Outcome['kind']>(['timeout', 'closed', 'reset', 'error', 'deadline', 'garbage']);

/**
 * An enumeration step that got no usable answer (timeout, reset, deadline, garbage) leaves its
 * list possibly incomplete: say so, so that the check does not pass on half an enumeration.
 * An alert or a ServerHello is an answer and ends a loop normally.
 */
function noteUnanswered(prober: Prober, what: string, outcome: Outcome): void {
  if (UNANSWERED.has(outcome.kind)) prober.notes.push(`${what}: ${describeOutcome(outcome)}; the list may be incomplete`);
}

/** The suite a server picked for this protocol, if it answered with that protocol at all. */
function pickedSuite(outcome: Outcome, protocol: ProtocolName): number | undefined {
  if (outcome.kind !== 'server-hello' && outcome.kind !== 'hello-retry') return undefined;
  return outcome.hello.version === wireOf(protocol) ? outcome.hello.cipherSuite : undefined;
}

/** Many suites per hello; remove the one picked; repeat until the server refuses what is left. */
async function enumerateSuites(prober: Prober, protocol: ProtocolName, candidates: readonly number[], first: Outcome): Promise<number[]> {
  const accepted: number[] = [];
  let remaining = [...candidates];
  let outcome = first;
  for (;;) {
    const picked = pickedSuite(outcome, protocol);
    if (picked === undefined) break;
    if (!remaining.includes(picked)) {
      prober.notes.push(`${protocol}: the server picked suite 0x${picked.toString(16).padStart(4, '0')}, which was not offered`);
      break;
    }
    accepted.push(picked);
    remaining = remaining.filter((code) => code !== picked);
    if (remaining.length === 0) break;
    outcome = await send(prober, helloFor(prober, protocol, remaining));
  }
  const last = describeOutcome(outcome);
  if (!['alert', 'server-hello', 'hello-retry'].includes(outcome.kind) && accepted.length > 0) prober.notes.push(`${protocol}: suite enumeration ended with ${last}; the list may be incomplete`);
  return accepted;
}

/** The server decides when it picks its own first choice again from the list in reverse. */
async function suitePreference(prober: Prober, protocol: ProtocolName, suites: number[]): Promise<'server' | 'client' | undefined> {
  if (suites.length < 2) return undefined;
  const outcome = await send(prober, helloFor(prober, protocol, [...suites].reverse()));
  noteUnanswered(prober, `${protocol} suite order`, outcome);
  const picked = pickedSuite(outcome, protocol);
  if (picked === undefined) return undefined;
  return picked === suites[0] ? 'server' : 'client';
}

async function probeProtocol(prober: Prober, protocol: ProtocolName): Promise<ProtocolResult> {
  if (protocol === 'SSLv2') {
    const outcome = await send(prober, buildSsl2ClientHello(), { ssl2: true });
    return { protocol, accepted: outcome.kind === 'ssl2-server-hello', outcome: describeOutcome(outcome), suites: [] };
  }
  const candidates = protocol === 'TLSv1.3' ? MODERN_SUITES : LEGACY_SUITES;
  const first = await send(prober, helloFor(prober, protocol, candidates));
  const accepted = pickedSuite(first, protocol) !== undefined;
  if (!accepted) return { protocol, accepted, outcome: describeOutcome(first), suites: [] };
  const suites = await enumerateSuites(prober, protocol, candidates, first);
  const preference = await suitePreference(prober, protocol, suites);
  return { protocol, accepted, outcome: describeOutcome(first), suites, ...(preference === undefined ? {} : { preference }) };
}

/** TLS 1.3: the group is in the ServerHello key_share or the HelloRetryRequest; remove and repeat. */
async function enumerateTls13Groups(prober: Prober, suites: number[]): Promise<number[]> {
  const accepted: number[] = [];
  let remaining = [...ALL_GROUPS];
  while (remaining.length > 0) {
    const keyShareGroups = remaining.includes(X25519) ? [X25519] : [];
    const outcome = await send(prober, helloFor(prober, 'TLSv1.3', suites, { groups: remaining, keyShareGroups }));
    noteUnanswered(prober, 'TLSv1.3 groups', outcome);
    const group = outcome.kind === 'server-hello' || outcome.kind === 'hello-retry' ? outcome.hello.group : undefined;
    if (group === undefined || !remaining.includes(group)) break;
    accepted.push(group);
    remaining = remaining.filter((code) => code !== group);
  }
  return accepted;
}

interface Tls12KeyExchange {
  groups: number[];
  signatureSchemes: number[];
  dhGroups: Array<{ primeHex: string; generatorHex: string }>;
}

/**
 * TLS 1.2 ECDHE: the curve is in the ServerKeyExchange; remove and repeat. RSA-signed suites go
 * first: with an ECDSA certificate a TLS 1.2 server needs the certificate's own curve among the
 * offered ones, so ECDSA-only enumeration keeps the curves already found offered, after the
 * remaining ones, and ends when the server picks one of those again. (A server that ranks other
 * curves below its certificate's curve hides them that way; TLS 1.3 has no such tie.)
 */
async function enumerateTls12Curves(prober: Prober, protocol: ProtocolName, ecdheSuites: number[]): Promise<number[]> {
  const rsaSigned = ecdheSuites.filter((code) => authenticationOf(code) === 'rsa');
  const suites = rsaSigned.length > 0 ? rsaSigned : ecdheSuites;
  const accepted: number[] = [];
  let remaining = [...EC_GROUPS];
  let certificateCurve: number | undefined;
  while (remaining.length > 0 && suites.length > 0) {
    const offered = certificateCurve === undefined || remaining.includes(certificateCurve) ? remaining : [...remaining, certificateCurve];
    const outcome = await send(prober, helloFor(prober, protocol, suites, { groups: offered }), { untilHelloDone: true });
    noteUnanswered(prober, `${protocol} curves`, outcome);
    if (rsaSigned.length === 0 && certificateCurve === undefined && outcome.kind === 'server-hello') certificateCurve = leafCurve(outcome.certificates[0]);
    const curve = outcome.kind === 'server-hello' ? outcome.keyExchange?.curve : undefined;
    if (curve === undefined || !remaining.includes(curve)) break;
    accepted.push(curve);
    remaining = remaining.filter((code) => code !== curve);
  }
  return accepted;
}

/** The TLS group of an ECDSA leaf's key; undefined for other keys (Ed25519 ties no curve). */
function leafCurve(der: Buffer | undefined): number | undefined {
  if (der === undefined) return undefined;
  try {
    const key = new X509Certificate(der).publicKey;
    return key.asymmetricKeyType === 'ec' ? groupOfCurve(key.asymmetricKeyDetails?.namedCurve) : undefined;
  } catch {
    return undefined;
  }
}

/** TLS 1.2 signatures: offer schemes, record the one used, remove it; a server ignoring the list ends it. */
async function enumerateSignatureSchemes(prober: Prober, protocol: ProtocolName, suites: number[]): Promise<number[]> {
  const used: number[] = [];
  let remaining = [...ALL_SIGNATURE_SCHEMES];
  while (remaining.length > 0 && suites.length > 0) {
    const outcome = await send(prober, helloFor(prober, protocol, suites, { signatureSchemes: remaining }), { untilHelloDone: true });
    noteUnanswered(prober, `${protocol} signature schemes`, outcome);
    const scheme = outcome.kind === 'server-hello' ? outcome.keyExchange?.signatureScheme : undefined;
    if (scheme === undefined) break;
    if (!used.includes(scheme)) used.push(scheme);
    if (!remaining.includes(scheme)) break;
    remaining = remaining.filter((code) => code !== scheme);
  }
  return used;
}

async function probeDhGroup(prober: Prober, protocol: ProtocolName, dheSuites: number[]): Promise<Array<{ primeHex: string; generatorHex: string }>> {
  if (dheSuites.length === 0) return [];
  const outcome = await send(prober, helloFor(prober, protocol, dheSuites), { untilHelloDone: true });
  noteUnanswered(prober, `${protocol} DHE group`, outcome);
  const dh = outcome.kind === 'server-hello' ? outcome.keyExchange?.dh : undefined;
  return dh === undefined ? [] : [dh];
}

async function tls12KeyExchange(prober: Prober, protocol: ProtocolName | undefined, suites: number[]): Promise<Tls12KeyExchange> {
  if (protocol === undefined) return { groups: [], signatureSchemes: [], dhGroups: [] };
  const ecdhe = suites.filter((code) => keyExchangeOf(code) === 'ecdhe');
  const dhe = suites.filter((code) => keyExchangeOf(code) === 'dhe');
  const signed = ecdhe.length > 0 ? ecdhe : dhe;
  const [groups, signatureSchemes, dhGroups] = await Promise.all([
    enumerateTls12Curves(prober, protocol, ecdhe),
    protocol === 'TLSv1.2' ? enumerateSignatureSchemes(prober, protocol, signed) : Promise.resolve([]),
    probeDhGroup(prober, protocol, dhe),
  ]);
  return { groups, signatureSchemes, dhGroups };
}

/** A certificate the server sent; one that does not parse is noted, not thrown. */
function describeDer(prober: Prober | undefined, der: Buffer): Array<ReturnType<typeof describeCertificate>> {
  try {
    return [describeCertificate(new X509Certificate(der))];
  } catch (error) {
    prober?.notes.push(`a certificate of the chain does not parse: ${(error as Error).message}`);
    return [];
  }
}

interface LegacyOptions {
  compression?: boolean;
  secureRenegotiation?: boolean;
  extendedMasterSecret?: boolean;
  /** The chains sent, DER, one per authentication type the accepted suites use. */
  chains: Buffer[][];
}

/**
 * One full first flight of the best pre-1.3 protocol: compression, secure renegotiation, EMS and a
 * certificate chain. A server may hold an RSA and an ECDSA (or DSA) certificate and send the one
 * the suite asks for, so each other authentication type among the accepted suites gets a flight
 * of its own: every certificate is graded, not just the one the first suite happens to use.
 */
async function legacyOptions(prober: Prober, protocol: ProtocolName | undefined, suites: number[]): Promise<LegacyOptions> {
  if (protocol === undefined) return { chains: [] };
  const outcome = await send(prober, helloFor(prober, protocol, suites, { offerCompression: true }), { untilHelloDone: true });
  if (outcome.kind !== 'server-hello') {
    prober.notes.push(`${protocol}: options not determined: ${describeOutcome(outcome)}`);
    return { chains: [] };
  }
  const firstType = authenticationOf(outcome.hello.cipherSuite);
  const otherTypes = [...new Set(suites.map(authenticationOf))].filter((type) => type !== 'other' && type !== firstType);
  const others = await Promise.all(otherTypes.map(async (type) => {
    const answer = await send(prober, helloFor(prober, protocol, suites.filter((code) => authenticationOf(code) === type)), { untilHelloDone: true });
    noteUnanswered(prober, `${protocol} ${type.toUpperCase()} certificate`, answer);
    return answer.kind === 'server-hello' ? answer.certificates : [];
  }));
  return {
    compression: outcome.hello.compressionMethod !== 0,
    secureRenegotiation: outcome.hello.secureRenegotiation,
    // RFC 7627 is a TLS extension: an SSLv3 hello cannot ask for it, so it is not judged there.
    ...(protocol === 'SSLv3' ? {} : { extendedMasterSecret: outcome.hello.extendedMasterSecret }),
    chains: [outcome.certificates, ...others].filter((chain) => chain.length > 0),
  };
}

/**
 * Guideline "Cipher order": offer the accepted Phase out suites followed by one accepted better
 * suite; a server that respects the rule picks the better one. The better suite is the one the
 * server ranks lowest: a server that puts any Phase out suite above any Sufficient one breaks the rule.
 */
async function strongSuitePreference(prober: Prober, protocol: ProtocolName | undefined, suites: number[]): Promise<boolean | undefined> {
  if (protocol === undefined) return undefined;
  const phaseOut = suites.filter((code) => gradeSuite(code) === 'phase-out');
  const better = suites.filter((code) => gradeSuite(code) === 'good' || gradeSuite(code) === 'sufficient').at(-1);
  if (phaseOut.length === 0 || better === undefined) return undefined;
  const outcome = await send(prober, helloFor(prober, protocol, [...phaseOut, better]));
  noteUnanswered(prober, `${protocol} cipher order`, outcome);
  const picked = pickedSuite(outcome, protocol);
  return picked === undefined ? undefined : picked === better;
}

/** Guideline "client-initiated renegotiation": only where TLS 1.2 or lower is accepted. */
async function renegotiation(prober: Prober, legacyAccepted: boolean): Promise<RenegotiationResult | undefined> {
  if (!legacyAccepted) return undefined;
  prober.connections += 1;
  const result = await prober.limiter.run(() => clientRenegotiation(prober.options));
  if ('failure' in result) {
    prober.notes.push(`client-initiated renegotiation: ${result.failure}`);
    return undefined;
  }
  return result;
}

async function tls13Signatures(prober: Prober, tls13Accepted: boolean): Promise<Array<{ scheme: number; chain: Buffer[] }>> {
  if (!tls13Accepted) return [];
  return tls13SignatureSchemes(prober.options, <T>(task: () => Promise<T>) => {
    prober.connections += 1;
    return prober.limiter.run(task);
  }, (text) => prober.notes.push(text));
}

/** One complete handshake with the best protocol: the chain as sent, Node's verdict on it, and OCSP. */
async function completeHandshake(prober: Prober, anyAccepted: boolean): Promise<FullHandshake | undefined> {
  if (!anyAccepted) return undefined;
  prober.connections += 1;
  const result = await prober.limiter.run(() => fullHandshake(prober.options, prober.options.ca));
  if ('failure' in result) {
    prober.notes.push(`full handshake (chain, OCSP stapling): ${result.failure}`);
    return undefined;
  }
  return result;
}

/**
 * Every certificate of every chain seen, once (by DER), leaves and intermediates; a self-signed
 * certificate after the leaf is a root, which the guideline does not grade.
 */
function certificatesOf(prober: Prober, chains: Buffer[][]): ProbeResult['certificates'] {
  const seen = new Set<string>();
  const certificates: ProbeResult['certificates'] = [];
  for (const chain of chains) {
    chain.forEach((der, index) => {
      const key = der.toString('base64');
      if (seen.has(key)) return;
      seen.add(key);
      for (const { selfSigned, ...certificate } of describeDer(prober, der)) if (index === 0 || !selfSigned) certificates.push(certificate);
    });
  }
  return certificates;
}

function notAfterOf(der: Buffer | undefined): string | undefined {
  if (der === undefined) return undefined;
  try {
    return new Date(new X509Certificate(der).validTo).toISOString();
  } catch {
    return undefined;
  }
}

/** Enumerates what the server accepts; protocols probed in parallel within the concurrency bound. */
export async function probeTls(options: ProbeOptions): Promise<ProbeResult> {
  const started = Date.now();
  const prober: Prober = { options, limiter: new Limiter(Math.max(1, options.concurrency)), notes: [], connections: 0 };
  const order: ProtocolName[] = ['TLSv1.3', 'TLSv1.2', 'TLSv1.1', 'TLSv1.0', 'SSLv3', 'SSLv2'];
  const protocols = await Promise.all(order.map((protocol) => probeProtocol(prober, protocol)));
  const byName = (name: ProtocolName) => protocols.find((result) => result.protocol === name);
  const tls13 = byName('TLSv1.3');
  const bestLegacy = protocols.find((result) => result.accepted && result.protocol !== 'TLSv1.3' && result.protocol !== 'SSLv2');
  const legacySuites = bestLegacy?.suites ?? [];
  const [tls13Groups, keyExchange, legacy, prefersStrong] = await Promise.all([
    tls13?.accepted === true ? enumerateTls13Groups(prober, tls13.suites) : Promise.resolve([]),
    tls12KeyExchange(prober, bestLegacy?.protocol, legacySuites),
    legacyOptions(prober, bestLegacy?.protocol, legacySuites),
    strongSuitePreference(prober, bestLegacy?.protocol, legacySuites),
  ]);
  const anyAccepted = protocols.some((result) => result.accepted && result.protocol !== 'SSLv2');
  const tlsLegacyAccepted = protocols.some((result) => result.accepted && (result.protocol === 'TLSv1.2' || result.protocol === 'TLSv1.1' || result.protocol === 'TLSv1.0'));
  const [handshake, renegotiated, tls13Schemes] = await Promise.all([
    completeHandshake(prober, anyAccepted),
    renegotiation(prober, tlsLegacyAccepted),
    tls13Signatures(prober, tls13?.accepted === true),
  ]);
  // TLS 1.3 chains are encrypted: the complete handshakes (one per signature scheme) show them.
  const certificates = certificatesOf(prober, [...legacy.chains, ...tls13Schemes.map((entry) => entry.chain), ...(handshake === undefined ? [] : [handshake.chain])]);
  const ocsp = handshake === undefined ? undefined : await judgeOcspStapling(handshake.ocspResponse, handshake.chain, options.ca === undefined ? [] : pemCertificates(options.ca));
  const notAfter = notAfterOf(handshake?.chain[0]);
  for (const result of protocols) {
    if (!result.accepted && !/^alert|closed|SSLv2|ServerHello/.test(result.outcome)) prober.notes.push(`${result.protocol}: ${result.outcome}`);
  }
  // Nothing accepted is no grade at all (a server that wants another SNI name, say), not a pass.
  if (!protocols.some((result) => result.accepted)) prober.notes.push(`no protocol version was accepted (${protocols.map((result) => `${result.protocol}: ${result.outcome}`).join('; ')})`);
  return {
    target: `${options.serverName ?? options.host}:${options.port}`,
    protocols,
    groups: { 'TLSv1.3': tls13Groups, 'TLSv1.2': keyExchange.groups },
    dhGroups: keyExchange.dhGroups,
    signatureSchemes: keyExchange.signatureSchemes,
    tls13SignatureSchemes: tls13Schemes.map((entry) => entry.scheme),
    certificates,
    ...(renegotiated === undefined ? {} : { renegotiation: renegotiated }),
    ...(ocsp === undefined ? {} : { ocsp }),
    ...(handshake?.maxEarlyData === undefined ? {} : { earlyData: { maxEarlyData: handshake.maxEarlyData } }),
    ...(handshake === undefined ? {} : { chainVerification: { authorized: handshake.authorized, protocol: handshake.protocol, ...(handshake.authorizationError === undefined ? {} : { error: handshake.authorizationError }), ...(notAfter === undefined ? {} : { notAfter }) } }),
    ...(legacy.compression === undefined ? {} : { compression: legacy.compression }),
    ...(legacy.secureRenegotiation === undefined ? {} : { secureRenegotiation: legacy.secureRenegotiation }),
    ...(legacy.extendedMasterSecret === undefined ? {} : { extendedMasterSecret: legacy.extendedMasterSecret }),
    ...(prefersStrong === undefined ? {} : { prefersStrongSuites: prefersStrong }),
    notes: prober.notes,
    connections: prober.connections,
    durationMs: Date.now() - started,
  };
}

/** The probe result as the grading module takes it. */
export function findingsOf(result: ProbeResult): TlsFindings {
  return {
    protocols: result.protocols.filter((protocol) => protocol.accepted).map((protocol) => protocol.protocol),
    suites: [...new Set(result.protocols.flatMap((protocol) => protocol.suites))],
    groups: [...new Set([...result.groups['TLSv1.3'], ...result.groups['TLSv1.2']])],
    dhGroups: result.dhGroups,
    signatureSchemes: [...new Set([...result.signatureSchemes, ...result.tls13SignatureSchemes])],
    certificates: result.certificates,
    ...(result.renegotiation === undefined ? {} : { clientRenegotiations: result.renegotiation.accepted }),
    ...(result.earlyData === undefined ? {} : { maxEarlyData: result.earlyData.maxEarlyData }),
    ...(result.ocsp === undefined ? {} : { ocspStapled: result.ocsp.stapled, ...(result.ocsp.problem === undefined ? {} : { ocspProblem: result.ocsp.problem }), ...(result.ocsp.unchecked === undefined ? {} : { ocspUnchecked: result.ocsp.unchecked }) }),
    ...(result.compression === undefined ? {} : { compression: result.compression }),
    ...(result.secureRenegotiation === undefined ? {} : { secureRenegotiation: result.secureRenegotiation }),
    ...(result.extendedMasterSecret === undefined ? {} : { extendedMasterSecret: result.extendedMasterSecret }),
    ...(result.prefersStrongSuites === undefined ? {} : { prefersStrongSuites: result.prefersStrongSuites }),
  };
}

/** The certificates of a PEM bundle, DER; what does not decode is left out. */
function pemCertificates(pem: string): Buffer[] {
  return [...pem.matchAll(/-----BEGIN CERTIFICATE-----([^-]+)-----END CERTIFICATE-----/g)].map((match) => Buffer.from((match[1] ?? '').replace(/\s/g, ''), 'base64'));
}
