import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { constants, createECDH, createHash, createPrivateKey, generateKeyPair, generateKeyPairSync, privateEncrypt, randomBytes, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { generate } from 'selfsigned';
import { CONTENT_TYPE, EXTENSION, extension, u8, u16, vector } from '../../live/tls/client-hello.js';
import { Reader, readExtensions } from '../../live/tls/server-hello.js';
import { keyExchangeOf } from '../../live/tls/prober.js';
import { IANA_CIPHER_SUITES } from '../../live/tls/suites.js';

/**
 * A TLS server that only ever sends its first flight, built byte by byte, so that the prober can
 * be run against what no current TLS library will serve: SSLv3, RC4, compression, a ServerHello
 * without renegotiation_info, a server that ignores the client's suites. It reads one ClientHello
 * per connection, answers per its profile, and then waits: the prober reads the first flight and
 * hangs up. Node's own TLS client, which the prober also uses for complete handshakes, gets a
 * first flight it can verify (a real ECDHE point, a real ServerKeyExchange signature) and then a
 * handshake_failure alert in answer to its second flight, so that its attempts end the same way
 * every time rather than on whatever random bytes make OpenSSL complain about.
 */

export const SSL3 = 0x0300;
export const TLS10 = 0x0301;
export const TLS11 = 0x0302;
export const TLS12 = 0x0303;

export interface FakeTlsProfile {
  /** ProtocolVersions it speaks, SSLv3 to TLS 1.2; it answers the highest not above the client's. */
  versions: readonly number[];
  /** Suites it has, in its own order of preference. RSA and ECDHE key exchange only. */
  suites: readonly number[];
  /** Whose order picks among the suites both sides have. */
  order: 'server' | 'client';
  /** Answer this suite to every hello whatever the client offered, as a broken server does. */
  alwaysPicks?: number;
  /** Named curves for ECDHE, in its order; an ECDHE suite is only picked with a curve in common. */
  groups?: readonly number[];
  /** TLS 1.2 SignatureSchemes for the ServerKeyExchange, in its order; one must be in common. */
  signatureSchemes?: readonly number[];
  /** Choose DEFLATE when the client offers it. */
  compression: boolean;
  /** Echo renegotiation_info (RFC 5746) when the client asks for it. */
  renegotiationInfo: boolean;
  /** Echo extended_master_secret (RFC 7627) when the client offers it. */
  extendedMasterSecret: boolean;
  /** Answer an SSLv2 CLIENT-HELLO with a SERVER-HELLO instead of an alert. */
  ssl2?: boolean;
  /** DER certificates, leaf first, for the Certificate message. */
  certificates: readonly Buffer[];
  /** The leaf's RSA private key, to sign the ServerKeyExchange. */
  privateKey: KeyObject;
}

/** What the fake read from one ClientHello. */
export interface ReceivedClientHello {
  recordVersion: number;
  legacyVersion: number;
  /** Signed over, with the server's random, in the ServerKeyExchange. */
  random: Buffer;
  /** The supported_versions list; empty when the extension is absent. */
  supportedVersions: number[];
  suites: number[];
  compressionMethods: number[];
  /** Extension types in the order sent. */
  extensions: number[];
  groups: number[];
  signatureSchemes: number[];
}

export type Received =
  | { kind: 'incomplete' }
  | { kind: 'ssl2-client-hello' }
  | { kind: 'client-hello'; hello: ReceivedClientHello }
  | { kind: 'malformed'; reason: string };

const HANDSHAKE = { clientHello: 1, serverHello: 2, certificate: 11, serverKeyExchange: 12, serverHelloDone: 14 } as const;
const ALERT = { handshakeFailure: 40, protocolVersion: 70 } as const;
const RENEGOTIATION_SCSV = 0x00ff;
const DEFLATE = 1;
const MAX_FRAGMENT = 16384;

function list16(reader: Reader): number[] {
  const values: number[] = [];
  while (reader.remaining > 0) values.push(reader.u16());
  return values;
}

function parseClientHelloBody(body: Buffer, recordVersion: number): ReceivedClientHello {
  const reader = new Reader(body);
  const legacyVersion = reader.u16();
  const random = Buffer.from(reader.take(32));
  reader.vector(1);
  const suites = list16(new Reader(reader.vector(2)));
  const compressionMethods = [...reader.vector(1)];
  const hello: ReceivedClientHello = { recordVersion, legacyVersion, random, supportedVersions: [], suites, compressionMethods, extensions: [], groups: [], signatureSchemes: [] };
  for (const { type, data } of readExtensions(reader)) {
    hello.extensions.push(type);
    if (type === EXTENSION.supportedGroups) hello.groups = list16(new Reader(data.vector(2)));
    else if (type === EXTENSION.signatureAlgorithms) hello.signatureSchemes = list16(new Reader(data.vector(2)));
    else if (type === EXTENSION.supportedVersions) hello.supportedVersions = list16(new Reader(data.vector(1)));
  }
  return hello;
}

/** Everything received so far on a connection: a whole ClientHello, possibly over several records, or not yet. */
export function readClientHello(bytes: Buffer): Received {
  if (bytes.length < 3) return { kind: 'incomplete' };
  // An SSLv2 record has a 2-byte header with the high bit set; CLIENT-HELLO is message type 1.
  if (((bytes[0] ?? 0) & 0x80) !== 0) {
    const length = bytes.readUInt16BE(0) & 0x7fff;
    if (bytes.length < 2 + length) return { kind: 'incomplete' };
    return bytes[2] === 1 ? { kind: 'ssl2-client-hello' } : { kind: 'malformed', reason: `SSLv2 message type ${bytes[2] ?? '?'}` };
  }
  const fragments: Buffer[] = [];
  let offset = 0;
  while (bytes.length - offset >= 5) {
    if (bytes[offset] !== CONTENT_TYPE.handshake) return { kind: 'malformed', reason: `record type ${bytes[offset] ?? '?'}` };
    const length = bytes.readUInt16BE(offset + 3);
    if (bytes.length - offset - 5 < length) break;
    fragments.push(bytes.subarray(offset + 5, offset + 5 + length));
    offset += 5 + length;
    const handshake = Buffer.concat(fragments);
    if (handshake.length < 4 || handshake.length < 4 + handshake.readUIntBE(1, 3)) continue;
    if (handshake[0] !== HANDSHAKE.clientHello) return { kind: 'malformed', reason: `handshake type ${handshake[0] ?? '?'}` };
    try {
      return { kind: 'client-hello', hello: parseClientHelloBody(handshake.subarray(4, 4 + handshake.readUIntBE(1, 3)), bytes.readUInt16BE(1)) };
    } catch (error) {
      return { kind: 'malformed', reason: (error as Error).message };
    }
  }
  return { kind: 'incomplete' };
}

export type Answer =
  | { kind: 'alert'; version: number; description: number }
  | { kind: 'server-hello'; version: number; suite: number; compressionMethod: number; extensions: number[]; curve?: number; signatureScheme?: number };

/** RFC 5246 added AEAD and SHA-256/384 PRF suites; a server does not pick them for an older version. */
function minimumVersionOf(suite: number): number {
  const name = IANA_CIPHER_SUITES.get(suite) ?? '';
  return /_GCM_|_CCM|CHACHA20|_SHA256$|_SHA384$/.test(name) ? TLS12 : SSL3;
}

const firstShared = (preferred: readonly number[], other: readonly number[]) => preferred.find((code) => other.includes(code));

/** The curve and TLS 1.2 signature scheme a suite needs, or undefined when the client and profile share none. */
function keyExchangeFor(profile: FakeTlsProfile, hello: ReceivedClientHello, suite: number, version: number, ignoreClient: boolean): { curve?: number; signatureScheme?: number } | undefined {
  if (keyExchangeOf(suite) !== 'ecdhe') return {};
  const groups = profile.groups ?? [];
  const schemes = profile.signatureSchemes ?? [];
  const curve = ignoreClient ? groups[0] : firstShared(groups, hello.groups);
  if (curve === undefined) return undefined;
  if (version < TLS12) return { curve };
  // Without signature_algorithms a TLS 1.2 client accepts the server's default (RFC 5246 7.4.1.4.1).
  const signatureScheme = ignoreClient || hello.signatureSchemes.length === 0 ? schemes[0] : firstShared(schemes, hello.signatureSchemes);
  return signatureScheme === undefined ? undefined : { curve, signatureScheme };
}

/** What the profile answers to a ClientHello: the server's half of the negotiation, without the bytes. */
export function decide(profile: FakeTlsProfile, hello: ReceivedClientHello): Answer {
  // A server without TLS 1.3 ignores supported_versions and negotiates on legacy_version.
  const version = Math.max(-1, ...profile.versions.filter((candidate) => candidate <= hello.legacyVersion));
  if (version < 0) return { kind: 'alert', version: hello.recordVersion, description: ALERT.protocolVersion };
  const ignoreClient = profile.alwaysPicks !== undefined;
  const ordered = ignoreClient ? [profile.alwaysPicks ?? 0] : profile.order === 'server' ? profile.suites.filter((code) => hello.suites.includes(code)) : hello.suites.filter((code) => profile.suites.includes(code));
  for (const suite of ordered) {
    if (!ignoreClient && version < minimumVersionOf(suite)) continue;
    const keyExchange = keyExchangeFor(profile, hello, suite, version, ignoreClient);
    if (keyExchange === undefined) continue;
    const askedForRenegotiationInfo = hello.extensions.includes(EXTENSION.renegotiationInfo) || hello.suites.includes(RENEGOTIATION_SCSV);
    const extensions = [
      ...(profile.renegotiationInfo && askedForRenegotiationInfo ? [EXTENSION.renegotiationInfo] : []),
      ...(profile.extendedMasterSecret && hello.extensions.includes(EXTENSION.extendedMasterSecret) ? [EXTENSION.extendedMasterSecret] : []),
    ];
    const compressionMethod = profile.compression && hello.compressionMethods.includes(DEFLATE) ? DEFLATE : 0;
    return { kind: 'server-hello', version, suite, compressionMethod, extensions, ...keyExchange };
  }
  return { kind: 'alert', version, description: ALERT.handshakeFailure };
}

/** Records of one content type, cut into fragments of at most 2^14 bytes (RFC 5246 6.2.1). */
function records(type: number, version: number, payload: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let offset = 0; offset === 0 || offset < payload.length; offset += MAX_FRAGMENT) {
    parts.push(u8(type), u16(version), vector(2, payload.subarray(offset, offset + MAX_FRAGMENT)));
  }
  return Buffer.concat(parts);
}

