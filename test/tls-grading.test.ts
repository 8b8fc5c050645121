import { CIPHER_SUITE_CLASSES, FFDHE_PRIMES, GROUPS, PROTOCOLS, gradeCertificateKey, gradeCertificateSignature, gradeDhPrime, gradeFindings, gradeSignatureScheme, gradeSuite, type TlsFindings } from '../live/tls/grading.js';
import { IANA_CIPHER_SUITES } from '../live/tls/suites.js';

/** The grading tables against TLS-GUIDELINES.md, and the verdict rule: fail on Insufficient, warn on Phase out. */
const CLEAN: TlsFindings = {
  protocols: ['TLSv1.3', 'TLSv1.2'],
  suites: [0x1302, 0x1303, 0xc030],
  groups: [0x001d, 0x0018],
  dhGroups: [],
  signatureSchemes: [0x0804, 0x0401],
  certificates: [{ subject: 'CN=api.example.nl', key: { type: 'ec', curve: 'prime256v1' }, signatureAlgorithm: 'ecdsa-with-SHA256' }],
  compression: false,
  secureRenegotiation: true,
  extendedMasterSecret: true,
};

/** RFC 7919 ffdhe2048 as OpenSSL 3 emits it (`openssl genpkey -genparam -algorithm DH -pkeyopt group:ffdhe2048`). */
const FFDHE2048_DER_BASE64 =
  'MIIBCAKCAQEA//////////+t+FRYortKmq/cViAnPTzx2LnFg84tNpWp4TZBFGQz+8yTnc4kmz75fS/jY2MMddj2gbICrsRhetPfHtXV/WVhJDP1H18GbtCFY2VVPe0a87VXE15/V8k1mE8McODmi3fipona8+/och3xWKE2rec1MKzKT0g6eXq8CrGCsyT7YdEIqUuyyOP7uWrat2DX9GgdT0Kj3jlN9K5W7edjcrsZCwenyO4KbXCeAvzhzffi7MA0BM0oNC9hkXL+nOmFg/+OTxIy7vKBg8P+OxtMb61zO7X8vC7CIAXFjvGDfRaDssbzSibBsu/6iGtCOGEoXJf//////////wIBAg==';

test('the suite table has the guideline counts and IANA names for every code point', () => {
  const count = (klass: string) => CIPHER_SUITE_CLASSES.filter((suite) => suite.class === klass).length;
  expect([count('good'), count('sufficient'), count('phase-out')]).toEqual([2, 2 + 8, 35]);
  for (const suite of CIPHER_SUITE_CLASSES) expect([suite.code, IANA_CIPHER_SUITES.get(suite.code)]).toEqual([suite.code, suite.name]);
  expect(new Set(CIPHER_SUITE_CLASSES.map((suite) => suite.code)).size).toBe(CIPHER_SUITE_CLASSES.length);
});

test('everything unlisted is Insufficient: SHA-1 CBC, RSA key exchange, 3DES, RC4, CCM_8, NULL', () => {
  for (const code of [0xc013, 0x002f, 0x009c, 0x000a, 0x0005, 0xc0ae, 0x1305, 0x0000, 0xc018]) expect(gradeSuite(code)).toBe('insufficient');
  expect(gradeSuite(0xc027)).toBe('phase-out');
  expect(gradeSuite(0x1302)).toBe('good');
});

test('protocols, groups, signature hashes and certificate keys as the guideline classes them', () => {
  expect(PROTOCOLS.map((protocol) => `${protocol.name}:${protocol.class}`)).toEqual(['TLSv1.3:good', 'TLSv1.2:sufficient', 'TLSv1.1:insufficient', 'TLSv1.0:insufficient', 'SSLv3:insufficient', 'SSLv2:insufficient']);
  const classOf = (name: string) => GROUPS.find((group) => group.name === name)?.class;
  expect(['x25519', 'x448', 'secp256r1', 'secp384r1', 'secp521r1', 'brainpoolP256r1'].map(classOf)).toEqual(Array(6).fill('sufficient'));
  expect(['secp224r1', 'ffdhe3072', 'ffdhe8192'].map(classOf)).toEqual(Array(3).fill('phase-out'));
  expect(['ffdhe2048', 'secp192r1', 'sect571r1', 'secp256k1'].map(classOf)).toEqual(Array(4).fill('insufficient'));
  expect([0x0403, 0x0804, 0x0601, 0x0301, 0x0201, 0x0203, 0x0101].map(gradeSignatureScheme)).toEqual(['good', 'good', 'good', 'phase-out', 'insufficient', 'insufficient', 'insufficient']);
  expect([4096, 3072, 3071, 2048, 1024].map((bits) => gradeCertificateKey({ type: 'rsa', bits }))).toEqual(['sufficient', 'sufficient', 'phase-out', 'phase-out', 'insufficient']);
  expect([gradeCertificateKey({ type: 'ec', curve: 'prime256v1' }), gradeCertificateKey({ type: 'ec', curve: 'secp224r1' }), gradeCertificateKey({ type: 'ec', curve: 'secp256k1' }), gradeCertificateKey({ type: 'ed25519' })]).toEqual(['sufficient', 'phase-out', 'insufficient', 'good']);
  expect(['sha256WithRSAEncryption', 'ecdsa-with-SHA384', 'Ed25519', 'sha224WithRSAEncryption', 'sha1WithRSAEncryption', 'md5WithRSAEncryption'].map(gradeCertificateSignature)).toEqual(['sufficient', 'sufficient', 'sufficient', 'phase-out', 'insufficient', 'insufficient']);
});

