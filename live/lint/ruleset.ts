import { existsSync } from 'node:fs';
import { chooseRuleset, MODULE_SETS, onlyExtendsModuleSet, PACKAGE_VERSION } from '../../bin/ruleset-choice.js';

/**
 * The ruleset of adr-check's static lint, chosen as nlgov-adr-lint and spectral-action choose it:
 * --ruleset (a module set or a ruleset file), else the working directory's .spectral.* (a rule
 * turned off there stays off), else the full nlgov-adr. A ruleset file is the user's own code,
 * loaded as the Spectral CLI loads it (its JavaScript runs); the description stays hostile input.
 */
export type LintRuleset = { kind: 'module-set'; name: string } | { kind: 'file'; file: string };

export interface RulesetUse {
  ruleset: LintRuleset;
  /** What the report says linted the description. */
  label: string;
}

/** Raised for a --ruleset that names no module set and no readable file. */
export class RulesetError extends Error {}

/**
 * The ruleset for this run. A .spectral.* that only extends one of the package's module sets
 * (this repository's own, `extends: nlgov-adr`) is that module set: the same rules, not bundled again.
 */
export function chooseLintRuleset(given: string | undefined, directory: string): RulesetUse {
  const choice = chooseRuleset(given, directory);
  if (choice.kind === 'module-set') {
    if (!MODULE_SETS.includes(choice.name)) throw new RulesetError(`unknown module set for --ruleset: ${choice.name}. Give one of ${MODULE_SETS.join(', ')}, or a ruleset file`);
    return { ruleset: { kind: 'module-set', name: choice.name }, label: `${choice.name} ${PACKAGE_VERSION}` };
  }
  if (!existsSync(choice.file)) throw new RulesetError(`ruleset file not found: ${choice.file}. Give an existing ruleset file or a module set to --ruleset`);
  const moduleSet = onlyExtendsModuleSet(choice.file);
  if (moduleSet !== undefined) return { ruleset: { kind: 'module-set', name: moduleSet }, label: `${moduleSet} ${PACKAGE_VERSION} (${choice.file})` };
  return { ruleset: { kind: 'file', file: choice.file }, label: choice.file };
}
