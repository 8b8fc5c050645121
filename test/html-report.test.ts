import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startReferenceApi } from '../examples/reference-api/server.js';
import { main } from '../live/main.js';
import { startHostile, description, servingDescription } from './support/hostile-servers.js';

/**
 * The HTML conformance report, opened in a real headless Chromium (Debian's chromium, driven by
 * playwright-core; no browser download). Screenshots go to test-artifacts/ for a person to look at.
 */
const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = resolve('test-artifacts');
let browser: Browser;
let folder: string;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  folder = mkdtempSync(join(tmpdir(), 'adr-check-html-'));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 60000);

afterAll(async () => {
  await browser?.close();
  rmSync(folder, { recursive: true, force: true });
});

async function open(file: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  // Self-contained: any request other than the page itself is a failure.
  const external: string[] = [];
  page.on('request', (request) => { if (!request.url().startsWith('file://')) external.push(request.url()); });
  await page.goto(`file://${file}`);
  expect(external).toEqual([]);
  return page;
}

/** The summary table as rule → [static, live], as a person sees it. */
async function summary(page: Page): Promise<Record<string, [string, string]>> {
  const rows = await page.locator('#summary tbody tr').evaluateAll((elements) => elements.map((row) => [row.querySelector('code')?.textContent ?? '', ...[...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')]));
  return Object.fromEntries(rows.map(([code, statics, live]) => [code as string, [statics as string, live as string]]));
}

test('a static run of the non-conformant example: the summary shows each rule\'s static verdict; findings link to rule pages', async () => {
  const output = join(folder, 'non-conformant.html');
  expect(await main(['--static', 'examples/non-conformant-api.yaml', '--format', 'html', '--output', output], {})).toBe(1);
  const page = await open(output);
  const table = await summary(page);
  expect(table['/core/semver']).toEqual(['fail', '—']);
  expect(table['/core/doc-openapi-contact']).toEqual(['warn', '—']);
  expect(table['/core/transport/cors']).toEqual(['—', 'not run']);
  expect(table['/geo/crs-list']).toEqual(['fail', 'not run']);
  expect(table['/geo/content-crs-request-header']).toEqual(['fail', 'not run']);
  await expect(page.locator('details[id="/core/semver"] a').getAttribute('href')).resolves.toBe('https://github.com/nlgov-adr/nlgov-adr/blob/v0.1.0/docs/rules/core-semver.md');
  expect(await page.locator('details[id="/core/semver"]').getAttribute('open')).toBe('');
  await page.screenshot({ path: join(ARTIFACTS, 'html-report-non-conformant.png'), fullPage: false });
  await page.close();
}, 60000);

test('check:demo against the reference API: every live verdict passes, the TLS tables unfold', async () => {
  const api = await startReferenceApi({ httpPort: 0, corsAllowlist: ['https://app.example.nl'] });
  try {
    writeFileSync(join(folder, 'ca.pem'), api.caPem);
    const output = join(folder, 'demo.html');
    const args = [api.baseUrl, '--ca', join(folder, 'ca.pem'), '--cors-origin', 'https://app.example.nl', '--plain-http-port', new URL(api.httpOrigin as string).port, '--format', 'html', '--output', output];
    await main(args, {});
    const page = await open(output);
    const table = await summary(page);
    for (const code of ['/core/no-trailing-slash', '/core/http-methods', '/core/publish-openapi', '/core/version-header', '/core/transport/tls', '/core/transport/security-headers', '/core/transport/cors', '/geo/crs-list', '/geo/crs-query-parameter']) {
      expect([code, table[code]?.[1]]).toEqual([code, 'pass']);
    }
    // Without --unsafe nothing is POSTed: the live side of Content-Crs in requests is skipped.
    expect(table['/geo/content-crs-request-header']).toEqual(['pass', 'skip']);
    await page.screenshot({ path: join(ARTIFACTS, 'html-report-check-demo.png'), fullPage: false });
    await page.locator('details[id="/core/transport/tls"] summary').click();
    await expect(page.locator('details[id="/core/transport/tls"] table.tls caption').first().textContent()).resolves.toBe('Protocols');
    await page.screenshot({ path: join(ARTIFACTS, 'html-report-check-demo-tls.png'), fullPage: false });
    await page.close();
  } finally {
    await api.close();
  }
}, 90000);

test('what a server sends is text on the page, never markup or script', async () => {
  const server = await startHostile(servingDescription(JSON.stringify(description({ servers: [{ url: '<img src=x onerror="window.pwned=1">' }] })), (_request, response) => {
    response.writeHead(404, { 'content-type': 'text/html' });
    response.end('<script>window.pwned = 2</script><b>bold</b>');
  }));
  try {
    const output = join(folder, 'hostile.html');
    await main([server.baseUrl, '--format', 'html', '--output', output, '--timeout', '1000'], {});
    expect(readFileSync(output, 'utf8')).not.toMatch(/<script>|<img src=x/);
    const page = await open(output);
    await page.locator('details').evaluateAll((elements) => elements.forEach((element) => element.setAttribute('open', '')));
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await expect(page.locator('body').textContent()).resolves.toContain('<script>window.pwned = 2</script><b>bold</b>');
    await page.close();
  } finally {
    await server.close();
  }
}, 60000);
