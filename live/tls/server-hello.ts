/**
 * Parsing of the server's first flight: records, ServerHello, HelloRetryRequest, Certificate and
 * ServerKeyExchange (plaintext up to TLS 1.2), alerts, and an SSLv2 SERVER-HELLO. Pure: the prober
 * feeds it everything received so far and asks whether it has enough.
 */

export interface ServerHello {
  /** legacy_version as sent. */
  legacyVersion: number;
  /** The version in force: supported_versions when present (TLS 1.3), else legacy_version. */
  version: number;
  cipherSuite: number;
  compressionMethod: number;
  /** The selected group: key_share of a ServerHello, selected_group of a HelloRetryRequest. */
  group?: number;
  secureRenegotiation: boolean;
  extendedMasterSecret: boolean;
  extensions: number[];
}

export interface ServerKeyExchange {
  /** Named curve of an ECDHE exchange. */
  curve?: number;
  /** Prime and generator of a finite-field DHE exchange, as hex. */
  dh?: { primeHex: string; generatorHex: string };
  /** SignatureScheme the server signed with (TLS 1.2 only; earlier versions have none on the wire). */
  signatureScheme?: number;
}

export type Flight =
  | { kind: 'server-hello'; hello: ServerHello; certificates: Buffer[]; keyExchange?: ServerKeyExchange }
  | { kind: 'hello-retry'; hello: ServerHello }
  | { kind: 'alert'; level: number; description: number; name: string }
  | { kind: 'ssl2-server-hello' }
  | { kind: 'garbage'; reason: string };

/** What a ClientHello leads the parser to wait for. */
export interface ParseGoal {
  /** Read on to ServerHelloDone for the certificate and ServerKeyExchange (TLS 1.2 and lower). */
  untilHelloDone: boolean;
  /** Key exchange of the suites offered decides the ServerKeyExchange layout. */
  keyExchangeOf(suite: number): 'ecdhe' | 'dhe' | 'other';
  /** SSLv2 answers have their own record format. */
  ssl2?: boolean;
}

/** SHA-256 of "HelloRetryRequest" (RFC 8446 4.1.3): the random of every HelloRetryRequest. */
export const HELLO_RETRY_RANDOM = Buffer.from('cf21ad74e59a6111be1d8c021e65b891c2a211167abb8c5e079e09e2c8a8339c', 'hex');

const HANDSHAKE = { serverHello: 2, certificate: 11, serverKeyExchange: 12, serverHelloDone: 14 } as const;
const MAX_RECORD = 16384 + 2048;

export const ALERT_NAMES: ReadonlyMap<number, string> = new Map([
  [0, 'close_notify'], [10, 'unexpected_message'], [20, 'bad_record_mac'], [22, 'record_overflow'], [40, 'handshake_failure'],
  [42, 'bad_certificate'], [47, 'illegal_parameter'], [50, 'decode_error'], [51, 'decrypt_error'], [70, 'protocol_version'],
  [71, 'insufficient_security'], [80, 'internal_error'], [86, 'inappropriate_fallback'], [90, 'user_canceled'], [109, 'missing_extension'],
  [110, 'unsupported_extension'], [112, 'unrecognized_name'], [120, 'no_application_protocol'],
]);

/** A reader over a buffer that throws on truncation, so that malformed input becomes one error. */
export class Reader {
  private offset = 0;
  constructor(private readonly bytes: Buffer) {}
  get remaining(): number {
    return this.bytes.length - this.offset;
  }
  take(length: number): Buffer {
    if (length > this.remaining) throw new RangeError(`needs ${length} bytes, has ${this.remaining}`);
    const slice = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return slice;
  }
  u8(): number {
    return this.take(1).readUInt8(0);
  }
  u16(): number {
    return this.take(2).readUInt16BE(0);
  }
  u24(): number {
    return this.take(3).readUIntBE(0, 3);
  }
  vector(lengthBytes: 1 | 2 | 3): Buffer {
    return this.take(lengthBytes === 1 ? this.u8() : lengthBytes === 2 ? this.u16() : this.u24());
  }
}

interface Records {
  handshake: Buffer;
  alert?: { level: number; description: number };
  /** A record after the handshake records that is not a handshake one (ChangeCipherSpec, encrypted data). */
  other: boolean;
  garbage?: string;
}

function splitRecords(bytes: Buffer): Records {
  const handshake: Buffer[] = [];
  let offset = 0;
  while (bytes.length - offset >= 5) {
    const type = bytes[offset] ?? 0;
    const major = bytes[offset + 1] ?? 0;
    const length = bytes.readUInt16BE(offset + 3);
    if (type < 20 || type > 23 || major !== 3 || length > MAX_RECORD) {
      return { handshake: Buffer.concat(handshake), other: false, garbage: `not a TLS record: ${bytes.subarray(offset, offset + 8).toString('hex')}` };
    }
    if (bytes.length - offset - 5 < length) break;
    const body = bytes.subarray(offset + 5, offset + 5 + length);
    offset += 5 + length;
    if (type === 21 && body.length >= 2) return { handshake: Buffer.concat(handshake), alert: { level: body[0] ?? 0, description: body[1] ?? 0 }, other: false };
    if (type === 22) handshake.push(body);
    else return { handshake: Buffer.concat(handshake), other: true };
  }
  return { handshake: Buffer.concat(handshake), other: false };
}

function splitHandshakes(bytes: Buffer): Array<{ type: number; body: Buffer }> {
  const messages: Array<{ type: number; body: Buffer }> = [];
  let offset = 0;
  while (bytes.length - offset >= 4) {
    const length = bytes.readUIntBE(offset + 1, 3);
    if (bytes.length - offset - 4 < length) break;
    messages.push({ type: bytes[offset] ?? 0, body: bytes.subarray(offset + 4, offset + 4 + length) });
    offset += 4 + length;
  }
  return messages;
}

