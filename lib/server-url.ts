import { asObject, entries } from './json.js';
import { safeDecode } from './uri.js';

export interface ParsedServerUrl {
  /** The URL with each `{variable}` replaced by its default. */
  expanded: string;
  /** Absolute URLs only; a relative server URL is relative to the description's location. */
  protocol?: string;
  hostname?: string;
  segments: string[];
}

const RELATIVE_BASE = 'https://relative.invalid';

export function expandServerUrl(server: unknown): string | undefined {
  const { url, variables } = asObject(server);
  if (typeof url !== 'string') return undefined;
  const defaults = new Map(entries(variables).map(([name, variable]) => [name, asObject(variable).default]));
  return url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const value = defaults.get(name);
    return typeof value === 'string' ? value : whole;
  });
}

export function parseServerUrl(server: unknown): ParsedServerUrl | undefined {
  const expanded = expandServerUrl(server);
  if (expanded === undefined) return undefined;
  return parseUrl(expanded);
}

export function parseUrl(expanded: string): ParsedServerUrl | undefined {
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(expanded);
  let url: URL;
  try {
    url = new URL(expanded, RELATIVE_BASE);
  } catch {
    return undefined;
  }
  const segments = url.pathname.split('/').filter((segment) => segment.length > 0).map(safeDecode);
  if (!absolute) return { expanded, segments };
  return { expanded, protocol: url.protocol, hostname: url.hostname, segments };
}

export function isLoopbackHost(hostname: string): boolean {
  // `localhost.` is the same host written as a fully qualified name.
  const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  // `::ffff:127.0.0.1` is the IPv4 loopback address written as IPv6 (the URL parser writes it `::ffff:7f00:1`).
  const mappedIpv4 = host.replace(/^::ffff:/, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(mappedIpv4) || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host) || host === '::1';
}

/**
 * Where a path segment of the expanded URL is written: as it is (`literal`), or in a segment
 * with one variable, `prefix{name}suffix`, whose default makes it (`variable`); `unknown` when
 * more than one variable, or a default with a `/` in it, makes it.
 */
export type SegmentSource =
  | { kind: 'literal' }
  | { kind: 'variable'; name: string; value: string; prefix: string; suffix: string }
  | { kind: 'unknown' };

/** The path segments of a server URL as written, variables and all (`https://{host}/v{major}` -> `v{major}`). */
function writtenPathSegments(url: string): string[] {
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/[?#].*$/, '');
  return path.split('/').filter((segment) => segment.length > 0);
}

export function sourceOfSegment(server: unknown, segment: string): SegmentSource {
  const { url } = asObject(server);
  if (typeof url !== 'string') return { kind: 'unknown' };
  const written = writtenPathSegments(url);
  if (written.includes(segment)) return { kind: 'literal' };
  const defaults = variableDefaults(server);
  for (const candidate of written) {
    const names = [...candidate.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
    if (names.length !== 1 || expandServerUrl({ url: candidate, variables: asObject(server).variables }) !== segment) continue;
    const name = names[0] as string;
    const [prefix = '', suffix = ''] = candidate.split(`{${name}}`);
    return { kind: 'variable', name, value: defaults.get(name) ?? '', prefix, suffix };
  }
  return { kind: 'unknown' };
}

/** The defaults of the variables the URL uses, as written (`host = api.example.nl`). */
export function variableDefaults(server: unknown): Map<string, string> {
  const { url, variables } = asObject(server);
  const used = new Set(typeof url === 'string' ? [...url.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string) : []);
  return new Map(entries(variables)
    .filter(([name]) => used.has(name))
    .flatMap(([name, variable]): Array<[string, string]> => {
      const value = asObject(variable).default;
      return typeof value === 'string' ? [[name, value]] : [];
    }));
}

/** The URL as written with one path segment replaced (`https://api.example.nl/v2` -> `.../v1`). */
export function withSegmentReplaced(url: string, segment: string, replacement: string): string {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(url)?.[0] ?? '';
  const path = url.slice(authority.length);
  const replaced = path.replace(new RegExp(`(^|/)${escapeRegExp(segment)}(?=/|$|[?#])`), `$1${replacement}`);
  return authority + replaced;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A segment that names a version: `v1`, `v1.2`, `V2_0` (its form is for /core/uri-version to judge). */
const VERSION_SEGMENT = /^v\d+(?:[._-]\d+)*$/i;

export interface DoubledVersion {
  /** The version segment of the server URL (variables at their defaults). */
  serverSegment: string;
  /** The version segment of the path key. */
  pathSegment: string;
  /** The URL a client builds: the expanded server URL with the path key appended. */
  joined: string;
}

/**
 * A path key that carries a version segment of its own under a server URL that carries one
 * already: `/v1/items` under `https://api.example.nl/v1` is served at `/v1/v1/items`. Only the
 * literal segments of the path key count (`{version}` is a parameter, not a version).
 */
export function doubledVersion(server: unknown, pathKey: string): DoubledVersion | undefined {
  const parsed = parseServerUrl(server);
  const serverSegment = parsed?.segments.find((segment) => VERSION_SEGMENT.test(segment));
  if (parsed === undefined || serverSegment === undefined) return undefined;
  const pathSegments = pathKey.split('/').filter((segment) => !segment.includes('{')).map(safeDecode);
  // The server's own segment first: `/v1/...` under `/v1` is the repetition the fix is named for.
  const pathSegment = pathSegments.find((segment) => segment === serverSegment) ?? pathSegments.find((segment) => VERSION_SEGMENT.test(segment));
  if (pathSegment === undefined) return undefined;
  return { serverSegment, pathSegment, joined: `${parsed.expanded.replace(/\/+$/, '')}${pathKey}` };
}
