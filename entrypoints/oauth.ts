export { oauthRuleset as default } from '../rulesets/modules.js';
