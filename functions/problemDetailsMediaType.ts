import type { IFunctionResult } from '@stoplight/spectral-core';
import { ruleFunction } from '../lib/rule-function.js';
import { entries, isObject } from '../lib/json.js';
import { isUnresolvedReference, mediaTypeName, statusClass } from '../lib/openapi.js';

const PROBLEM_TYPES = new Set(['application/problem+json', 'application/problem+xml']);

/** /core/error-handling/problem-details: 4xx and 5xx responses offer problem details. */
export default ruleFunction<null>({ input: null, options: null }, (responses) => {
  const results: IFunctionResult[] = [];
  for (const [status, response] of entries(responses)) {
    const responseClass = statusClass(status);
    if (!isObject(response) || isUnresolvedReference(response) || (responseClass !== 4 && responseClass !== 5)) continue;
    const mediaTypes = entries(response.content).map(([name]) => name);
    if (mediaTypes.some((name) => PROBLEM_TYPES.has(mediaTypeName(name)))) continue;
    const found = mediaTypes.length === 0 ? 'no content' : mediaTypes.join(', ');
    results.push({
      message: `Error response does not offer problem details: ${found}. Declare content application/problem+json (RFC 9457).`,
      path: mediaTypes.length === 0 ? [status] : [status, 'content'],
    });
  }
  return results;
});
