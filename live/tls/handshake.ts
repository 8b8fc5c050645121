import { constants } from 'node:crypto';
import tls from 'node:tls';
import * as asn1js from 'asn1js';
import { ALERT_NAMES } from './server-hello.js';
import { isDnsName } from './client-hello.js';
import { RENEGOTIATION_LIMIT, SIGNATURE_SCHEMES } from './grading.js';

/**
 * Probes that need a complete handshake, done with Node's `tls`: what a hand-built first flight
 * cannot show (client-initiated renegotiation, an OCSP response the server staples, the chain of
 * a TLS 1.3 server, which TLS 1.3 signature schemes the server signs its CertificateVerify with).
 */
export interface HandshakeTarget {
  host: string;
  port: number;
  serverName?: string;
  timeoutMs: number;
  deadline: number;
}

/** How a full handshake ended: the open socket, or why there is none. */
export type Connected = { socket: tls.TLSSocket } | { failure: string };

/**
 * OpenSSL's error strings name the source file and line; the report needs what the server did:
 * the alert it sent, or OpenSSL's reason text.
 */
export function shortReason(message: string): string {
  const alert = /alert number (\d+)/.exec(message);
  if (alert !== null) return `alert ${ALERT_NAMES.get(Number(alert[1])) ?? alert[1]}`;
  const reason = /:[^:]* routines:[^:]*:([^:]+):/.exec(message);
  return reason?.[1] ?? message.trim();
}

/** What a socket error says for a report: a reset by name, anything else as OpenSSL's reason. */
function failureOf(error: NodeJS.ErrnoException): string {
  return error.code === 'ECONNRESET' ? 'connection reset' : shortReason(error.message);
}

function ignoreLateError(): void {}

export function serverNameOf(target: HandshakeTarget): string | undefined {
  return target.serverName ?? (isDnsName(target.host) ? target.host : undefined);
}

function remainingMs(target: HandshakeTarget): number {
  return Math.min(target.timeoutMs, target.deadline - Date.now());
}

/**
 * One handshake, bounded by the probe timeout. Trust is not required here: the HTTP check judges
 * it; these probes read what the server does. The caller destroys the socket.
 */
export function connect(target: HandshakeTarget, options: tls.ConnectionOptions, prepare?: (socket: tls.TLSSocket) => void): Promise<Connected> {
  const remaining = remainingMs(target);
  if (remaining <= 0) return Promise.resolve({ failure: 'not probed: overall deadline passed' });
  return new Promise((resolve) => {
    let socket: tls.TLSSocket;
    const servername = serverNameOf(target);
    try {
      socket = tls.connect({ host: target.host, port: target.port, ...(servername === undefined ? {} : { servername }), rejectUnauthorized: false, ...options });
    } catch (error) {
      // Node rejects option values its OpenSSL does not know (a sigalg name, say) synchronously.
      resolve({ failure: `not offered by this Node/OpenSSL: ${(error as Error).message}` });
      return;
    }
    prepare?.(socket);
    const timer = setTimeout(() => settle({ failure: 'no answer within the timeout' }), remaining);
    function settle(outcome: Connected): void {
      clearTimeout(timer);
      socket.off('error', onError);
      socket.off('close', onClose);
      // A fatal alert or reset after the handshake (a server wanting a client certificate, say) is
      // read by whoever still uses the socket; unheard, an 'error' event would end the process.
      socket.on('error', ignoreLateError);
      if ('failure' in outcome) socket.destroy();
      resolve(outcome);
    }
    const onError = (error: NodeJS.ErrnoException) => settle({ failure: failureOf(error) });
    const onClose = () => settle({ failure: 'connection closed during the handshake' });
    socket.once('secureConnect', () => settle({ socket }));
    socket.once('error', onError);
    socket.once('close', onClose);
  });
}


export interface RenegotiationResult {
  /** Client-initiated renegotiations the server completed on one connection, at most LIMIT + 1. */
  accepted: number;
  /** How the attempt after the last accepted one ended (absent when the limit was passed). */
  refusal?: string;
}

