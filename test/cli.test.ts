import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { nlgovRules, nlgovRulesByModule } from '../rulesets/modules.js';
import { lint } from './harness.js';

/**
 * The package as users meet it: the built dist/ through the Spectral CLI, with --ruleset, through
 * this repository's .spectral.yaml, and installed from its npm tarball in another project.
 */
const run = promisify(execFile);
const root = process.cwd();
const spectralBin = join(root, 'node_modules', '.bin', 'spectral');
const nonConformant = join(root, 'examples', 'non-conformant-api.yaml');

interface CliResult { code: number; stdout: string; stderr: string }

async function spectral(args: string[], cwd = root): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(spectralBin, ['lint', ...args], { cwd, maxBuffer: 1 << 26 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

function codesOf(json: string): string[] {
  return [...new Set((JSON.parse(json) as Array<{ code: string }>).map((result) => result.code))].sort();
}

let expectedCodes: string[];

beforeAll(async () => {
  await run('npx', ['tsup'], { cwd: root });
  expectedCodes = [...new Set((await lint(readFileSync(nonConformant, 'utf8'), nonConformant)).map((finding) => finding.code))].sort();
}, 120000);

test('the built ESM ruleset lints the conformant example clean, and the CLI\'s bundler has nothing to warn about', async () => {
  const result = await spectral(['examples/monumenten-api.yaml', '--ruleset', 'dist/ruleset.js']);
  // A Node module imported by a rule function made the CLI's bundler warn on every run ("url" ... could not be resolved).
  expect(result).toEqual({ code: 0, stdout: expect.stringContaining('No results with a severity of \'error\' found!'), stderr: '' });
});

test.each(['dist/ruleset.js', 'dist/ruleset.cjs'])('%s gives the same findings as the source ruleset', async (ruleset) => {
  const result = await spectral([nonConformant, '--ruleset', ruleset, '-f', 'json']);
  expect(result.code).toBe(1);
  expect(codesOf(result.stdout)).toEqual(expectedCodes);
  expect(expectedCodes).toEqual(expect.arrayContaining(Object.keys(nlgovRules).filter((code) => code !== 'nlgov:openapi-json-documented')));
});

test('the repository .spectral.yaml needs no --ruleset flag', async () => {
  const result = await spectral(['examples/non-conformant-api.yaml', '-f', 'json']);
  expect(codesOf(result.stdout)).toEqual(expectedCodes);
});

test('installed from its tarball into another project, `extends: nlgov-adr` and the module entry points work', async () => {
  const project = mkdtempSync(join(tmpdir(), 'nlgov-adr-consumer-'));
  try {
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', project], { cwd: root });
    const tarball = readdirSync(project).find((name) => name.endsWith('.tgz')) as string;
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `./${tarball}`], { cwd: project });
    copyFileSync(nonConformant, join(project, 'api.yaml'));
    const lintWith = async (extendsValue: string) => {
      writeFileSync(join(project, '.spectral.yaml'), `extends: ${extendsValue}\n`);
      return codesOf((await spectral(['api.yaml', '-f', 'json'], project)).stdout);
    };
    expect(await lintWith('nlgov-adr')).toEqual(expectedCodes);
    expect(await lintWith('[nlgov-adr/core, nlgov-adr/geo, nlgov-adr/signing, nlgov-adr/oauth]')).toEqual(expectedCodes);
    const oauthOnly = await lintWith('nlgov-adr/oauth');
    expect(oauthOnly.filter((code) => code.startsWith('/core/'))).toEqual([]);
    expect(oauthOnly).toContain('invalid-ref');
    const coreOnly = await lintWith('nlgov-adr/core');
    const otherModules = { ...nlgovRulesByModule.geo, ...nlgovRulesByModule.signing, ...nlgovRulesByModule.oauth };
    expect(coreOnly).toEqual(expectedCodes.filter((code) => !(code in otherModules)));
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}, 180000);
