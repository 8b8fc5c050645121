import { buildClientHello, buildSsl2ClientHello, clientHelloBody } from '../live/tls/client-hello.js';
import { parseFlight, HELLO_RETRY_RANDOM, type ParseGoal } from '../live/tls/server-hello.js';
import { keyExchangeOf } from '../live/tls/prober.js';

/** Byte-level fixtures for the hand-built ClientHello and the ServerHello/alert/ServerKeyExchange parser. */
const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');
const ZERO_RANDOM = Buffer.alloc(32);
const RANDOM_HEX = '00'.repeat(32);
const helloOnly: ParseGoal = { untilHelloDone: false, keyExchangeOf };
const toHelloDone: ParseGoal = { untilHelloDone: true, keyExchangeOf };

function record(type: number, version: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([type]), hex(version), Buffer.from([body.length >> 8, body.length & 0xff]), body]);
}

function handshake(type: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([type, body.length >> 16, (body.length >> 8) & 0xff, body.length & 0xff]), body]);
}

describe('ClientHello', () => {
  test('TLS 1.2 with one suite: exact bytes, record version TLS 1.0, renegotiation_info and EMS', () => {
    const bytes = buildClientHello({ version: 0x0303, suites: [0xc02f], groups: [], signatureSchemes: [], random: ZERO_RANDOM });
    expect(bytes.toString('hex')).toBe(
      [
        '16 0301 0038', // handshake record, TLS 1.0 record version, 56 bytes
        '01 000034', // ClientHello, 52 bytes
        '0303', RANDOM_HEX, '00', // client_version, random, empty session id
        '0002 c02f', // one suite
        '01 00', // null compression only
        '0009 ff01 0001 00 0017 0000', // renegotiation_info (empty), extended_master_secret
      ].join('').replace(/\s+/g, ''),
    );
  });

  test('SNI for a DNS name, not for an IP literal; groups, point formats and signature algorithms', () => {
    const withName = clientHelloBody({ version: 0x0303, suites: [0xc02f], serverName: 'api.example.nl', groups: [0x001d, 0x0017], signatureSchemes: [0x0804], random: ZERO_RANDOM });
    expect(withName.toString('hex')).toContain('0000 0013 0011 00 000e'.replace(/\s/g, '') + Buffer.from('api.example.nl').toString('hex'));
    expect(withName.toString('hex')).toContain('000a 0006 0004 001d 0017'.replace(/\s/g, ''));
    expect(withName.toString('hex')).toContain('000b 0004 03 000102'.replace(/\s/g, ''));
    expect(withName.toString('hex')).toContain('000d 0004 0002 0804'.replace(/\s/g, ''));
    const withIp = clientHelloBody({ version: 0x0303, suites: [0xc02f], serverName: '127.0.0.1', groups: [], signatureSchemes: [], random: ZERO_RANDOM });
    expect(withIp.toString('hex')).not.toContain(Buffer.from('127.0.0.1').toString('hex'));
  });

  test('TLS 1.3: supported_versions, a 32-byte x25519 key share and a 32-byte legacy session id', () => {
    const body = clientHelloBody({ version: 0x0303, suites: [0x1301], groups: [0x001d], signatureSchemes: [0x0403], supportedVersions: [0x0304], keyShareGroups: [0x001d], random: ZERO_RANDOM });
    expect(body.subarray(34, 35).toString('hex')).toBe('20');
    const text = body.toString('hex');
    expect(text).toContain('002b 0003 02 0304'.replace(/\s/g, ''));
    expect(text).toMatch(/003300260024001d0020[0-9a-f]{64}$/);
  });

  test('SSLv3 without extensions; DEFLATE offered before null', () => {
    const body = clientHelloBody({ version: 0x0300, suites: [0x002f, 0x000a], groups: [], signatureSchemes: [], noExtensions: true, offerCompression: true, random: ZERO_RANDOM });
    expect(body.toString('hex')).toBe(`0300${RANDOM_HEX}00 0004 002f 000a 02 0100`.replace(/\s/g, ''));
    expect(buildClientHello({ version: 0x0300, suites: [0x002f], groups: [], signatureSchemes: [], noExtensions: true }).subarray(0, 3).toString('hex')).toBe('160300');
  });

  test('SSLv2 CLIENT-HELLO: 2-byte header with the high bit, 7 three-byte specs, 16-byte challenge', () => {
    const bytes = buildSsl2ClientHello();
    expect(bytes.length).toBe(2 + 9 + 21 + 16);
    expect(bytes.subarray(0, 11).toString('hex')).toBe('802e 01 0002 0015 0000 0010'.replace(/\s/g, ''));
    expect(bytes.subarray(11, 14).toString('hex')).toBe('010080');
  });
});

const TLS12_SERVER_HELLO = handshake(
  2,
  hex(`0303 ${'11'.repeat(32)} 00 c02f 00 000d ff01 0001 00 0017 0000 000b 0000`), // reneg_info, EMS, an empty ec_point_formats
);
const CERTIFICATE_EMPTY = handshake(11, hex('000000'));
const ECDHE_KEY_EXCHANGE = handshake(12, hex(`03 0017 04 0a0b0c0d 0401 0002 ffff`)); // named_curve secp256r1, rsa_pkcs1_sha256
const HELLO_DONE = handshake(14, Buffer.alloc(0));

