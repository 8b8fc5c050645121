import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startReferenceApi } from '../examples/reference-api/server.js';
import { html } from '../live/html.js';
import { main } from '../live/main.js';
import type { CheckResult, Report } from '../live/report.js';
import { description, servingDescription, startHostile } from './support/hostile-servers.js';

/**
 * The HTML report as a reader meets it (issue 24 item 9), in Debian's Chromium through
 * playwright-core: the overall verdict and its counts on top, every failure in the summary and
 * first, no pass where nothing was checked, links that work wherever the file is saved, one colour
 * per meaning, a summary that fits a phone, a print that shows every section, and no serious axe
 * violation. The failing API is a server on loopback whose description has no /openapi.json and an
 * example its schema refuses, and whose unknown paths answer with a stack trace; the passing one
 * is the reference API.
 */
const CHROMIUM = '/usr/bin/chromium';
const REPOSITORY_PAGE = /^https:\/\/github\.com\/nlgov-adr\/nlgov-adr\/blob\/v0\.1\.0\/([^#]+)(#.*)?$/;
const SPECTRAL_PAGE = /^https:\/\/docs\.stoplight\.io\/docs\/spectral\/4dec24461f3af-open-api-rules#[a-z0-9-]+$/;
const STACK_TRACE = 'Error: no route\n    at Router.handle (/srv/app/node_modules/express/lib/router/index.js:284:7)\n';

let browser: Browser;
let folder: string;
let failingReport: string;
let passingReport: string;

/** A description a team could publish: no /openapi.json among its paths, an example of the wrong type. */
const FAILING_DESCRIPTION = description({
  paths: {
    '/gebouwen': {
      get: {
        responses: {
          200: {
            description: 'Gebouwen.',
            headers: { 'API-Version': { schema: { type: 'string' } } },
            content: { 'application/json': { schema: { type: 'object', properties: { bouwjaar: { type: 'integer', example: 'veertiende eeuw' } } } } },
          },
        },
      },
    },
  },
});

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'adr-check-html-overview-'));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const failing = await startHostile(servingDescription(JSON.stringify(FAILING_DESCRIPTION), (request, response) => {
    if ((request.url ?? '').split('?')[0] === '/v1/gebouwen') {
      response.writeHead(200, { 'content-type': 'application/json', 'api-version': '1.0.0' });
      response.end('{"bouwjaar":1444}');
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain', 'api-version': '1.0.0' });
    response.end(STACK_TRACE);
  }));
  try {
    failingReport = join(folder, 'failing.html');
    expect(await main([failing.baseUrl, '--format', 'html', '--output', failingReport, '--timeout', '2000'], {})).toBe(1);
  } finally {
    await failing.close();
  }
  const api = await startReferenceApi({ httpPort: 0, corsAllowlist: ['https://app.example.nl'] });
  try {
    writeFileSync(join(folder, 'ca.pem'), api.caPem);
    passingReport = join(folder, 'passing.html');
    const args = [api.baseUrl, '--ca', join(folder, 'ca.pem'), '--cors-origin', 'https://app.example.nl', '--plain-http-port', new URL(api.httpOrigin as string).port, '--format', 'html', '--output', passingReport];
    expect(await main(args, {})).toBe(0);
  } finally {
    await api.close();
  }
}, 240000);

afterAll(async () => {
  await browser?.close();
  rmSync(folder, { recursive: true, force: true });
});

async function open(file: string, width = 1280): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await page.goto(`file://${file}`);
  return page;
}

interface SummaryLine { code: string; statics: string; live: string; verdict: string }

async function summary(page: Page): Promise<SummaryLine[]> {
  return page.locator('#summary tbody tr').evaluateAll((rows) => rows.map((row) => {
    const cells = [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '');
    return { code: row.querySelector('code')?.textContent ?? '', statics: cells[0] ?? '', live: cells[1] ?? '', verdict: cells[2] ?? '' };
  }));
}

async function counts(page: Page): Promise<Record<string, number>> {
  const boxes = await page.locator('#overall .count').evaluateAll((elements) => elements.map((element) => [element.textContent ?? '', Number(element.querySelector('.number')?.textContent)] as const));
  return Object.fromEntries(boxes.map(([text, number]) => [text.replace(/^\d+\s*/, '').replace(/\s*\(.*\)$/, ''), number]));
}

