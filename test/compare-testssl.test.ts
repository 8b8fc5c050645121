import { compare, parseTestssl, summaryTable, type Enumeration } from '../tools/compare-testssl.js';

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

test('the --profiles summary: agreement, both times and the ratio per profile', () => {
  expect(summaryTable([
    { label: 'nginx modern', disagreements: 0, oursSeconds: 0.25, testsslSeconds: 20.5 },
    { label: 'nginx legacy', disagreements: 2, oursSeconds: 0.1, testsslSeconds: 27 },
  ])).toEqual([
    '| profile | agree | prober | testssl.sh | ratio |',
    '| --- | --- | --- | --- | --- |',
    '| nginx modern | yes | 0.25 s | 20.5 s | 82x |',
    '| nginx legacy | no (2) | 0.10 s | 27.0 s | 270x |',
  ]);
});
