import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startSilentServer, startWebLab, type WebLab } from './support/web-checker.js';

/**
 * The web checker as a person uses it, in Debian's Chromium through playwright-core: the form, a
 * live check of the reference API (allowed by the test's allowlist) to its verdict and permalink,
 * an upload, a paste, a refused private target, a full queue, a phone's width, Dutch and English,
 * and axe-core on the form and a report. Screenshots go to docs/images/web-*.png.
 */
const CHROMIUM = '/usr/bin/chromium';
const IMAGES = resolve('docs/images');
const AXE = readFileSync(resolve('node_modules/axe-core/axe.min.js'), 'utf8');

let browser: Browser;
let lab: WebLab;
/** Every Content-Security-Policy report Chromium logs: the pages must cause none. */
const cspViolations: string[] = [];

beforeAll(async () => {
  mkdirSync(IMAGES, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'] });
  lab = await startWebLab({ maxRunning: 1, maxQueued: 1, ratePerMinute: 1000, deadlineMs: 60_000 });
}, 60000);

afterAll(async () => {
  await browser?.close();
  await lab?.stop();
}, 180000);

async function newPage(options: { width?: number; locale?: string; bypassCSP?: boolean; javaScriptEnabled?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1200, height: 900 }, locale: options.locale ?? 'en-GB', bypassCSP: options.bypassCSP ?? false, javaScriptEnabled: options.javaScriptEnabled ?? true });
  const page = await context.newPage();
  page.on('console', (message) => { if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text()); });
  return { context, page };
}

/** axe-core's serious and critical violations (the page's CSP is bypassed to inject it). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  return page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe.run();
    return result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id} (${violation.nodes.length})`);
  });
}

/** Waits for the result page: the progress page follows the check and reloads when it ends. */
async function verdictOf(page: Page): Promise<string> {
  await page.locator('#verdict').waitFor({ timeout: 90_000 });
  return (await page.locator('#verdict').textContent()) ?? '';
}

