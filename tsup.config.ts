import { defineConfig } from 'tsup';

// The Spectral CLI bundles a JS ruleset and swaps every @stoplight import for its own copy,
// so those stay external. Plain CJS output does not load there; cjsInterop + splitting does.
export default defineConfig({
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
  dts: false,
  clean: true,
  splitting: true,
  cjsInterop: true,
  sourcemap: false,
  external: [/^@stoplight\//, 'semver', /^ajv/],
});
