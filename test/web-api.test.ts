import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import net from 'node:net';
import { join } from 'node:path';
import { startDnsServer } from './support/dns-server.js';
import { jest } from '@jest/globals';
import { main } from '../live/main.js';
import { serveOptions } from '../web/options.js';
import { startWebChecker } from '../web/server.js';
import { startSilentServer, startWebLab, waitForCheck, type WebLab } from './support/web-checker.js';

/**
 * The web checker's JSON API, on loopback with the reference API allowed (127.0.0.1/32) and
 * everything else private refused: refusals at submission, the queue's limit, the token never
 * kept, the headers the standard asks of the checker's own responses.
 */
let lab: WebLab;

beforeAll(async () => {
  lab = await startWebLab({ maxRunning: 1, maxQueued: 1, ratePerMinute: 1000, maxUploadBytes: 50_000, deadlineMs: 60_000 });
}, 60000);

afterAll(async () => {
  await lab?.stop();
}, 180000);

function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${lab.checker.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

test('private targets of every class are refused at submission with problem+json, and nothing is queued', async () => {
  const refused = [
    'http://10.1.2.3/v1', 'http://172.16.0.1/v1', 'http://192.168.1.1/v1', 'http://169.254.169.254/latest', 'http://100.64.0.1/v1',
    'http://127.0.0.2/v1', 'http://0.0.0.0/v1', 'http://224.0.0.1/v1', 'http://[::1]/v1', 'http://[fd00::1]/v1', 'http://[fe80::1]/v1',
    'http://[::ffff:127.0.0.2]/v1', 'http://[::ffff:a9fe:a9fe]/v1', 'http://2852039166/v1', 'http://0251.0376.0251.0376/v1', 'http://0xa9.0xfe.0xa9.0xfe/v1',
  ];
  for (const url of refused) {
    const response = await post('/api/v1/checks', { url });
    expect([url, response.status, response.headers.get('content-type')]).toEqual([url, 422, 'application/problem+json; charset=utf-8']);
    const problem = await response.json() as { title: string; detail: string; status: number };
    expect([url, problem.title, problem.status]).toEqual([url, 'Target refused', 422]);
    expect(problem.detail).toMatch(/^refused: .+ is .+ \(.+\)\. This web checker checks only APIs on the public internet: run adr-check on your own machine for an internal API$/);
  }
  expect(lab.checker.queue.size).toEqual({ running: 0, waiting: 0 });
  expect(lab.checker.store.history('http://169.254.169.254/latest', 5)).toEqual([]);
}, 60000);

test('a URL with credentials in it, or not http(s), is refused with the way to go', async () => {
  const withPassword = await (await post('/api/v1/checks', { url: 'https://user:pw@api.example.nl/v1' })).json() as { detail: string };
  expect(withPassword.detail).toBe('the URL carries a user name or password. Give the token in the token field instead: it is used for this check only');
  const ftp = await post('/api/v1/checks', { url: 'ftp://api.example.nl/v1' });
  expect(ftp.status).toBe(422);
  expect((await ftp.json() as { detail: string }).detail).toBe('not an http(s) URL: ftp://api.example.nl/v1. Give the API\'s base URL, such as https://api.example.nl/v1');
  const nothing = await post('/api/v1/checks', {});
  expect(nothing.status).toBe(400);
});

test('a live check of the reference API through the API: queued, done, conformant, and the token is in no report and not in the database', async () => {
  const token = 'web-token-7f3a9c1e5b';
  const response = await post('/api/v1/checks', { url: `${lab.api.baseUrl}/`, token });
  expect(response.status).toBe(202);
  const queued = await response.json() as { id: string; target: string };
  expect(queued.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  expect(response.headers.get('location')).toBe(`/api/v1/checks/${queued.id}`);
  expect(queued.target).toBe(lab.api.baseUrl);
  const done = await waitForCheck(lab.checker.origin, queued.id);
  // The verdicts are the checks' business (other suites judge them); here: done, no core rule failing, the outcome as the report says.
  expect(done.state).toBe('done');
  const failingRules = done.failingRules as string[];
  expect(failingRules.filter((code) => code.startsWith('/core/'))).toEqual([]);
  expect(done.conformant).toBe(failingRules.length === 0 && done.incomplete === undefined);
  const report = await (await fetch(`${lab.checker.origin}/api/v1/checks/${queued.id}/report`)).text();
  expect(JSON.parse(report).target).toBe(lab.api.baseUrl);
  expect(report).not.toContain(token);
  for (const format of ['json', 'sarif', 'junit', 'html']) {
    const download = await fetch(`${lab.checker.origin}/checks/${queued.id}/report.${format}`);
    expect([format, download.status]).toEqual([format, 200]);
    expect(await download.text()).not.toContain(token);
  }
  // The database files on disk (the WAL included) hold no trace of the token.
  for (const file of readdirSync(lab.dataDir)) expect([file, readFileSync(join(lab.dataDir, file)).includes(token)]).toEqual([file, false]);
  const badge = await fetch(`${lab.checker.origin}/badge/${Buffer.from(lab.api.baseUrl).toString('base64url')}.svg`);
  expect(badge.headers.get('content-type')).toBe('image/svg+xml');
  const outcome = failingRules.length > 0 ? `${failingRules.length} failing rule${failingRules.length === 1 ? '' : 's'}` : done.incomplete === undefined ? 'conformant' : 'not completely checked';
  expect(await badge.text()).toContain(`<title>ADR: ${outcome}</title>`);
}, 90000);

test('the queue is bounded: one running, one waiting, the next is 503 with Retry-After and problem+json', async () => {
  const silent = await startSilentServer();
  try {
    const first = await post('/api/v1/checks', { url: silent.baseUrl });
    const second = await post('/api/v1/checks', { url: `${silent.baseUrl}/other` });
    expect([first.status, second.status]).toEqual([202, 202]);
    const waiting = await second.json() as { id: string; position: number };
    expect(waiting.position).toBe(1);
    const third = await post('/api/v1/checks', { url: `${silent.baseUrl}/third` });
    expect(third.status).toBe(503);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(5);
    expect(third.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect((await third.json() as { title: string }).title).toBe('Queue full');
    const batch = await post('/api/v1/batches', { urls: [`${silent.baseUrl}/a`] });
    expect(batch.status).toBe(503);
  } finally {
    await silent.close();
    await lab.checker.queue.idle();
  }
}, 90000);

test('a pasted description through the API: a static check with the ruleset\'s findings; too large is 413', async () => {
  const description = readFileSync('examples/non-conformant-api.yaml', 'utf8');
  const response = await post('/api/v1/checks', { description, name: '../../etc/<b>naam</b>.yaml' });
  const queued = await response.json() as { id: string; target: string };
  expect(queued.target).toBe('.._.._etc_b_naam_b_.yaml');
  const done = await waitForCheck(lab.checker.origin, queued.id);
  expect(done.state).toBe('done');
  const report = await (await fetch(`${lab.checker.origin}/api/v1/checks/${queued.id}/report`)).json() as { lint: { status: string } };
  expect(report.lint.status).toBe('done');
  expect(done.failingRules).toEqual(expect.arrayContaining(['/core/semver']));
  const tooLarge = await post('/api/v1/checks', { description: 'x'.repeat(50_001) });
  expect(tooLarge.status).toBe(413);
}, 90000);

test('a batch: refused URLs are listed with their reason, the rest queued', async () => {
  const response = await post('/api/v1/batches', { urls: [lab.api.baseUrl, 'http://10.0.0.1/v1'] });
  expect(response.status).toBe(202);
  const batch = await response.json() as { id: string; checks: { id: string }[]; refused: { url: string; reason: string }[] };
  expect(batch.checks).toHaveLength(1);
  expect(batch.refused).toEqual([{ url: 'http://10.0.0.1/v1', reason: 'refused: 10.0.0.1 is a private address (10.0.0.0/8, RFC 1918). This web checker checks only APIs on the public internet: run adr-check on your own machine for an internal API' }]);
  await waitForCheck(lab.checker.origin, batch.checks[0]?.id ?? '');
  const state = await (await fetch(`${lab.checker.origin}/api/v1/batches/${batch.id}`)).json() as { checks: { state: string }[] };
  expect(state.checks.map((check) => check.state)).toEqual(['done']);
}, 90000);

test('its own responses: security headers, API-Version, 405 with Allow, no trailing slash, CORS only on /openapi.json', async () => {
  const origin = lab.checker.origin;
  const form = await fetch(`${origin}/`);
  expect(Object.fromEntries(['cache-control', 'x-content-type-options', 'x-frame-options', 'api-version'].map((name) => [name, form.headers.get(name)]))).toEqual({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'api-version': '1.0.0' });
  expect(form.headers.get('content-security-policy')).toBe("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'");
  const html = await form.text();
  expect(html).toContain('<link rel="service-desc" href="/openapi.json" type="application/vnd.oai.openapi+json">');
  expect(html).not.toMatch(/<script>|<style>| on\w+=/);
  const deleted = await fetch(`${origin}/api/v1/checks`, { method: 'DELETE' });
  expect([deleted.status, deleted.headers.get('allow'), deleted.headers.get('content-type')]).toEqual([405, 'POST, OPTIONS', 'application/problem+json; charset=utf-8']);
  const traced = await fetch(`${origin}/api/v1/checks/AAAAAAAAAAAAAAAAAAAAAA`, { method: 'PUT', body: '\u0000{' });
  expect([traced.status, traced.headers.get('allow')]).toEqual([405, 'GET, HEAD, OPTIONS']);
  expect((await fetch(`${origin}/api/v1/checks/AAAAAAAAAAAAAAAAAAAAAA/`)).status).toBe(404);
  const missing = await fetch(`${origin}/api/v1/checks/AAAAAAAAAAAAAAAAAAAAAA`);
  expect([missing.status, missing.headers.get('content-type')]).toEqual([404, 'application/problem+json; charset=utf-8']);
  const description = await fetch(`${origin}/openapi.json`, { headers: { origin: 'https://elsewhere.example' } });
  expect(description.headers.get('access-control-allow-origin')).toBe('*');
  const foreign = await fetch(`${origin}/api/v1/checks/AAAAAAAAAAAAAAAAAAAAAA`, { headers: { origin: 'https://elsewhere.example' } });
  expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
});

test('a name that resolves to an allowed address at submission and to a refused one next: the check connects nowhere refused (DNS rebinding)', async () => {
  const connections: string[] = [];
  const allowedServer = net.createServer((socket) => { connections.push('127.0.0.1'); socket.destroy(); });
  await new Promise<void>((resolve) => allowedServer.listen(0, '127.0.0.1', resolve));
  const { port } = allowedServer.address() as net.AddressInfo;
  const refusedServer = net.createServer((socket) => { connections.push('127.0.0.2'); socket.destroy(); });
  await new Promise<void>((resolve) => refusedServer.listen(port, '127.0.0.2', resolve));
  const dns = await startDnsServer({ 'api.rebinding.test': ['127.0.0.1', '127.0.0.2'] });
  const rebinding = await startWebLab({ dnsServer: dns.address, timeoutMs: 2000, deadlineMs: 10_000 });
  try {
    const response = await fetch(`${rebinding.checker.origin}/api/v1/checks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `http://api.rebinding.test:${port}/v1` }) });
    expect(response.status).toBe(202);
    const done = await waitForCheck(rebinding.checker.origin, (await response.json() as { id: string }).id);
    expect(done.state).toBe('failed');
    expect(done.error).toMatch(/refused: api\.rebinding\.test is at 127\.0\.0\.2, a loopback address \(127\.0\.0\.0\/8, RFC 1122\)/);
    expect(dns.questions.filter((question) => question.startsWith('A '))).toEqual(['A api.rebinding.test', 'A api.rebinding.test']);
    expect(connections).toEqual([]);
  } finally {
    await rebinding.stop();
    await dns.close();
    allowedServer.close();
    refusedServer.close();
  }
}, 60000);

test('the rate limit per client: the third submission in a minute is 429 with Retry-After; an upload over --max-upload is 413', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'adr-check-web-rate-'));
  const limited = await startWebChecker(serveOptions({ port: 0, dataDir: folder, ratePerMinute: 2, maxUploadBytes: 1000 }));
  try {
    const form = () => {
      const body = new FormData();
      body.append('file', new Blob(['x'.repeat(1001)], { type: 'application/yaml' }), 'openapi.yaml');
      return fetch(`${limited.origin}/checks`, { method: 'POST', body, headers: { accept: 'text/html' } });
    };
    const tooLarge = await form();
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.text()).toContain('The description is larger than 1000 bytes, the limit of this web checker.');
    const second = await fetch(`${limited.origin}/api/v1/checks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"url":"http://10.0.0.1/v1"}' });
    expect(second.status).toBe(422);
    const third = await fetch(`${limited.origin}/api/v1/checks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"url":"http://10.0.0.1/v1"}' });
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(third.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect((await third.json() as { title: string }).title).toBe('Too many checks');
  } finally {
    await limited.close();
    rmSync(folder, { recursive: true, force: true });
  }
});

test('adr-check serve with a bad flag: one line on stderr and exit 2, no server', async () => {
  const lines: string[] = [];
  const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => { lines.push(String(chunk)); return true; });
  try {
    expect(await main(['serve', '--allow', '10.0.0.0/33'])).toBe(2);
    expect(await main(['serve', '--max-running', '0'])).toBe(2);
  } finally {
    write.mockRestore();
  }
  expect(lines).toEqual([
    'adr-check serve: --allow: an allowlist entry is an IP address, a CIDR range (10.1.0.0/16, fd00::/8) or a host name, not "10.0.0.0/33"\n',
    'adr-check serve: --max-running takes a positive whole number, not 0\n',
  ]);
});
