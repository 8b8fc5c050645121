#!/usr/bin/env node
// nlgov-adr-lint [--ruleset <set>] [spectral lint options] <files or globs...>
//
// `spectral lint` with this package's ruleset passed explicitly, so a description in any folder is
// linted the same (Spectral itself looks for .spectral.yaml in the working directory only). The
// pre-commit hook and the GitHub Action run it. <set> is a module set of this package (nlgov-adr,
// nlgov-adr/core, nlgov-adr/geo, nlgov-adr/signing, nlgov-adr/oauth; default nlgov-adr) or a
// ruleset file of your own. Everything else goes to `spectral lint` as it is; its exit code is ours.
//
// $refs are resolved by this package's resolver (dist/ogc-resolver.cjs, docs/ogc-schemas.md): local
// files as Spectral reads them, the OGC API schemas of schemas.opengis.net from the copies in this
// package, other http(s) URLs refused at once, so a lint gives the same findings offline and in CI.
// --fetch-remote-refs (or NLGOV_ADR_FETCH_REMOTE_REFS=1, for the GitHub Action) leaves Spectral's own
// resolver in place (it fetches every http(s) $ref, without a timeout); a --resolver of your own is
// passed on as it is.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** A module set of this package -> its built file, resolved through the package's exports like `extends: nlgov-adr/geo`. */
function rulesetFile(name) {
  if (name !== manifest.name && !name.startsWith(`${manifest.name}/`)) return name;
  let file = '';
  try {
    file = fileURLToPath(import.meta.resolve(name));
  } catch {
    fail(`unknown module set ${name}`);
  }
  if (!file.startsWith(fileURLToPath(new URL('../dist/', import.meta.url)))) fail(`unknown module set ${name}`);
  if (!existsSync(file)) fail(`${file} is missing: build the package first (npm run build)`);
  return file;
}

function fail(message) {
  console.error(`nlgov-adr-lint: ${message}`);
  process.exit(2);
}

/** The package's resolver, unless the user fetches remote $refs or brings a resolver of their own. */
function resolverArgs(fetchRemote, ownResolver) {
  if (fetchRemote || ownResolver) return [];
  const file = fileURLToPath(new URL('../dist/ogc-resolver.cjs', import.meta.url));
  if (!existsSync(file)) fail(`${file} is missing: build the package first (npm run build)`);
  return ['--resolver', file];
}

const args = process.argv.slice(2);
let ruleset = manifest.name;
let fetchRemote = process.env.NLGOV_ADR_FETCH_REMOTE_REFS === '1';
const rest = [];
for (let index = 0; index < args.length; index += 1) {
  const arg = args[index];
  if (arg === '--ruleset' || arg === '-r') ruleset = args[(index += 1)] ?? fail(`${arg} needs a value`);
  else if (arg.startsWith('--ruleset=')) ruleset = arg.slice('--ruleset='.length);
  else if (arg === '--fetch-remote-refs') fetchRemote = true;
  else rest.push(arg);
}
const ownResolver = rest.some((arg) => arg === '--resolver' || arg.startsWith('--resolver='));

const spectral = createRequire(import.meta.url).resolve('@stoplight/spectral-cli');
const run = spawnSync(process.execPath, [spectral, 'lint', '--ruleset', rulesetFile(ruleset), ...resolverArgs(fetchRemote, ownResolver), ...rest], { stdio: 'inherit' });
process.exit(run.status ?? 2);