test('a failing API: "Not conformant" on top with counts; every failure in the summary and first, the live FAIL and the static error among them', async () => {
  const page = await open(failingReport);
  await expect(page.locator('#overall .headline').textContent()).resolves.toBe('Not conformant');
  const lines = await summary(page);
  const failing = lines.filter((line) => line.verdict === 'fail').map((line) => line.code);
  expect(failing).toEqual(expect.arrayContaining(['/core/http-response-code', 'oas3-valid-schema-example', '/core/transport/tls']));
  // Failures first: no row after the first non-failure fails.
  expect(lines.slice(0, failing.length).every((line) => line.verdict === 'fail')).toBe(true);
  expect(lines.find((line) => line.code === '/core/http-response-code')).toEqual({ code: '/core/http-response-code', statics: '—', live: 'fail', verdict: 'fail' });
  expect(lines.find((line) => line.code === 'oas3-valid-schema-example')).toEqual({ code: 'oas3-valid-schema-example', statics: 'fail', live: '—', verdict: 'fail' });
  // The counts are the technical rules' verdicts as the summary shows them.
  const technical = await page.locator('#summary tbody tr:not(:has(.kind)) td:last-child').allTextContents();
  expect(technical).toHaveLength(11);
  expect(await counts(page)).toEqual({
    passed: technical.filter((verdict) => verdict === 'pass' || verdict === 'warn').length,
    failed: technical.filter((verdict) => verdict === 'fail').length,
    'not judged': technical.filter((verdict) => verdict === 'not judged').length,
    'other checks failed': 2,
  });
  await expect(page.locator('#overall .sentence').textContent()).resolves.toContain('2 other checks failed: /core/http-response-code, oas3-valid-schema-example');
  // Every rule says why it matters and how to fix it, Spectral's own rules too.
  for (const { code } of lines) {
    const section = page.locator(`details[id="${code}"]`);
    expect([code, await section.locator('.why').count(), await section.locator('.fix').count()]).toEqual([code, 1, 1]);
  }
  await expect(page.locator('details[id="oas3-valid-schema-example"] .why').textContent()).resolves.toMatch(/^Why it matters: The official ADR linter runs Spectral's OpenAPI rules too/);
  // A failing rule's section is open and says why it matters and how to fix it.
  const section = page.locator('details[id="/core/http-response-code"]');
  expect(await section.getAttribute('open')).toBe('');
  await expect(section.locator('.why').textContent()).resolves.toMatch(/^Why it matters: A client decides what to do from the status code/);
  await expect(section.locator('.fix').textContent()).resolves.toMatch(/^How to fix: Answer an unknown path with 404 as application\/problem\+json/);
  await page.close();
}, 60000);

test('/core/publish-openapi is not passed on a description that does not describe /openapi.json', async () => {
  const page = await open(failingReport);
  const line = (await summary(page)).find((entry) => entry.code === '/core/publish-openapi');
  expect(line?.statics).toBe('not described');
  expect(line?.live).toBe('pass');
  await expect(page.locator('details[id="/core/publish-openapi"]').textContent()).resolves.toContain('the description does not describe /openapi.json');
  await page.close();
}, 60000);

test('the reference API: "Conformant", every technical rule passed, none failed or not judged, each with why and how to fix', async () => {
  const page = await open(passingReport);
  await expect(page.locator('#overall .headline').textContent()).resolves.toBe('Conformant');
  const lines = await summary(page);
  const technical = await page.locator('#summary tbody tr:not(:has(.kind)) td:last-child').allTextContents();
  expect(await counts(page)).toEqual({ passed: technical.length, failed: 0, 'not judged': 0 });
  expect(lines.find((line) => line.code === '/core/publish-openapi')).toEqual({ code: '/core/publish-openapi', statics: 'pass', live: 'pass', verdict: 'pass' });
  const technicalCodes = await page.locator('#summary tbody tr:not(:has(.kind))').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-code') ?? ''));
  for (const code of technicalCodes) {
    const section = page.locator(`details[id="${code}"]`);
    expect([code, await section.locator('.why').count(), await section.locator('.fix').count()]).toEqual([code, 1, 1]);
  }
  await page.close();
}, 60000);

test('every link works wherever the file is saved: absolute, to a file of this repository that exists, or to Spectral\'s page of its own rule', async () => {
  for (const file of [failingReport, passingReport]) {
    const page = await open(file);
    const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
    const external = hrefs.filter((href) => !href.startsWith('#'));
    expect(external.length).toBeGreaterThan(10);
    for (const href of external) {
      const inRepository = REPOSITORY_PAGE.exec(href);
      if (inRepository === null) {
        expect([href, SPECTRAL_PAGE.test(href)]).toEqual([href, true]);
        continue;
      }
      expect([href, existsSync(resolve(inRepository[1] as string))]).toEqual([href, true]);
    }
    // In-page links lead to a section of the page.
    for (const href of hrefs.filter((link) => link.startsWith('#'))) {
      expect([href, await page.locator(`[id="${href.slice(1)}"]`).count()]).toEqual([href, 1]);
    }
    await page.close();
  }
  const failing = await open(failingReport);
  await expect(failing.locator('details[id="oas3-valid-schema-example"] .links a').getAttribute('href')).resolves.toBe('https://docs.stoplight.io/docs/spectral/4dec24461f3af-open-api-rules#oas3-valid-schema-example');
  await failing.close();
}, 60000);

test('one colour per meaning: a static error finding has the colour of a live FAIL, not that of "not judged"', async () => {
  const page = await open(failingReport);
  const colours = await page.locator('[data-meaning]:not(details)').evaluateAll((elements) => elements.map((element) => {
    const style = getComputedStyle(element);
    return { meaning: element.getAttribute('data-meaning') ?? '', colour: `${style.backgroundColor} ${style.color}` };
  }));
  const byMeaning = new Map<string, Set<string>>();
  for (const { meaning, colour } of colours) byMeaning.set(meaning, (byMeaning.get(meaning) ?? new Set()).add(colour));
  expect([...byMeaning.keys()].sort()).toEqual(['fail', 'neutral', 'note', 'pass', 'unjudged', 'warn']);
  for (const [meaning, seen] of byMeaning) expect([meaning, seen.size]).toEqual([meaning, 1]);
  const colourOf = (meaning: string) => [...(byMeaning.get(meaning) ?? [])][0];
  expect(new Set([...byMeaning.keys()].map(colourOf)).size).toBe(byMeaning.size);
  const staticError = await page.locator('details[id="oas3-valid-schema-example"] .findings .badge').first().evaluate((element) => {
    const style = getComputedStyle(element);
    return `${style.backgroundColor} ${style.color}`;
  });
  const liveFail = await page.locator('#summary tr[data-code="/core/http-response-code"] td').nth(1).evaluate((element) => {
    const style = getComputedStyle(element);
    return `${style.backgroundColor} ${style.color}`;
  });
  expect(staticError).toBe(liveFail);
  expect(staticError).not.toBe(colourOf('unjudged'));
  await page.close();
}, 60000);

test('at 390 px the verdict and the summary fit the screen: no horizontal scrolling', async () => {
  for (const file of [failingReport, passingReport]) {
    const page = await open(file, 390);
    const widths = await page.evaluate(() => {
      const table = document.querySelector('#summary') as HTMLElement;
      return { page: document.documentElement.scrollWidth, viewport: document.documentElement.clientWidth, tableRight: table.getBoundingClientRect().right, overall: (document.querySelector('#overall') as HTMLElement).scrollWidth };
    });
    expect(widths.page).toBeLessThanOrEqual(widths.viewport);
    expect(widths.tableRight).toBeLessThanOrEqual(widths.viewport);
    expect(widths.overall).toBeLessThanOrEqual(widths.viewport);
    await page.close();
  }
}, 60000);

test('printed, every section is shown whole and no table is wider than the paper; Chromium makes a PDF of it', async () => {
  for (const file of [failingReport, passingReport]) {
    const page = await open(file);
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect((pdf.toString('latin1').match(/\/Type\s*\/Page\b/g) ?? []).length).toBeGreaterThan(1);
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 595\.\d+ 842\.\d+\]/);
    // A4 within the report's page margins (12 mm each side), at 96 px per inch, as Chromium prints it.
    await page.setViewportSize({ width: 703, height: 1016 });
    const hiddenIn = () => page.locator('details').evaluateAll((sections) => sections.flatMap((section) => [...section.querySelectorAll(':scope > :not(summary)')]
      .filter((child) => !child.checkVisibility())
      .map((child) => `${section.id}: ${child.className || child.tagName}`)));
    // On screen a passing rule's section is closed; printed, nothing in it is hidden.
    expect((await hiddenIn()).length).toBeGreaterThan(0);
    await page.emulateMedia({ media: 'print' });
    expect(await hiddenIn()).toEqual([]);
    const tooWide = await page.evaluate(() => [...document.querySelectorAll('table')].filter((table) => table.getBoundingClientRect().right > document.documentElement.clientWidth).map((table) => table.id || table.querySelector('caption')?.textContent || table.className));
    expect(tooWide).toEqual([]);
    await page.close();
  }
}, 60000);

