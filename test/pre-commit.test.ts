import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { conformantDocument } from './fixtures/conformant.js';
import { cloneWorkTree, runCommand } from './support/work-tree-clone.js';

/**
 * The pre-commit hook as a team uses it: a repository whose .pre-commit-config.yaml names this
 * repository (a clone of the work tree, changes committed) and nothing but the hook id,
 * `pre-commit install`, then `git commit`. pre-commit installs the hook as it does every node hook
 * (npm install, which builds dist/, npm pack, npm install -g of the tarball) with the system node,
 * so nothing but the npm registry is reached; once for all cases, which share PRE_COMMIT_HOME.
 */
interface Hook { id: string; language: string; entry: string; files: string }

const HOOK = (parse(readFileSync('.pre-commit-hooks.yaml', 'utf8')) as Hook[])[0] as Hook;
const INSTALL_TIMEOUT = 280_000;
const COMMIT_TIMEOUT = 60_000;

let base: string;
let project: string;
let environment: NodeJS.ProcessEnv;

const inProject = (command: string, args: string[], timeout = COMMIT_TIMEOUT) => runCommand(command, args, { cwd: project, env: environment, timeout });
const gitCommit = (message: string) => inProject('git', ['-c', 'user.name=API team', '-c', 'user.email=api@example.nl', 'commit', '-m', message]);
const lastCommit = async () => (await inProject('git', ['log', '-1', '--format=%s'])).stdout.trim();

function addDescription(path: string, document: Record<string, unknown>): string {
  const file = join(project, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, path.endsWith('.json') ? JSON.stringify(document, null, 2) : stringify(document));
  return file;
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'nlgov-adr-pre-commit-'));
  const repository = join(base, 'nlgov-adr');
  const commit = await cloneWorkTree(repository);
  project = join(base, 'project');
  mkdirSync(project);
  // No GIT_* variables of an outer git (a test run from a hook), and a pre-commit cache of our own.
  environment = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_')));
  environment.PRE_COMMIT_HOME = join(base, 'pre-commit-home');
  // What npm has cached is taken as it is, not asked for again (pre-commit runs npm install without a lock).
  environment.npm_config_prefer_offline = 'true';
  await inProject('git', ['init', '--quiet']);
  writeFileSync(
    join(project, '.pre-commit-config.yaml'),
    [
      'repos:',
      `  - repo: ${repository}`,
      `    rev: ${commit}`,
      '    hooks:',
      '      - id: nlgov-adr',
      '        language_version: system # the node on PATH: no download',
      '        verbose: true # the findings also of a commit that goes through',
      '',
    ].join('\n'),
  );
  await inProject('git', ['add', '.pre-commit-config.yaml']);
  const install = await inProject('pre-commit', ['install', '--install-hooks'], INSTALL_TIMEOUT);
  expect(install).toEqual({ code: 0, stdout: expect.stringContaining('pre-commit installed at .git/hooks/pre-commit'), stderr: '' });
}, INSTALL_TIMEOUT + 60_000);

afterAll(() => {
  if (base !== undefined) rmSync(base, { recursive: true, force: true });
});

test('the hook runs nlgov-adr-lint from the installed package with the fail severity explicit, on OpenAPI descriptions in any folder', () => {
  expect(HOOK).toMatchObject({ id: 'nlgov-adr', language: 'node', entry: 'nlgov-adr-lint --fail-severity=error' });
  const files = new RegExp(HOOK.files);
  const matched = ['openapi.yaml', 'openapi.yml', 'openapi.json', 'api/v1/openapi.yaml', 'services/orders/orders.openapi.json', 'x.openapi.yml'];
  const unmatched = ['openapi.yaml.orig', 'myopenapi.yaml', 'openapi.txt', 'docs/openapi/notes.yaml', 'api/v1/schemas.yaml', '.spectral.yaml'];
  expect(matched.filter((file) => files.test(file))).toEqual(matched);
  expect(unmatched.filter((file) => files.test(file))).toEqual([]);
});

test("the README's hooks: the remote one names only the id, the local one runs the same command on the same files", () => {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('### pre-commit\n'), readme.indexOf('### GitHub Actions\n'));
  const configs = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => parse(match[1] as string) as { repos: Array<{ repo: string; hooks: Array<Record<string, string>> }> });
  expect(configs.map((config) => config.repos[0]?.hooks)).toEqual([
    [{ id: 'nlgov-adr' }],
    [{ id: 'nlgov-adr', name: 'API Design Rules (nlgov-adr)', language: 'system', entry: `node_modules/.bin/${HOOK.entry}`, files: HOOK.files }],
  ]);
});

test('a description with only warnings, in a subfolder, is committed, its warning printed', async () => {
  const document = conformantDocument();
  document.info.contact.email = 'info@example.nl';
  addDescription('api/v1/openapi.yaml', document);
  await inProject('git', ['add', '--all']);
  const result = await gitCommit('warnings only');
  expect(result.code).toBe(0);
  expect(result.stderr).toMatch(/^API Design Rules \(nlgov-adr\)\.+Passed$/m);
  expect(result.stderr).toMatch(/^ *\d+:\d+ +warning +\/core\/doc-openapi-contact +Contact email is a generic organisation-wide mailbox: info@example\.nl\./m);
  expect(result.stderr).toContain('✖ 1 problem (0 errors, 1 warning, 0 infos, 0 hints)');
  expect(await lastCommit()).toBe('warnings only');
}, COMMIT_TIMEOUT);

test('a description with an error, in another subfolder, is refused with the finding', async () => {
  const document = conformantDocument();
  document.info.version = '1.0';
  const file = addDescription('services/orders/orders.openapi.json', document);
  await inProject('git', ['add', '--all']);
  const result = await gitCommit('an error');
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/^API Design Rules \(nlgov-adr\)\.+Failed\n- hook id: nlgov-adr\n(- duration: .*\n)?- exit code: 1\n/m);
  expect(result.stderr).toContain(`${file}\n`);
  expect(result.stderr).toMatch(/^ *\d+:\d+ +error +\/core\/semver +API version is not SemVer 2\.0\.0: "1\.0"\./m);
  expect(result.stderr).toContain('✖ 1 problem (1 error, 0 warnings, 0 infos, 0 hints)');
  expect(await lastCommit()).toBe('warnings only');
}, COMMIT_TIMEOUT);

test('a YAML file that is no OpenAPI description by name is not linted', async () => {
  const document = conformantDocument();
  document.info.version = '1.0';
  await inProject('git', ['reset', '--quiet']);
  rmSync(join(project, 'services'), { recursive: true });
  addDescription('docs/examples/broken.yaml', document);
  await inProject('git', ['add', '--all']);
  const result = await gitCommit('no description');
  expect(result.code).toBe(0);
  expect(result.stderr).toMatch(/^API Design Rules \(nlgov-adr\)\.+\(no files to check\)Skipped$/m);
  expect(await lastCommit()).toBe('no description');
}, COMMIT_TIMEOUT);
