export { signingRuleset as default } from '../rulesets/modules.js';
