import type { IFunctionResult } from '@stoplight/spectral-core';
import { ruleFunction } from '../lib/rule-function.js';
import { asArray, asObject, entries, isObject, type JsonObject } from '../lib/json.js';
import { OPERATION_METHODS, FORBIDDEN_METHODS, findHeader, statusClass } from '../lib/openapi.js';
import { declaredValues } from '../lib/declared-values.js';

const ALLOW_ORIGIN = 'Access-Control-Allow-Origin';

/**
 * /core/publish-openapi on the `/openapi.json` path item: GET only, no security requirement,
 * and a 2xx response that declares `Access-Control-Allow-Origin` allowing all origins.
 */
export default ruleFunction<null>({ input: null, options: null }, (pathItem, _options, context) => {
  if (!isObject(pathItem)) return [];
  const otherMethods = [...OPERATION_METHODS, ...FORBIDDEN_METHODS].filter((method) => method !== 'get' && pathItem[method] !== undefined);
  const results: IFunctionResult[] = otherMethods.map((method) => ({
    message: `/openapi.json has an operation other than GET: ${method.toUpperCase()}. Define only GET on /openapi.json.`,
    path: [method],
  }));
  const get = pathItem.get;
  if (!isObject(get)) {
    results.push({ message: '/openapi.json has no GET operation. Publish the description with GET /openapi.json.', path: [] });
    return results;
  }
  results.push(...securityFindings(get, asObject(context.document.data)));
  results.push(...allowOriginFindings(get));
  return results;
});

function securityFindings(get: JsonObject, document: JsonObject): IFunctionResult[] {
  const ownRequirement = get.security !== undefined;
  const requirements = asArray(ownRequirement ? get.security : document.security);
  const anonymousAllowed = requirements.length === 0 || requirements.some((requirement) => isObject(requirement) && Object.keys(requirement).length === 0);
  if (anonymousAllowed) return [];
  const names = requirements.flatMap((requirement) => Object.keys(asObject(requirement))).join(', ') || JSON.stringify(requirements);
  const where = ownRequirement ? 'its own security' : 'the root security, which applies to it';
  return [{
    message: `/openapi.json requires authentication through ${where}: ${names}. Set security: [] on GET /openapi.json.`,
    path: ownRequirement ? ['get', 'security'] : ['get'],
  }];
}

function allowOriginFindings(get: JsonObject): IFunctionResult[] {
  const results: IFunctionResult[] = [];
  const successes = entries(get.responses).filter(([status]) => statusClass(status) === 2);
  if (successes.length === 0) {
    return [{ message: '/openapi.json has no 2xx response. Describe the 200 response with its Access-Control-Allow-Origin header.', path: ['get', 'responses'] }];
  }
  for (const [status, response] of successes) {
    const header = findHeader(asObject(response).headers, ALLOW_ORIGIN);
    if (header === undefined) {
      results.push({
        message: `/openapi.json response ${status} does not declare ${ALLOW_ORIGIN}. Declare the header with value *.`,
        path: ['get', 'responses', status, 'headers'],
      });
      continue;
    }
    for (const [value, valuePath] of declaredValues(header[1])) {
      if (value === '*') continue;
      results.push({
        message: `/openapi.json ${ALLOW_ORIGIN} does not allow all origins: ${JSON.stringify(value)}. Declare the value *.`,
        path: ['get', 'responses', status, 'headers', header[0], ...valuePath],
      });
    }
  }
  return results;
}