/** One renegotiation on an open TLS 1.2 socket: true when the server completed it. */
function renegotiateOnce(socket: tls.TLSSocket, timeoutMs: number): Promise<true | string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish('no answer within the timeout'), timeoutMs);
    const onError = (error: NodeJS.ErrnoException) => finish(failureOf(error));
    const onClose = () => finish('connection closed');
    function finish(result: true | string): void {
      clearTimeout(timer);
      socket.off('error', onError);
      socket.off('close', onClose);
      resolve(result);
    }
    socket.once('error', onError);
    socket.once('close', onClose);
    const started = socket.renegotiate({ rejectUnauthorized: false }, (error) => finish(error === null ? true : shortReason(error.message)));
    if (!started) finish('the connection ended before renegotiation could start');
  });
}

/**
 * OpenSSL 3's client refuses a server without RFC 5746 (no renegotiation_info) by default; these
 * flags let the probes connect and renegotiate anyway, so that exactly such a server (insecure
 * renegotiation) is measured instead of left undetermined.
 */
const ALLOW_LEGACY_SERVERS = constants.SSL_OP_LEGACY_SERVER_CONNECT | constants.SSL_OP_ALLOW_UNSAFE_LEGACY_RENEGOTIATION;

/**
 * What the complete handshakes offer: every suite and group Node's OpenSSL has, so that a server
 * with only CCM suites, brainpool or finite-field groups still completes one (Node's defaults
 * leave those out). The TLS 1.3 suites go in `ciphers` too: Node splits them off.
 */
const BROAD_OFFER: tls.ConnectionOptions = {
  ciphers: 'TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256:TLS_AES_128_CCM_SHA256:TLS_AES_128_CCM_8_SHA256:ALL:@SECLEVEL=0',
  ecdhCurve: 'X25519:P-256:P-384:P-521:X448:brainpoolP256r1:brainpoolP384r1:brainpoolP512r1:secp224r1:secp256k1:ffdhe2048:ffdhe3072:ffdhe4096:ffdhe6144:ffdhe8192',
};

/**
 * How long to wait for a renegotiation after one was accepted on the same connection. Some servers
 * (Node.js: 3 per 10 minutes) stop answering once their limit is reached instead of refusing:
 * silence there is the limit, so the wait is a few times what an accepted one took, not the whole
 * request timeout.
 */
function silenceWaitMs(lastDurationMs: number): number {
  return Math.max(RENEGOTIATION_SILENCE_MIN_MS, 5 * lastDurationMs);
}

const RENEGOTIATION_SILENCE_MIN_MS = 500;

/**
 * Renegotiates one TLS 1.2-or-lower connection up to LIMIT + 1 times; a failure when no such
 * connection could be made. TLS 1.3 has no renegotiation, so the connection is capped at 1.2.
 */
export async function clientRenegotiation(target: HandshakeTarget): Promise<RenegotiationResult | { failure: string }> {
  const connected = await connect(target, { ...BROAD_OFFER, minVersion: 'TLSv1', maxVersion: 'TLSv1.2', secureOptions: ALLOW_LEGACY_SERVERS });
  if ('failure' in connected) return connected;
  const { socket } = connected;
  try {
    let lastDurationMs: number | undefined;
    for (let accepted = 0; accepted <= RENEGOTIATION_LIMIT; accepted += 1) {
      const remaining = remainingMs(target);
      if (remaining <= 0) return { accepted, refusal: 'overall deadline passed' };
      const started = Date.now();
      const wait = lastDurationMs === undefined ? remaining : Math.min(remaining, silenceWaitMs(lastDurationMs));
      const outcome = await renegotiateOnce(socket, wait);
      if (outcome === 'no answer within the timeout' && lastDurationMs !== undefined) return { accepted, refusal: `no answer within ${wait} ms after ${accepted} accepted (taken as the server's limit)` };
      if (outcome !== true) return { accepted, refusal: outcome };
      lastDurationMs = Date.now() - started;
    }
    return { accepted: RENEGOTIATION_LIMIT + 1 };
  } finally {
    socket.destroy();
  }
}

