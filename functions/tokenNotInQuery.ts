import { ruleFunction } from '../lib/rule-function.js';
import { isObject } from '../lib/json.js';

/**
 * nlgov:oauth-no-token-in-query: a protected resource MUST NOT accept tokens in the query. Given
 * a security scheme (apiKey in query) or a parameter (access_token in query).
 */
export default ruleFunction<null>({ input: null, options: null }, (target) => {
  if (!isObject(target) || target.in !== 'query') return [];
  if (target.type === 'apiKey') {
    return [{ message: `API key is sent in the query string: ${String(target.name)}. Send credentials in the Authorization header.`, path: ['in'] }];
  }
  if (typeof target.name === 'string' && target.name.toLowerCase() === 'access_token') {
    return [{ message: `Access token is accepted in the query string: ${target.name}. Accept the bearer token in the Authorization header only.`, path: ['name'] }];
  }
  return [];
});
