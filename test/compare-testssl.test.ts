import { compare, parseTestssl, type Enumeration } from '../tools/compare-testssl.js';

const TESTSSL_JSON = [
  { id: 'SSLv3', finding: 'not offered' },
  { id: 'TLS1_2', finding: 'offered' },
  { id: 'TLS1_3', finding: 'offered with final' },
  { id: 'cipher-tls1_2_xc030', finding: 'TLS 1.2 xc030 ECDHE-RSA-AES256-GCM-SHA384' },
  { id: 'cipher-tls1_3_x1301', finding: 'TLS 1.3 x1301 TLS_AES_128_GCM_SHA256' },
  { id: 'cipher_order', finding: 'server' },
];

test('testssl.sh JSON gives protocols offered and suites per protocol by code point', () => {
  const parsed = parseTestssl(TESTSSL_JSON, 12);
  expect([...parsed.protocols]).toEqual(['TLSv1.2', 'TLSv1.3']);
  expect([...parsed.suites.entries()].map(([protocol, suites]) => [protocol, [...suites]])).toEqual([['TLSv1.2', [0xc030]], ['TLSv1.3', [0x1301]]]);
});

test('agreement and each disagreement are counted, the suite named by IANA', () => {
  const theirs = parseTestssl(TESTSSL_JSON, 12);
  const same: Enumeration = { protocols: new Set(theirs.protocols), suites: new Map(theirs.suites), seconds: 0.1 };
  expect(compare(same, theirs).disagreements).toBe(0);
  const missing: Enumeration = { protocols: new Set(['TLSv1.3']), suites: new Map([['TLSv1.3', new Set([0x1301, 0x1302])]]), seconds: 0.1 };
  const result = compare(missing, theirs);
  expect(result.disagreements).toBe(3);
  expect(result.lines).toContain('    x    TLS_AES_256_GCM_SHA384   <- DIFFERS');
});
