import { ruleFunction } from '../lib/rule-function.js';
import { isObject } from '../lib/json.js';

export interface ForbiddenOAuthFlowsOptions {
  flows: string[];
  why: string;
  advice: string;
}

/** nlgov:oauth-flows and nlgov:oauth-client-credentials: flows an oauth2 scheme must not offer. */
export default ruleFunction<ForbiddenOAuthFlowsOptions>(
  {
    input: null,
    options: {
      type: 'object',
      additionalProperties: false,
      required: ['flows', 'why', 'advice'],
      properties: { flows: { type: 'array', items: { type: 'string' } }, why: { type: 'string' }, advice: { type: 'string' } },
    },
  },
  (scheme, options) => {
    if (!isObject(scheme) || scheme.type !== 'oauth2' || !isObject(scheme.flows)) return [];
    const flows = scheme.flows;
    return options.flows
      .filter((flow) => flows[flow] !== undefined)
      .map((flow) => ({ message: `OAuth flow ${options.why}: ${flow}. ${options.advice}.`, path: ['flows', flow] }));
  },
);
