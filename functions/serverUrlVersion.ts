import type { IFunctionResult } from '@stoplight/spectral-core';
import { ruleFunction } from '../lib/rule-function.js';
import type { RulesetFunctionContext } from '@stoplight/spectral-core';
import { asObject, isObject, valueAt } from '../lib/json.js';
import { resolvedDocument } from '../lib/inventory.js';
import { parseServerUrl } from '../lib/server-url.js';
import { strictSemver } from '../lib/semver.js';
import type { SemVer } from 'semver';

const MAJOR_SEGMENT = /^v(0|[1-9]\d*)$/;
const ZERO_PADDED_MAJOR = /^v0\d+$/;
/** `v1.2`, `v1_0`, `v1-1`, `v1.2.3`: a version segment that carries more than the major. */
const DETAILED_VERSION_SEGMENT = /^v\d+[._-]\d+/i;

/** /core/uri-version: a server URL carries exactly one `/v<major>` segment, matching info.version. */
export default ruleFunction<null>({ input: null, options: null }, (server, _options, context) => {
  if (!isObject(server) || typeof server.url !== 'string') return [];
  const parsed = parseServerUrl(server);
  const version = strictSemver(asObject(asObject(context.document.data).info).version);
  const anotherApi = linksToAnotherDescription(context);
  // The advice names the major the description declares, where it declares one; for another
  // API's server, the major its URL already carries.
  const major = anotherApi ? undefined : `/v${version?.major ?? 1}`;
  if (parsed === undefined) return [{ message: `Server URL cannot be parsed: ${server.url}. Give a valid URL.`, path: ['url'] }];
  const detailed = parsed.segments.filter((segment) => DETAILED_VERSION_SEGMENT.test(segment));
  if (detailed.length > 0) {
    const example = major ?? `/v${Number(/\d+/.exec(detailed[0] as string)?.[0])}`;
    return [{ message: `Server URL carries more than the major version: ${parsed.expanded}. Put only /v<major> in the URL, for example ${example}.`, path: ['url'] }];
  }
  const padded = parsed.segments.find((segment) => ZERO_PADDED_MAJOR.test(segment));
  if (padded !== undefined) {
    return [{ message: `Server URL has a major version with a leading zero: ${parsed.expanded}. Write the major without leading zeros: /v${Number(padded.slice(1))}.`, path: ['url'] }];
  }
  const majors = parsed.segments.filter((segment) => MAJOR_SEGMENT.test(segment));
  if (majors.length !== 1) {
    const problem = majors.length === 0 ? 'has no /v<major> segment' : 'has more than one /v<major> segment';
    return [{ message: `Server URL ${problem}: ${parsed.expanded}. Put the major version in the path once, for example https://api.example.nl${major ?? '/v<major>'}.`, path: ['url'] }];
  }
  return anotherApi ? [] : majorMismatch(majors[0] as string, parsed.expanded, version);
});

/**
 * The server of a Link Object whose `operationRef` points into another description is the
 * server of another API: its URL still carries one /v<major>, but that API's, not this one's.
 */
function linksToAnotherDescription(context: RulesetFunctionContext): boolean {
  if (context.path[context.path.length - 1] !== 'server' || context.path[context.path.length - 3] !== 'links') return false;
  const link = asObject(valueAt(resolvedDocument(context), context.path.slice(0, -1)));
  return typeof link.operationRef === 'string' && !link.operationRef.startsWith('#');
}

function majorMismatch(segment: string, url: string, version: SemVer | undefined): IFunctionResult[] {
  if (version === undefined) return [];
  const uriMajor = Number((MAJOR_SEGMENT.exec(segment) as RegExpExecArray)[1]);
  if (uriMajor === version.major) return [];
  // `raw`: the version as written, build metadata included (strictSemver accepts only that spelling).
  return [{ message: `Server URL major version differs from info.version ${version.raw}: ${url}. Use /v${version.major}.`, path: ['url'] }];
}
