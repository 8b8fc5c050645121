import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { validateWorkflow } from '@action-validator/core';
import { parse, stringify } from 'yaml';
import ruleset from '../ruleset.js';
import { LIVE_CHECKS } from '../live/registry.js';
import { main } from '../live/main.js';
import { PACKAGE_VERSION, REPOSITORY_URL, documentationPath, documentationUrl, liveCheckPath, repositoryPageUrl } from '../lib/documentation-url.js';
import { conformantDocument } from './fixtures/conformant.js';
import { cloneWorkTree, runCommand } from './support/work-tree-clone.js';

/**
 * The package as it is released (issue 24 items 1, 3, 5): documentation links to pages that exist
 * in the repository at the version's tag; the tarball `npm pack` makes (the prepack script builds)
 * holds dist/, docs/, schemas/, bin/, LICENSE and the README, has no install script, installs in a
 * fresh project from npm's cache and runs there; the release commit of tools/release-commit.sh is
 * its parent plus dist/ and the published package.json, and the pre-commit hook installs from it
 * with the dependencies only; the release workflow is a valid GitHub workflow that tests,
 * publishes with provenance and attaches the tarball.
 */
const root = process.cwd();
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string; repository: { url: string }; files: string[] };
const run = promisify(execFile);
const SLOW = 600_000;

/** GitHub's anchor for a markdown heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** The repository file (and section) a documentation URL of this version names, or why it names none. */
function missingPage(url: string): string | undefined {
  const prefix = `${REPOSITORY_URL}/blob/v${manifest.version}/`;
  if (!url.startsWith(prefix)) return `${url}: not a page of ${prefix}`;
  const [path = '', section] = url.slice(prefix.length).split('#');
  if (!existsSync(join(root, path))) return `${url}: ${path} does not exist`;
  if (section === undefined) return undefined;
  const anchors = [...readFileSync(join(root, path), 'utf8').matchAll(/^#+ (.+)$/gm)].map((match) => anchorOf(match[1] ?? ''));
  return anchors.includes(section) ? undefined : `${url}: ${path} has no section #${section}`;
}

/** adr-check's own codes, as the source writes them: a new one needs its page too. */
function adrCheckCodes(): string[] {
  const sources = (folder: string): string[] => readdirSync(folder, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? sources(join(folder, entry.name)) : entry.name.endsWith('.ts') ? [join(folder, entry.name)] : []));
  return [...new Set(sources(join(root, 'live')).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/'(adr-check\/[a-z-]+)'/g)].map((match) => match[1] ?? '')))];
}

