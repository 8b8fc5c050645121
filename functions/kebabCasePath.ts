import { isExtensionKey, ruleFunction } from '../lib/rule-function.js';
import { isObject } from '../lib/json.js';
import { isUnresolvedReference } from '../lib/openapi.js';

const KEBAB_SEGMENT = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const VARIABLE_SEGMENT = /^\{[^{}]+\}$/;
/** `1.1.0`, `v1.2`, `2_0`: a version number, which no kebab-case spelling fixes. */
const VERSION_SEGMENT = /^v?\d+([._]\d+)+$/i;
const DOCUMENTATION_PATHS = new Set(['/openapi.json', '/openapi.yaml']);

/**
 * /core/path-segments-kebab-case on the keys of `paths`. A trailing slash is
 * /core/no-trailing-slash's finding, so it is ignored here: one problem, one finding.
 */
export default ruleFunction<null>({ input: null, options: null }, (paths) => {
  // `paths: {$ref: ...}` that did not resolve holds no path: /core/doc-openapi reports the reference.
  if (!isObject(paths) || isUnresolvedReference(paths)) return [];
  return Object.keys(paths)
    .filter((pathKey) => !isExtensionKey(pathKey) && !DOCUMENTATION_PATHS.has(pathKey.replace(/\/+$/, '')))
    .flatMap((pathKey) => {
      const wrong = wrongSegments(pathKey);
      if (wrong.length === 0) return [];
      const versions = wrong.filter((segment) => VERSION_SEGMENT.test(segment));
      // A version in the path (`1.1.0`) is a base-path question, not a spelling one: hyphens would make it worse.
      if (versions.length === wrong.length) {
        return [{
          message: `Path segment is a version number: ${versions.map(describeSegment).join(', ')} in ${pathKey}. Put the major version in the server URL as /v<major> (see /core/uri-version), not in the paths.`,
          path: [pathKey],
        }];
      }
      return [{
        message: `Path segment is not kebab-case: ${wrong.map(describeSegment).join(', ')} in ${pathKey}. Use lowercase letters, digits and hyphens, or {variable}; only the last segment may start with _.`,
        path: [pathKey],
      }];
    });
});

export function wrongSegments(pathKey: string): string[] {
  if (pathKey === '/') return [];
  const segments = pathKey.replace(/\/+$/, '').split('/').slice(1);
  if (!pathKey.startsWith('/')) return [pathKey];
  return segments.filter((segment, index) => {
    const isLast = index === segments.length - 1;
    const name = isLast && segment.startsWith('_') ? segment.slice(1) : segment;
    return !(KEBAB_SEGMENT.test(name) || VARIABLE_SEGMENT.test(segment));
  });
}

function describeSegment(segment: string): string {
  return segment === '' ? '(empty segment)' : `'${segment}'`;
}
