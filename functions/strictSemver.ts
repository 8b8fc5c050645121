import { ruleFunction } from '../lib/rule-function.js';
import { isObject } from '../lib/json.js';
import { strictSemver } from '../lib/semver.js';

/** /core/semver: `info.version` is SemVer 2.0.0, spelled exactly (no `v`, no leading zeros). */
export default ruleFunction<null>({ input: null, options: null }, (document) => {
  if (!isObject(document)) return [];
  const info = isObject(document.info) ? document.info : {};
  if (strictSemver(info.version) !== undefined) return [];
  const found = info.version === undefined ? 'none' : JSON.stringify(info.version);
  const path = info.version !== undefined ? ['info', 'version'] : isObject(document.info) ? ['info'] : [];
  return [{ message: `API version is not SemVer 2.0.0: ${found}. Use major.minor.patch, for example 1.0.0.`, path }];
});
