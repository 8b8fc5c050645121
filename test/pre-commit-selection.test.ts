import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { conformantDocument } from './fixtures/conformant.js';
import { HOOK_COMMIT_TIMEOUT, HOOK_INSTALL_TIMEOUT, hookProject, type HookProject } from './support/pre-commit-project.js';

/**
 * Which files the pre-commit hook lints (issue 24 item 5), with Debian's pre-commit on a
 * temporary repository whose .pre-commit-config.yaml names a clone of this work tree (as in
 * test/pre-commit.test.ts): a description is found by its content whatever its name, a changed
 * `$ref`'d fragment brings the description that refers to it, other JSON and YAML files are not
 * linted, and the project's .spectral.yaml (`extends: nlgov-adr`) is the ruleset, resolved in
 * pre-commit's own environment where the project has no node_modules.
 */
interface Hook { id: string; language: string; entry: string; types_or?: string[]; files?: string }

const HOOK = (parse(readFileSync('.pre-commit-hooks.yaml', 'utf8')) as Hook[])[0] as Hook;
const COMMIT_TIMEOUT = HOOK_COMMIT_TIMEOUT;
const PASSED = /^API Design Rules \(nlgov-adr\)\.+Passed$/m;
const FAILED = /^API Design Rules \(nlgov-adr\)\.+Failed$/m;

let project: HookProject;

const write = (path: string, content: string) => project.write(path, content);
const gitCommit = (message: string) => project.commit(message);
const lastCommit = () => project.lastCommit();

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A file's name in the text output, its first finding on the next line. */
function findingUnder(path: string, severity: string, code: string, at: string): RegExp {
  return new RegExp(`^${escapeRegExp(join(project.folder, path))}\n +\\d+:\\d+ +${severity} +${escapeRegExp(code)} +${escapeRegExp(at)}\n`, 'm');
}

async function stage(...paths: string[]): Promise<void> {
  await project.run('git', ['add', '--', ...paths]);
}

beforeAll(async () => {
  project = await hookProject('nlgov-adr-pre-commit-selection-');
}, HOOK_INSTALL_TIMEOUT + 60_000);

afterAll(() => project?.remove());

test('the hook takes every staged JSON and YAML file and chooses the descriptions itself', () => {
  expect(HOOK).toMatchObject({ id: 'nlgov-adr', language: 'node', entry: 'nlgov-adr-lint --pre-commit --fail-severity=error', types_or: ['json', 'yaml'] });
  expect(HOOK.files).toBeUndefined();
});

test('package.json and docker-compose.yaml are passed to the hook and not linted', async () => {
  write('package.json', `${JSON.stringify({ name: 'registry', version: '1.0.0', private: true }, null, 2)}\n`);
  write('docker-compose.yaml', 'services:\n  api:\n    image: nginx:stable\n    ports: ["8080:80"]\n');
  await stage('package.json', 'docker-compose.yaml');
  const result = await gitCommit('no descriptions');
  expect(result.code).toBe(0);
  expect(result.stderr).toMatch(PASSED);
  expect(result.stderr).not.toContain('/core/');
  expect(result.stderr).not.toContain('problem');
  expect(await lastCommit()).toBe('no descriptions');
}, COMMIT_TIMEOUT);

test('a description named api/v1/spec.yaml is linted: its error refuses the commit', async () => {
  const document = conformantDocument();
  document.info.version = '1.0';
  write('api/v1/spec.yaml', stringify(document));
  await stage('api/v1/spec.yaml');
  const result = await gitCommit('a description by another name');
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(FAILED);
  expect(result.stderr).toContain(`${join(project.folder, 'api/v1/spec.yaml')}\n`);
  expect(result.stderr).toMatch(/^ +\d+:\d+ +error +\/core\/semver +info\.version\n +API version is not SemVer 2\.0\.0: "1\.0"\./m);
  expect(result.stderr).toContain('✖ 1 problem (1 error, 0 warnings, 0 infos, 0 hints)');
  expect(await lastCommit()).toBe('no descriptions');
  document.info.version = '1.0.0';
  write('api/v1/spec.yaml', stringify(document));
  await stage('api/v1/spec.yaml');
  expect((await gitCommit('the description fixed')).code).toBe(0);
}, 2 * COMMIT_TIMEOUT);

