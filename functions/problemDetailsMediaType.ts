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
    const advice = 'Declare content application/problem+json (RFC 9457)';
    results.push(mediaTypes.length === 0
      ? { message: `Error response declares no content. ${advice}.`, path: [status] }
      : { message: `Error response does not offer problem details: ${mediaTypes.join(', ')}. ${advice}.`, path: [status, 'content'] });
  }
  return results;
});
