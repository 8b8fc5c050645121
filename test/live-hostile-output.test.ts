import { FORMATS, render } from '../live/formats.js';
import { secretForms } from '../live/redaction.js';
import type { Report } from '../live/report.js';
import { adrCheck, expectBounded, jsonReport, type JsonReport, type Outcome } from './support/adr-check-process.js';
import { description, servingDescription, startHostile, type HostileServer } from './support/hostile-servers.js';
import { ECHOES, echoingApi, HOSTILE_CHARACTERS, oauthApi, TOKEN } from './support/hostile-output.js';

/**
 * Issue 21, items 10, 12 and 13: what adr-check prints of what hostile servers send. The user's
 * token must not come back in any encoding a server can trivially apply, nor in part where a text
 * is cut; every format must escape or drop what would break it or the screen it is read on; and a
 * report must be written, of bounded size, whatever the size of the strings it holds.
 */
const servers: HostileServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

async function hostile(handler: Parameters<typeof startHostile>[0]): Promise<HostileServer> {
  const server = await startHostile(handler);
  servers.push(server);
  return server;
}

const WITH_TOKEN = ['--header', `Authorization: Bearer ${TOKEN}`];

/** Characters a JSON text must not hold raw: DEL, C1, bidi controls and isolates, line separators, noncharacters. */
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff]/;

/** What XML 1.0 cannot hold: C0 controls but tab, LF and CR; U+FFFE, U+FFFF; lone surrogates. */
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Characters a terminal acts on, or that reorder what is read. */
const UNSAFE_ON_SCREEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff]/;

test('the token echoed in part at the excerpt cut, percent-encoded byte by byte, in base64 and base64url, and \\u-escaped: never in the report', async () => {
  const server = await hostile(echoingApi());
  const outcome = await adrCheck(server.baseUrl, ['--format', 'json', ...WITH_TOKEN]);
  expectBounded(outcome);
  const report = jsonReport(outcome);
  const excerpts = report.results.flatMap((result) => result.evidence).filter((evidence) => evidence.bodyExcerpt !== undefined);
  // Every echoing path was fetched with the token and its 500 is evidence with the body: the leaks had their chance.
  expect(excerpts.map((evidence) => new URL(evidence.url).pathname)).toEqual(expect.arrayContaining(Object.keys(ECHOES).map((path) => `/v1${path}`)));
  for (const [path, echo] of Object.entries(ECHOES)) {
    for (const leak of echo.leaks(TOKEN)) expect({ path, found: outcome.stdout.includes(leak) }).toEqual({ path, found: false });
  }
  const straddle = excerpts.find((evidence) => evidence.url.endsWith('/straddle'));
  expect(straddle?.bodyExcerpt).toBe(`${'x'.repeat(280)}[REDACTED] and more`);
  expect(outcome.stdout).not.toContain(TOKEN.slice(0, 8));
}, 60000);

/** An API whose authorization server metadata (on its own origin) names endpoints full of characters that break text. */
async function metadataWithHostileCharacters(): Promise<HostileServer> {
  return hostile(oauthApi({
    schemes: { oidc: { type: 'openIdConnect', openIdConnectUrl: '/.well-known/openid-configuration' } },
    answers: {
      '/.well-known/openid-configuration': (_request, response, server) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        issuer: server.origin, token_endpoint: `http://x/${HOSTILE_CHARACTERS}`, response_types_supported: ['code'], code_challenge_methods_supported: ['S256'], token_endpoint_auth_methods_supported: ['private_key_jwt'],
      })),
    },
  }));
}

/** adr-check's report in `format` of the API above, within its deadline. */
async function hostileCharactersIn(format: string): Promise<Outcome> {
  const server = await metadataWithHostileCharacters();
  const outcome = await adrCheck(server.baseUrl, ['--format', format]);
  expectBounded(outcome);
  return outcome;
}

const hostileDetail = `has token_endpoint http://x/${HOSTILE_CHARACTERS}, expected an https URL`;

test('JSON: what breaks text is \\u-escaped, and reads back as what the server sent', async () => {
  const outcome = await hostileCharactersIn('json');
  expect(outcome.stdout).not.toMatch(RAW_IN_JSON);
  expect(outcome.stdout).toContain('http://x/\\u009b\\u0085\\u007f\\u202e\\u2066\\u2028\\uffff');
  const flows = jsonReport(outcome).results.find((result) => result.code === 'nlgov:oauth-flows');
  expect(flows?.details).toContain(hostileDetail);
}, 60000);

test('SARIF: the same escapes, and still valid JSON', async () => {
  const outcome = await hostileCharactersIn('sarif');
  expect(outcome.stdout).not.toMatch(RAW_IN_JSON);
  const log = JSON.parse(outcome.stdout) as { runs: Array<{ results: Array<{ ruleId: string; message: { text: string } }> }> };
  expect(log.runs[0]?.results.find((result) => result.ruleId === 'nlgov:oauth-flows')?.message.text).toContain(hostileDetail);
}, 60000);

