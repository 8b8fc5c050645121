import { ruleFunction } from '../lib/rule-function.js';
import { isObject } from '../lib/json.js';
import { FORBIDDEN_METHODS } from '../lib/openapi.js';

/** /core/http-methods: a path item declares no HEAD, OPTIONS or TRACE operation. */
export default ruleFunction<null>({ input: null, options: null }, (pathItem) => {
  if (!isObject(pathItem)) return [];
  return FORBIDDEN_METHODS.filter((method) => pathItem[method] !== undefined).map((method) => ({
    message: `Operation uses a method outside the standard: ${method.toUpperCase()}. Use only GET, POST, PUT, PATCH and DELETE; the server handles HEAD and OPTIONS itself.`,
    path: [method],
  }));
});
