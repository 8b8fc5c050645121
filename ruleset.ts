import type { RulesetDefinition } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import { coreRules, oasRules } from './rulesets/core.js';

/** nlgov-adr: every machine-testable rule of the Dutch API Design Rules. */
const ruleset = {
  extends: [[oas as RulesetDefinition, 'off']],
  rules: { ...oasRules, ...coreRules },
} as RulesetDefinition;

export default ruleset;
