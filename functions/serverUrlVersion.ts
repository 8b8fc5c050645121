import type { IFunctionResult } from '@stoplight/spectral-core';
import { ruleFunction } from '../lib/rule-function.js';
import type { RulesetFunctionContext } from '@stoplight/spectral-core';
import { asArray, asObject, entries, isObject, valueAt, type JsonObject } from '../lib/json.js';
import { isAnyOperationMethod } from '../lib/openapi.js';
import { resolvedDocument } from '../lib/inventory.js';
import { doubledVersion, parseServerUrl, sourceOfSegment, variableDefaults, withSegmentReplaced, type DoubledVersion } from '../lib/server-url.js';
import { strictSemver } from '../lib/semver.js';
import type { SemVer } from 'semver';

const MAJOR_SEGMENT = /^v(0|[1-9]\d*)$/;
const ZERO_PADDED_MAJOR = /^v0\d+$/;
/** `v1.2`, `v1_0`, `v1-1`, `v1.2.3`: a version segment that carries more than the major. */
const DETAILED_VERSION_SEGMENT = /^v\d+[._-]\d+/i;

/**
 * /core/uri-version: a server URL carries exactly one `/v<major>` segment, matching info.version.
 * The URL is judged with its variables at their defaults, and shown as written: the fix is made
 * where it is written, in the URL or in a variable's default.
 */
export default ruleFunction<null>({ input: null, options: null }, (server, _options, context) => {
  if (context.path.length === 0) return isObject(server) ? [...pathPrefixVersion(server), ...pathsRepeatingServerVersion(server)] : [];
  if (!isObject(server) || typeof server.url !== 'string') return [];
  const url = server.url;
  const parsed = parseServerUrl(server);
  const version = strictSemver(asObject(asObject(context.document.data).info).version);
  const anotherApi = linksToAnotherDescription(context);
  // The advice names the major the description declares, where it declares one; for another
  // API's server, the major its URL already carries.
  const major = anotherApi ? undefined : `v${version?.major ?? 1}`;
  if (parsed === undefined) return [{ message: `Server URL cannot be parsed: ${url}. Give a valid URL.`, path: ['url'] }];
  const detailed = parsed.segments.find((segment) => DETAILED_VERSION_SEGMENT.test(segment));
  if (detailed !== undefined) {
    const wanted = major ?? `v${Number(/\d+/.exec(detailed)?.[0])}`;
    return [{ message: `Server URL carries more than the major version: ${shown(server, detailed)}. ${segmentFix(server, detailed, wanted, 'Put only the major in the URL:')}.`, path: ['url'] }];
  }
  const padded = parsed.segments.find((segment) => ZERO_PADDED_MAJOR.test(segment));
  if (padded !== undefined) {
    return [{ message: `Server URL has a major version with a leading zero: ${shown(server, padded)}. ${segmentFix(server, padded, `v${Number(padded.slice(1))}`, 'Write the major without leading zeros:')}.`, path: ['url'] }];
  }
  const majors = parsed.segments.filter((segment) => MAJOR_SEGMENT.test(segment));
  if (majors.length === 0) {
    const example = `${url.replace(/\/+$/, '')}/${major ?? 'v<major>'}`;
    return [{ message: `Server URL has no /v<major> segment: ${shownWithVariables(server)}. Put the major version in the path once, for example ${example}.`, path: ['url'] }];
  }
  if (majors.length > 1) {
    return [{ message: `Server URL has more than one /v<major> segment: ${shownWithVariables(server)}. Keep one /v<major> segment and remove the others.`, path: ['url'] }];
  }
  return anotherApi ? [] : majorMismatch(server, majors[0] as string, version);
});

/** A segment that is a version number: `v1`, `1.1.0`, `v1.2`, `2_0`. */
const VERSION_LIKE = /^v?\d+([._-]\d+)*$/i;

