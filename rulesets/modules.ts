import type { RulesetDefinition } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import { coreRules, oasRules } from './core.js';
import { oasExampleRules, oasServerRules } from './oas.js';
import { geoRules } from './geo.js';
import { signingRules } from './signing.js';
import { oauthRules } from './oauth.js';

type Rules = Record<string, unknown>;

/** On top of spectral:oas with every rule off, so that the ones we keep are turned on by name. */
function onOasBase(rules: Rules): RulesetDefinition {
  return { extends: [[oas as RulesetDefinition, 'off']], rules } as RulesetDefinition;
}

/*
 * The package's entry points. Each entry file has a default export only: the Spectral CLI loads a
 * bundled ruleset as CommonJS and fails on an ES module with named exports beside the default.
 */

/** nlgov-adr/core: the core design rules, with the spectral:oas rules the official linter keeps. */
export const coreRuleset = onOasBase({ ...oasRules, ...oasExampleRules, ...oasServerRules, ...coreRules });
/** nlgov-adr/geo: the geospatial module 1.0; silent on APIs without geospatial data. */
export const geoRuleset = { rules: geoRules } as RulesetDefinition;
/** nlgov-adr/signing: the payload and message signing module. */
export const signingRuleset = { rules: signingRules } as RulesetDefinition;
/** nlgov-adr/oauth: the NL GOV OAuth 2.0 profile. */
export const oauthRuleset = { rules: oauthRules } as RulesetDefinition;
/** nlgov-adr: every machine-testable rule of the Dutch API Design Rules and its modules. */
export const fullRuleset = onOasBase({ ...oasRules, ...oasExampleRules, ...oasServerRules, ...coreRules, ...geoRules, ...signingRules, ...oauthRules });

/** Our own rules, per module, in the order the README and docs list them. */
export const nlgovRulesByModule = { core: coreRules, geo: geoRules, signing: signingRules, oauth: oauthRules };
export const nlgovRules = { ...coreRules, ...geoRules, ...signingRules, ...oauthRules };