test('the form: English by default, Dutch by Accept-Language and by the switch; no serious axe violation; links its OpenAPI description', async () => {
  const { context, page } = await newPage({ bypassCSP: true });
  await page.goto(`${lab.checker.origin}/`);
  await expect(page.locator('h1').textContent()).resolves.toBe('API Design Rules checker');
  await expect(page.locator('link[rel="service-desc"]').getAttribute('href')).resolves.toBe('/openapi.json');
  await page.screenshot({ path: `${IMAGES}/web-form.png`, fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
  await page.locator('a.lang').click();
  await expect(page.locator('h1').textContent()).resolves.toBe('API Design Rules-checker');
  await expect(page.locator('html').getAttribute('lang')).resolves.toBe('nl');
  await context.close();
  const dutch = await newPage({ locale: 'nl-NL' });
  await dutch.page.goto(`${lab.checker.origin}/`);
  await expect(dutch.page.locator('button').first().textContent()).resolves.toBe('Toets de API');
  await dutch.context.close();
}, 60000);

test('a live check of the reference API from the form: progress, then the verdict and the report at the permalink; no serious axe violation on the report', async () => {
  const { context, page } = await newPage();
  await page.goto(`${lab.checker.origin}/`);
  await page.locator('#url').fill(lab.api.baseUrl);
  await page.locator('#token').fill('browser-token-31d7e2');
  await page.getByRole('button', { name: 'Check the API' }).click();
  await page.waitForURL(/\/checks\/[A-Za-z0-9_-]{22}$/);
  const permalink = page.url();
  const verdict = await verdictOf(page);
  const state = await (await fetch(`${lab.checker.origin}/api/v1/checks/${new URL(permalink).pathname.split('/').pop() ?? ''}`)).json() as { failingRules: string[]; incomplete?: string };
  // The verdicts are the checks' business (other suites judge them); here: the page says what the report says, and no core rule fails.
  expect(state.failingRules.filter((code) => code.startsWith('/core/'))).toEqual([]);
  expect(verdict).toBe(state.failingRules.length > 0 ? `${state.failingRules.length} failing rule${state.failingRules.length === 1 ? '' : 's'}` : state.incomplete === undefined ? 'conformant' : 'not completely checked');
  expect(page.url()).toBe(permalink);
  await expect(page.locator('.permalink a').getAttribute('href')).resolves.toBe(new URL(permalink).pathname);
  await expect(page.locator('#summary tbody tr', { hasText: '/core/version-header' }).locator('td').nth(1).textContent()).resolves.toMatch(/pass/);
  expect(await page.content()).not.toContain('browser-token-31d7e2');
  await page.screenshot({ path: `${IMAGES}/web-report.png`, fullPage: false });
  // The same permalink opened afresh shows the same report.
  const again = await context.newPage();
  await again.goto(permalink);
  await expect(again.locator('#verdict').textContent()).resolves.toBe(verdict);
  // Check again asks for the token anew (it was not kept) and starts a new check with its own permalink.
  await again.getByRole('button', { name: 'Check again' }).click();
  await again.waitForURL(/\/checks\/[A-Za-z0-9_-]{22}$/);
  expect(again.url()).not.toBe(permalink);
  expect(await verdictOf(again)).toMatch(/^(conformant|\d+ failing rules?|not completely checked)$/);
  await again.getByRole('link', { name: 'History' }).click();
  expect(await again.locator('table.history tbody tr').count()).toBe(2);
  await expect(again.locator('table.history tbody tr').first().locator('td').nth(2).textContent()).resolves.toMatch(/^(no change|.+: .+ → .+)/);
  await again.screenshot({ path: `${IMAGES}/web-history.png`, fullPage: true });
  await context.close();
  const axe = await newPage({ bypassCSP: true });
  await axe.page.goto(permalink);
  expect(await seriousViolations(axe.page)).toEqual([]);
  await axe.context.close();
  expect(cspViolations).toEqual([]);
}, 180000);

test('an uploaded description: a static check with the ruleset\'s findings', async () => {
  const { context, page } = await newPage();
  await page.goto(`${lab.checker.origin}/`);
  await page.locator('#file').setInputFiles(resolve('examples/non-conformant-api.yaml'));
  await page.getByRole('button', { name: 'Check the description' }).click();
  expect(await verdictOf(page)).toMatch(/^\d+ failing rules$/);
  await expect(page.locator('#summary tbody tr', { hasText: '/core/semver' }).locator('td').first().textContent()).resolves.toMatch(/fail/);
  await expect(page.locator('.actions a', { hasText: 'SARIF' }).getAttribute('href')).resolves.toMatch(/\/report\.sarif$/);
  await page.screenshot({ path: `${IMAGES}/web-upload.png`, fullPage: false });
  await context.close();
  expect(cspViolations).toEqual([]);
}, 120000);

test('a pasted description: markup in it is shown as text, never run', async () => {
  const { context, page } = await newPage();
  let alerted = false;
  page.on('dialog', (dialog) => { alerted = true; void dialog.dismiss(); });
  await page.goto(`${lab.checker.origin}/`);
  const pasted = readFileSync('examples/monumenten-api.yaml', 'utf8').replace('title: Monumentenregister', 'title: "<img src=x onerror=alert(1)><script>alert(2)</script>"');
  await page.locator('#paste').fill(pasted);
  await page.getByRole('button', { name: 'Check the description' }).click();
  await page.waitForURL(/\/checks\/[A-Za-z0-9_-]{22}$/);
  expect(await verdictOf(page)).toMatch(/^(conformant|\d+ failing rules?)$/);
  await expect(page.locator('.meta code').first().textContent()).resolves.toBe('pasted');
  expect(alerted).toBe(false);
  await context.close();
}, 120000);

test('a private target is refused at once with a clear message, and the form keeps the URL', async () => {
  const { context, page } = await newPage();
  await page.goto(`${lab.checker.origin}/`);
  await page.locator('#url').fill('http://169.254.169.254/latest');
  const [response] = await Promise.all([page.waitForResponse((answer) => answer.request().method() === 'POST'), page.getByRole('button', { name: 'Check the API' }).click()]);
  expect(response.status()).toBe(422);
  await expect(page.locator('.alert h2').textContent()).resolves.toBe('Target refused');
  await expect(page.locator('.alert p').textContent()).resolves.toBe('refused: 169.254.169.254 is a link-local address (169.254.0.0/16, RFC 3927; cloud metadata services answer at 169.254.169.254). This web checker checks only APIs on the public internet: run adr-check on your own machine for an internal API');
  await expect(page.locator('#url').inputValue()).resolves.toBe('http://169.254.169.254/latest');
  await page.screenshot({ path: `${IMAGES}/web-refused.png`, fullPage: false });
  await context.close();
}, 60000);

test('a full queue: the page says when to come back (503 with Retry-After); the position shows while waiting, also without JavaScript', async () => {
  const silent = await startSilentServer();
  try {
    const { context, page } = await newPage({ javaScriptEnabled: false });
    for (const path of ['a', 'b']) {
      await page.goto(`${lab.checker.origin}/`);
      await page.locator('#url').fill(`${silent.baseUrl}/${path}`);
      await page.getByRole('button', { name: 'Check the API' }).click();
      await page.waitForURL(/\/checks\/[A-Za-z0-9_-]{22}$/);
    }
    await expect(page.locator('#progress').textContent()).resolves.toBe('Waiting in the queue: position 1.');
    await expect(page.locator('noscript').first().innerHTML()).resolves.toContain('http-equiv="refresh"');
    await page.goto(`${lab.checker.origin}/`);
    await page.locator('#url').fill(`${silent.baseUrl}/c`);
    const [response] = await Promise.all([page.waitForResponse((answer) => answer.request().method() === 'POST'), page.getByRole('button', { name: 'Check the API' }).click()]);
    expect(response.status()).toBe(503);
    const retryAfter = Number(response.headers()['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(5);
    await expect(page.locator('.alert h2').textContent()).resolves.toBe('Queue full');
    await expect(page.locator('.alert p').textContent()).resolves.toBe(`The queue is full. Try again in ${retryAfter} seconds.`);
    await page.screenshot({ path: `${IMAGES}/web-queue-full.png`, fullPage: false });
    await context.close();
  } finally {
    await silent.close();
    await lab.checker.queue.idle();
  }
}, 120000);

test('at a phone\'s width (390 px) the form and a report fit without sideways scrolling', async () => {
  const { context, page } = await newPage({ width: 390, bypassCSP: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${lab.checker.origin}/`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${IMAGES}/web-phone-form.png`, fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
  const done = lab.checker.store.history(lab.api.baseUrl, 5).find((record) => record.state === 'done');
  expect(done).toBeDefined();
  await page.goto(`${lab.checker.origin}/checks/${done?.id ?? ''}`);
  await expect(page.locator('#verdict').textContent()).resolves.toMatch(/^(conformant|\d+ failing rules?|not completely checked)$/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${IMAGES}/web-phone-report.png`, fullPage: false });
  expect(await seriousViolations(page)).toEqual([]);
  await context.close();
}, 60000);