function handshakeMessage(type: number, body: Buffer): Buffer {
  return Buffer.concat([u8(type), vector(3, body)]);
}

function serverHelloBody(answer: Extract<Answer, { kind: 'server-hello' }>, serverRandom: Buffer): Buffer {
  const extensionBytes = answer.extensions.map((type) => (type === EXTENSION.renegotiationInfo ? extension(type, vector(1, Buffer.alloc(0))) : extension(type, Buffer.alloc(0))));
  return Buffer.concat([
    u16(answer.version),
    serverRandom,
    vector(1, randomBytes(32)),
    u16(answer.suite),
    u8(answer.compressionMethod),
    // An SSLv3-era ServerHello ends after the compression method when it has nothing to echo.
    ...(extensionBytes.length === 0 ? [] : [vector(2, Buffer.concat(extensionBytes))]),
  ]);
}

/** NamedGroup code points to the curve names node:crypto takes. */
const NODE_CURVES: ReadonlyMap<number, string> = new Map([[0x0017, 'prime256v1'], [0x0018, 'secp384r1'], [0x0019, 'secp521r1']]);

/** A public key Node's TLS client accepts; random bytes of a plausible size for curves it would never pick. */
function ecdhePublicPoint(curve: number): Buffer {
  // The raw key is the tail of the SPKI DER: 32 bytes for X25519, 56 for X448 (RFC 8410).
  if (curve === 0x001d) return generateKeyPairSync('x25519').publicKey.export({ type: 'spki', format: 'der' }).subarray(-32);
  if (curve === 0x001e) return generateKeyPairSync('x448').publicKey.export({ type: 'spki', format: 'der' }).subarray(-56);
  const name = NODE_CURVES.get(curve);
  if (name === undefined) return Buffer.concat([u8(4), randomBytes(64)]);
  return createECDH(name).generateKeys();
}

