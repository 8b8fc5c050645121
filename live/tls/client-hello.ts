import { randomBytes } from 'node:crypto';

/**
 * ClientHellos built byte by byte (RFC 5246 7.4.1.2, RFC 8446 4.1.2), so that the prober can offer
 * what no TLS library will: every IANA suite, SSLv3, compression, chosen groups and signature
 * algorithms. Nothing here completes a handshake; the server's first flight is all we read.
 */

export const EXTENSION = {
  serverName: 0x0000,
  supportedGroups: 0x000a,
  ecPointFormats: 0x000b,
  signatureAlgorithms: 0x000d,
  extendedMasterSecret: 0x0017,
  supportedVersions: 0x002b,
  keyShare: 0x0033,
  renegotiationInfo: 0xff01,
} as const;

export const CONTENT_TYPE = { alert: 21, handshake: 22 } as const;
export const X25519 = 0x001d;

/** Every SignatureScheme worth offering, strongest first, SHA-1 and SHA-224 last. */
export const ALL_SIGNATURE_SCHEMES: readonly number[] = [
  0x0403, 0x0503, 0x0603, 0x0807, 0x0808, 0x0804, 0x0805, 0x0806, 0x0809, 0x080a, 0x080b, 0x0401, 0x0501, 0x0601, 0x0303, 0x0301, 0x0203, 0x0201,
  // DSA (TLS 1.2 pairs), last: without them a DSS-only server refuses every hello.
  0x0402, 0x0502, 0x0602, 0x0302, 0x0202,
];

export interface ClientHelloOptions {
  /** client_version / legacy_version: 0x0300 (SSLv3) to 0x0303 (TLS 1.2; also for TLS 1.3). */
  version: number;
  suites: readonly number[];
  serverName?: string;
  /** supported_groups; omitted when empty. */
  groups: readonly number[];
  signatureSchemes: readonly number[];
  /** supported_versions (TLS 1.3); omitted when undefined. */
  supportedVersions?: readonly number[];
  /** key_share entries; x25519 takes any 32 bytes as a public key, which is all a probe needs. */
  keyShareGroups?: readonly number[];
  /** Offer DEFLATE (1) before null (0) to learn whether the server compresses. */
  offerCompression?: boolean;
  /** SSLv3 servers may choke on extensions: a bare hello has none. */
  noExtensions?: boolean;
  random?: Buffer;
}

export function u8(value: number): Buffer {
  return Buffer.from([value & 0xff]);
}

export function u16(value: number): Buffer {
  return Buffer.from([(value >> 8) & 0xff, value & 0xff]);
}

export function u24(value: number): Buffer {
  return Buffer.from([(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff]);
}

/** A vector with a 1-, 2- or 3-byte length prefix. */
export function vector(lengthBytes: 1 | 2 | 3, body: Buffer): Buffer {
  const prefix = lengthBytes === 1 ? u8(body.length) : lengthBytes === 2 ? u16(body.length) : u24(body.length);
  return Buffer.concat([prefix, body]);
}

function list16(values: readonly number[]): Buffer {
  return Buffer.concat(values.map(u16));
}

export function extension(type: number, body: Buffer): Buffer {
  return Buffer.concat([u16(type), vector(2, body)]);
}

function serverNameExtension(host: string): Buffer {
  return extension(EXTENSION.serverName, vector(2, Buffer.concat([u8(0), vector(2, Buffer.from(host, 'ascii'))])));
}

function keyShareExtension(groups: readonly number[]): Buffer {
  const shares = groups.map((group) => Buffer.concat([u16(group), vector(2, randomBytes(group === X25519 ? 32 : 0))]));
  return extension(EXTENSION.keyShare, vector(2, Buffer.concat(shares)));
}

/** SNI only for DNS names: RFC 6066 forbids IP literals in server_name. */
/** SNI carries DNS names only: RFC 6066 forbids IP addresses in server_name. */
export function isDnsName(host: string): boolean {
  return /[a-z]/i.test(host) && !host.includes(':');
}

function extensions(options: ClientHelloOptions): Buffer[] {
  if (options.noExtensions === true) return [];
  const list: Buffer[] = [];
  if (options.serverName !== undefined && isDnsName(options.serverName)) list.push(serverNameExtension(options.serverName));
  if (options.groups.length > 0) {
    list.push(extension(EXTENSION.supportedGroups, vector(2, list16(options.groups))));
    list.push(extension(EXTENSION.ecPointFormats, vector(1, Buffer.from([0, 1, 2]))));
  }
  if (options.signatureSchemes.length > 0) list.push(extension(EXTENSION.signatureAlgorithms, vector(2, list16(options.signatureSchemes))));
  list.push(extension(EXTENSION.renegotiationInfo, vector(1, Buffer.alloc(0))));
  list.push(extension(EXTENSION.extendedMasterSecret, Buffer.alloc(0)));
  if (options.supportedVersions !== undefined) list.push(extension(EXTENSION.supportedVersions, vector(1, list16(options.supportedVersions))));
  if (options.keyShareGroups !== undefined) list.push(keyShareExtension(options.keyShareGroups));
  return list;
}

/** The ClientHello handshake message body, without record or handshake headers. */
export function clientHelloBody(options: ClientHelloOptions): Buffer {
  const random = options.random ?? randomBytes(32);
  // A 32-byte legacy_session_id makes middlebox-compatible TLS 1.3 servers answer as they would a browser.
  const sessionId = options.supportedVersions === undefined ? Buffer.alloc(0) : randomBytes(32);
  const compression = Buffer.from(options.offerCompression === true ? [1, 0] : [0]);
  const extensionBytes = Buffer.concat(extensions(options));
  return Buffer.concat([
    u16(options.version),
    random,
    vector(1, sessionId),
    vector(2, list16(options.suites)),
    vector(1, compression),
    ...(options.noExtensions === true ? [] : [vector(2, extensionBytes)]),
  ]);
}

/** Record (type 22) + handshake header (type 1) around the ClientHello body. */
export function buildClientHello(options: ClientHelloOptions): Buffer {
  const handshake = Buffer.concat([u8(1), vector(3, clientHelloBody(options))]);
  // The record version stays at TLS 1.0 or lower: some servers drop records claiming more.
  const recordVersion = Math.min(options.version, 0x0301);
  return Buffer.concat([u8(CONTENT_TYPE.handshake), u16(recordVersion), vector(2, handshake)]);
}

/**
 * An SSLv2 CLIENT-HELLO (draft-hickman-netscape-ssl-00, 2-byte record header): SSLv2 suites are
 * three bytes each. A server that still speaks SSLv2 answers with SERVER-HELLO (type 4).
 */
export const SSL2_CIPHER_SPECS: readonly number[] = [0x010080, 0x020080, 0x030080, 0x040080, 0x050080, 0x060040, 0x0700c0];

export function buildSsl2ClientHello(): Buffer {
  const specs = Buffer.concat(SSL2_CIPHER_SPECS.map((spec) => Buffer.from([(spec >> 16) & 0xff, (spec >> 8) & 0xff, spec & 0xff])));
  const challenge = randomBytes(16);
  const body = Buffer.concat([u8(1), u16(0x0002), u16(specs.length), u16(0), u16(challenge.length), specs, challenge]);
  return Buffer.concat([u16(0x8000 | body.length), body]);
}
