import type { IFunctionResult } from '@stoplight/spectral-core';
import { ruleFunction } from '../lib/rule-function.js';
import { entries, isObject } from '../lib/json.js';
import { isJsonMediaType, statusClass } from '../lib/openapi.js';
import { missingAlong } from '../lib/schema-shape.js';

/** The global search result of SPEC.md, as property chains. */
const REQUIRED_CHAINS = [
  ['currentPage'],
  ['nextPage'],
  ['pageSize'],
  ['_embedded', 'items[]', 'type'],
  ['_embedded', 'items[]', '_links', 'self', 'href'],
];

/** nlgov:global-search on the 2xx JSON responses of an operation on `/_search`. */
export default ruleFunction<null>({ input: null, options: null }, (responses, _options, context) => {
  // Judged here rather than in a JSONPath filter: `paths` may be an array, whose keys are numbers.
  if (!String(context.path[1]).endsWith('/_search')) return [];
  const results: IFunctionResult[] = [];
  for (const [status, response] of entries(responses)) {
    if (statusClass(status) !== 2 || !isObject(response)) continue;
    for (const [mediaType, media] of entries(response.content)) {
      if (!isJsonMediaType(mediaType) || !isObject(media) || !isObject(media.schema)) continue;
      const schemaPath = [status, 'content', mediaType, 'schema'];
      // A missing parent is met again by each chain through it: one finding per field and place.
      const reported = new Set<string>();
      for (const gap of REQUIRED_CHAINS.flatMap((chain) => missingAlong(media.schema, schemaPath, chain))) {
        const key = `${gap.missing}\u0000${gap.at.join('\u0000')}`;
        if (reported.has(key)) continue;
        reported.add(key);
        results.push({
          message: `Global search result lacks a required field: ${gap.missing}. Return currentPage, nextPage, pageSize and _embedded.items[] with type and _links.self.href.`,
          path: gap.at,
        });
      }
    }
  }
  return results;
});