/** What a full handshake with the best protocol shows: the chain and the stapled OCSP response. */
export interface FullHandshake {
  protocol: string;
  /** DER certificates as sent, leaf first. */
  chain: Buffer[];
  /** Whether Node's verification (trust store plus --ca, host name) accepted the chain, and why not. */
  authorized: boolean;
  authorizationError?: string;
  /** The stapled OCSP response, DER; undefined when the server staples none. */
  ocspResponse?: Buffer;
  /**
   * TLS 1.3: the max_early_data the server's first session ticket allows (0 when it allows none);
   * absent when no ticket came within TICKET_WAIT_MS or the protocol is older.
   */
  maxEarlyData?: number;
}

/** Servers send TLS 1.3 tickets right after the handshake; waiting longer only slows the probe. */
const TICKET_WAIT_MS = 500;

/**
 * OpenSSL's serialized SSL_SESSION (what Node's 'session' event carries) holds the ticket's
 * max_early_data as context tag [15] (ssl/ssl_asn1.c); absent means 0. Parsed with asn1js.
 */
export function maxEarlyDataOf(session: Buffer): number | undefined {
  const parsed = asn1js.fromBER(new Uint8Array(derSessionOf(session)));
  if (parsed.offset === -1 || !(parsed.result instanceof asn1js.Sequence)) return undefined;
  const field = parsed.result.valueBlock.value.find((node) => node.idBlock.tagClass === 3 && node.idBlock.tagNumber === 15);
  if (field === undefined) return 0;
  const inner = field instanceof asn1js.Constructed ? field.valueBlock.value[0] : undefined;
  return inner instanceof asn1js.Integer ? inner.valueBlock.valueDec : undefined;
}

/** Node 24 prefixes the session it hands out: `\0nodejs:tls:session:1\0`, a 16-bit length and the server name. */
const NODE_SESSION_MAGIC = Buffer.from('\0nodejs:tls:session:', 'latin1');

/** The DER SSL_SESSION in what Node's 'session' event carries: as it is (Node 20, 22), or after Node 24's header. */
function derSessionOf(session: Buffer): Buffer {
  if (!session.subarray(0, NODE_SESSION_MAGIC.length).equals(NODE_SESSION_MAGIC)) return session;
  const versionEnd = session.indexOf(0, NODE_SESSION_MAGIC.length);
  if (versionEnd < 0 || versionEnd + 3 > session.length) return session;
  const nameLength = session.readUInt16BE(versionEnd + 1);
  return session.subarray(versionEnd + 3 + nameLength);
}

interface Ticket {
  session: Buffer;
  maxEarlyData: number | undefined;
}

/** The first session ticket, or undefined when none arrives in time. */
function firstTicket(socket: tls.TLSSocket, waitMs: number): Promise<Ticket | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(undefined), waitMs);
    function done(value: Ticket | undefined): void {
      clearTimeout(timer);
      socket.off('session', onSession);
      socket.off('close', onClose);
      resolve(value);
    }
    const onSession = (session: Buffer) => done({ session, maxEarlyData: maxEarlyDataOf(session) });
    const onClose = () => done(undefined);
    socket.on('session', onSession);
    socket.once('close', onClose);
    // Tickets are read with the application data: keep the socket reading.
    socket.resume();
  });
}

/** The chain as sent: Node links each certificate to its issuer; a self-signed root ends it. */
function chainOf(socket: tls.TLSSocket): Buffer[] {
  const chain: Buffer[] = [];
  const seen = new Set<string>();
  let certificate: tls.DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  while (certificate?.raw !== undefined && !seen.has(certificate.fingerprint256)) {
    seen.add(certificate.fingerprint256);
    chain.push(certificate.raw);
    certificate = certificate.issuerCertificate;
  }
  return chain;
}

/**
 * Early data needs a resumed session: a ticket that announces it from a server that does not
 * resume (no session store) allows no 0-RTT. So the ticket is tried once; not resumed counts as 0.
 */
