import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { conformantDocument } from './fixtures/conformant.js';

/**
 * The user's ruleset (issue 24 item 2): a project whose .spectral.yaml extends nlgov-adr and turns
 * a rule off. nlgov-adr-lint, adr-check --static and a live adr-check run, each from the project's
 * folder (no node_modules there, as in pre-commit's environment), leave the rule off; --ruleset
 * chooses another ruleset, a module set or a file.
 */
const run = promisify(execFile);
const root = process.cwd();
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const tsx = join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs');
const SEMVER = '/core/semver';
const CONTACT = '/core/doc-openapi-contact';

interface Result { code: number; stdout: string; stderr: string }

let base: string;
/** A project with a .spectral.yaml that turns /core/semver off. */
let configured: string;
/** A project without one. */
let plain: string;
let server: http.Server;
let baseUrl: string;

/** Two findings: /core/semver (an error) and /core/doc-openapi-contact (a warning). */
function description(): Record<string, unknown> {
  const document = conformantDocument();
  document.info.version = '1.0';
  document.info.contact.email = 'info@example.nl';
  return document;
}

async function command(cwd: string, args: string[]): Promise<Result> {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd, maxBuffer: 1 << 26, timeout: 170_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

const lint = (cwd: string, args: string[]) => command(cwd, [join(root, 'bin', 'nlgov-adr-lint.js'), '-f', 'json', ...args, 'openapi.json']);
const adrCheck = (cwd: string, args: string[]) => command(cwd, ['--import', tsx, join(root, 'live', 'cli.ts'), ...args, '--format', 'json']);

function codes(findings: Array<{ code: string }>): string[] {
  return [...new Set(findings.map((finding) => finding.code))].sort();
}

interface JsonReport { tool: { ruleset: string }; staticFindings: Array<{ code: string }>; lint: { status: string } }

beforeAll(async () => {
  // `extends: nlgov-adr` is the built package (dist/), as for a user.
  if (!existsSync(join(root, 'dist', 'ruleset.cjs')) || !existsSync(join(root, 'dist', 'ogc-resolver.cjs'))) await run('npx', ['tsup'], { cwd: root });
  base = mkdtempSync(join(tmpdir(), 'nlgov-adr-user-ruleset-'));
  configured = join(base, 'configured');
  plain = join(base, 'plain');
  for (const project of [configured, plain]) {
    mkdirSync(project);
    writeFileSync(join(project, 'openapi.json'), JSON.stringify(description(), null, 2));
  }
  writeFileSync(join(configured, '.spectral.yaml'), `extends: nlgov-adr\nrules:\n  ${SEMVER}: off\n`);
  writeFileSync(join(configured, 'contact-off.yaml'), `extends: nlgov-adr\nrules:\n  ${CONTACT}: off\n`);
  const served = JSON.stringify(description());
  server = http.createServer((request, response) => {
    if (request.url === '/v1/openapi.json') response.writeHead(200, { 'content-type': 'application/json' }).end(served);
    else response.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"status":404,"title":"Not Found"}');
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}, 240_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  if (base !== undefined) rmSync(base, { recursive: true, force: true });
});

describe('nlgov-adr-lint', () => {
  test('without a .spectral.* it lints with the full nlgov-adr', async () => {
    const result = await lint(plain, []);
    expect(result.code).toBe(1);
    expect(codes(JSON.parse(result.stdout))).toEqual([CONTACT, SEMVER]);
  }, 180_000);

  test('the project\'s .spectral.yaml with extends: nlgov-adr is the ruleset: the rule it turns off is not reported', async () => {
    const result = await lint(configured, []);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(codes(JSON.parse(result.stdout))).toEqual([CONTACT]);
  }, 180_000);

  test('--ruleset chooses: the module set, or another ruleset file', async () => {
    const full = await lint(configured, ['--ruleset', 'nlgov-adr']);
    expect(codes(JSON.parse(full.stdout))).toEqual([CONTACT, SEMVER]);
    const file = await lint(configured, ['--ruleset', 'contact-off.yaml']);
    expect(codes(JSON.parse(file.stdout))).toEqual([SEMVER]);
  }, 180_000);
});

describe('adr-check', () => {
  test('--static lints with the working directory\'s .spectral.yaml and names it as the ruleset', async () => {
    const result = await adrCheck(configured, ['--static', 'openapi.json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.lint.status).toBe('done');
    expect(codes(report.staticFindings)).toEqual([CONTACT]);
    expect(report.tool.ruleset).toBe(join(configured, '.spectral.yaml'));
  }, 180_000);

  test('--static --ruleset: a module set of the package, or a ruleset file', async () => {
    const full = JSON.parse((await adrCheck(configured, ['--static', 'openapi.json', '--ruleset', 'nlgov-adr'])).stdout) as JsonReport;
    expect(codes(full.staticFindings)).toEqual([CONTACT, SEMVER]);
    expect(full.tool.ruleset).toBe(`nlgov-adr ${version}`);
    const file = JSON.parse((await adrCheck(configured, ['--static', 'openapi.json', '--ruleset', 'contact-off.yaml'])).stdout) as JsonReport;
    expect(codes(file.staticFindings)).toEqual([SEMVER]);
    expect(file.tool.ruleset).toBe(join(configured, 'contact-off.yaml'));
  }, 340_000);

  test('a --ruleset that is neither a module set nor a file is one line and exit 2', async () => {
    expect(await adrCheck(configured, ['--static', 'openapi.json', '--ruleset', 'nlgov-adr/nothing'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'adr-check: unknown module set for --ruleset: nlgov-adr/nothing. Give one of nlgov-adr, nlgov-adr/core, nlgov-adr/geo, nlgov-adr/signing, nlgov-adr/oauth, or a ruleset file\n',
    });
    expect(await adrCheck(configured, ['--static', 'openapi.json', '--ruleset', 'missing.yaml'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `adr-check: ruleset file not found: ${join(configured, 'missing.yaml')}. Give an existing ruleset file or a module set to --ruleset\n`,
    });
  }, 180_000);

  test('a live run lints the served description with the working directory\'s .spectral.yaml', async () => {
    const result = await adrCheck(configured, [baseUrl, '--deadline', '90', '--timeout', '3000']);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.lint.status).toBe('done');
    expect(codes(report.staticFindings)).toEqual([CONTACT]);
    expect(report.tool.ruleset).toBe(join(configured, '.spectral.yaml'));
  }, 180_000);
});