describe('server flight', () => {
  test('TLS 1.2 ServerHello with renegotiation_info and EMS', () => {
    const flight = parseFlight(record(22, '0303', TLS12_SERVER_HELLO), helloOnly);
    expect(flight).toEqual({
      kind: 'server-hello',
      hello: { legacyVersion: 0x0303, version: 0x0303, cipherSuite: 0xc02f, compressionMethod: 0, secureRenegotiation: true, extendedMasterSecret: true, extensions: [0xff01, 0x0017, 0x000b] },
      certificates: [],
    });
  });

  test('until ServerHelloDone: waits across records and fragments, then reads the ECDHE curve and signature scheme', () => {
    const messages = Buffer.concat([TLS12_SERVER_HELLO, CERTIFICATE_EMPTY, ECDHE_KEY_EXCHANGE, HELLO_DONE]);
    // The handshake messages split over two records, the second one arriving in two pieces.
    const stream = Buffer.concat([record(22, '0303', messages.subarray(0, 50)), record(22, '0303', messages.subarray(50))]);
    expect(parseFlight(stream.subarray(0, 40), toHelloDone)).toBeUndefined();
    expect(parseFlight(stream.subarray(0, stream.length - 3), toHelloDone)).toBeUndefined();
    const flight = parseFlight(stream, toHelloDone);
    expect(flight?.kind).toBe('server-hello');
    if (flight?.kind !== 'server-hello') return;
    expect(flight.keyExchange).toEqual({ curve: 0x0017, signatureScheme: 0x0401 });
  });

  test('DHE ServerKeyExchange: prime and generator as hex', () => {
    const hello = handshake(2, hex(`0303 ${'22'.repeat(32)} 00 009e 00`));
    const keyExchange = handshake(12, hex('0004 fffffffb 0001 02 0002 1234 0201 0001 00'));
    const flight = parseFlight(record(22, '0303', Buffer.concat([hello, keyExchange, HELLO_DONE])), toHelloDone);
    expect(flight?.kind === 'server-hello' ? flight.keyExchange : undefined).toEqual({ dh: { primeHex: 'fffffffb', generatorHex: '02' }, signatureScheme: 0x0201 });
  });

  test('TLS 1.3 ServerHello: version from supported_versions, group from key_share; no wait for encrypted records', () => {
    const hello = handshake(2, hex(`0303 ${'33'.repeat(32)} 20 ${'44'.repeat(32)} 1302 00 002e 002b 0002 0304 0033 0024 001d 0020 ${'55'.repeat(32)}`));
    const flight = parseFlight(record(22, '0303', hello), toHelloDone);
    expect(flight).toMatchObject({ kind: 'server-hello', hello: { legacyVersion: 0x0303, version: 0x0304, cipherSuite: 0x1302, group: 0x001d } });
  });

  test('HelloRetryRequest: recognised by its random, selected group read', () => {
    const retry = handshake(2, hex(`0303 ${HELLO_RETRY_RANDOM.toString('hex')} 00 1301 00 000c 002b 0002 0304 0033 0002 0017`));
    expect(parseFlight(record(22, '0303', retry), helloOnly)).toMatchObject({ kind: 'hello-retry', hello: { version: 0x0304, cipherSuite: 0x1301, group: 0x0017 } });
  });

  test('alerts by name', () => {
    expect(parseFlight(record(21, '0303', hex('0228')), helloOnly)).toEqual({ kind: 'alert', level: 2, description: 40, name: 'handshake_failure' });
    expect(parseFlight(record(21, '0301', hex('0246')), helloOnly)).toEqual({ kind: 'alert', level: 2, description: 70, name: 'protocol_version' });
  });

  test('garbage, truncated messages and incomplete input', () => {
    expect(parseFlight(Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n'), helloOnly)).toMatchObject({ kind: 'garbage' });
    expect(parseFlight(record(22, '0303', handshake(2, hex('0303 1111'))), helloOnly)).toMatchObject({ kind: 'garbage', reason: expect.stringContaining('malformed handshake') });
    expect(parseFlight(record(22, '0303', handshake(11, hex('000000'))), helloOnly)).toMatchObject({ kind: 'garbage', reason: expect.stringContaining('expected ServerHello') });
    expect(parseFlight(hex('1603'), helloOnly)).toBeUndefined();
    expect(parseFlight(Buffer.alloc(0), helloOnly)).toBeUndefined();
  });

  test('SSLv2 answers', () => {
    expect(parseFlight(hex('8100 04 00 01 0002'), { ...helloOnly, ssl2: true })).toEqual({ kind: 'ssl2-server-hello' });
    expect(parseFlight(record(21, '0300', hex('0228')), { ...helloOnly, ssl2: true })).toMatchObject({ kind: 'alert', name: 'handshake_failure' });
  });
});
