import type { IFunctionResult } from '@stoplight/spectral-core';
import type { JsonPath } from '@stoplight/types';
import { ruleFunction } from '../lib/rule-function.js';
import { asObject, entries, isObject, type JsonObject } from '../lib/json.js';
import { declaredValues } from '../lib/declared-values.js';
import { declaredProperties } from '../lib/schema-shape.js';
import { CONTENT_CRS, crsUriFor, isLegacyEpsgValue } from '../lib/crs.js';

/**
 * nlgov:deprecated-geo: the legacy constructs SPEC.md keeps for old APIs only. Given a parameter:
 * the `Accept-Crs` header and Content-Crs with EPSG codes. Given an operation: `POST .../_zoek`
 * with a `_geo` filter, and response Content-Crs headers with EPSG codes.
 */
export default ruleFunction<null>({ input: null, options: null }, (target, _options, context) => {
  if (!isObject(target)) return [];
  if (typeof target.in === 'string') return legacyHeaderParameter(target);
  const pathKey = String(context.path[1] ?? '');
  const method = String(context.path[2] ?? '');
  return [...geoSearch(pathKey, method, target), ...legacyResponseValues(target)];
});

function legacyHeaderParameter(parameter: JsonObject): IFunctionResult[] {
  if (parameter.in !== 'header' || typeof parameter.name !== 'string') return [];
  const name = parameter.name.toLowerCase();
  if (name === 'accept-crs') {
    return [{ message: `Request uses the deprecated Accept-Crs header: ${parameter.name}. Negotiate with the crs query parameter and the Content-Crs response header.`, path: ['name'] }];
  }
  return name === CONTENT_CRS ? legacyValues(parameter.name, parameter, []) : [];
}

function geoSearch(pathKey: string, method: string, operation: JsonObject): IFunctionResult[] {
  if (method !== 'post' || !pathKey.endsWith('/_zoek')) return [];
  return entries(asObject(operation.requestBody).content)
    .filter(([, media]) => declaredProperties(asObject(media).schema, []).has('_geo'))
    .map(([mediaType]) => ({
      message: `Search uses the deprecated _geo filter: POST ${pathKey}. Use the bbox and filter parameters of OGC API Features.`,
      path: ['requestBody', 'content', mediaType, 'schema'],
    }));
}

function legacyResponseValues(operation: JsonObject): IFunctionResult[] {
  return entries(operation.responses)
    .flatMap(([status, response]) =>
      entries(asObject(response).headers)
        .filter(([name]) => name.toLowerCase() === CONTENT_CRS)
        .flatMap(([name, header]) => legacyValues(name, header, ['responses', status, 'headers', name])),
    );
}

function legacyValues(name: string, declaration: unknown, base: JsonPath): IFunctionResult[] {
  return declaredValues(declaration)
    .filter(([value]) => typeof value === 'string' && isLegacyEpsgValue(value))
    .map(([value, path]) => ({
      // A legacy value is always `EPSG:<code>`, so its own URI is known.
      message: `${name} uses a deprecated EPSG code: ${String(value)}. Use its CRS URI ${crsUriFor(value) ?? 'http://www.opengis.net/def/crs/EPSG/0/<code>'}.`,
      path: [...base, ...path],
    }));
}
