import { ruleFunction } from '../lib/rule-function.js';
import { isObject } from '../lib/json.js';
import { FORBIDDEN_METHODS } from '../lib/openapi.js';

/** What becomes of each method once its operation is gone from the description. */
const ADVICE: Record<(typeof FORBIDDEN_METHODS)[number], string> = {
  head: 'the server answers HEAD itself, as GET without a body',
  options: 'the server answers OPTIONS itself (Allow, CORS preflight)',
  trace: 'remove TRACE, which the API need not offer',
};

/** /core/http-methods: a path item declares no HEAD, OPTIONS or TRACE operation. */
export default ruleFunction<null>({ input: null, options: null }, (pathItem) => {
  if (!isObject(pathItem)) return [];
  return FORBIDDEN_METHODS.filter((method) => pathItem[method] !== undefined).map((method) => ({
    message: `Operation uses a method outside the standard: ${method.toUpperCase()}. Use only GET, POST, PUT, PATCH and DELETE; ${ADVICE[method]}.`,
    path: [method],
  }));
});
