import { ruleFunction } from '../lib/rule-function.js';
import { isObject } from '../lib/json.js';
import { strictSemver } from '../lib/semver.js';
import { writtenScalar } from '../lib/inventory.js';

/** /core/semver: `info.version` is SemVer 2.0.0, spelled exactly (no `v`, no leading zeros). */
export default ruleFunction<null>({ input: null, options: null }, (document, _options, context) => {
  if (!isObject(document)) return [];
  const info = isObject(document.info) ? document.info : {};
  if (strictSemver(info.version) !== undefined) return [];
  if (info.version === undefined) {
    return [{ message: 'API version is missing. Add info.version in SemVer 2.0.0, for example 1.0.0.', path: isObject(document.info) ? ['info'] : [] }];
  }
  const found = typeof info.version === 'number' ? writtenNumber(info.version, writtenScalar(context, ['info', 'version'])) : JSON.stringify(info.version);
  return [{ message: `API version is not SemVer 2.0.0: ${found}. Use major.minor.patch, for example 1.0.0.`, path: ['info', 'version'] }];
});

/** An unquoted `version: 1.10` is the number 1.1: the message shows what was written, and why it differs. */
function writtenNumber(value: number, written: string | undefined): string {
  const spelled = written?.trim();
  if (spelled === undefined || Number(spelled) !== value || spelled === String(value)) return `${value} (a number)`;
  return `${spelled} (a number, read as ${value})`;
}