async function usableEarlyData(target: HandshakeTarget, ticket: Ticket): Promise<number | undefined> {
  if (ticket.maxEarlyData === undefined || ticket.maxEarlyData === 0) return ticket.maxEarlyData;
  const resumed = await connect(target, { ...BROAD_OFFER, minVersion: 'TLSv1.3', session: ticket.session });
  if ('failure' in resumed) return undefined;
  const reused = resumed.socket.isSessionReused();
  resumed.socket.destroy();
  return reused ? ticket.maxEarlyData : 0;
}

export async function fullHandshake(target: HandshakeTarget, ca?: string): Promise<FullHandshake | { failure: string }> {
  let ocspResponse: Buffer | undefined;
  // tls.connect passes requestOCSP on to the TLSSocket; @types/node lists it only there.
  const options: tls.ConnectionOptions & Pick<tls.TLSSocketOptions, 'requestOCSP'> = { ...BROAD_OFFER, requestOCSP: true, minVersion: 'TLSv1', secureOptions: ALLOW_LEGACY_SERVERS, ...(ca === undefined ? {} : { ca: [...tls.rootCertificates, ca] }) };
  // Node emits OCSPResponse (null when nothing is stapled) before secureConnect.
  const connected = await connect(target, options, (socket) => socket.once('OCSPResponse', (response: Buffer | null) => (ocspResponse = response ?? undefined)));
  if ('failure' in connected) return connected;
  const { socket } = connected;
  const protocol = socket.getProtocol() ?? 'unknown';
  const ticket = protocol === 'TLSv1.3' ? await firstTicket(socket, Math.min(TICKET_WAIT_MS, Math.max(0, remainingMs(target)))) : undefined;
  const seen = {
    protocol,
    chain: chainOf(socket),
    authorized: socket.authorized,
    ...(socket.authorizationError === undefined || socket.authorizationError === null ? {} : { authorizationError: String(socket.authorizationError) }),
    ...(ocspResponse === undefined ? {} : { ocspResponse }),
  };
  // Closed before resuming: a server that handles one connection at a time (s_server) would wait.
  socket.destroy();
  const maxEarlyData = ticket === undefined ? undefined : await usableEarlyData(target, ticket);
  return { ...seen, ...(maxEarlyData === undefined ? {} : { maxEarlyData }) };
}

/**
 * TLS 1.3 CertificateVerify schemes (RFC 8446 4.2.3; SHA-1 and PKCS#1 are not allowed there).
 * OpenSSL takes the RFC names in `sigalgs`.
 */
const TLS13_SIGNATURE_SCHEMES: readonly number[] = [0x0403, 0x0503, 0x0603, 0x0804, 0x0805, 0x0806, 0x0807, 0x0808, 0x0809, 0x080a, 0x080b];

/**
 * The TLS 1.3 signature schemes the server completes a handshake with, one handshake per scheme
 * offered alone: the CertificateVerify is encrypted, so the scheme cannot be read off the wire.
 * `run` bounds the connections in flight.
 */
export async function tls13SignatureSchemes(target: HandshakeTarget, run: <T>(task: () => Promise<T>) => Promise<T>, note: (text: string) => void): Promise<Array<{ scheme: number; chain: Buffer[] }>> {
  const outcomes = await Promise.all(TLS13_SIGNATURE_SCHEMES.map((scheme) => run(async () => {
    const connected = await connect(target, { ...BROAD_OFFER, minVersion: 'TLSv1.3', sigalgs: SIGNATURE_SCHEMES.get(scheme) ?? '' });
    if ('failure' in connected) {
      // A refusal (an alert) means the scheme is not used; no answer at all leaves it undetermined.
      if (!/^alert |^not offered by this Node/.test(connected.failure)) note(`TLSv1.3 signature scheme ${SIGNATURE_SCHEMES.get(scheme) ?? scheme}: ${connected.failure}`);
      return undefined;
    }
    // A server with an RSA and an ECDSA certificate sends the one the scheme needs: both get graded.
    const chain = chainOf(connected.socket);
    connected.socket.destroy();
    return { scheme, chain };
  })));
  return outcomes.filter((outcome): outcome is { scheme: number; chain: Buffer[] } => outcome !== undefined);
}