/** The extensions block that ends a hello, each as its type and a reader over its body; none when the block is absent (SSLv3). */
export function readExtensions(reader: Reader): Array<{ type: number; data: Reader }> {
  const extensions: Array<{ type: number; data: Reader }> = [];
  if (reader.remaining === 0) return extensions;
  const block = new Reader(reader.vector(2));
  while (block.remaining > 0) extensions.push({ type: block.u16(), data: new Reader(block.vector(2)) });
  return extensions;
}

export function parseServerHello(body: Buffer): ServerHello & { retry: boolean } {
  const reader = new Reader(body);
  const legacyVersion = reader.u16();
  const random = reader.take(32);
  reader.vector(1);
  const cipherSuite = reader.u16();
  const compressionMethod = reader.u8();
  const retry = random.equals(HELLO_RETRY_RANDOM);
  const hello: ServerHello & { retry: boolean } = { legacyVersion, version: legacyVersion, cipherSuite, compressionMethod, secureRenegotiation: false, extendedMasterSecret: false, extensions: [], retry };
  for (const { type, data } of readExtensions(reader)) {
    hello.extensions.push(type);
    if (type === 0x002b) hello.version = data.u16();
    else if (type === 0x0033) hello.group = data.u16();
    else if (type === 0xff01) hello.secureRenegotiation = true;
    else if (type === 0x0017) hello.extendedMasterSecret = true;
  }
  return hello;
}

export function parseCertificates(body: Buffer): Buffer[] {
  const list = new Reader(new Reader(body).vector(3));
  const certificates: Buffer[] = [];
  while (list.remaining > 0) certificates.push(list.vector(3));
  return certificates;
}

export function parseServerKeyExchange(body: Buffer, kind: 'ecdhe' | 'dhe', version: number): ServerKeyExchange {
  const reader = new Reader(body);
  const result: ServerKeyExchange = {};
  if (kind === 'ecdhe') {
    const curveType = reader.u8();
    if (curveType !== 3) throw new RangeError(`ECDHE curve type ${curveType}, not named_curve`);
    result.curve = reader.u16();
    reader.vector(1);
  } else {
    const prime = reader.vector(2);
    const generator = reader.vector(2);
    reader.vector(2);
    result.dh = { primeHex: prime.toString('hex'), generatorHex: generator.toString('hex') };
  }
  if (version >= 0x0303 && reader.remaining >= 2) result.signatureScheme = reader.u16();
  return result;
}

function alertFlight(level: number, description: number): Flight {
  return { kind: 'alert', level, description, name: ALERT_NAMES.get(description) ?? `alert ${description}` };
}

/** SSLv2 record: 2-byte header with the high bit set, then SERVER-HELLO (4) or ERROR (0). */
function parseSsl2(bytes: Buffer): Flight | undefined {
  if (bytes.length < 3) return undefined;
  if (((bytes[0] ?? 0) & 0x80) === 0) {
    const records = splitRecords(bytes);
    if (records.alert !== undefined) return alertFlight(records.alert.level, records.alert.description);
    return records.garbage === undefined && bytes.length < 7 ? undefined : { kind: 'garbage', reason: 'no SSLv2 SERVER-HELLO' };
  }
  return bytes[2] === 4 ? { kind: 'ssl2-server-hello' } : { kind: 'garbage', reason: `SSLv2 message type ${bytes[2] ?? '?'}` };
}

/**
 * The flight as far as it decides the probe, or undefined when more bytes are needed. A parse
 * error on complete messages is reported as garbage, never thrown.
 */
export function parseFlight(bytes: Buffer, goal: ParseGoal): Flight | undefined {
  if (goal.ssl2 === true) return parseSsl2(bytes);
  const records = splitRecords(bytes);
  try {
    const messages = splitHandshakes(records.handshake);
    const helloMessage = messages.find((message) => message.type === HANDSHAKE.serverHello);
    if (helloMessage === undefined) {
      if (records.alert !== undefined) return alertFlight(records.alert.level, records.alert.description);
      if (records.garbage !== undefined) return { kind: 'garbage', reason: records.garbage };
      if (messages.length > 0 || records.other) return { kind: 'garbage', reason: `expected ServerHello, got handshake type ${messages[0]?.type ?? 'none'}` };
      return undefined;
    }
    const hello = parseServerHello(helloMessage.body);
    const { retry, ...plain } = hello;
    if (retry) return { kind: 'hello-retry', hello: plain };
    const done = messages.some((message) => message.type === HANDSHAKE.serverHelloDone);
    // TLS 1.3 encrypts everything after the ServerHello; the end of a flight is then the hello itself.
    const needMore = goal.untilHelloDone && plain.version <= 0x0303 && !done && records.alert === undefined && records.garbage === undefined && !records.other;
    if (needMore) return undefined;
    const certificateMessage = messages.find((message) => message.type === HANDSHAKE.certificate);
    const keyExchangeMessage = messages.find((message) => message.type === HANDSHAKE.serverKeyExchange);
    const kind = goal.keyExchangeOf(plain.cipherSuite);
    return {
      kind: 'server-hello',
      hello: plain,
      certificates: certificateMessage === undefined || plain.version > 0x0303 ? [] : parseCertificates(certificateMessage.body),
      ...(keyExchangeMessage !== undefined && kind !== 'other' ? { keyExchange: parseServerKeyExchange(keyExchangeMessage.body, kind, plain.version) } : {}),
    };
  } catch (error) {
    return { kind: 'garbage', reason: `malformed handshake: ${(error as Error).message}` };
  }
}
