import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { privateBuild } from './support/private-build.js';

/*
 * The package's type declarations as a TypeScript user meets them: the npm tarball unpacked as
 * node_modules/nlgov-adr of an ESM project ("type": "module", strict, NodeNext), its own
 * dependencies from this repository's node_modules (linked one folder up, where Node and tsc look
 * next), and tsc over imports of every entry point, a CommonJS file with `require`, and the
 * README's TypeScript snippets.
 */
const run = promisify(execFile);
const root = process.cwd();
const ENTRY_POINTS = ['nlgov-adr', 'nlgov-adr/core', 'nlgov-adr/geo', 'nlgov-adr/signing', 'nlgov-adr/oauth'];
const identifier = (entry: string) => (entry === 'nlgov-adr' ? 'ruleset' : entry.slice('nlgov-adr/'.length));

let build: string;
let project: string;
let packed: string[];

beforeAll(async () => {
  build = await privateBuild('nlgov-adr-types-');
  const base = join(build, 'consumer');
  project = join(base, 'project');
  mkdirSync(join(project, 'node_modules', 'nlgov-adr'), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(base, 'node_modules'), 'dir');
  await run('npm', ['pack', '--ignore-scripts', '--pack-destination', base], { cwd: build });
  const tarball = join(base, readdirSync(base).find((name) => name.endsWith('.tgz')) as string);
  packed = (await run('tar', ['-tzf', tarball])).stdout.split('\n').filter((line) => line !== '');
  await run('tar', ['-xzf', tarball, '-C', join(project, 'node_modules', 'nlgov-adr'), '--strip-components=1']);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true, types: [] } }));
}, 180000);

afterAll(() => rmSync(build, { recursive: true, force: true }));

test('the tarball has a .d.ts and a .d.cts for every entry point, named by `types` conditions, and the licence', () => {
  const names = ENTRY_POINTS.map(identifier);
  expect(packed).toEqual(expect.arrayContaining(['package/LICENSE', ...names.flatMap((name) => [`package/dist/${name}.d.ts`, `package/dist/${name}.d.cts`])]));
  const { exports } = JSON.parse(readFileSync(join(project, 'node_modules', 'nlgov-adr', 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  for (const entry of ENTRY_POINTS) {
    const name = identifier(entry);
    expect(exports[entry.replace('nlgov-adr', '.')]).toEqual({
      import: { types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` },
      require: { types: `./dist/${name}.d.cts`, default: `./dist/${name}.cjs` },
      default: `./dist/${name}.cjs`,
    });
  }
});

test('tsc --strict with NodeNext resolution types every entry point as a RulesetDefinition, imported and required', async () => {
  const names = ENTRY_POINTS.map(identifier);
  writeFileSync(join(project, 'imports.ts'), [
    "import type { RulesetDefinition } from '@stoplight/spectral-core';",
    ...ENTRY_POINTS.map((entry) => `import ${identifier(entry)} from '${entry}';`),
    `export const rulesets: RulesetDefinition[] = [${names.join(', ')}];`,
    '// @ts-expect-error: a ruleset is no number, so the declarations are not `any`',
    'export const notANumber: number = ruleset;',
    '',
  ].join('\n'));
  writeFileSync(join(project, 'requires.cts'), [
    "import type { RulesetDefinition } from '@stoplight/spectral-core';",
    ...ENTRY_POINTS.map((entry) => `import ${identifier(entry)} = require('${entry}');`),
    `export const rulesets: RulesetDefinition[] = [${names.join(', ')}];`,
    '',
  ].join('\n'));
  const snippets = [...readFileSync(join(root, 'README.md'), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] as string);
  expect(snippets.length).toBeGreaterThan(0);
  snippets.forEach((snippet, index) => writeFileSync(join(project, `readme-${index + 1}.ts`), snippet));

  const tsc = await run(join(root, 'node_modules', '.bin', 'tsc'), ['-p', project]).catch((error: { code: number; stdout: string }) => error);
  expect({ code: 'code' in tsc ? tsc.code : 0, output: tsc.stdout }).toEqual({ code: 0, output: '' });
});
