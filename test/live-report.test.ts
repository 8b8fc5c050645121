import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startReferenceApi, type ReferenceApi } from '../examples/reference-api/server.js';
import { main } from '../live/main.js';
import { FORMATS } from '../live/formats.js';

/** Every output format, through the command's own entry point, with credentials that must never show. */
const SECRET_HEADER = 'Bearer header-secret-7f3a';
const SECRET_TOKEN = 'env-token-91c2';
let api: ReferenceApi;
let folder: string;

beforeAll(async () => {
  api = await startReferenceApi({ httpPort: 0, breaks: ['no-hsts'] });
  folder = mkdtempSync(join(tmpdir(), 'adr-check-report-'));
  writeFileSync(join(folder, 'ca.pem'), api.caPem);
});

afterAll(async () => {
  await api.close();
  rmSync(folder, { recursive: true, force: true });
});

async function report(format: string, extra: string[] = []): Promise<{ code: number; text: string }> {
  const output = join(folder, `report.${format}`);
  // The ruleset is given: which one a run chooses by itself is test/user-ruleset.test.ts's subject.
  const args = [api.baseUrl, '--ruleset', 'nlgov-adr', '--ca', join(folder, 'ca.pem'), '--format', format, '--output', output, '--header', `Authorization: ${SECRET_HEADER}`, '--plain-http-port', new URL(api.httpOrigin as string).port, ...extra];
  const code = await main(args, { ADR_CHECK_TOKEN: SECRET_TOKEN });
  return { code, text: readFileSync(output, 'utf8') };
}

test.each([...FORMATS])('%s: the security-header warning is reported and no credential appears', async (format) => {
  const { code, text } = await report(format);
  expect(code).toBe(0);
  expect(text).not.toContain('header-secret-7f3a');
  expect(text).not.toContain(SECRET_TOKEN);
  expect(text).toContain('/core/transport/security-headers');
  if (format === 'json') expect(JSON.parse(text).results.find((result: { code: string }) => result.code === '/core/transport/security-headers').verdict).toBe('warn');
  if (format === 'sarif') expect(JSON.parse(text).runs[0].results.map((result: { ruleId: string; level: string }) => [result.ruleId, result.level])).toEqual([['/core/transport/security-headers', 'warning']]);
  if (format === 'junit') expect(text).toMatch(/<testsuite name="adr-check [^"]+" tests="18" failures="0" errors="0" skipped="2"/);
  if (format === 'github-actions') expect(text.trim()).toMatch(/^::notice title=adr-check::https:\/\/127\.0\.0\.1:\d+\/v1 checked by nlgov-adr \d+\.\d+\.\d+ \(ruleset [^\n]+\)\n::warning title=\/core\/transport\/security-headers::security headers missing or wrong on \d+ of \d+ requests lacks Strict-Transport-Security/);
  if (format === 'text') expect(text).toMatch(/WARN\s+\/core\/transport\/security-headers/);
  if (format === 'html') expect(text).toMatch(/<tr data-code="\/core\/transport\/security-headers">.*?<td class="verdict" data-meaning="neutral">—<\/td><td class="verdict" data-meaning="warn">warn<\/td><td class="verdict" data-meaning="warn">warn<\/td><\/tr>/);
  const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  const named: Record<string, (report: string) => unknown> = {
    json: (report) => JSON.parse(report).tool,
    sarif: (report) => JSON.parse(report).runs[0].tool.driver.version,
    junit: (report) => /<property name="nlgov-adr" value="([^"]+)"\/><property name="ruleset" value="([^"]+)"\/>/.exec(report)?.slice(1),
    text: (report) => /^adr-check \S+ \(nlgov-adr (\S+), ruleset (.+)\)$/m.exec(report)?.slice(1),
    'github-actions': (report) => /checked by nlgov-adr (\S+) \(ruleset (.+)\)$/m.exec(report)?.slice(1),
    html: (report) => /nlgov-adr (\S+) \(ruleset ([^)]+)\)/.exec(report)?.slice(1),
  };
  const ruleset = `nlgov-adr ${version}`;
  const expected: Record<string, unknown> = { json: { name: 'nlgov-adr', version, ruleset }, sarif: version };
  expect(named[format]?.(text)).toEqual(expected[format] ?? [version, ruleset]);
}, 60000);

test('--fail-on warn turns the warning into exit 1; the JSON report redacts the credentials it sent', async () => {
  const { code, text } = await report('json', ['--fail-on', 'warn']);
  expect(code).toBe(1);
  expect(text).toContain('[REDACTED]');
});

