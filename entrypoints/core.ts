export { coreRuleset as default } from '../rulesets/modules.js';