/**
 * Without a server URL the base path is what every path key starts with. Where that prefix carries a
 * version (`/api/1.1.0/...`), it is judged as a server URL would be: one /v<major>, the major of
 * info.version. A prefix without any version is left alone: the description may be served under a
 * base URL it does not name.
 */
function pathPrefixVersion(document: JsonObject): IFunctionResult[] {
  if (Array.isArray(document.servers) && document.servers.length > 0) return [];
  const common = commonPrefix(Object.keys(asObject(document.paths)).filter((key) => key.startsWith('/')));
  const versionIndex = common.findIndex((segment) => VERSION_LIKE.test(segment));
  if (versionIndex < 0) return [];
  // The base path ends with its version: what follows is the API's own resource.
  const prefix = common.slice(0, versionIndex + 1);
  const versionSegment = prefix[versionIndex] as string;
  const version = strictSemver(asObject(document.info).version);
  const wanted = `v${version?.major ?? Number(/\d+/.exec(versionSegment)?.[0])}`;
  const base = `/${prefix.join('/')}`;
  const fixed = `/${prefix.map((segment) => (segment === versionSegment ? wanted : segment)).join('/')}`;
  if (!MAJOR_SEGMENT.test(versionSegment)) {
    return [{ message: `Paths carry more than the major version and there is no server URL: ${base}. Put only the major in a server URL, for example servers: [{url: '${fixed}'}], and start the paths after it.`, path: ['paths'] }];
  }
  if (version === undefined || versionSegment === wanted) return [];
  return [{ message: `Paths' major version differs from info.version ${version.raw} and there is no server URL: ${base}. Change the paths to ${fixed}, or info.version to a ${versionSegment.slice(1)}.x.y version.`, path: ['paths'] }];
}

/**
 * Path keys with a version segment under a server URL with one (`/v1/items` under
 * `https://api.example.nl/v1`): the client calls `/v1/v1/items`, which FastAPI's own example
 * serves as 404. One finding per server and version, at the first such path key, counting the
 * others: one fix (in the server URL, or in every key) mends them all. A path's servers are
 * those of its operations, of its path item, or the root's; the first with a version is named.
 */
function pathsRepeatingServerVersion(document: JsonObject): IFunctionResult[] {
  const groups = new Map<string, { server: JsonObject; pathKey: string; doubled: DoubledVersion; others: number }>();
  for (const [pathKey, pathItem] of entries(document.paths)) {
    if (!pathKey.startsWith('/')) continue;
    for (const server of serversOfPath(document, asObject(pathItem))) {
      const doubled = doubledVersion(server, pathKey);
      if (doubled === undefined) continue;
      const key = [shownWithVariables(server), doubled.serverSegment, doubled.pathSegment].join('\n');
      const group = groups.get(key);
      if (group === undefined) groups.set(key, { server, pathKey, doubled, others: 0 });
      else group.others += 1;
      break;
    }
  }
  return [...groups.values()].map(({ server, pathKey, doubled, others }) => ({ message: doubledVersionMessage(server, pathKey, doubled, others), path: ['paths', pathKey] }));
}

/** The servers a path's operations are called on: each operation's own, else the path item's, else the root's. */
function serversOfPath(document: JsonObject, pathItem: JsonObject): JsonObject[] {
  const fallback = nonEmptyServers(pathItem.servers) ?? nonEmptyServers(document.servers) ?? [];
  const operations = Object.entries(pathItem).filter(([key]) => isAnyOperationMethod(key)).map(([, operation]) => asObject(operation));
  if (operations.length === 0) return fallback;
  return [...new Set(operations.flatMap((operation) => nonEmptyServers(operation.servers) ?? fallback))];
}

function nonEmptyServers(servers: unknown): JsonObject[] | undefined {
  const list = asArray(servers).filter(isObject);
  return list.length > 0 ? list : undefined;
}

