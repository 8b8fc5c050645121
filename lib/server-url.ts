import { asObject, entries } from './json.js';

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

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function isLoopbackHost(hostname: string): boolean {
  // `localhost.` is the same host written as a fully qualified name.
  const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  // `::ffff:127.0.0.1` is the IPv4 loopback address written as IPv6 (the URL parser writes it `::ffff:7f00:1`).
  const mappedIpv4 = host.replace(/^::ffff:/, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(mappedIpv4) || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host) || host === '::1';
}