describe('documentation links', () => {
  test("name the repository of package.json at the tag of package.json's version", () => {
    expect([REPOSITORY_URL, PACKAGE_VERSION]).toEqual([manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, ''), manifest.version]);
    expect(documentationUrl('/core/semver')).toBe(`https://github.com/nlgov-adr/nlgov-adr/blob/v${manifest.version}/docs/rules/core-semver.md`);
    expect([documentationUrl('/core/transport/cors', '1.2.0-rc.1'), repositoryPageUrl('README.md', 'unknown')]).toEqual([
      'https://github.com/nlgov-adr/nlgov-adr/blob/v1.2.0-rc.1/docs/live/core-transport-cors.md',
      `https://github.com/nlgov-adr/nlgov-adr/blob/v${manifest.version}/README.md`,
    ]);
  });

  test('every rule of the ruleset links to a page that exists', () => {
    const rules = Object.entries((ruleset as { rules: Record<string, { documentationUrl?: string }> }).rules).filter(([code]) => documentationPath(code) !== undefined);
    expect(rules.length).toBeGreaterThan(30);
    expect(rules.map(([code, rule]) => (rule.documentationUrl === documentationUrl(code) ? missingPage(rule.documentationUrl ?? '') : `${code}: ${rule.documentationUrl}`)).filter(Boolean)).toEqual([]);
  });

  test("every code adr-check reports, and every live check's own page, links to a page that exists", () => {
    const codes = [...LIVE_CHECKS.map((check) => check.code), ...adrCheckCodes()];
    expect(codes).toEqual(expect.arrayContaining(['/core/transport/cors', '/core/http-response-code', '/geo/crs-list', 'adr-check/run']));
    const urls = [...codes.map((code) => documentationUrl(code) ?? `${code}: no page`), ...codes.flatMap((code) => liveCheckPath(code) ?? []).map((path) => repositoryPageUrl(path))];
    expect(urls.map(missingPage).filter(Boolean)).toEqual([]);
  });

  test("adr-check's SARIF links every rule to its page at the tag, Spectral's own rules to Spectral's", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'nlgov-adr-release-sarif-'));
    try {
      const output = join(folder, 'report.sarif');
      expect(await main(['--static', 'examples/non-conformant-api.yaml', '--format', 'sarif', '--output', output], {})).toBe(1);
      const rules = (JSON.parse(readFileSync(output, 'utf8')) as { runs: Array<{ tool: { driver: { rules: Array<{ id: string; helpUri: string }> } } }> }).runs[0]?.tool.driver.rules ?? [];
      const ours = rules.filter((rule) => documentationPath(rule.id) !== undefined);
      expect(ours.length).toBeGreaterThan(20);
      expect(ours.map((rule) => (rule.helpUri === documentationUrl(rule.id) ? missingPage(rule.helpUri) : `${rule.id}: ${rule.helpUri}`)).filter(Boolean)).toEqual([]);
      expect(rules.filter((rule) => documentationPath(rule.id) === undefined).map((rule) => rule.helpUri)).toEqual(expect.arrayContaining([expect.stringMatching(/^https:\/\/docs\.stoplight\.io\//)]));
      expect(rules.filter((rule) => rule.helpUri.includes('unpkg.com'))).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the release workflow', () => {
  const text = readFileSync('.github/workflows/release.yml', 'utf8');
  interface Step { run?: string; uses?: string; env?: Record<string, string> }
  const workflow = parse(text) as { on: { push: { tags: string[] } }; permissions: Record<string, string>; jobs: Record<string, { steps: Step[] }> };
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);

  test("is valid against SchemaStore's GitHub workflow schema, which finds a broken copy invalid", () => {
    expect(validateWorkflow(text).errors).toEqual([]);
    const broken = parse(text) as { permissions: Record<string, string>; jobs: Record<string, { 'runs-on'?: string; steps: unknown[] }> };
    broken.permissions['id-token'] = 'sign';
    expect(validateWorkflow(stringify(broken)).errors).not.toEqual([]);
  });

  test('on a version tag: tests as CI does, publishes with provenance, attaches the npm pack tarball to the release', () => {
    expect(workflow.on).toEqual({ push: { tags: ['v*'] } });
    expect(workflow.permissions).toEqual({ contents: 'write', 'id-token': 'write' });
    const runs = steps.map((step) => step.run ?? '');
    const at = (pattern: RegExp) => runs.findIndex((script) => pattern.test(script));
    expect(at(/\bbash \.ci\/run\b/)).toBeGreaterThan(-1);
    expect(at(/^npm publish --provenance --access public$/m)).toBeGreaterThan(at(/\bbash \.ci\/run\b/));
    expect(runs[at(/npm pack/)]).toContain('tarball=');
    expect(runs[at(/gh release create/)]).toMatch(/gh release create "\$TAG" "\$RUNNER_TEMP\/\$tarball"/);
    expect(steps.find((step) => step.run?.includes('npm publish'))?.env).toEqual({ NODE_AUTH_TOKEN: '${{ secrets.NPM_TOKEN }}' });
  });
});

describe('the package: npm pack, a fresh project, the release commit and the pre-commit hook from it', () => {
  let base: string;
  let clone: string;
  let tarball: string;
  let packOutput: { code: number; stdout: string; stderr: string };
  let project: string;
  let projectInstall: { code: number; stdout: string; stderr: string };
  const environment: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_') && !name.startsWith('npm_')));
  // better-sqlite3, an optional dependency, has no prebuilt binary it can download here and would
  // compile SQLite for minutes on each install: left out, it is not ours to judge here.
  Object.assign(environment, { npm_config_omit: 'optional', npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' });
  const identity = { GIT_AUTHOR_NAME: 'Maintainer', GIT_AUTHOR_EMAIL: 'maintainer@example.nl', GIT_COMMITTER_NAME: 'Maintainer', GIT_COMMITTER_EMAIL: 'maintainer@example.nl' };
  const inClone = (command: string, args: string[], extra: NodeJS.ProcessEnv = {}) => runCommand(command, args, { cwd: clone, env: { ...environment, ...identity, ...extra }, timeout: SLOW });
  const git = async (...args: string[]) => (await inClone('git', args)).stdout.trim();

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'nlgov-adr-release-'));
    clone = join(base, 'nlgov-adr');
    await cloneWorkTree(clone);
    symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'), 'dir');
    packOutput = await inClone('npm', ['pack', '--pack-destination', base]);
    tarball = join(base, packOutput.stdout.trim());
    project = join(base, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'monumenten-api', version: '1.0.0', private: true }));
    projectInstall = await runCommand('npm', ['install', '--save-dev', '--offline', tarball], { cwd: project, env: environment, timeout: SLOW });
  }, SLOW + 60_000);

  afterAll(() => {
    if (base !== undefined) rmSync(base, { recursive: true, force: true });
  });

  test('npm pack builds dist/ (prepack) and prints only the tarball name on stdout, which pre-commit reads', () => {
    expect(packOutput).toMatchObject({ code: 0, stdout: `nlgov-adr-${manifest.version}.tgz\n` });
    expect(existsSync(tarball)).toBe(true);
  });

  test('the tarball holds dist/, docs/, schemas/, bin/, LICENSE, README.md and package.json; nothing of test/', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball], { maxBuffer: 1 << 24 });
    const files = stdout.split('\n').filter((line) => line !== '').map((line) => line.replace(/^package\//, ''));
    const tops = [...new Set(files.map((file) => file.split('/')[0]))].sort();
    expect(tops).toEqual(['LICENSE', 'README.md', 'bin', 'dist', 'docs', 'package.json', 'schemas']);
    expect(files).toEqual(expect.arrayContaining(['dist/ruleset.js', 'dist/ruleset.cjs', 'dist/adr-check.js', 'dist/vscode/ruleset.js', 'bin/nlgov-adr-lint.js', 'docs/rules/core-semver.md', 'docs/live/README.md']));
    expect(files.filter((file) => /(^|\/)test\//.test(file) || file.endsWith('.test.ts'))).toEqual([]);
  });

  test("the packed package.json has no install script (npm 11 lists none of ours as unapproved)", async () => {
    const { stdout } = await run('tar', ['-xzOf', tarball, 'package/package.json']);
    const scripts = (JSON.parse(stdout) as { scripts?: Record<string, string> }).scripts ?? {};
    expect(Object.keys(scripts).filter((name) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(name))).toEqual([]);
    expect(projectInstall.code).toBe(0);
    expect(`${projectInstall.stdout}${projectInstall.stderr}`).not.toMatch(/nlgov-adr@[^ ]* \((preinstall|install|postinstall|prepare):/);
  });

  test('npm publish --dry-run would publish this version', async () => {
    const result = await inClone('npm', ['publish', '--dry-run', '--ignore-scripts']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`+ nlgov-adr@${manifest.version}\n`);
    expect(result.stderr).toContain('npm notice Publishing to https://registry.npmjs.org/ with tag latest and default access (dry-run)');
  }, SLOW);

  describe('installed in a fresh project from the tarball', () => {
    const inProject = (command: string, args: string[]) => runCommand(command, args, { cwd: project, env: environment, timeout: 120_000 });
    beforeAll(() => {
      const document = conformantDocument();
      document.info.version = '1.0';
      writeFileSync(join(project, 'openapi.yaml'), stringify(document));
    });

    test('npx spectral lint with the ruleset from node_modules reports the rule', async () => {
      const result = await inProject('npx', ['spectral', 'lint', 'openapi.yaml', '--ruleset', 'node_modules/nlgov-adr/dist/ruleset.js']);
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/^ *\d+:\d+ +error +\/core\/semver +API version is not SemVer 2\.0\.0: "1\.0"\./m);
    }, 120_000);

    test('npx nlgov-adr-lint lints it with the package ruleset', async () => {
      const result = await inProject('npx', ['nlgov-adr-lint', 'openapi.yaml']);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('/core/semver');
      expect(result.stdout).toContain('API version is not SemVer 2.0.0: "1.0".');
    }, 120_000);

    test('npx adr-check --version names this version', async () => {
      const result = await inProject('npx', ['adr-check', '--version']);
      expect(result).toMatchObject({ code: 0, stdout: expect.stringContaining(manifest.version) });
    }, 120_000);
  });

  describe('the release commit (npm run release:commit) and the pre-commit hook at its tag', () => {
    const tag = `v${manifest.version}`;
    let source: string;
    let release: { code: number; stdout: string; stderr: string };
    beforeAll(async () => {
      source = await git('rev-parse', 'HEAD');
      release = await inClone('npm', ['run', '--silent', 'release:commit']);
    }, SLOW);

    test('tags a commit on top of the source that adds dist/ and the published package.json, and the branch goes on with the source tree', async () => {
      expect(release).toMatchObject({ code: 0, stdout: expect.stringContaining(`Tagged ${tag} `) });
      expect(await git('rev-parse', `${tag}^{commit}^`)).toBe(source);
      const changed = (await git('diff', '--name-only', `${tag}^`, tag)).split('\n');
      expect(changed.filter((file) => !file.startsWith('dist/'))).toEqual(['package-lock.json', 'package.json']);
      expect(changed).toEqual(expect.arrayContaining(['dist/ruleset.js', 'dist/adr-check.js']));
      const published = JSON.parse(await git('show', `${tag}:package.json`)) as Record<string, unknown>;
      expect([published.scripts, published.devDependencies, published.version]).toEqual([undefined, undefined, manifest.version]);
      expect(await git('rev-parse', 'HEAD^')).toBe(await git('rev-parse', `${tag}^{commit}`));
      expect(await git('rev-parse', 'HEAD^{tree}')).toBe(await git('rev-parse', `${source}^{tree}`));
      expect(await git('status', '--porcelain', '--untracked-files=no')).toBe('');
      expect(await git('describe', '--tags', '--abbrev=0', 'HEAD')).toBe(tag);
    });

    test('npm install <git url>#<tag> installs the built package, with no install script of ours and no build', async () => {
      const gitProject = join(base, 'git-project');
      mkdirSync(gitProject);
      writeFileSync(join(gitProject, 'package.json'), JSON.stringify({ name: 'orders-api', version: '1.0.0', private: true }));
      const install = await runCommand('npm', ['install', '--save-dev', '--offline', `git+file://${clone}#${tag}`], { cwd: gitProject, env: environment, timeout: SLOW });
      expect(install.code).toBe(0);
      expect(`${install.stdout}${install.stderr}`).not.toMatch(/nlgov-adr@[^ ]* \((preinstall|install|postinstall|prepare):/);
      const installed = join(gitProject, 'node_modules', 'nlgov-adr');
      expect(['dist/ruleset.js', 'dist/adr-check.js', 'bin/nlgov-adr-lint.js'].filter((file) => !existsSync(join(installed, file)))).toEqual([]);
      expect(existsSync(join(installed, 'test'))).toBe(false);
      const version = await runCommand('npx', ['adr-check', '--version'], { cwd: gitProject, env: environment, timeout: 120_000 });
      expect(version).toMatchObject({ code: 0, stdout: expect.stringContaining(manifest.version) });
    }, SLOW);

    test('refuses to tag the same version twice', async () => {
      const again = await inClone('npm', ['run', '--silent', 'release:commit']);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(`release: the tag ${tag} exists`);
    });

    test('pre-commit installs the hook from the tag without jest, playwright, oidc-provider or tsup, and the hook refuses an error', async () => {
      const hookProject = join(base, 'hook-project');
      mkdirSync(hookProject);
      // npm install -g (pre-commit's last step) installs the optional better-sqlite3 all the same, and
      // its install script would compile SQLite for minutes: no dependency's install script runs here.
      const hookEnvironment = { ...environment, PRE_COMMIT_HOME: join(base, 'pre-commit-home'), npm_config_ignore_scripts: 'true' };
      const inHookProject = (command: string, args: string[]) => runCommand(command, args, { cwd: hookProject, env: { ...hookEnvironment, ...identity }, timeout: SLOW });
      await inHookProject('git', ['init', '--quiet']);
      writeFileSync(join(hookProject, '.pre-commit-config.yaml'), stringify({ repos: [{ repo: clone, rev: tag, hooks: [{ id: 'nlgov-adr', language_version: 'system' }] }] }));
      await inHookProject('git', ['add', '.pre-commit-config.yaml']);
      expect(await inHookProject('pre-commit', ['install', '--install-hooks'])).toMatchObject({ code: 0, stderr: '' });
      const home = hookEnvironment.PRE_COMMIT_HOME;
      const repository = readdirSync(home).find((entry) => existsSync(join(home, entry, 'node_env-system')));
      const installed = join(home, repository ?? 'none', 'node_env-system', 'lib', 'node_modules', 'nlgov-adr');
      expect(existsSync(join(installed, 'dist', 'ruleset.js'))).toBe(true);
      const modules = readdirSync(join(installed, 'node_modules'));
      expect(modules).toEqual(expect.arrayContaining(['@stoplight']));
      expect(modules.filter((name) => ['jest', 'playwright-core', 'oidc-provider', 'tsup', 'typescript', 'ts-jest'].includes(name))).toEqual([]);

      const document = conformantDocument();
      document.info.version = '1.0';
      writeFileSync(join(hookProject, 'openapi.yaml'), stringify(document));
      await inHookProject('git', ['add', 'openapi.yaml']);
      const commit = await inHookProject('git', ['commit', '-m', 'an error']);
      expect(commit.code).toBe(1);
      expect(commit.stderr).toMatch(/^API Design Rules \(nlgov-adr\)\.+Failed$/m);
      expect(commit.stderr).toMatch(/^ *\d+:\d+ +error +\/core\/semver\b/m);
      expect(commit.stderr).toContain('API version is not SemVer 2.0.0: "1.0".');
    }, SLOW);
  });
});