test('RFC 7919 primes computed from their definition match OpenSSL; any other prime or generator is Insufficient', () => {
  const der = Buffer.from(FFDHE2048_DER_BASE64, 'base64');
  // SEQUENCE (82 0108) { INTEGER (82 0101) 00 p..., INTEGER 2 }
  const prime = der.subarray(9, 9 + 256).toString('hex');
  expect(FFDHE_PRIMES.get(prime)).toBe('ffdhe2048');
  expect(gradeDhPrime(prime, '02')).toEqual({ name: 'ffdhe2048', class: 'insufficient' });
  expect(gradeDhPrime(prime, '05')).toEqual({ name: 'DH 2048-bit custom group', class: 'insufficient' });
  const [ffdhe3072] = [...FFDHE_PRIMES].filter(([, name]) => name === 'ffdhe3072').map(([hex]) => hex);
  expect(gradeDhPrime(`00${ffdhe3072 ?? ''}`, '0002')).toEqual({ name: 'ffdhe3072', class: 'phase-out' });
  expect([...FFDHE_PRIMES.keys()].map((hex) => hex.length * 4)).toEqual([2048, 3072, 4096, 6144, 8192]);
});

test('verdict: pass when everything is Good or Sufficient', () => {
  const grade = gradeFindings(CLEAN, IANA_CIPHER_SUITES);
  expect(grade.verdict).toBe('pass');
  expect(grade.evidence).toEqual([]);
});

test('verdict: warn on Phase out, naming each item and its class', () => {
  const grade = gradeFindings({ ...CLEAN, suites: [...CLEAN.suites, 0xc028], groups: [...CLEAN.groups, 0x0101], prefersStrongSuites: false }, IANA_CIPHER_SUITES);
  expect(grade.verdict).toBe('warn');
  expect(grade.evidence).toEqual([
    'Phase out: cipher suite TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384 (0xc028)',
    'Phase out: key exchange group ffdhe3072',
    'Phase out: option server picks a Phase out suite over a Sufficient one offered',
  ]);
});

test('verdict: fail on anything Insufficient, Insufficient items listed before Phase out ones', () => {
  const grade = gradeFindings(
    {
      ...CLEAN,
      protocols: [...CLEAN.protocols, 'TLSv1.0'],
      suites: [...CLEAN.suites, 0xc027, 0x002f, 0x9999],
      signatureSchemes: [0x0201],
      dhGroups: [{ primeHex: 'ffff', generatorHex: '02' }],
      certificates: [{ subject: 'CN=x', key: { type: 'rsa', bits: 2048 }, signatureAlgorithm: 'sha1WithRSAEncryption' }],
      compression: true,
      extendedMasterSecret: false,
    },
    IANA_CIPHER_SUITES,
  );
  expect(grade.verdict).toBe('fail');
  expect(grade.evidence).toEqual([
    'Insufficient: protocol TLSv1.0',
    'Insufficient: cipher suite TLS_RSA_WITH_AES_128_CBC_SHA (0x002f)',
    'Insufficient: cipher suite unassigned suite 0x9999 (0x9999)',
    'Insufficient: key exchange group DHE DH 16-bit custom group',
    'Insufficient: signature hash rsa_pkcs1_sha1',
    'Insufficient: certificate CN=x: signed with sha1WithRSAEncryption',
    'Insufficient: option TLS compression offered',
    'Insufficient: option Extended Master Secret (RFC 7627) not supported',
    'Phase out: cipher suite TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256 (0xc027)',
    'Phase out: certificate CN=x: RSA 2048 bits',
  ]);
});

test('every registry name is whole: the anonymous suites keep their "anon" (they were once cut off at it)', () => {
  const cut = [...IANA_CIPHER_SUITES.values()].filter((name) => !/^(OLD_)?TLS_[A-Za-z0-9_]*[A-Za-z0-9]$/.test(name));
  expect(cut).toEqual([]);
  expect([0x0034, 0xc015, 0xc085].map((code) => IANA_CIPHER_SUITES.get(code))).toEqual(['TLS_DH_anon_WITH_AES_128_CBC_SHA', 'TLS_ECDH_anon_WITH_NULL_SHA', 'TLS_DH_anon_WITH_CAMELLIA_256_GCM_SHA384']);
});
