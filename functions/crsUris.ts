import type { IFunctionResult } from '@stoplight/spectral-core';
import type { JsonPath } from '@stoplight/types';
import { ruleFunction } from '../lib/rule-function.js';
import { entries, isObject, printedValue } from '../lib/json.js';
import { declaredValues } from '../lib/declared-values.js';
import { isGeospatial } from '../lib/geo.js';
import { resolvedDocument } from '../lib/inventory.js';
import { CONTENT_CRS, CRS_QUERY_PARAMETERS, crsUriFor, isCrsUri, isLegacyEpsgValue, isMalformedCrsUri } from '../lib/crs.js';

/**
 * nlgov:crs-uri: the CRS values a description pins down for crs, bbox-crs, filter-crs (query) and
 * Content-Crs (header parameter or response header) are CRS URIs. Legacy EPSG codes on Content-Crs
 * are nlgov:deprecated-geo's finding, so each problem is reported once.
 * Given a parameter, or a response's headers map.
 */
export default ruleFunction<null>({ input: null, options: null }, (target, _options, context) => {
  if (!isObject(target) || !isGeospatial(resolvedDocument(context))) return [];
  if (typeof target.name === 'string' && typeof target.in === 'string') return parameterFindings(target.name, target.in, target);
  return entries(target)
    .filter(([name]) => name.toLowerCase() === CONTENT_CRS)
    .flatMap(([name, header]) => valueFindings(name, header, [name], true));
});

function parameterFindings(name: string, location: string, parameter: Record<string, unknown>): IFunctionResult[] {
  if (location === 'query' && CRS_QUERY_PARAMETERS.has(name)) return valueFindings(name, parameter, [], false);
  if (location === 'header' && name.toLowerCase() === CONTENT_CRS) return valueFindings(name, parameter, [], true);
  return [];
}

const EXAMPLE_URI = 'http://www.opengis.net/def/crs/EPSG/0/28992';

function valueFindings(name: string, declaration: unknown, base: JsonPath, isContentCrs: boolean): IFunctionResult[] {
  return declaredValues(declaration)
    .filter(([value]) => typeof value !== 'string' || (!isCrsUri(value, isContentCrs) && !(isContentCrs && isLegacyEpsgValue(value))))
    .map(([value, path]) => ({ message: message(name, value, isContentCrs), path: [...base, ...path] }));
}

/** The fix: the URI of the CRS the value names, where it names one this can tell; otherwise an example. */
function message(name: string, value: unknown, isContentCrs: boolean): string {
  const uri = crsUriFor(value);
  if (typeof value === 'string' && isMalformedCrsUri(value, isContentCrs)) {
    const fix = uri === undefined ? `Give the authority, the version of the CRS registry and the code, for example ${EXAMPLE_URI}` : `Use ${uri}`;
    return `${name} value is not a CRS URI of the form http://www.opengis.net/def/crs/{authority}/{version}/{code}: ${value}. ${fix}.`;
  }
  const fix = uri === undefined ? `Use a CRS URI, for example ${EXAMPLE_URI}` : `Use its CRS URI ${uri}`;
  return `${name} value is not a CRS URI: ${printedValue(value)}. ${fix}.`;
}
