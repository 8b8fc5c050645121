import { ruleFunction } from '../lib/rule-function.js';
import { isObject } from '../lib/json.js';
import { isGeospatial } from '../lib/geo.js';
import { resolvedDocument } from '../lib/inventory.js';

export interface RequiredPathOptions {
  /** At least one of these paths is in `paths`. */
  anyOf: string[];
  advice: string;
  /** Only for APIs that carry geospatial data (the geospatial module applies to them alone). */
  onlyWhenGeospatial?: boolean;
}

/** A path the standard expects in `paths` (`/openapi.json`; later `/collections` or `/crss`). */
export default ruleFunction<RequiredPathOptions>(
  {
    input: null,
    options: {
      type: 'object',
      additionalProperties: false,
      required: ['anyOf', 'advice'],
      properties: { anyOf: { type: 'array', items: { type: 'string' }, minItems: 1 }, advice: { type: 'string' }, onlyWhenGeospatial: { type: 'boolean' } },
    },
  },
  (paths, options, context) => {
    if (!isObject(paths)) return [];
    if (options.onlyWhenGeospatial === true && !isGeospatial(resolvedDocument(context))) return [];
    if (options.anyOf.some((path) => path in paths)) return [];
    return [{ message: `Path is not described: ${options.anyOf.join(' or ')}. ${options.advice}.`, path: [] }];
  },
);
