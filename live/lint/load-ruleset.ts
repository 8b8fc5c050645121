import { Spectral, type Ruleset, type RulesetDefinition } from '@stoplight/spectral-core';
import type { Resolver } from '@stoplight/spectral-ref-resolver';
import type { LintRuleset } from './ruleset.js';

/** The package's module sets, as the worker bundles them: no build of dist/ needed, nothing bundled at run time. */
const MODULE_SETS: Record<string, () => Promise<{ default: RulesetDefinition }>> = {
  'nlgov-adr': () => import('../../ruleset.js'),
  'nlgov-adr/core': () => import('../../entrypoints/core.js'),
  'nlgov-adr/geo': () => import('../../entrypoints/geo.js'),
  'nlgov-adr/signing': () => import('../../entrypoints/signing.js'),
  'nlgov-adr/oauth': () => import('../../entrypoints/oauth.js'),
};

/**
 * The ruleset of a lint job, in the worker: a module set, or the user's ruleset file loaded by the
 * Spectral CLI's own loader (the same migration of YAML/JSON rulesets, the same bundling of
 * JavaScript ones), with the package's names in `extends` resolved to this package.
 */
export async function loadRuleset(choice: LintRuleset | undefined): Promise<RulesetDefinition | Ruleset> {
  if (choice === undefined || choice.kind === 'module-set') {
    const name = choice?.name ?? 'nlgov-adr';
    const load = MODULE_SETS[name];
    if (load === undefined) throw new Error(`unknown module set ${name}`);
    return (await load()).default;
  }
  const [{ resolveOwnNames }, { getRuleset }] = await Promise.all([
    import('../../bin/ruleset-choice.js'),
    import('@stoplight/spectral-cli/dist/services/linter/utils/getRuleset.js'),
  ]);
  resolveOwnNames();
  try {
    return await getRuleset(choice.file);
  } catch (error) {
    throw new Error(`the ruleset ${choice.file} did not load: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
  }
}

/** A Spectral with this ruleset and resolver. */
export function linterWith(ruleset: RulesetDefinition | Ruleset, resolver: Resolver): Spectral {
  const spectral = new Spectral({ resolver });
  spectral.setRuleset(ruleset);
  return spectral;
}

/** Each rule's one-line description, by code: of the ruleset and of the spectral:oas rules it may extend. */
export function ruleDescriptions(ruleset: RulesetDefinition | Ruleset): Record<string, { description?: string | null }> {
  return (ruleset as { rules?: Record<string, { description?: string | null }> }).rules ?? {};
}
