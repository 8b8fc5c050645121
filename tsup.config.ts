import { defineConfig, type Options } from 'tsup';

const DEPENDENCIES = [/^@stoplight\//, 'semver', /^ajv/, 'yaml', 'selfsigned', 'proj4', 'jose'];

// The Spectral CLI bundles a JS ruleset and swaps every @stoplight import for its own copy,
// so those stay external. Plain CJS output does not load there; cjsInterop + splitting does.
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
  clean: true,
  splitting: true,
  cjsInterop: true,
  external: DEPENDENCIES,
};

/** The adr-check command: one ESM file, its shebang kept from live/cli.ts, and its lint worker beside it. */
const cli: Options = {
  entry: { 'adr-check': 'live/cli.ts', 'lint-worker': 'live/lint/worker.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  clean: false,
  splitting: false,
  external: DEPENDENCIES,
};

export default defineConfig([ruleset, cli]);
