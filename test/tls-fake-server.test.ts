import tls from 'node:tls';
import { buildClientHello, u16 } from '../live/tls/client-hello.js';
import { parseFlight } from '../live/tls/server-hello.js';
import { probeTls, findingsOf, keyExchangeOf, type ProbeResult } from '../live/tls/prober.js';
import { gradeFindings, type ProtocolName, type TlsGrade } from '../live/tls/grading.js';
import { IANA_CIPHER_SUITES } from '../live/tls/suites.js';
import { decide, encodeAnswer, readClientHello, selfSignedIdentity, startFakeTlsServer, SSL3, TLS10, TLS11, TLS12, type FakeTlsProfile } from './support/fake-tls-server.js';

/**
 * The prober against a hand-built fake server (test/support/fake-tls-server.ts) on loopback, for
 * what Debian's OpenSSL cannot serve: SSLv3 and SSLv2 ServerHellos, RC4 and 3DES chosen,
 * compression accepted, no renegotiation_info or EMS, a server that ignores the client's suites.
 * Every result is compared whole, not by "contains".
 */
let identity: Pick<FakeTlsProfile, 'certificates' | 'privateKey'>;
let certificate: Buffer;

beforeAll(async () => {
  identity = await selfSignedIdentity();
  certificate = identity.certificates[0] ?? Buffer.alloc(0);
});

const RC4_MD5 = 0x0004;
const RC4_SHA = 0x0005;
const TRIPLE_DES = 0x000a;
const RSA_AES_128_CBC_SHA = 0x002f;
const RSA_AES_128_GCM = 0x009c;
const ECDHE_RSA_RC4_SHA = 0xc011;
const ECDHE_RSA_AES_128_GCM = 0xc02f;
const X25519 = 0x001d;
const P256 = 0x0017;
const RSA_PSS_SHA256 = 0x0804;
const RSA_PKCS1_SHA256 = 0x0401;

/** The certificate every profile sends: RSA 3072 signed with SHA-256, Sufficient, so it adds no evidence. */
const LEAF: ProbeResult['certificates'][number] = { subject: 'CN=localhost', key: { type: 'rsa', bits: 3072 }, signatureAlgorithm: 'sha256WithRSAEncryption' };

/** A well-behaved TLS 1.2 server with one Sufficient suite; each test changes what it is about. */
function profile(overrides: Partial<FakeTlsProfile>): FakeTlsProfile {
  return {
    versions: [TLS12],
    suites: [ECDHE_RSA_AES_128_GCM],
    order: 'server',
    groups: [X25519],
    signatureSchemes: [RSA_PSS_SHA256],
    compression: false,
    renegotiationInfo: true,
    extendedMasterSecret: true,
    ...identity,
    ...overrides,
  };
}

/**
 * The probe result without what varies between runs, suites by IANA name for readable failures,
 * notes sorted: the probes that push them run side by side.
 */
function stable(result: ProbeResult) {
  const { target: _target, connections: _connections, durationMs: _durationMs, ...rest } = result;
  return { ...rest, notes: [...rest.notes].sort(), protocols: rest.protocols.map((protocol) => ({ ...protocol, suites: protocol.suites.map((code) => IANA_CIPHER_SUITES.get(code)) })) };
}

/**
 * Node's complete handshakes (chain and OCSP, client-initiated renegotiation) cannot finish
 * against the fake, which answers their second flight with handshake_failure if OpenSSL gets that
 * far; each leaves a note with the reason. Sorted, as stable() sorts.
 */
const handshakeNotes = (reason: string, renegotiationProbed = true) => [
  ...(renegotiationProbed ? [`client-initiated renegotiation: ${reason}`] : []),
  `full handshake (chain, OCSP stapling): ${reason}`,
];

