import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import { copyFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';
import { Ruleset, Spectral } from '@stoplight/spectral-core';
import { httpAndFileResolver } from '@stoplight/spectral-ref-resolver';
import { builtins } from '@stoplight/spectral-ruleset-bundler/plugins/builtins';
import { commonjs } from '@stoplight/spectral-ruleset-bundler/plugins/commonjs';
import { stdin } from '@stoplight/spectral-ruleset-bundler/plugins/stdin';
import { runtime } from '@stoplight/spectral-ruleset-bundler/presets/runtime';
import { migrateRuleset } from '@stoplight/spectral-ruleset-migrator';
import { rollup, type Plugin, type RollupWarning } from 'rollup-2';
import { lintText, type Finding } from '../lib/lint.js';
import { lint } from './harness.js';
import { privateBuild } from './support/private-build.js';

/*
 * The Spectral VS Code extension (stoplight.spectral) loads a ruleset with its own code
 * (stoplightio/vscode-spectral 1.1.4, server/src/linter.ts, Linter.loadRuleset): rollup (2.79.2
 * in its lock file) with the ruleset bundler's `runtime` preset and `commonjs` plugin, a JSON or
 * YAML ruleset migrated to JS first, the bundle evaluated as an IIFE. The preset's `builtins`
 * plugin serves Spectral's own modules; every other bare import goes to a public CDN through
 * `fetch`. Here that fetch throws, as it does in a network without internet access.
 */
const root = process.cwd();
const nonConformant = join(root, 'examples', 'non-conformant-api.yaml');
const run = promisify(execFile);

const fetched: string[] = [];
const offlineFetch = async (url: unknown): Promise<never> => {
  fetched.push(String(url));
  throw new Error(`offline: ${String(url)}`);
};

async function loadLikeTheExtension(filepath: string): Promise<{ ruleset: Ruleset; warnings: string[] }> {
  const io = { fs, fetch: offlineFetch };
  const warnings: string[] = [];
  let rulesetFile = filepath;
  // The bundler's plugins are typed against its own rollup's Plugin; rollup 2 takes them as they are.
  const plugins = [...runtime(io), commonjs()] as unknown as Plugin[];
  if (/\.(json|ya?ml)$/.test(extname(filepath))) {
    rulesetFile = join(dirname(rulesetFile), '.spectral.js');
    plugins.unshift(stdin(await migrateRuleset(filepath, { format: 'esm', ...io }), rulesetFile) as unknown as Plugin);
  }
  const bundle = await rollup({
    input: rulesetFile,
    plugins,
    treeshake: false,
    onwarn: (warning: RollupWarning) => {
      if (warning.code !== 'MISSING_NAME_OPTION_FOR_IIFE_EXPORT') warnings.push(warning.message);
    },
  });
  const [chunk] = (await bundle.generate({ format: 'iife', exports: 'auto' })).output;
  const definition: unknown = Function(`return ${chunk.code}`)();
  return { ruleset: new Ruleset(definition as ConstructorParameters<typeof Ruleset>[0], { severity: 'recommended', source: rulesetFile }), warnings };
}

async function lintWith(ruleset: Ruleset): Promise<Finding[]> {
  const spectral = new Spectral({ resolver: httpAndFileResolver });
  spectral.setRuleset(ruleset);
  return lintText(spectral, readFileSync(nonConformant, 'utf8'), nonConformant);
}

let build: string;
let workspace: string;
let expected: Finding[];

beforeAll(async () => {
  build = await privateBuild('nlgov-adr-vscode-');
  // A VS Code workspace folder with the package installed (linked to the private build).
  workspace = join(build, 'workspace');
  mkdirSync(join(workspace, 'node_modules'), { recursive: true });
  symlinkSync(build, join(workspace, 'node_modules', 'nlgov-adr'), 'dir');
  copyFileSync(nonConformant, join(workspace, 'api.yaml'));
  expected = await lint(readFileSync(nonConformant, 'utf8'), nonConformant);
}, 180000);

afterAll(() => rmSync(build, { recursive: true, force: true }));

beforeEach(() => {
  fetched.length = 0;
});

test('dist/vscode/ruleset.js imports nothing but Spectral modules that the extension provides', async () => {
  const bundle = await rollup({ input: join(build, 'dist', 'vscode', 'ruleset.js'), external: (id) => !isAbsolute(id), treeshake: false });
  const [chunk] = (await bundle.generate({ format: 'esm' })).output;
  // Each of these exists in the Spectral the extension ships (core 1.19.4, functions 1.9.3,
  // rulesets 1.21.3 in its lock file); @stoplight/spectral-formats is bundled in, as its 1.8.2
  // lacks oas3_2.
  expect(chunk.importedBindings).toEqual({
    '@stoplight/spectral-core': ['createRulesetFunction'],
    '@stoplight/spectral-functions': ['schema'],
    '@stoplight/spectral-rulesets': ['oas'],
  });
  const provided = builtins() as unknown as { resolveId(id: string): string | null };
  expect(Object.keys(chunk.importedBindings).filter((id) => provided.resolveId(id) !== id)).toEqual([]);
});

test('spectral.rulesetFile pointing at dist/vscode/ruleset.js: loaded offline, the findings of the source ruleset', async () => {
  const { ruleset, warnings } = await loadLikeTheExtension(join(workspace, 'node_modules', 'nlgov-adr', 'dist', 'vscode', 'ruleset.js'));
  expect({ fetched, warnings }).toEqual({ fetched: [], warnings: [] });
  const findings = await lintWith(ruleset);
  expect(findings).toEqual(expected);
  expect(findings.map((finding) => finding.code)).toContain('/core/path-segments-kebab-case');
});

test('a .spectral.yaml in the workspace root with `extends: nlgov-adr/vscode`: the same offline, and the same in the Spectral CLI', async () => {
  writeFileSync(join(workspace, '.spectral.yaml'), 'extends: nlgov-adr/vscode\n');
  const { ruleset, warnings } = await loadLikeTheExtension(join(workspace, '.spectral.yaml'));
  expect({ fetched, warnings }).toEqual({ fetched: [], warnings: [] });
  expect(await lintWith(ruleset)).toEqual(expected);

  const spectralBin = join(root, 'node_modules', '.bin', 'spectral');
  const cli = await run(spectralBin, ['lint', 'api.yaml', '-f', 'json'], { cwd: workspace, maxBuffer: 1 << 26 }).catch((error: { code: number; stdout: string }) => error);
  const codes = (JSON.parse(cli.stdout) as Array<{ code: string }>).map((result) => result.code);
  expect({ code: 'code' in cli ? cli.code : 0, codes: [...new Set(codes)].sort() }).toEqual({ code: 1, codes: [...new Set(expected.map((finding) => finding.code))].sort() });
});

test('the main build (`extends: nlgov-adr`) does not load offline: the extension asks a CDN for its dependencies', async () => {
  writeFileSync(join(workspace, '.spectral.yaml'), 'extends: nlgov-adr\n');
  await expect(loadLikeTheExtension(join(workspace, '.spectral.yaml'))).rejects.toThrow(/^Could not load https:\/\/esm\.sh\//);
  expect(fetched).toContain('https://esm.sh/@stoplight/path');
  expect(fetched.filter((url) => !url.startsWith('https://esm.sh/'))).toEqual([]);
});
