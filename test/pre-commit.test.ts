import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { conformantDocument } from './fixtures/conformant.js';
import { HOOK_COMMIT_TIMEOUT, HOOK_INSTALL_TIMEOUT, hookProject, type HookProject } from './support/pre-commit-project.js';

/**
 * The pre-commit hook as a team uses it: a repository whose .pre-commit-config.yaml names this
 * repository (a clone of the work tree, changes committed) and nothing but the hook id,
 * `pre-commit install`, then `git commit`. pre-commit installs the hook as it does every node hook
 * (npm install, npm pack, npm install -g of the tarball) with the system node, so nothing but the
 * npm registry is reached. At a release tag dist/ is built and package.json lists the dependencies
 * only; at the commit this test names, as at any other rev, npm pack builds dist/ (prepack) first.
 * Once for all cases, which share PRE_COMMIT_HOME.
 */
interface Hook { id: string; language: string; entry: string; types_or: string[] }

const HOOK = (parse(readFileSync('.pre-commit-hooks.yaml', 'utf8')) as Hook[])[0] as Hook;
const COMMIT_TIMEOUT = HOOK_COMMIT_TIMEOUT;

let project: HookProject;

const gitCommit = (message: string) => project.commit(message);
const lastCommit = () => project.lastCommit();

function addDescription(path: string, document: Record<string, unknown>): string {
  project.write(path, path.endsWith('.json') ? JSON.stringify(document, null, 2) : stringify(document));
  return join(project.folder, path);
}

beforeAll(async () => {
  project = await hookProject('nlgov-adr-pre-commit-');
}, HOOK_INSTALL_TIMEOUT + 60_000);

afterAll(() => project?.remove());

test('the hook runs nlgov-adr-lint --pre-commit from the installed package on the staged JSON and YAML files, the fail severity explicit', () => {
  expect(HOOK).toMatchObject({ id: 'nlgov-adr', language: 'node', entry: 'nlgov-adr-lint --pre-commit --fail-severity=error', types_or: ['json', 'yaml'] });
});

test("the README's hooks: the remote one names only the id, the local one runs the same command on the same files", () => {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('### pre-commit\n'), readme.indexOf('### GitHub Actions\n'));
  const configs = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => parse(match[1] as string) as { repos: Array<{ repo: string; hooks: Array<Record<string, unknown>> }> });
  expect(configs.map((config) => config.repos[0]?.hooks)).toEqual([
    [{ id: 'nlgov-adr' }],
    [{ id: 'nlgov-adr', name: 'API Design Rules (nlgov-adr)', language: 'system', entry: `node_modules/.bin/${HOOK.entry}`, types_or: HOOK.types_or }],
  ]);
});

test('a description with only warnings, in a subfolder, is committed, its warning printed', async () => {
  const document = conformantDocument();
  document.info.contact.email = 'info@example.nl';
  addDescription('api/v1/openapi.yaml', document);
  await project.run('git', ['add', '--all']);
  const result = await gitCommit('warnings only');
  expect(result.code).toBe(0);
  expect(result.stderr).toMatch(/^API Design Rules \(nlgov-adr\)\.+Passed$/m);
  expect(result.stderr).toMatch(/^ *\d+:\d+ +warning +\/core\/doc-openapi-contact +info\.contact\.email\n +Contact email is a generic organisation-wide mailbox: info@example\.nl\./m);
  expect(result.stderr).toContain('✖ 1 problem (0 errors, 1 warning, 0 infos, 0 hints)');
  expect(await lastCommit()).toBe('warnings only');
}, COMMIT_TIMEOUT);

test('a description with an error, in another subfolder, is refused with the finding', async () => {
  const document = conformantDocument();
  document.info.version = '1.0';
  const file = addDescription('services/orders/orders.openapi.json', document);
  await project.run('git', ['add', '--all']);
  const result = await gitCommit('an error');
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/^API Design Rules \(nlgov-adr\)\.+Failed\n- hook id: nlgov-adr\n(- duration: .*\n)?- exit code: 1\n/m);
  expect(result.stderr).toContain(`${file}\n`);
  expect(result.stderr).toMatch(/^ *\d+:\d+ +error +\/core\/semver +info\.version\n +API version is not SemVer 2\.0\.0: "1\.0"\./m);
  expect(result.stderr).toContain('✖ 1 problem (1 error, 0 warnings, 0 infos, 0 hints)');
  expect(await lastCommit()).toBe('warnings only');
}, COMMIT_TIMEOUT);

test('a YAML file with neither openapi nor swagger at its root is passed to the hook and not linted', async () => {
  const document: Record<string, unknown> = conformantDocument();
  delete document.openapi;
  (document.info as Record<string, unknown>).version = '1.0';
  await project.run('git', ['reset', '--quiet']);
  await project.run('rm', ['-r', 'services']);
  addDescription('docs/examples/not-a-description.yaml', document);
  await project.run('git', ['add', '--all']);
  const result = await gitCommit('no description');
  expect(result.code).toBe(0);
  expect(result.stderr).toMatch(/^API Design Rules \(nlgov-adr\)\.+Passed$/m);
  expect(result.stderr).not.toContain('/core/');
  expect(result.stderr).not.toContain('problem');
  expect(await lastCommit()).toBe('no description');
}, COMMIT_TIMEOUT);
