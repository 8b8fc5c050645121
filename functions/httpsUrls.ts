import type { IFunctionResult } from '@stoplight/spectral-core';
import { isExtensionKey, ruleFunction } from '../lib/rule-function.js';
import type { JsonPath } from '@stoplight/types';
import { entries, isObject } from '../lib/json.js';
import { expandServerUrl, isLoopbackHost, parseUrl } from '../lib/server-url.js';

const FLOW_URL_FIELDS = ['authorizationUrl', 'tokenUrl', 'refreshUrl'] as const;

/**
 * /core/transport/tls: the URLs of a server object or a security scheme use https.
 * Relative URLs inherit the scheme of the description; loopback hosts are for development.
 */
export default ruleFunction<null>({ input: null, options: null }, (target, _options, context) => {
  if (!isObject(target)) return [];
  // A callback's or webhook's server is the client's, which the API calls: the advice is about those calls.
  const advice = isUnderCallback(context.path)
    ? 'Send callbacks over TLS only (https)'
    : isWebhook(context.path)
      ? 'Send webhooks over TLS only (https)'
      : 'Serve the API and its OAuth endpoints over TLS only (https)';
  const urls: Array<[string, JsonPath]> = [];
  const serverUrl = expandServerUrl(target);
  if (serverUrl !== undefined) urls.push([serverUrl, ['url']]);
  if (typeof target.openIdConnectUrl === 'string') urls.push([target.openIdConnectUrl, ['openIdConnectUrl']]);
  for (const [flowName, flow] of entries(target.flows)) {
    if (!isObject(flow) || isExtensionKey(flowName)) continue;
    for (const field of FLOW_URL_FIELDS) {
      const value = flow[field];
      if (typeof value === 'string') urls.push([value, ['flows', flowName, field]]);
    }
  }
  return urls.flatMap(([url, path]) => insecure(url, path, advice));
});

/**
 * Whether a path runs through the `callbacks` of an operation or of `components`, by position:
 * a scheme, link or path named `callbacks` is no callback.
 */
function isUnderCallback(path: JsonPath): boolean {
  return (path[0] === 'paths' && path[3] === 'callbacks') || (path[0] === 'components' && path[1] === 'callbacks');
}

function isWebhook(path: JsonPath): boolean {
  return path[0] === 'webhooks' || path[0] === 'x-webhooks';
}

/** `http://host:99999/v1` is no valid URL, but its scheme is plain to see: read it as written. */
const WRITTEN_SCHEME_AND_HOST = /^([a-z][a-z0-9+.-]*:)(?:\/\/([^/?#]*))?/i;

function insecure(url: string, path: JsonPath, advice: string): IFunctionResult[] {
  const parsed = parseUrl(url.trim()) ?? writtenSchemeAndHost(url.trim());
  if (parsed?.protocol === undefined || parsed.protocol === 'https:') return [];
  if (parsed.hostname !== undefined && isLoopbackHost(parsed.hostname)) return [];
  return [{ message: `URL does not use https: ${url}. ${advice}.`, path }];
}

function writtenSchemeAndHost(url: string): { protocol?: string; hostname?: string } | undefined {
  const match = WRITTEN_SCHEME_AND_HOST.exec(url);
  if (match === null) return undefined;
  const authority = match[2]?.replace(/^.*@/, '');
  const hostname = authority?.startsWith('[') ? authority.replace(/\].*$/, ']') : authority?.replace(/:.*$/, '');
  return { protocol: (match[1] as string).toLowerCase(), hostname };
}
