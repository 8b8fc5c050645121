import type { IFunctionResult } from '@stoplight/spectral-core';
import { ruleFunction } from '../lib/rule-function.js';
import { entries, isObject } from '../lib/json.js';
import { findHeader, isUnresolvedReference, statusClass } from '../lib/openapi.js';
import { contentCarriesGeometry, isGeospatial } from '../lib/geo.js';
import { resolvedDocument } from '../lib/inventory.js';

export interface RequiredResponseHeaderOptions {
  header: string;
  /** Status classes (2 for 2xx and 2XX) whose responses must declare the header. */
  statusClasses: number[];
  advice: string;
  /** Only responses whose body carries geometry (GeoJSON, WKT/WKB): the geospatial module's headers. */
  onlyWithGeometry?: boolean;
}

/** A header every response of the given status classes declares; names compare case-insensitively. */
export default ruleFunction<RequiredResponseHeaderOptions>(
  {
    input: null,
    options: {
      type: 'object',
      additionalProperties: false,
      required: ['header', 'statusClasses', 'advice'],
      properties: {
        header: { type: 'string' },
        statusClasses: { type: 'array', items: { type: 'integer' } },
        advice: { type: 'string' },
        onlyWithGeometry: { type: 'boolean' },
      },
    },
  },
  (responses, options, context) => {
    // The geospatial module applies to geospatial APIs only; decided once per document.
    if (options.onlyWithGeometry === true && !isGeospatial(resolvedDocument(context))) return [];
    const results: IFunctionResult[] = [];
    for (const [status, response] of entries(responses)) {
      const responseClass = statusClass(status);
      if (!isObject(response) || isUnresolvedReference(response) || responseClass === undefined || !options.statusClasses.includes(responseClass)) continue;
      if (options.onlyWithGeometry === true && !contentCarriesGeometry(response)) continue;
      if (findHeader(response.headers, options.header) !== undefined) continue;
      const declared = entries(response.headers).map(([name]) => name);
      const found = declared.length === 0 ? 'no headers' : declared.join(', ');
      results.push({
        message: `Response does not declare the ${options.header} header: ${found}. ${options.advice}.`,
        path: [status, 'headers'],
      });
    }
    return results;
  },
);
