import { ruleFunction } from '../lib/rule-function.js';
import { isObject } from '../lib/json.js';
import { capitalize, toCamelCase } from '../lib/words.js';

export interface ParameterNameCasingOptions {
  in: string;
  /** Names another standard fixes (OGC API Features): exempt. */
  exempt: string[];
}

const LOWER_CAMEL = /^[a-z][a-zA-Z0-9]*$/;

/** /core/query-keys-camel-case: parameter names in lowerCamelCase. */
export default ruleFunction<ParameterNameCasingOptions>(
  {
    input: null,
    options: {
      type: 'object',
      additionalProperties: false,
      required: ['in', 'exempt'],
      properties: { in: { type: 'string' }, exempt: { type: 'array', items: { type: 'string' } } },
    },
  },
  (parameter, options) => {
    if (!isObject(parameter) || parameter.in !== options.in || typeof parameter.name !== 'string') return [];
    if (LOWER_CAMEL.test(parameter.name) || options.exempt.includes(parameter.name)) return [];
    return [{
      message: `${capitalize(options.in)} parameter name is not lowerCamelCase: ${parameter.name}. Rename it, for example ${toCamelCase(parameter.name)}.`,
      path: ['name'],
    }];
  },
);
