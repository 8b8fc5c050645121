import type { CheckContext } from './context.js';
import type { Exchange } from './http.js';
import { describeAnswer } from './report.js';
import { isObject, type JsonObject } from '../lib/json.js';

/**
 * The landing page's `rel=service-desc` links that adr-check did not read a description from, and
 * why: the run follows them when /openapi.json is no description, and the report (a notice, and
 * /core/publish-openapi) names each, so that a user learns where the API says its description is.
 */
export interface UnreadServiceDesc {
  /** The link as adr-check resolved it, or as written when it is no URL. */
  href: string;
  /** Why no description was read from it: a sentence that ends with what to do, where there is something. */
  reason: string;
}

const unread = new WeakMap<CheckContext, UnreadServiceDesc[]>();

export function noteUnreadServiceDesc(context: CheckContext, link: UnreadServiceDesc): void {
  unread.set(context, [...(unread.get(context) ?? []), link]);
}

export function unreadServiceDescs(context: CheckContext): UnreadServiceDesc[] {
  return unread.get(context) ?? [];
}

/** The body as an OpenAPI (or Swagger) description: a 200 whose JSON object names its version. Anything else is not one. */
export function openApiDescription(exchange: Exchange): JsonObject | undefined {
  if (exchange.status !== 200 || exchange.bodyTruncated) return undefined;
  try {
    const parsed: unknown = JSON.parse(exchange.body);
    return isObject(parsed) && (typeof parsed.openapi === 'string' || typeof parsed.swagger === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A server's URL in a sentence: cut after MAX_SHOWN characters, so a long link cannot fill a report. */
const MAX_SHOWN = 200;

export function shownUrl(url: string): string {
  return url.length > MAX_SHOWN ? `${url.slice(0, MAX_SHOWN)}… (${url.length.toLocaleString('en')} characters)` : url;
}

/**
 * Why a link on another origin than the base URL's is not followed, and what to do: an API that
 * names itself by another host name (QGIS writes `localhost` where it is checked by address) is
 * checked at that name.
 */
export function otherOriginReason(baseUrl: string, link: URL): string {
  const base = new URL(baseUrl);
  const sameApiThere = `${link.origin}${base.pathname.replace(/\/+$/, '')}`;
  return `another origin than the base URL's (${base.origin}); adr-check reads a description only from the API's own origin. If that is this API under another name, check it there: adr-check ${shownUrl(sameApiThere)}`;
}

/** One line for what a sentence names where an OpenAPI description was expected: `not an OpenAPI description (<this>)`. */
export function whatWasServed(exchange: Exchange): string {
  if (exchange.status === undefined) return `no answer (${exchange.error ?? 'unknown'})`;
  const type = exchange.headers['content-type'];
  const answer = `${describeAnswer(exchange)}${type === undefined ? ' without Content-Type' : ` ${type}`}`;
  if (exchange.status !== 200 || exchange.bodyTruncated) return answer;
  return `${answer}: ${bodyKind(exchange.body)}`;
}

function bodyKind(body: string): string {
  if (body.trim() === '') return 'an empty body';
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return /^\s*</.test(body) ? 'markup, not JSON' : 'not JSON';
  }
  if (Array.isArray(parsed)) return 'a JSON array';
  if (!isObject(parsed)) return `the JSON ${parsed === null ? 'null' : typeof parsed}`;
  if (parsed.openapi !== undefined || parsed.swagger !== undefined) return 'a JSON object whose openapi is not a version string';
  return `a JSON object without an openapi member${isLandingPage(parsed) ? ' (a landing page: it has links)' : ''}`;
}

function isLandingPage(object: Record<string, unknown>): boolean {
  return Array.isArray(object.links) || isObject(object._links);
}
