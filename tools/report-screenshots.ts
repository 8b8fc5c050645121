/**
 * npm run docs:screenshots: the screenshots of adr-check's HTML report in docs/images/, made the
 * way a reader sees the report: in Debian's Chromium through playwright-core, at desktop width
 * (1280 px) and phone width (390 px), for a failing API (the Express 5 app of the lab, served as
 * Express serves it: plain HTTP, its own 404s and methods) and a passing one (the reference API,
 * checked as check:demo checks it). Also writes each report as PDF through Chromium's print, next
 * to the HTML in a temporary folder it names, for a person to read back. Not run in CI: a person
 * looks at the pictures before committing them.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startReferenceApi } from '../examples/reference-api/server.js';
import { main } from '../live/main.js';
import { startAppDirect } from '../test/support/lab/apps.js';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const IMAGES = resolve('docs/images');
const WIDTHS = { desktop: { width: 1280, height: 1000 }, phone: { width: 390, height: 844 } };
const ALLOWED_ORIGIN = 'https://app.example.nl';

async function failingReport(folder: string): Promise<string> {
  const app = await startAppDirect('express');
  try {
    const output = join(folder, 'failing.html');
    await main([app.baseUrl, '--format', 'html', '--output', output], {});
    return output;
  } finally {
    await app.close();
  }
}

async function passingReport(folder: string): Promise<string> {
  const api = await startReferenceApi({ httpPort: 0, corsAllowlist: [ALLOWED_ORIGIN] });
  try {
    writeFileSync(join(folder, 'ca.pem'), api.caPem);
    writeFileSync(join(folder, 'signing-ca.pem'), api.signingCaPem);
    const output = join(folder, 'passing.html');
    const plainPort = new URL(api.httpOrigin ?? 'http://127.0.0.1:80').port || '80';
    await main([api.baseUrl, '--ca', join(folder, 'ca.pem'), '--cors-origin', ALLOWED_ORIGIN, '--plain-http-port', plainPort, '--signing-ca', join(folder, 'signing-ca.pem'), '--unsafe', '--header', `Authorization: Bearer ${api.writeToken}`, '--format', 'html', '--output', output], {});
    return output;
  } finally {
    await api.close();
  }
}

async function photograph(browser: Browser, report: string, name: string): Promise<void> {
  for (const [device, viewport] of Object.entries(WIDTHS)) {
    const page = await browser.newPage({ viewport });
    await page.goto(`file://${report}`);
    const path = join(IMAGES, `report-${name}-${device}.png`);
    await page.screenshot({ path });
    console.log(`wrote ${path}`);
    await page.close();
  }
  const page = await browser.newPage();
  await page.goto(`file://${report}`);
  const pdf = report.replace(/\.html$/, '.pdf');
  await page.pdf({ path: pdf, format: 'A4', printBackground: true });
  console.log(`wrote ${pdf} (not kept in the repository)`);
  await page.close();
}

async function screenshots(): Promise<void> {
  mkdirSync(IMAGES, { recursive: true });
  const folder = mkdtempSync(join(tmpdir(), 'adr-check-screenshots-'));
  // adr-check takes the .spectral.* of the folder it runs in as the ruleset: a checkout's own is no user's.
  process.chdir(folder);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    await photograph(browser, await failingReport(folder), 'failing');
    await photograph(browser, await passingReport(folder), 'passing');
  } finally {
    await browser.close();
  }
}

screenshots().then(() => process.exit(0), (error: Error) => {
  console.error(`docs:screenshots: ${error.message}`);
  process.exit(1);
});