async function probeFake(fakeProfile: FakeTlsProfile): Promise<{ result: ReturnType<typeof stable>; grade: TlsGrade; compressionOffers: number }> {
  const server = await startFakeTlsServer(fakeProfile);
  try {
    const result = await probeTls({ host: '127.0.0.1', port: server.port, timeoutMs: 2000, deadline: Date.now() + 15000, concurrency: 8 });
    const compressionOffers = server.hellos.filter((hello) => hello.compressionMethods.includes(1)).length;
    return { result: stable(result), grade: gradeFindings(findingsOf(result), IANA_CIPHER_SUITES), compressionOffers };
  } finally {
    await server.close();
  }
}

const refused = (protocol: ProtocolName, outcome: string) => ({ protocol, accepted: false, outcome, suites: [] });
/** What every TLS 1.2-only profile answers the older probes. */
const OLDER_THAN_TLS12_REFUSED = (['TLSv1.1', 'TLSv1.0', 'SSLv3', 'SSLv2'] as const).map((protocol) => refused(protocol, 'alert protocol_version'));

/** What the prober finds on the default profile (TLS 1.2 alone, one suite, x25519, RSA-PSS), with what a test changes. */
function expectedResult(changes: Partial<ReturnType<typeof stable>>): ReturnType<typeof stable> {
  return {
    protocols: [
      refused('TLSv1.3', 'alert handshake_failure'),
      { protocol: 'TLSv1.2', accepted: true, outcome: 'ServerHello TLSv1.2 TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', suites: ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256'] },
      ...OLDER_THAN_TLS12_REFUSED,
    ],
    groups: { 'TLSv1.3': [], 'TLSv1.2': [X25519] },
    dhGroups: [],
    signatureSchemes: [RSA_PSS_SHA256],
    tls13SignatureSchemes: [],
    certificates: [LEAF],
    compression: false,
    secureRenegotiation: true,
    extendedMasterSecret: true,
    notes: handshakeNotes('alert handshake_failure'),
    ...changes,
  };
}

describe('the fake server itself', () => {
  test('reads a hand-built ClientHello, split over two records, field by field', () => {
    const hello = buildClientHello({ version: TLS12, suites: [ECDHE_RSA_AES_128_GCM, RC4_SHA], groups: [X25519, P256], signatureSchemes: [RSA_PSS_SHA256], supportedVersions: [0x0304, TLS12], offerCompression: true, random: Buffer.alloc(32, 7) });
    const handshake = hello.subarray(5);
    const twoRecords = Buffer.concat([hello.subarray(0, 3), u16(10), handshake.subarray(0, 10), hello.subarray(0, 3), u16(handshake.length - 10), handshake.subarray(10)]);
    expect(readClientHello(twoRecords.subarray(0, 20))).toEqual({ kind: 'incomplete' });
    expect(readClientHello(twoRecords)).toEqual({
      kind: 'client-hello',
      hello: {
        recordVersion: TLS10,
        legacyVersion: TLS12,
        random: Buffer.alloc(32, 7),
        supportedVersions: [0x0304, TLS12],
        suites: [ECDHE_RSA_AES_128_GCM, RC4_SHA],
        compressionMethods: [1, 0],
        extensions: [0x000a, 0x000b, 0x000d, 0xff01, 0x0017, 0x002b],
        groups: [X25519, P256],
        signatureSchemes: [RSA_PSS_SHA256],
      },
    });
  });

  test('its first flight is what the prober parses: SSLv3, RC4, DEFLATE, no extensions', () => {
    const received = readClientHello(buildClientHello({ version: SSL3, suites: [RSA_AES_128_GCM, RC4_SHA], groups: [], signatureSchemes: [], offerCompression: true, noExtensions: true }));
    if (received.kind !== 'client-hello') throw new Error(`not read: ${received.kind}`);
    const answer = decide(profile({ versions: [SSL3, TLS12], suites: [RSA_AES_128_GCM, RC4_SHA], compression: true }), received.hello);
    // The AEAD suite is TLS 1.2-only; without the extensions asked for, none are echoed.
    expect(answer).toEqual({ kind: 'server-hello', version: SSL3, suite: RC4_SHA, compressionMethod: 1, extensions: [] });
    const flight = parseFlight(encodeAnswer(answer, identity, received.hello.random), { untilHelloDone: true, keyExchangeOf });
    expect(flight).toEqual({
      kind: 'server-hello',
      hello: { legacyVersion: SSL3, version: SSL3, cipherSuite: RC4_SHA, compressionMethod: 1, secureRenegotiation: false, extendedMasterSecret: false, extensions: [] },
      certificates: [certificate],
    });
  });

  test('a chain over 16 KiB goes out in two handshake records and parses back whole', () => {
    const chain = Array<Buffer>(20).fill(certificate);
    const hello = { recordVersion: TLS10, legacyVersion: TLS12, random: Buffer.alloc(32), supportedVersions: [], suites: [ECDHE_RSA_AES_128_GCM], compressionMethods: [0], extensions: [], groups: [X25519], signatureSchemes: [RSA_PSS_SHA256] };
    const bytes = encodeAnswer(decide(profile({}), hello), { ...identity, certificates: chain }, hello.random);
    const secondRecord = 5 + 16384;
    expect([bytes[0], bytes.readUInt16BE(3), bytes[secondRecord], bytes.readUInt16BE(secondRecord + 1)]).toEqual([22, 16384, 22, TLS12]);
    const flight = parseFlight(bytes, { untilHelloDone: true, keyExchangeOf });
    if (flight?.kind !== 'server-hello') throw new Error(`not a ServerHello flight: ${flight?.kind ?? 'incomplete'}`);
    expect(flight.certificates.map((der) => der.equals(certificate))).toEqual(Array(20).fill(true));
    expect(flight.keyExchange).toEqual({ curve: X25519, signatureScheme: RSA_PSS_SHA256 });
  });

  test.each<{ name: string; version: tls.SecureVersion; ciphers: string; sigalgs?: string; ecdhCurve?: string }>([
    { name: 'TLS 1.2, ECDHE x25519, RSA-PSS', version: 'TLSv1.2', ciphers: 'ECDHE-RSA-AES128-GCM-SHA256', sigalgs: 'rsa_pss_rsae_sha256' },
    { name: 'TLS 1.2, ECDHE x25519, PKCS#1', version: 'TLSv1.2', ciphers: 'ECDHE-RSA-AES128-GCM-SHA256', sigalgs: 'rsa_pkcs1_sha256' },
    { name: 'TLS 1.2, ECDHE P-256', version: 'TLSv1.2', ciphers: 'ECDHE-RSA-AES128-GCM-SHA256', ecdhCurve: 'P-256' },
    { name: 'TLS 1.0, ECDHE, MD5+SHA-1', version: 'TLSv1', ciphers: 'ECDHE-RSA-AES128-SHA:@SECLEVEL=0' },
    { name: 'TLS 1.2, RSA key exchange', version: 'TLSv1.2', ciphers: 'AES128-SHA:@SECLEVEL=0' },
  ])('Node\'s TLS client verifies its first flight ($name) and is stopped by an alert after its own', async ({ version, ciphers, sigalgs, ecdhCurve }) => {
    const server = await startFakeTlsServer(profile({
      versions: [TLS10, TLS12],
      suites: [ECDHE_RSA_AES_128_GCM, 0xc013, RSA_AES_128_CBC_SHA],
      groups: [X25519, P256],
      signatureSchemes: [RSA_PSS_SHA256, RSA_PKCS1_SHA256],
    }));
    try {
      const failure = await new Promise<string>((resolve) => {
        const socket = tls.connect({ host: '127.0.0.1', port: server.port, rejectUnauthorized: false, minVersion: version, maxVersion: version, ciphers, ...(sigalgs === undefined ? {} : { sigalgs }), ...(ecdhCurve === undefined ? {} : { ecdhCurve }) });
        socket.once('secureConnect', () => resolve('handshake completed'));
        socket.once('error', (error) => resolve(error.message));
      });
      // A bad signature or point would end it at the ServerKeyExchange, with OpenSSL's own reason.
      expect(failure).toMatch(/alert handshake failure.*alert number 40/);
    } finally {
      await server.close();
    }
  });

  test('an ECDHE suite needs a curve and, under TLS 1.2, a signature scheme in common', () => {
    const tls12 = (groups: number[], signatureSchemes: number[]) => ({ recordVersion: TLS10, legacyVersion: TLS12, random: Buffer.alloc(32), supportedVersions: [], suites: [ECDHE_RSA_AES_128_GCM, RSA_AES_128_CBC_SHA], compressionMethods: [0], extensions: [0x000a, 0x000d], groups, signatureSchemes });
    const server = profile({ suites: [ECDHE_RSA_AES_128_GCM, RSA_AES_128_CBC_SHA], groups: [P256, X25519] });
    expect(decide(server, tls12([X25519, P256], [RSA_PSS_SHA256]))).toMatchObject({ suite: ECDHE_RSA_AES_128_GCM, curve: P256, signatureScheme: RSA_PSS_SHA256 });
    expect(decide(server, tls12([0x0018], [RSA_PSS_SHA256]))).toEqual({ kind: 'server-hello', version: TLS12, suite: RSA_AES_128_CBC_SHA, compressionMethod: 0, extensions: [] });
    expect(decide(server, tls12([X25519], [RSA_PKCS1_SHA256]))).toMatchObject({ suite: RSA_AES_128_CBC_SHA });
    expect(decide(profile({}), { ...tls12([X25519], [RSA_PSS_SHA256]), legacyVersion: TLS11 })).toEqual({ kind: 'alert', version: TLS10, description: 70 });
  });
});

describe('the prober against the fake', () => {
  test('SSLv3 only, RC4 and 3DES in server order: SSLv3 accepted, the higher probes see a downgrade; fail', async () => {
    const { result, grade } = await probeFake(profile({ versions: [SSL3], suites: [RC4_SHA, TRIPLE_DES] }));
    // Node's OpenSSL offers neither RC4 nor 3DES, and renegotiation is only tried where TLS 1.0-1.2 is accepted.
    // An SSLv3 hello has no extensions, so Extended Master Secret (a TLS extension) is not judged;
    // secure renegotiation is, through the SCSV.
    const { extendedMasterSecret: _notJudged, ...withoutEms } = expectedResult({
      protocols: [
        refused('TLSv1.3', 'alert handshake_failure'),
        refused('TLSv1.2', 'ServerHello SSLv3 TLS_RSA_WITH_RC4_128_SHA'),
        refused('TLSv1.1', 'ServerHello SSLv3 TLS_RSA_WITH_RC4_128_SHA'),
        refused('TLSv1.0', 'ServerHello SSLv3 TLS_RSA_WITH_RC4_128_SHA'),
        { protocol: 'SSLv3', accepted: true, outcome: 'ServerHello SSLv3 TLS_RSA_WITH_RC4_128_SHA', suites: ['TLS_RSA_WITH_RC4_128_SHA', 'TLS_RSA_WITH_3DES_EDE_CBC_SHA'], preference: 'server' },
        refused('SSLv2', 'alert protocol_version'),
      ],
      groups: { 'TLSv1.3': [], 'TLSv1.2': [] },
      signatureSchemes: [],
      notes: handshakeNotes('alert handshake_failure', false),
    });
    expect(result).toEqual(withoutEms);
    expect(grade.verdict).toBe('fail');
    expect(grade.evidence).toEqual([
      'Insufficient: protocol SSLv3',
      'Insufficient: cipher suite TLS_RSA_WITH_RC4_128_SHA (0x0005)',
      'Insufficient: cipher suite TLS_RSA_WITH_3DES_EDE_CBC_SHA (0x000a)',
    ]);
  });

  test('SSLv2 to TLS 1.2, the AEAD suite only under TLS 1.2: suites per protocol; fail', async () => {
    const { result, grade } = await probeFake(profile({
      versions: [SSL3, TLS10, TLS11, TLS12],
      suites: [ECDHE_RSA_AES_128_GCM, ECDHE_RSA_RC4_SHA, RC4_SHA, TRIPLE_DES],
      groups: [X25519, P256],
      signatureSchemes: [RSA_PSS_SHA256, RSA_PKCS1_SHA256],
      ssl2: true,
    }));
    const older = ['TLS_ECDHE_RSA_WITH_RC4_128_SHA', 'TLS_RSA_WITH_RC4_128_SHA', 'TLS_RSA_WITH_3DES_EDE_CBC_SHA'];
    expect(result).toEqual(expectedResult({
      protocols: [
        refused('TLSv1.3', 'alert handshake_failure'),
        { protocol: 'TLSv1.2', accepted: true, outcome: 'ServerHello TLSv1.2 TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', suites: ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', ...older], preference: 'server' },
        { protocol: 'TLSv1.1', accepted: true, outcome: 'ServerHello TLSv1.1 TLS_ECDHE_RSA_WITH_RC4_128_SHA', suites: older, preference: 'server' },
        { protocol: 'TLSv1.0', accepted: true, outcome: 'ServerHello TLSv1.0 TLS_ECDHE_RSA_WITH_RC4_128_SHA', suites: older, preference: 'server' },
        // Without extensions (no supported_groups) an SSLv3 hello gets no ECDHE suite.
        { protocol: 'SSLv3', accepted: true, outcome: 'ServerHello SSLv3 TLS_RSA_WITH_RC4_128_SHA', suites: older.slice(1), preference: 'server' },
        { protocol: 'SSLv2', accepted: true, outcome: 'SSLv2 SERVER-HELLO', suites: [] },
      ],
      groups: { 'TLSv1.3': [], 'TLSv1.2': [X25519, P256] },
      signatureSchemes: [RSA_PSS_SHA256, RSA_PKCS1_SHA256],
    }));
    expect(grade.verdict).toBe('fail');
    expect(grade.evidence).toEqual([
      'Insufficient: protocol TLSv1.1',
      'Insufficient: protocol TLSv1.0',
      'Insufficient: protocol SSLv3',
      'Insufficient: protocol SSLv2',
      'Insufficient: cipher suite TLS_ECDHE_RSA_WITH_RC4_128_SHA (0xc011)',
      'Insufficient: cipher suite TLS_RSA_WITH_RC4_128_SHA (0x0005)',
      'Insufficient: cipher suite TLS_RSA_WITH_3DES_EDE_CBC_SHA (0x000a)',
    ]);
  });

  test('RC4 chosen under TLS 1.2 in client order: the IANA order of the offer decides; fail', async () => {
    const { result, grade } = await probeFake(profile({
      suites: [ECDHE_RSA_AES_128_GCM, ECDHE_RSA_RC4_SHA, RC4_MD5],
      order: 'client',
      groups: [X25519, P256],
      signatureSchemes: [RSA_PSS_SHA256, RSA_PKCS1_SHA256],
    }));
    expect(result).toEqual(expectedResult({
      protocols: [
        refused('TLSv1.3', 'alert handshake_failure'),
        { protocol: 'TLSv1.2', accepted: true, outcome: 'ServerHello TLSv1.2 TLS_RSA_WITH_RC4_128_MD5', suites: ['TLS_RSA_WITH_RC4_128_MD5', 'TLS_ECDHE_RSA_WITH_RC4_128_SHA', 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256'], preference: 'client' },
        ...OLDER_THAN_TLS12_REFUSED,
      ],
      groups: { 'TLSv1.3': [], 'TLSv1.2': [X25519, P256] },
      signatureSchemes: [RSA_PSS_SHA256, RSA_PKCS1_SHA256],
    }));
    expect(grade.verdict).toBe('fail');
    expect(grade.evidence).toEqual([
      'Insufficient: cipher suite TLS_RSA_WITH_RC4_128_MD5 (0x0004)',
      'Insufficient: cipher suite TLS_ECDHE_RSA_WITH_RC4_128_SHA (0xc011)',
    ]);
  });

  test('DEFLATE accepted when offered: compression true, one Insufficient line; fail', async () => {
    const { result, grade, compressionOffers } = await probeFake(profile({ compression: true }));
    // The prober offers DEFLATE once, in its options probe; the fake compresses only when offered.
    expect(compressionOffers).toBe(1);
    expect(result).toEqual(expectedResult({ compression: true }));
    expect(grade.verdict).toBe('fail');
    expect(grade.evidence).toEqual(['Insufficient: option TLS compression offered']);
  });

  test('no renegotiation_info and no extended_master_secret in the ServerHello: both false; fail', async () => {
    const { result, grade } = await probeFake(profile({ renegotiationInfo: false, extendedMasterSecret: false }));
    // The probes allow servers without RFC 5746 (SSL_OP_LEGACY_SERVER_CONNECT), so Node's handshakes
    // get as far as with every other profile: the fake refuses the client's second flight.
    expect(result).toEqual(expectedResult({ secureRenegotiation: false, extendedMasterSecret: false, notes: handshakeNotes('alert handshake_failure') }));
    expect(grade.verdict).toBe('fail');
    expect(grade.evidence).toEqual([
      'Insufficient: option secure renegotiation (RFC 5746) not supported',
      'Insufficient: option Extended Master Secret (RFC 7627) not supported',
    ]);
  });

  test('a server that always answers the same suite: accepted once, then the prober notes it was not offered', async () => {
    const { result, grade } = await probeFake(profile({ suites: [], alwaysPicks: RSA_AES_128_CBC_SHA }));
    expect(result).toEqual(expectedResult({
      protocols: [
        // The TLS 1.3 probe offers only TLS 1.3 suites; the answer is TLS 1.2, so not an acceptance.
        refused('TLSv1.3', 'ServerHello TLSv1.2 TLS_RSA_WITH_AES_128_CBC_SHA'),
        { protocol: 'TLSv1.2', accepted: true, outcome: 'ServerHello TLSv1.2 TLS_RSA_WITH_AES_128_CBC_SHA', suites: ['TLS_RSA_WITH_AES_128_CBC_SHA'] },
        ...OLDER_THAN_TLS12_REFUSED,
      ],
      groups: { 'TLSv1.3': [], 'TLSv1.2': [] },
      signatureSchemes: [],
      notes: ['TLSv1.2: the server picked suite 0x002f, which was not offered', ...handshakeNotes('alert handshake_failure')],
    }));
    expect(grade.verdict).toBe('fail');
    expect(grade.evidence).toEqual(['Insufficient: cipher suite TLS_RSA_WITH_AES_128_CBC_SHA (0x002f)']);
  });

  test('a server that answers a suite never offered (TLS 1.3 suite in a TLS 1.2 ServerHello): protocol accepted, no suite, a note', async () => {
    const { result, grade } = await probeFake(profile({ suites: [], alwaysPicks: 0x1301 }));
    expect(result).toEqual(expectedResult({
      protocols: [
        refused('TLSv1.3', 'ServerHello TLSv1.2 TLS_AES_128_GCM_SHA256'),
        { protocol: 'TLSv1.2', accepted: true, outcome: 'ServerHello TLSv1.2 TLS_AES_128_GCM_SHA256', suites: [] },
        ...OLDER_THAN_TLS12_REFUSED,
      ],
      groups: { 'TLSv1.3': [], 'TLSv1.2': [] },
      signatureSchemes: [],
      // Node's own client says the same: OpenSSL aborts on a suite it did not offer.
      notes: ['TLSv1.2: the server picked suite 0x1301, which was not offered', ...handshakeNotes('wrong cipher returned')],
    }));
    // No suite is graded: no client could finish such a handshake. TLS 1.2 itself is Sufficient.
    expect(grade).toMatchObject({ verdict: 'pass', evidence: [] });
  });
});