test('--insecure says so and marks the TLS check as not done', async () => {
  const { text } = await report('text', ['--insecure']);
  expect(text).toContain('! --insecure: certificates are NOT verified; /core/transport/tls is not done');
  expect(text).toMatch(/SKIP\s+\/core\/transport\/tls\s+not done: --insecure skips certificate checks/);
});

test('a certificate that does not verify: one-line error, exit 2', async () => {
  const stderr: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => { stderr.push(chunk); return true; }) as typeof process.stderr.write;
  try {
    expect(await main([api.baseUrl])).toBe(2);
  } finally {
    process.stderr.write = write;
  }
  expect(stderr.join('')).toMatch(/^adr-check: certificate of 127\.0\.0\.1:\d+ does not verify: .+\. Give its CA with --ca, or --insecure to skip the check\n$/);
});

test('the TLS check carries the full enumeration as tables: structured in JSON, aligned in text', async () => {
  const json = JSON.parse((await report('json')).text) as { results: Array<{ code: string; tables?: Array<{ id: string; title: string; columns: string[]; rows: string[][] }> }> };
  const tables = json.results.find((result) => result.code === '/core/transport/tls')?.tables ?? [];
  expect(tables.map((table) => table.id)).toEqual(['protocols', 'suites-TLSv1.3', 'suites-TLSv1.2', 'groups', 'signatures', 'certificates', 'options']);
  expect(tables[1]?.title).toBe('TLSv1.3 cipher suites (server order)');
  expect(tables[0]?.columns).toEqual(['protocol', 'accepted', 'class', 'suite order', 'first probe']);
  expect(tables[0]?.rows.map((row) => row.slice(0, 4))).toEqual([
    ['TLSv1.3', 'accepted', 'Good', 'server order'],
    ['TLSv1.2', 'accepted', 'Sufficient', 'server order'],
    ['TLSv1.1', 'not accepted', '', ''],
    ['TLSv1.0', 'not accepted', '', ''],
    ['SSLv3', 'not accepted', '', ''],
    ['SSLv2', 'not accepted', '', ''],
  ]);
  expect(tables[1]?.rows).toEqual([
    ['TLS_AES_256_GCM_SHA384', '0x1302', 'Good'],
    ['TLS_CHACHA20_POLY1305_SHA256', '0x1303', 'Good'],
    ['TLS_AES_128_GCM_SHA256', '0x1301', 'Sufficient'],
  ]);
  expect(tables[5]?.title).toMatch(/: verified for the host name; leaf valid until \d{4}-/);
  expect(tables[6]?.rows).toEqual([
    ['no TLS compression', 'Good'],
    ['secure renegotiation supported', 'Good'],
    ['Extended Master Secret used', 'Good'],
    ['client-initiated renegotiation refused', 'Good'],
    ['no OCSP response stapled (optional)', 'Good'],
    ['no 0-RTT early data', 'Good'],
  ]);
  const brief = (await report('text')).text;
  expect(brief).toMatch(/^PASS {2}\/core\/transport\/tls .+\n {8}\(--verbose shows the 7 tables of the enumeration\)$/m);
  expect(brief).not.toContain('TLSv1.3 cipher suites (server order)');
  const text = (await report('text', ['--verbose'])).text;
  expect(text).toContain([
    '        TLSv1.3 cipher suites (server order)',
    '          cipher suite                  code point  class',
    '          TLS_AES_256_GCM_SHA384        0x1302      Good',
    '          TLS_CHACHA20_POLY1305_SHA256  0x1303      Good',
    '          TLS_AES_128_GCM_SHA256        0x1301      Sufficient',
  ].join('\n'));
}, 60000);

test('--tls-deadline bounds the TLS enumeration on its own; what it could not determine makes the check warn, not pass', async () => {
  const { code, text } = await report('json', ['--tls-deadline', '0.001']);
  expect(code).toBe(0);
  const tlsResult = (JSON.parse(text) as { results: Array<{ code: string; verdict: string; summary: string; details: string[] }> }).results.find((result) => result.code === '/core/transport/tls');
  expect(tlsResult?.verdict).toBe('warn');
  expect(tlsResult?.summary).toMatch(/; the enumeration found no protocol accepted \(\d+ connections in \d+ ms\); enumeration incomplete \(\d+ items not determined\)$/);
  expect(tlsResult?.details).toContain('not determined: TLSv1.3: not probed: overall deadline passed');
  expect((await main(['https://127.0.0.1:1/v1', '--tls-deadline', 'soon'], {}))).toBe(2);
}, 60000);
