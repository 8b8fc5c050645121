import { cpSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

const DEPENDENCIES = [/^@stoplight\//, 'semver', /^ajv/, 'yaml', 'selfsigned', 'proj4', 'jose', 'fastify', /^@fastify\//, 'better-sqlite3'];

// The Spectral CLI bundles a JS ruleset and swaps every @stoplight import for its own copy,
// so those stay external. Plain CJS output does not load there; cjsInterop + splitting does.
// dts: a .d.ts beside each .js and a .d.cts beside each .cjs, named by package.json's `types` conditions.
const ruleset: Options = {
  entry: {
    ruleset: 'ruleset.ts',
    core: 'entrypoints/core.ts',
    geo: 'entrypoints/geo.ts',
    signing: 'entrypoints/signing.ts',
    oauth: 'entrypoints/oauth.ts',
  },
  format: ['esm', 'cjs'],
  target: 'node20',
  platform: 'node',
  clean: ['!vscode/**'], // the builds run at once: dist/vscode/ is the vscode build's to clean
  splitting: true,
  cjsInterop: true,
  dts: true,
  external: DEPENDENCIES,
};

/*
 * The VS Code extension (stoplight.spectral) bundles a ruleset with rollup and the bundler's
 * `runtime` preset: its `builtins` plugin provides @stoplight/spectral-core, -formats,
 * -functions, -parsers, -ref-resolver, -rulesets and -runtime (its own copies), and every other
 * bare import is fetched from a public CDN, so offline it fails. This build imports only
 * extension-provided modules and bundles the rest in, @stoplight/spectral-formats included:
 * the extension's copy (1.8) lacks `oas3_2`. See docs/vscode.md and test/vscode-bundle.test.ts.
 */
const VSCODE_PROVIDED = ['@stoplight/spectral-core', '@stoplight/spectral-functions', '@stoplight/spectral-rulesets', '@stoplight/spectral-parsers', '@stoplight/spectral-ref-resolver', '@stoplight/spectral-runtime'];
const vscode: Options = {
  entry: { ruleset: 'ruleset.ts' },
  outDir: 'dist/vscode',
  format: ['esm'],
  target: 'es2022',
  platform: 'node',
  clean: true,
  splitting: false,
  external: VSCODE_PROVIDED,
  noExternal: [new RegExp(`^(?!(?:${VSCODE_PROVIDED.join('|')})$)`)],
};

/** The adr-check command: one ESM file, its shebang kept from live/cli.ts, and its lint worker beside it. */
const cli: Options = {
  // action-report: the GitHub Action's report step, which must run at a release tag without tsx.
  entry: { 'adr-check': 'live/cli.ts', 'lint-worker': 'live/lint/worker.ts', 'action-report': 'tools/action-report.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  clean: false,
  splitting: false,
  external: DEPENDENCIES,
  // adr-check serve reads its page assets and OpenAPI description beside the bundle (web/server.ts asset()).
  onSuccess: async () => {
    cpSync('web/static', 'dist/static', { recursive: true });
    cpSync('web/openapi.json', 'dist/openapi.json');
  },
};

/**
 * The `$ref` resolver for `spectral lint --resolver` (entrypoints/ogc-resolver.ts): the Spectral
 * CLI require()s it and takes module.exports as the resolver, so the CJS build exports it whole
 * (cjsInterop, which takes splitting); shims give it import.meta.url, by which it finds schemas/ogc/ beside dist/.
 */
const resolver: Options = {
  entry: { 'ogc-resolver': 'entrypoints/ogc-resolver.ts' },
  format: ['cjs', 'esm'],
  target: 'node20',
  platform: 'node',
  clean: false,
  splitting: true,
  cjsInterop: true,
  shims: true,
  external: DEPENDENCIES,
};

export default defineConfig([ruleset, vscode, cli, resolver]);
