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
  /**
   * Also the `default` response of an operation that declares no response of those classes: it
   * is then the operation's only success response.
   */
  defaultWhenNoneOfTheClasses?: boolean;
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
        defaultWhenNoneOfTheClasses: { type: 'boolean' },
      },
    },
  },
  (responses, options, context) => {
    // The geospatial module applies to geospatial APIs only; decided once per document.
    if (options.onlyWithGeometry === true && !isGeospatial(resolvedDocument(context))) return [];
    const judged = judgedResponses(responses, options);
    const results: IFunctionResult[] = [];
    for (const [status, response] of entries(responses)) {
      if (!judged.has(status) || !isObject(response) || isUnresolvedReference(response)) continue;
      if (options.onlyWithGeometry === true && !contentCarriesGeometry(response)) continue;
      if (findHeader(response.headers, options.header) !== undefined) continue;
      results.push({ message: missingHeader(status, Object.keys(isObject(response.headers) ? response.headers : {}), options), path: [status, 'headers'] });
    }
    return results;
  },
);

/** The status keys whose responses must declare the header. */
function judgedResponses(responses: unknown, options: RequiredResponseHeaderOptions): Set<string> {
  const statuses = entries(responses).map(([status]) => status);
  const inClasses = statuses.filter((status) => options.statusClasses.includes(statusClass(status) ?? 0));
  const onlyDefault = options.defaultWhenNoneOfTheClasses === true && inClasses.length === 0 && statuses.includes('default');
  return new Set(onlyDefault ? ['default'] : inClasses);
}

/**
 * What the response lacks. The headers it does declare are named only where one is the wanted
 * header under another name (`X-API-Version`, `API_Version`): renaming it is the fix.
 */
function missingHeader(status: string, declared: string[], options: RequiredResponseHeaderOptions): string {
  const subject = status === 'default' ? 'Default response, the only success response of its operation,' : 'Response';
  const misspelled = declared.find((name) => looseName(name) === looseName(options.header));
  if (misspelled !== undefined) {
    return `${subject} does not declare the ${options.header} header (it declares ${misspelled}, another name). Rename ${misspelled} to ${options.header}.`;
  }
  return `${subject} does not declare the ${options.header} header. ${options.advice}.`;
}

/** A header name without case, separators and an `X-` prefix: `X-Api_Version` -> `apiversion`. */
function looseName(name: string): string {
  return name.toLowerCase().replace(/^x-/, '').replace(/[^a-z0-9]/g, '');
}
