import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * nlgov-adr-lint's own output (issue 24 item 10), as a user sees it: run as a child process on
 * the non-conformant example, through a pipe (not a terminal) and in a pseudo-terminal of a
 * given width (util-linux `script`), with the colour variables users set.
 */
const run = promisify(execFile);
const root = process.cwd();
const lintBin = join(root, 'bin', 'nlgov-adr-lint.js');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const spectralVersion = (JSON.parse(readFileSync(join(root, 'node_modules/@stoplight/spectral-cli/package.json'), 'utf8')) as { version: string }).version;
const ESCAPE = '\u001b[';

interface Result { code: number; stdout: string; stderr: string }

let project: string;

/** The environment of a user's shell: no colour variables of the test runner's own. */
function userEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const environment = { ...process.env };
  for (const name of ['NO_COLOR', 'FORCE_COLOR', 'TERM', 'COLUMNS']) delete environment[name];
  return { ...environment, TERM: 'xterm-256color', ...extra };
}

async function lint(args: string[], environment = userEnvironment()): Promise<Result> {
  try {
    const { stdout, stderr } = await run(process.execPath, [lintBin, ...args], { cwd: project, env: environment, maxBuffer: 1 << 24 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** nlgov-adr-lint in a pseudo-terminal `columns` wide: what it writes there, carriage returns removed. */
async function lintInTerminal(columns: number, args: string[], extra: Record<string, string> = {}): Promise<string> {
  const command = `stty cols ${columns} rows 50; exec ${[process.execPath, lintBin, ...args].map((word) => `'${word}'`).join(' ')}`;
  try {
    const { stdout } = await run('script', ['--quiet', '--return', '--command', command, '/dev/null'], { cwd: project, env: userEnvironment(extra), maxBuffer: 1 << 24 });
    return stdout.replaceAll('\r', '');
  } catch (error) {
    return ((error as { stdout?: string }).stdout ?? '').replaceAll('\r', '');
  }
}

const visible = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');
const widest = (text: string) => Math.max(...visible(text).split('\n').map((line) => line.length));

beforeAll(async () => {
  if (!existsSync(join(root, 'dist', 'ogc-resolver.cjs')) || !existsSync(join(root, 'dist', 'ruleset.cjs'))) await run('npx', ['tsup'], { cwd: root });
  project = mkdtempSync(join(tmpdir(), 'nlgov-adr-lint-output-'));
  copyFileSync(join(root, 'examples', 'non-conformant-api.yaml'), join(project, 'api.yaml'));
}, 180_000);

afterAll(() => {
  if (project !== undefined) rmSync(project, { recursive: true, force: true });
});

test('through a pipe: no line wider than 100 columns, each message on lines of its own under its rule, no colour, Spectral\'s summary', async () => {
  const result = await lint(['api.yaml']);
  expect(result.code).toBe(1);
  expect(result.stdout).not.toContain(ESCAPE);
  expect(widest(result.stdout)).toBeLessThanOrEqual(100);
  expect(result.stdout).toMatch(/^ +17:12 +error +\/core\/semver +info\.version\n +API version is not SemVer 2\.0\.0: "1\.0"\. Use major\.minor\.patch, for example 1\.0\.0\.\n/m);
  // A message longer than the width continues on the next line, at the same indent.
  expect(result.stdout).toMatch(/^( +)Server URL carries more than the major version:\n\1https:\/\/api\.example-gemeente\.nl\/monumenten\/v1\.2\. Put only the major in the URL:\n/m);
  expect(result.stdout).toContain(`${join(project, 'api.yaml')}\n`);
  expect(result.stdout).toMatch(/\n✖ \d+ problems \(\d+ errors, \d+ warnings, \d+ infos, \d+ hints?\)\n$/);
});

test('in a terminal 72 columns wide: every line fits, severities coloured', async () => {
  const output = await lintInTerminal(72, ['api.yaml']);
  expect(output).toMatch(/ 17:12.*\/core\/semver/);
  expect(widest(output)).toBeLessThanOrEqual(72);
  expect(output).toContain(`${ESCAPE}31merror`);
  expect(output).toContain(`${ESCAPE}33mwarning`);
});

test.each([
  ['NO_COLOR=1', { NO_COLOR: '1' }],
  ['FORCE_COLOR=0', { FORCE_COLOR: '0' }],
  ['TERM=dumb', { TERM: 'dumb' }],
])('in a terminal with %s: no colour', async (_name, extra) => {
  const output = await lintInTerminal(120, ['api.yaml'], extra);
  expect(output).toMatch(/ 17:12 +error +\/core\/semver/);
  expect(output).not.toContain(ESCAPE);
});

test('--version and --help are nlgov-adr-lint\'s', async () => {
  expect(await lint(['--version'])).toEqual({ code: 0, stdout: `nlgov-adr-lint ${manifest.version} (nlgov-adr ${manifest.version}, Spectral CLI ${spectralVersion})\n`, stderr: '' });
  const help = await lint(['--help']);
  expect(help.code).toBe(0);
  expect(help.stdout).toMatch(/^nlgov-adr-lint: lints OpenAPI descriptions against the Dutch API Design Rules/);
  expect(help.stdout).toMatch(/^ {2}-r, --ruleset <set\|file> +a module set \(nlgov-adr, nlgov-adr\/core, nlgov-adr\/geo, nlgov-adr\/signing, nlgov-adr\/oauth\)/m);
  expect(help.stdout).toMatch(/^ {2}--pre-commit /m);
  expect(help.stdout).toMatch(/NO_COLOR, FORCE_COLOR=0 or TERM=dumb/);
});

test('--output and --output.<format> say on stderr where they wrote; the text file is the wrapped text; -q says nothing', async () => {
  const text = await lint(['api.yaml', '-o', 'findings.txt']);
  expect(text).toEqual({ code: 1, stdout: '', stderr: 'nlgov-adr-lint: wrote the text output to findings.txt\n' });
  const written = readFileSync(join(project, 'findings.txt'), 'utf8');
  expect(written).not.toContain(ESCAPE);
  expect(widest(written)).toBeLessThanOrEqual(100);
  expect(written).toMatch(/^ +17:12 +error +\/core\/semver +info\.version\n +API version is not SemVer/m);

  const both = await lint(['api.yaml', '-f', 'json', '-f', 'sarif', '--output.sarif', 'findings.sarif']);
  expect(both.code).toBe(1);
  expect(both.stderr).toBe('nlgov-adr-lint: wrote the sarif output to findings.sarif\n');
  expect((JSON.parse(both.stdout) as Array<{ code: string }>).map((finding) => finding.code)).toContain('/core/semver');
  expect((JSON.parse(readFileSync(join(project, 'findings.sarif'), 'utf8')) as { version: string }).version).toBe('2.1.0');

  expect(await lint(['api.yaml', '-q', '-o', 'quiet.txt'])).toEqual({ code: 1, stdout: '', stderr: '' });
  expect(readFileSync(join(project, 'quiet.txt'), 'utf8')).toMatch(/\/core\/semver/);
});

test('Spectral\'s other options work as before: -D with --fail-severity shows only the failing findings', async () => {
  const failuresOnly = await lint(['api.yaml', '-D', '--fail-severity=error']);
  expect(failuresOnly.code).toBe(1);
  expect(failuresOnly.stdout).toMatch(/\/core\/semver/);
  expect(failuresOnly.stdout).not.toMatch(/^ +\d+:\d+ +warning /m);
  expect(failuresOnly.stdout).toMatch(/\n✖ (\d+) problems \(\1 errors, 0 warnings, 0 infos, 0 hints\)\n$/);
});