function doubledVersionMessage(server: JsonObject, pathKey: string, doubled: DoubledVersion, others: number): string {
  const alike = others === 0 ? '' : `, and ${others} other ${others === 1 ? 'path does' : 'paths do'} the same`;
  const found = `${pathKey} under ${shownWithVariables(server)} is ${doubled.joined}${alike}`;
  if (doubled.pathSegment === doubled.serverSegment) {
    return `Path repeats the version of the server URL: ${found}. Remove /${doubled.pathSegment} from the path keys or from the server URL.`;
  }
  return `Path carries a version besides the server URL's: ${found}. Keep one version: remove /${doubled.pathSegment} from the path keys, or /${doubled.serverSegment} from the server URL.`;
}

/** The literal segments every path key starts with (a template ends the prefix). */
function commonPrefix(pathKeys: string[]): string[] {
  const [first, ...rest] = pathKeys.map((key) => key.split('/').slice(1));
  if (first === undefined) return [];
  const prefix: string[] = [];
  for (const [index, segment] of first.entries()) {
    if (segment === '' || segment.includes('{') || index === first.length - 1 && rest.length === 0) break;
    if (!rest.every((segments) => segments[index] === segment)) break;
    prefix.push(segment);
  }
  return prefix;
}

/**
 * The server of a Link Object whose `operationRef` points into another description is the
 * server of another API: its URL still carries one /v<major>, but that API's, not this one's.
 */
function linksToAnotherDescription(context: RulesetFunctionContext): boolean {
  if (context.path[context.path.length - 1] !== 'server' || context.path[context.path.length - 3] !== 'links') return false;
  const link = asObject(valueAt(resolvedDocument(context), context.path.slice(0, -1)));
  return typeof link.operationRef === 'string' && !link.operationRef.startsWith('#');
}

function majorMismatch(server: JsonObject, segment: string, version: SemVer | undefined): IFunctionResult[] {
  if (version === undefined) return [];
  const uriMajor = Number((MAJOR_SEGMENT.exec(segment) as RegExpExecArray)[1]);
  if (uriMajor === version.major) return [];
  // Either side may be the one that is wrong: a URL left behind, or an info.version not bumped back.
  const urlFix = segmentFix(server, segment, `v${version.major}`, 'Change the URL to');
  // `raw`: the version as written, build metadata included (strictSemver accepts only that spelling).
  return [{
    message: `Server URL major version differs from info.version ${version.raw}: ${shown(server, segment)}. ${urlFix}, or info.version to a ${uriMajor}.x.y version if the API is at major version ${uriMajor}.`,
    path: ['url'],
  }];
}

/** The URL as written; where a variable's default makes the segment, that default too. */
function shown(server: JsonObject, segment: string): string {
  const source = sourceOfSegment(server, segment);
  if (source.kind === 'variable') return `${String(server.url)} ({${source.name}} defaults to ${source.value})`;
  return source.kind === 'literal' ? String(server.url) : shownWithVariables(server);
}

/** The URL as written, with the defaults of its variables where it has any: what was judged. */
function shownWithVariables(server: JsonObject): string {
  const defaults = [...variableDefaults(server)].map(([name, value]) => `{${name}} defaults to ${value}`);
  return defaults.length === 0 ? String(server.url) : `${String(server.url)} (${defaults.join(', ')})`;
}

/**
 * How to turn the segment into `wanted` where it is written: `lead` and the URL with the segment
 * replaced, or the new default of the variable that makes it; `lead` and the segment to use where
 * neither can be told.
 */
function segmentFix(server: JsonObject, segment: string, wanted: string, lead: string): string {
  const source = sourceOfSegment(server, segment);
  if (source.kind === 'literal') return `${lead} ${withSegmentReplaced(String(server.url), segment, wanted)}`;
  if (source.kind === 'variable' && wanted.startsWith(source.prefix) && wanted.endsWith(source.suffix) && wanted.length >= source.prefix.length + source.suffix.length) {
    return `Set the default of {${source.name}} to ${wanted.slice(source.prefix.length, wanted.length - source.suffix.length)}`;
  }
  return `${lead} /${wanted}`;
}
