import { createRulesetFunction, type IFunctionResult, type RuleDefinition, type RulesetFunction } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import { asArray, asObject } from '../lib/json.js';
import { isAnyOperationMethod, isUnresolvedReference } from '../lib/openapi.js';

/** spectral:oas's own path-params function, whose judgment is kept whole. */
const builtinPathParams = ((oas as { rules: Record<string, RuleDefinition> }).rules['path-params']?.then as { function: RulesetFunction<unknown, null> }).function;

/**
 * spectral:oas's path-params, less its follow-ons of a reference that was not read: where an
 * operation or its path item takes a parameter whose `$ref` did not resolve (a file that cannot be
 * read, a schemas.opengis.net file the package does not ship, a pointer to nothing), the parameter
 * it would have defined is unknown, not missing. Spectral's `invalid-ref` (and /core/doc-openapi)
 * report that reference once; "Operation must define parameter" beside it would be a cascade.
 * Every other path-params finding stands, at the operation too where all its parameters were read.
 */
export default createRulesetFunction<Record<string, unknown>, null>({ input: { type: 'object' }, options: null }, (paths, options, context) => {
  const results = builtinPathParams(paths, options, context);
  if (!Array.isArray(results)) return results;
  return results.filter((result) => !followsFromUnreadParameter(paths, result));
});

/**
 * A finding at an operation itself (`paths.<key>.<method>`) is path-params' "must define parameter":
 * its other findings are at a path key or at a parameter. Told by place, not by wording.
 */
function followsFromUnreadParameter(paths: Record<string, unknown>, result: IFunctionResult): boolean {
  const { path } = result;
  if (path === undefined || path.length !== 3 || path[0] !== 'paths' || !isAnyOperationMethod(String(path[2]))) return false;
  const pathItem = asObject(paths[String(path[1])]);
  const operation = asObject(pathItem[String(path[2])]);
  return [...asArray(pathItem.parameters), ...asArray(operation.parameters)].some(isUnresolvedReference);
}
