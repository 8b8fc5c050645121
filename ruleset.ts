import { fullRuleset } from './rulesets/modules.js';

/** nlgov-adr: every machine-testable rule of the Dutch API Design Rules and its modules. */
export default fullRuleset;
