export { geoRuleset as default } from '../rulesets/modules.js';