test('a change to a $ref\'d fragment alone lints the description that refers to it', async () => {
  const document = conformantDocument();
  document.components.schemas.Monument = { $ref: './schemas/monument.yaml' };
  write('api/v2/registry.yaml', stringify(document));
  write('api/v2/schemas/monument.yaml', stringify({ type: 'object', properties: { naam: { type: 'string', example: 'Westerkerk' } } }));
  await stage('api/v2');
  const first = await gitCommit('a description with a fragment');
  expect(first.code).toBe(0);
  expect(first.stderr).toMatch(PASSED);

  write('api/v2/schemas/monument.yaml', stringify({ type: 'object', properties: { naam: { type: 'string', example: 42 } } }));
  await stage('api/v2/schemas/monument.yaml');
  const result = await gitCommit('the fragment changed');
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(FAILED);
  expect(result.stderr).toContain('nlgov-adr-lint: linting api/v2/registry.yaml: it $refs api/v2/schemas/monument.yaml, which changed\n');
  expect(result.stderr).toContain(`${join(project.folder, 'api/v2/schemas/monument.yaml')}\n`);
  expect(result.stderr).toMatch(/^ +\d+:\d+ +error +oas3-valid-schema-example +properties\.naam\.example\n +"example" property type must be string$/m);
  expect(await lastCommit()).toBe('a description with a fragment');
  await project.run('git', ['checkout', '--', 'api/v2/schemas/monument.yaml']);
  await project.run('git', ['reset', '--quiet']);
}, 2 * COMMIT_TIMEOUT);

test('descriptions in folders named with glob characters ([v1], (public)) are linted as the files they are', async () => {
  const withError = conformantDocument();
  withError.info.version = '1.0';
  const withWarning = conformantDocument();
  withWarning.info.contact.email = 'info@example.nl';
  write('api/[v1]/openapi.yaml', stringify(withError));
  write('app/(public)/openapi.yaml', stringify(withWarning));
  await stage('api/[v1]/openapi.yaml', 'app/(public)/openapi.yaml');
  try {
    const result = await gitCommit('glob characters');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(FAILED);
    expect(result.stderr).toMatch(findingUnder('api/[v1]/openapi.yaml', 'error', '/core/semver', 'info.version'));
    expect(result.stderr).toMatch(findingUnder('app/(public)/openapi.yaml', 'warning', '/core/doc-openapi-contact', 'info.contact.email'));
    expect(result.stderr).toContain('✖ 2 problems (1 error, 1 warning, 0 infos, 0 hints)');
    expect(await lastCommit()).toBe('a description with a fragment');
  } finally {
    await project.run('git', ['rm', '--cached', '--quiet', '-r', '--', 'api/[v1]', 'app/(public)']);
    rmSync(join(project.folder, 'api/[v1]'), { recursive: true });
    rmSync(join(project.folder, 'app'), { recursive: true });
  }
}, COMMIT_TIMEOUT);

test('a fragment renamed while a description still $refs its old name lints that description: the $ref no longer resolves', async () => {
  await project.run('git', ['mv', 'api/v2/schemas/monument.yaml', 'api/v2/schemas/monumenten.yaml']);
  try {
    const result = await gitCommit('the fragment renamed');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(FAILED);
    expect(result.stderr).toContain('nlgov-adr-lint: linting api/v2/registry.yaml: it $refs api/v2/schemas/monument.yaml, which changed\n');
    expect(result.stderr).toContain(`${join(project.folder, 'api/v2/registry.yaml')}\n`);
    expect(result.stderr).toMatch(/^ +\d+:\d+ +error +invalid-ref +components\.schemas\.Monument\.\$ref\n +ENOENT: no such file or directory/m);
    expect(await lastCommit()).toBe('a description with a fragment');
  } finally {
    await project.run('git', ['mv', 'api/v2/schemas/monumenten.yaml', 'api/v2/schemas/monument.yaml']);
  }
}, COMMIT_TIMEOUT);

test('the project\'s .spectral.yaml (extends: nlgov-adr) is the hook\'s ruleset: the rule it turns off does not refuse the commit', async () => {
  write('.spectral.yaml', 'extends: nlgov-adr\nrules:\n  /core/semver: off\n');
  const document = conformantDocument();
  document.info.version = '2.0';
  write('api/v3/spec.json', JSON.stringify(document, null, 2));
  await stage('.spectral.yaml', 'api/v3/spec.json');
  const result = await gitCommit('semver off');
  expect(result.code).toBe(0);
  expect(result.stderr).toMatch(PASSED);
  expect(result.stderr).not.toContain('/core/semver');
  expect(await lastCommit()).toBe('semver off');
}, COMMIT_TIMEOUT);
