import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { adrCheck, expectBounded, jsonReport, type Outcome } from './support/adr-check-process.js';
import { makeLab, startLabServer, type Declaration } from './support/hostile-signing.js';

/**
 * The signing lab (issue 23): signatures made by OpenSSL alone (test/fixtures/signing/make-lab.sh),
 * never by jose, served on loopback; adr-check run as a user runs it. Each case's verdict, and the
 * sentence it rests on, is in docs/live/tested-implementations.md ("Signing"); the test holds the
 * page to the same verdicts.
 */

interface LabCase {
  name: string;
  header: 'Payload-Signature' | 'Message-Signature';
  /** The <case>.headers file served; none: the response is unsigned. */
  headers?: string;
  declaration?: Declaration;
  /** Extra arguments, with files of the lab folder named `@file`. */
  args?: string[];
  verdict: 'pass' | 'warn' | 'fail' | 'error';
  /** The detail that carries the verdict (pass: the trust note, where there is one). */
  detail?: RegExp;
}

const CA = ['--signing-ca', '@root.pem'];
const PAYLOAD = 'Payload-Signature';

const CASES: LabCase[] = [
  { name: 'conformant', header: PAYLOAD, headers: 'conformant.headers', args: CA, verdict: 'pass', detail: /^x5c: CN=nlgov-adr lab signer, issued by CN=nlgov-adr lab root, valid until .+; issued under the --signing-ca CN=nlgov-adr lab root$/ },
  { name: 'sigt-critical', header: PAYLOAD, headers: 'sigt-critical.headers', args: CA, verdict: 'pass', detail: /issued under the --signing-ca CN=nlgov-adr lab root$/ },
  { name: 'unknown-critical', header: PAYLOAD, headers: 'unknown-critical.headers', args: CA, verdict: 'fail', detail: /^GET \/v1\/monument: Payload-Signature has crit \["b64","sigD","exp"\], naming "exp", which neither JAdES \(ETSI TS 119 182-1 clause 5\.2\) nor RFC 7797 defines: a verifier must reject a JWS whose crit names a parameter it does not understand \(RFC 7515 section 4\.1\.11\)$/ },
  { name: 'via-intermediate', header: PAYLOAD, headers: 'via-intermediate.headers', args: CA, verdict: 'pass', detail: /issued by CN=nlgov-adr lab intermediate, valid until .+; issued under the --signing-ca CN=nlgov-adr lab root$/ },
  { name: 'intermediate-in-ca-file', header: PAYLOAD, headers: 'signer-alone.headers', args: ['--signing-ca', '@ca-chain.pem'], verdict: 'pass', detail: /issued by CN=nlgov-adr lab intermediate, valid until .+; issued under the --signing-ca CN=nlgov-adr lab intermediate \(certificate 2 of 2 in the file\)$/ },
  { name: 'ca-bundle', header: PAYLOAD, headers: 'conformant.headers', args: ['--signing-ca', '@bundle.pem'], verdict: 'pass', detail: /; issued under the --signing-ca CN=nlgov-adr lab root \(certificate 2 of 2 in the file\)$/ },
  { name: 'other-ca-same-name', header: PAYLOAD, headers: 'conformant.headers', args: ['--signing-ca', '@other-root.pem'], verdict: 'fail', detail: /^GET \/v1\/monument: x5c: CN=nlgov-adr lab signer, issued by CN=nlgov-adr lab root, valid until .+; NOT issued under the --signing-ca CN=nlgov-adr lab root \(no path from x5c to a certificate of that file: .+\)$/ },
  { name: 'expired', header: PAYLOAD, headers: 'expired.headers', verdict: 'fail', detail: /^GET \/v1\/monument: the signing certificate CN=nlgov-adr lab signer \(x5c\) expired on Jan {2}1 00:00:00 2021 GMT: a signature made with it today does not count \(RFC 5280 section 6\.1\.3\)\. Sign with a certificate valid today$/ },
  { name: 'expired-with-ca', header: PAYLOAD, headers: 'expired.headers', args: CA, verdict: 'fail', detail: /^GET \/v1\/monument: the signing certificate CN=nlgov-adr lab signer \(x5c\) expired on Jan {2}1 00:00:00 2021 GMT/ },
  { name: 'expired-intermediate', header: PAYLOAD, headers: 'via-expired-intermediate.headers', args: CA, verdict: 'fail', detail: /^GET \/v1\/monument: x5c: CN=nlgov-adr lab signer, issued by CN=nlgov-adr lab intermediate, valid until .+; the path to the --signing-ca goes through CN=nlgov-adr lab intermediate, which expired on Jan {2}1 00:00:00 2021 GMT: the signature does not count until that certificate is renewed$/ },
  { name: 'no-x5c', header: PAYLOAD, headers: 'no-x5c.headers', verdict: 'error', detail: /^GET \/v1\/monument: Payload-Signature is not verified: its header carries no x5c certificate and no --signing-jwks was given\. SPEC\.md does not require x5c: give the signer's public key as a JWK Set, adr-check --signing-jwks <file>$/ },
  { name: 'no-x5c-jwks', header: PAYLOAD, headers: 'no-x5c.headers', args: ['--signing-jwks', '@jwks.json'], verdict: 'pass', detail: /^verified with the --signing-jwks key; no x5c, so no certificate judged$/ },
  { name: 'sha-512', header: PAYLOAD, headers: 'sha-512.headers', args: CA, verdict: 'pass' },
  { name: 'several-digests', header: PAYLOAD, headers: 'several-digests.headers', args: CA, verdict: 'pass' },
  { name: 'sha-512-wrong', header: PAYLOAD, headers: 'sha-512-wrong.headers', args: CA, verdict: 'fail', detail: /^GET \/v1\/monument has Digest: SHA-512=[A-Za-z0-9+/]{43}=, expected SHA-512=[A-Za-z0-9+/]{86}== \(the body's\)$/ },
  { name: 'one-digest-wrong', header: PAYLOAD, headers: 'one-digest-wrong.headers', args: CA, verdict: 'fail', detail: /^GET \/v1\/monument has Digest: SHA-512=[A-Za-z0-9+/]{43}=, expected SHA-512=[A-Za-z0-9+/]{86}== \(the body's\)$/ },
  { name: 'message-digest-only', header: 'Message-Signature', headers: 'message-digest-only.headers', args: CA, verdict: 'fail', detail: /^GET \/v1\/monument: Message-Signature has sigD\.pars \["digest"\], which leaves out content-type, content-length that the response carries: the module signs each of \(request-target\), host, origin, content-encoding, content-type, content-length that is present, and digest$/ },
  { name: 'message-content-headers', header: 'Message-Signature', headers: 'message-content-headers.headers', args: CA, verdict: 'pass' },
  { name: 'message-pars-number', header: 'Message-Signature', headers: 'message-pars-number.headers', args: CA, verdict: 'fail', detail: /^GET \/v1\/monument: Message-Signature signs 5, which the response lacks$/ },
  { name: 'declared-unsigned', header: PAYLOAD, verdict: 'warn', detail: /^GET \/v1\/monument lacks Payload-Signature, which the description declares \(not required\) for its 200: sign the response/ },
  { name: 'required-unsigned', header: PAYLOAD, declaration: 'required', verdict: 'fail', detail: /^GET \/v1\/monument lacks Payload-Signature, which the description declares required: true for its 200$/ },
  { name: 'ref-declared-unsigned', header: PAYLOAD, declaration: 'ref-declared', verdict: 'warn', detail: /^GET \/v1\/monument lacks Payload-Signature, which the description declares \(not required\) for its 200/ },
  { name: 'ref-required-unsigned', header: PAYLOAD, declaration: 'ref-required', verdict: 'fail', detail: /^GET \/v1\/monument lacks Payload-Signature, which the description declares required: true for its 200$/ },
];

let lab: string;
const outcomes = new Map<string, Outcome>();

async function runCase(labCase: LabCase): Promise<void> {
  const server = await startLabServer(lab, labCase.header, labCase.declaration ?? 'declared', labCase.headers);
  try {
    const args = (labCase.args ?? []).map((arg) => (arg.startsWith('@') ? join(lab, arg.slice(1)) : arg));
    outcomes.set(labCase.name, await adrCheck(server.baseUrl, ['--format', 'json', ...args], { deadline: 20 }));
  } finally {
    await server.close();
  }
}

beforeAll(async () => {
  lab = makeLab();
  // Two at a time: the machine's two cores also run the static lint of each.
  const queue = [...CASES];
  await Promise.all([0, 1].map(async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) await runCase(next);
  }));
}, 300000);

afterAll(() => rmSync(lab, { recursive: true, force: true }));

test.each(CASES.map((labCase) => [labCase.name, labCase]))('%s', (_name, labCase) => {
  const outcome = outcomes.get(labCase.name) as Outcome;
  expectBounded(outcome, 20);
  const code = labCase.header === PAYLOAD ? '/signing/payload' : '/signing/message';
  const results = jsonReport(outcome).results.filter((result) => result.code.startsWith('/signing/'));
  expect(results.map((result) => result.code)).toEqual([code]);
  const [result] = results;
  expect(result?.verdict).toBe(labCase.verdict);
  if (labCase.detail !== undefined) expect(result?.details).toContainEqual(expect.stringMatching(labCase.detail));
  if (labCase.verdict === 'pass') expect(result?.summary).toBe(`1 response with one ${labCase.header} (PS256, JAdES HTTP headers over ${labCase.header === PAYLOAD ? 'digest' : 'the message headers'}) that verifies, and a matching Digest`);
});

test('docs/live/tested-implementations.md lists each signing case with its verdict', () => {
  const page = readFileSync('docs/live/tested-implementations.md', 'utf8');
  const section = page.slice(page.indexOf('## Signing'));
  const rows = section.slice(0, section.indexOf('\n## ', 1) < 0 ? undefined : section.indexOf('\n## ', 1)).split('\n')
    .map((line) => /^\| `([a-z0-9-]+)` \|.*\| \*\*(pass|warn|fail|error)\*\* \|/.exec(line)).filter((match) => match !== null)
    .map((match) => [match[1], match[2]]);
  expect(rows).toEqual(CASES.map((labCase) => [labCase.name, labCase.verdict]));
});