test('JUnit: well-formed XML 1.0, the characters it cannot hold shown as escapes', async () => {
  const outcome = await hostileCharactersIn('junit');
  expect(outcome.stdout).not.toMatch(NOT_XML);
  expect(outcome.stdout).not.toMatch(UNSAFE_ON_SCREEN);
  expect(outcome.stdout).toContain('has token_endpoint http://x/\\x9b\\x85\\x7f\\u202e\\u2066\\u2028\\uffff, expected an https URL');
}, 60000);

test('paths of 100,000 characters: every string of the report is cut, the report stays small', async () => {
  const long = (index: number) => `/${String(index).padStart(3, '0')}${'a'.repeat(100_000)}/`;
  const paths = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [long(index), { get: { responses: { 200: { description: 'ok' } } } }]));
  const server = await hostile(servingDescription(JSON.stringify(description({ paths }))));
  // The description is 2 MB: read whole (the harness's --max-body is 100 KB; the last value counts).
  const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--max-body', '3000000'], { deadline: 10 });
  expectBounded(outcome, 10);
  expect(outcome.stdout.length).toBeLessThan(1_000_000);
  const report: JsonReport = jsonReport(outcome);
  const strings = JSON.stringify(report).match(/"(?:[^"\\]|\\.)*"/g) ?? [];
  expect(Math.max(...strings.map((text) => text.length))).toBeLessThan(2100);
  const methods = report.results.find((result) => result.code === '/core/http-methods');
  expect(methods?.details).toContainEqual(expect.stringMatching(/^GET \/v1\/\d{3}a{1989}… \(cut at 2000 of \d+ characters\)$/));
}, 60000);

/** A report as a hostile server can make it: strings with every kind of trouble, the token in encodings, huge findings. */
function hostileReport(pathLength: number, findings: number): Report {
  const path = `paths./${'p'.repeat(pathLength)}`;
  const trouble = `${HOSTILE_CHARACTERS}\u0000\u001b[2J\ud800<script>alert(1)</script>&"' ${TOKEN} ${Buffer.from(TOKEN).toString('base64url')}`;
  return {
    tool: { name: 'nlgov-adr', version: '0.0.0', ruleset: 'nlgov-adr 0.0.0' },
    target: 'http://127.0.0.1:1/v1',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    requests: 1,
    results: [{
      code: '/core/http-methods', verdict: 'fail', summary: trouble, details: [trouble, path, ...Array<string>(5000).fill(`${'d'.repeat(3000)} ${TOKEN}`)],
      evidence: [{ method: 'GET', url: `http://127.0.0.1:1/v1/${trouble}`, requestHeaders: { authorization: `Bearer ${TOKEN}` }, status: 500, headers: { [trouble]: trouble }, bodyExcerpt: `${'x'.repeat(290)}${TOKEN}` }],
    }],
    staticFindings: Array.from({ length: findings }, (_, index) => ({ code: '/core/no-trailing-slash', severity: 'error' as const, path, message: `${trouble} ${index}`, line: index })),
    lint: { status: 'done', omitted: 0, durationMs: 1 },
    notices: [trouble],
  };
}

test.each([...FORMATS])('%s: 5,000 details of 3,000 characters and 1,001 findings with a 560,000-character path give a bounded, safe report without the token', (format) => {
  const output = render(hostileReport(560_000, 1001), format, { colour: false, verbose: true, secrets: secretForms([`Bearer ${TOKEN}`]) });
  expect(output.length).toBeLessThan(10_000_000);
  expect(output).not.toContain(TOKEN.slice(0, 8));
  expect(output).not.toContain(Buffer.from(TOKEN).toString('base64url').slice(0, 12));
  if (format === 'json' || format === 'sarif') {
    expect(output).not.toMatch(RAW_IN_JSON);
    expect(() => JSON.parse(output)).not.toThrow();
  } else {
    expect(output).not.toMatch(UNSAFE_ON_SCREEN);
    expect(output).not.toMatch(NOT_XML);
  }
  if (format === 'json') {
    const report = JSON.parse(output) as Report;
    expect(report.staticFindings.length + report.lint.omitted).toBe(1001);
    expect(report.notices).toContainEqual(expect.stringMatching(/^the report's size is bounded: \d+ details and pieces of evidence and \d+ static findings left out$/));
    expect(report.results[0]?.details.at(-1)).toMatch(/^\(\d+ more details left out: the report's size is bounded\)$/);
    expect(report.results[0]?.evidence[0]?.bodyExcerpt).toBe(`${'x'.repeat(290)}[REDACTED]`);
  }
  if (format === 'html' || format === 'junit') expect(output).not.toContain('<script>');
});