const HASH_OF_SCHEME_BYTE: ReadonlyMap<number, string> = new Map([[0x01, 'md5'], [0x02, 'sha1'], [0x03, 'sha224'], [0x04, 'sha256'], [0x05, 'sha384'], [0x06, 'sha512']]);
const PSS_HASH: ReadonlyMap<number, string> = new Map([[0x0804, 'sha256'], [0x0805, 'sha384'], [0x0806, 'sha512']]);

/**
 * The ServerKeyExchange signature with the leaf's RSA key: TLS 1.2 by SignatureScheme (RSA-PSS or
 * PKCS#1), earlier versions over MD5 and SHA-1 together (RFC 4346 7.4.3). Schemes an RSA key
 * cannot make (ECDSA, EdDSA) get random bytes: only the prober, which does not verify, sees them.
 */
function signKeyExchange(signed: Buffer, signatureScheme: number | undefined, privateKey: KeyObject): Buffer {
  if (signatureScheme === undefined) {
    const digests = Buffer.concat([createHash('md5').update(signed).digest(), createHash('sha1').update(signed).digest()]);
    return privateEncrypt({ key: privateKey, padding: constants.RSA_PKCS1_PADDING }, digests);
  }
  const pssHash = PSS_HASH.get(signatureScheme);
  if (pssHash !== undefined) return sign(pssHash, signed, { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST });
  const pkcs1Hash = (signatureScheme & 0xff) === 0x01 ? HASH_OF_SCHEME_BYTE.get(signatureScheme >> 8) : undefined;
  return pkcs1Hash === undefined ? randomBytes(256) : sign(pkcs1Hash, signed, privateKey);
}

