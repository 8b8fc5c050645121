import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  const args = [api.baseUrl, '--ca', join(folder, 'ca.pem'), '--format', format, '--output', output, '--header', `Authorization: ${SECRET_HEADER}`, '--plain-http-port', new URL(api.httpOrigin as string).port, ...extra];
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
  if (format === 'junit') expect(text).toMatch(/<testsuite name="adr-check [^"]+" tests="8" failures="0" skipped="0"/);
  if (format === 'github-actions') expect(text.trim()).toMatch(/^::warning title=\/core\/transport\/security-headers::security headers missing or wrong on \d+ of \d+ responses/);
  if (format === 'text') expect(text).toMatch(/WARN\s+\/core\/transport\/security-headers/);
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
