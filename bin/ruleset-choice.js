// Which ruleset a lint uses, shared by nlgov-adr-lint, the pre-commit hook and adr-check:
// --ruleset if given, else the project's .spectral.* in the working directory (where the Spectral
// CLI and stoplightio/spectral-action look for it), else this package's full ruleset. And the
// package's own names (nlgov-adr, nlgov-adr/core, ...) resolve to this package wherever it runs,
// also from pre-commit's environment, where the project has no node_modules to find it in.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
const PACKAGE_JSON = join(PACKAGE_ROOT, 'package.json');
const manifest = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8'));

export const PACKAGE_NAME = manifest.name;
export const PACKAGE_VERSION = manifest.version;
export const MODULE_SETS = [PACKAGE_NAME, ...['core', 'geo', 'signing', 'oauth'].map((module) => `${PACKAGE_NAME}/${module}`)];

/** The Spectral CLI's default ruleset names (Ruleset.isDefaultRulesetFile) and .cjs, in the order one is preferred when several exist. */
const PROJECT_RULESET_NAMES = ['yaml', 'yml', 'json', 'js', 'mjs', 'cjs'].flatMap((extension) => [`.spectral.${extension}`, `spectral.${extension}`]);

/** The project's ruleset file in `directory`, or undefined. */
export function projectRuleset(directory) {
  let names;
  try {
    names = new Set(readdirSync(directory));
  } catch {
    return undefined;
  }
  const found = PROJECT_RULESET_NAMES.find((name) => names.has(name));
  return found === undefined ? undefined : join(directory, found);
}

/** Whether a module name is this package or one of its subpaths. */
export function isOwnName(name) {
  return name === PACKAGE_NAME || name.startsWith(`${PACKAGE_NAME}/`);
}

const selfRequire = createRequire(PACKAGE_JSON);
let resolvingOwnName = false;

/** The file a name of this package resolves to, through its own exports (as `require` would), or undefined. */
export function ownNameFile(name) {
  resolvingOwnName = true;
  try {
    return selfRequire.resolve(name);
  } catch {
    return undefined;
  } finally {
    resolvingOwnName = false;
  }
}

/**
 * From here on, every require (and require.resolve) of this package's names in this thread gets
 * this package's files: the Spectral ruleset migrator and loader look `extends: nlgov-adr` up
 * from the ruleset's folder, which has no node_modules in pre-commit's environment or in this
 * repository. Node 20 has no public hook for CommonJS resolution (module.registerHooks is 22.15+).
 */
export function resolveOwnNames() {
  const original = Module._resolveFilename;
  if (original.ownNames === true) return;
  const patched = function resolveFilename(request, ...rest) {
    if (!resolvingOwnName && typeof request === 'string' && isOwnName(request)) {
      const file = ownNameFile(request);
      if (file !== undefined) return file;
    }
    return original.call(this, request, ...rest);
  };
  patched.ownNames = true;
  Module._resolveFilename = patched;
}

/** A module set, its file built? For a friendly error before Spectral's. */
export function missingBuild(name) {
  const file = ownNameFile(name);
  if (file === undefined) return `unknown module set ${name}: one of ${MODULE_SETS.join(', ')}`;
  if (!existsSync(file)) return `${file} is missing: build the package first (npm run build)`;
  return undefined;
}

/**
 * The module set a ruleset file amounts to, when all it says is `extends: <one of our module
 * sets>` (by name, or by a path to its built file): the lint can then use the module set itself.
 */
export function onlyExtendsModuleSet(file) {
  if (!/\.(ya?ml|json)$/.test(file)) return undefined;
  let definition;
  try {
    definition = parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (definition === null || typeof definition !== 'object' || Array.isArray(definition)) return undefined;
  const keys = Object.keys(definition);
  if (keys.length !== 1 || keys[0] !== 'extends') return undefined;
  const extended = Array.isArray(definition.extends) && definition.extends.length === 1 ? definition.extends[0] : definition.extends;
  if (typeof extended !== 'string') return undefined;
  if (MODULE_SETS.includes(extended)) return extended;
  if (!extended.startsWith('.') && !extended.startsWith('/')) return undefined;
  const target = resolve(dirname(file), extended);
  return MODULE_SETS.find((name) => {
    const built = ownNameFile(name);
    return built !== undefined && target.replace(/\.c?js$/, '') === built.replace(/\.c?js$/, '');
  });
}

/**
 * The ruleset a lint uses: `given` (--ruleset: a module set or a file), else the project's
 * .spectral.* in `directory`, else the full module set. `from` says where the choice came from.
 */
export function chooseRuleset(given, directory) {
  if (given !== undefined) return isOwnName(given) ? { kind: 'module-set', name: given, from: '--ruleset' } : { kind: 'file', file: resolve(directory, given), from: '--ruleset' };
  const project = projectRuleset(directory);
  if (project !== undefined) return { kind: 'file', file: project, from: 'project' };
  return { kind: 'module-set', name: PACKAGE_NAME, from: 'default' };
}
