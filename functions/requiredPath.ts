import { ruleFunction } from '../lib/rule-function.js';
import { isObject } from '../lib/json.js';

export interface RequiredPathOptions {
  /** At least one of these paths is in `paths`. */
  anyOf: string[];
  advice: string;
}

/** A path the standard expects in `paths` (`/openapi.json`; later `/collections` or `/crss`). */
export default ruleFunction<RequiredPathOptions>(
  {
    input: null,
    options: {
      type: 'object',
      additionalProperties: false,
      required: ['anyOf', 'advice'],
      properties: { anyOf: { type: 'array', items: { type: 'string' }, minItems: 1 }, advice: { type: 'string' } },
    },
  },
  (paths, options) => {
    if (!isObject(paths)) return [];
    if (options.anyOf.some((path) => path in paths)) return [];
    return [{ message: `Path is not described: ${options.anyOf.join(' or ')}. ${options.advice}.`, path: [] }];
  },
);