/** What the ServerKeyExchange signature covers besides its own parameters (RFC 5246 7.4.3). */
interface Randoms {
  client: Buffer;
  server: Buffer;
}

/** ECDHE ServerKeyExchange: named curve, a fresh public point, and the signature over both randoms and these. */
function ecdheKeyExchangeBody(curve: number, signatureScheme: number | undefined, randoms: Randoms, privateKey: KeyObject): Buffer {
  const parameters = Buffer.concat([u8(3), u16(curve), vector(1, ecdhePublicPoint(curve))]);
  const signature = signKeyExchange(Buffer.concat([randoms.client, randoms.server, parameters]), signatureScheme, privateKey);
  return Buffer.concat([parameters, ...(signatureScheme === undefined ? [] : [u16(signatureScheme)]), vector(2, signature)]);
}

function certificateBody(certificates: readonly Buffer[]): Buffer {
  return vector(3, Buffer.concat(certificates.map((der) => vector(3, der))));
}

function alertRecord(version: number, description: number): Buffer {
  return records(CONTENT_TYPE.alert, version, Buffer.from([2, description]));
}

/** The bytes of an answer: an alert record, or ServerHello to ServerHelloDone in handshake records. */
export function encodeAnswer(answer: Answer, profile: Pick<FakeTlsProfile, 'certificates' | 'privateKey'>, clientRandom: Buffer): Buffer {
  if (answer.kind === 'alert') return alertRecord(answer.version, answer.description);
  const randoms = { client: clientRandom, server: randomBytes(32) };
  const messages = [
    handshakeMessage(HANDSHAKE.serverHello, serverHelloBody(answer, randoms.server)),
    handshakeMessage(HANDSHAKE.certificate, certificateBody(profile.certificates)),
    ...(answer.curve === undefined ? [] : [handshakeMessage(HANDSHAKE.serverKeyExchange, ecdheKeyExchangeBody(answer.curve, answer.signatureScheme, randoms, profile.privateKey))]),
    handshakeMessage(HANDSHAKE.serverHelloDone, Buffer.alloc(0)),
  ];
  return records(CONTENT_TYPE.handshake, answer.version, Buffer.concat(messages));
}