test('axe-core finds no serious or critical violation, in either report, at either width', async () => {
  const axe = readFileSync(resolve('node_modules/axe-core/axe.min.js'), 'utf8');
  for (const file of [failingReport, passingReport]) {
    for (const width of [1280, 390]) {
      const page = await open(file, width);
      await page.addScriptTag({ content: axe });
      const violations = await page.evaluate(async () => {
        const result = await (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe.run();
        return result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id} (${violation.nodes.length})`);
      });
      expect([file, width, violations]).toEqual([file, width, []]);
      await page.close();
    }
  }
}, 90000);

test('the report is one file without script: nothing is fetched, and a page without JavaScript shows the same', async () => {
  const text = readFileSync(failingReport, 'utf8');
  expect(text).not.toMatch(/<script|<link|<img|url\(/i);
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (request) => { if (!request.url().startsWith('file://')) requests.push(request.url()); });
  await page.goto(`file://${failingReport}`);
  await expect(page.locator('#overall .headline').textContent()).resolves.toBe('Not conformant');
  expect(requests).toEqual([]);
  await context.close();
}, 60000);

/** A report as a run makes it: every technical rule's live check passed, nothing found in the description. */
function passingRun(extra: Partial<Report> = {}): Report {
  const passed = (code: string): CheckResult => ({ code, verdict: 'pass', summary: 'fine', details: [], evidence: [] });
  return {
    tool: { name: 'nlgov-adr', version: '0.1.0', ruleset: 'nlgov-adr 0.1.0' },
    target: 'https://api.example.nl/v1',
    startedAt: '2026-11-27T12:00:00.000Z',
    durationMs: 1000,
    requests: 40,
    results: ['/core/no-trailing-slash', '/core/http-methods', '/core/publish-openapi', '/core/version-header', '/core/transport/tls', '/core/transport/security-headers', '/core/transport/cors'].map(passed),
    staticFindings: [],
    lint: { status: 'done', omitted: 0, durationMs: 500 },
    notices: [],
    ...extra,
  };
}

async function headline(report: Report): Promise<{ verdict: string | null; sentence: string | null }> {
  const page = await browser.newPage();
  await page.setContent(html(report));
  const result = { verdict: await page.locator('#overall .headline').getAttribute('data-verdict'), sentence: await page.locator('#overall .sentence').textContent() };
  await page.close();
  return result;
}

test('what could not be judged keeps a report from "Conformant": a lint that did not finish, a check that got no answer, a step of adr-check that threw', async () => {
  expect(await headline(passingRun())).toEqual({ verdict: 'conformant', sentence: 'All 11 technical rules passed.' });
  expect(await headline(passingRun({ lint: { status: 'timeout', omitted: 0, durationMs: 60000 } }))).toEqual({ verdict: 'not-fully-judged', sentence: 'No rule failed, but 9 technical rules could not be judged.' });
  const noAnswer = passingRun();
  noAnswer.results = noAnswer.results.map((result) => (result.code === '/core/transport/cors' ? { ...result, verdict: 'error', summary: 'not judged: 2 requests got no answer' } : result));
  expect(await headline(noAnswer)).toEqual({ verdict: 'not-fully-judged', sentence: 'No rule failed, but 1 technical rule could not be judged: /core/transport/cors.' });
  const threw = passingRun();
  threw.results = [...threw.results, { code: 'adr-check/run', verdict: 'error', summary: 'internal error while linting: boom', details: [], evidence: [], internalError: true }];
  expect(await headline(threw)).toEqual({ verdict: 'not-fully-judged', sentence: 'No rule failed, but adr-check itself failed in a step (see adr-check/run below).' });
}, 60000);