/** SSLv2 SERVER-HELLO (draft-hickman-netscape-ssl-00): the leaf certificate and RC4-128 with MD5. */
function ssl2ServerHello(certificate: Buffer): Buffer {
  const cipherSpecs = Buffer.from([0x01, 0x00, 0x80]);
  const connectionId = randomBytes(16);
  const body = Buffer.concat([u8(4), u8(0), u8(1), u16(0x0002), u16(certificate.length), u16(cipherSpecs.length), u16(connectionId.length), certificate, cipherSpecs, connectionId]);
  return Buffer.concat([u16(0x8000 | body.length), body]);
}

export interface FakeTlsServer {
  port: number;
  /** Every ClientHello read, in the order they were completed. */
  hellos: ReceivedClientHello[];
  close(): Promise<void>;
}

/** What a connection gets: bytes, then either a hang-up or, should the client go on, an alert that ends it. */
type Reply = { bytes: Buffer; hangUp: true } | { bytes: Buffer; hangUp: false; toNextFlight: Buffer };

function respond(profile: FakeTlsProfile, received: Received, hellos: ReceivedClientHello[]): Reply | undefined {
  switch (received.kind) {
    case 'incomplete':
      return undefined;
    case 'malformed':
      return { bytes: Buffer.alloc(0), hangUp: true };
    case 'ssl2-client-hello':
      if (profile.ssl2 === true && profile.certificates[0] !== undefined) return { bytes: ssl2ServerHello(profile.certificates[0]), hangUp: false, toNextFlight: Buffer.alloc(0) };
      return { bytes: alertRecord(SSL3, ALERT.protocolVersion), hangUp: true };
    case 'client-hello': {
      hellos.push(received.hello);
      const answer = decide(profile, received.hello);
      const bytes = encodeAnswer(answer, profile, received.hello.random);
      // After an alert a server closes; after a ServerHello it waits for the client's next flight.
      if (answer.kind === 'alert') return { bytes, hangUp: true };
      return { bytes, hangUp: false, toNextFlight: alertRecord(answer.version, ALERT.handshakeFailure) };
    }
  }
}

export async function startFakeTlsServer(profile: FakeTlsProfile): Promise<FakeTlsServer> {
  const unsupported = [...profile.suites, ...(profile.alwaysPicks === undefined ? [] : [profile.alwaysPicks])].filter((code) => keyExchangeOf(code) === 'dhe');
  if (unsupported.length > 0) throw new Error(`the fake server has no DHE ServerKeyExchange: 0x${unsupported[0]?.toString(16).padStart(4, '0')}`);
  const hellos: ReceivedClientHello[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      const reply = respond(profile, readClientHello(Buffer.concat(chunks)), hellos);
      if (reply === undefined) return;
      socket.off('data', onData);
      if (reply.hangUp) {
        socket.end(reply.bytes);
        return;
      }
      socket.write(reply.bytes);
      // A client that goes on (Node's TLS, never the prober) learns that this server stops here.
      const toNextFlight = reply.toNextFlight;
      socket.once('data', () => socket.end(toNextFlight));
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hellos,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const generateKeyPairAsync = promisify(generateKeyPair);

/** A self-signed RSA 3072 / SHA-256 certificate for CN=localhost, as DER, and its key: Sufficient, so it adds no evidence. */
export async function selfSignedIdentity(): Promise<Pick<FakeTlsProfile, 'certificates' | 'privateKey'>> {
  const keyPair = await generateKeyPairAsync('rsa', { modulusLength: 3072, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  const notBeforeDate = new Date(Date.now() - 60_000);
  const generated = await generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'rsa', keyPair, algorithm: 'sha256', notBeforeDate, notAfterDate: new Date(notBeforeDate.getTime() + 2 * 24 * 3600 * 1000) });
  return { certificates: [new X509Certificate(generated.cert).raw], privateKey: createPrivateKey(keyPair.privateKey) };
}
