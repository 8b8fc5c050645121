import net from 'node:net';
import { PinnedResolver, type PinnedAddress } from './resolve.js';

/**
 * Which addresses adr-check may connect to. The CLI admits every address (people check their
 * internal APIs); `--public-only` and the web checker refuse every address that is not public
 * unicast (loopback, private, link-local with the cloud metadata service, CGNAT, ULA, multicast,
 * unspecified, broadcast, documentation, benchmarking, reserved), in IPv4 and IPv6, also where an
 * IPv6 address carries such an IPv4 address inside (IPv4-mapped, NAT64, 6to4). The check is made
 * on the address a name was pinned to (live/resolve.ts), so what is checked is what is connected
 * to. Ranges are matched by Node's net.BlockList (docs/live/address-policy.md says why).
 */
export interface AddressPolicy {
  /** True where nothing is refused (the CLI's default). */
  readonly allowsAll: boolean;
  /** Why a connection to `address` (what `hostname` resolved to, when it is a name) is refused; undefined when admitted. */
  refusal(address: string, hostname?: string): string | undefined;
}

export interface AddressPolicyOptions {
  /** Admit every address, private ones included. */
  allowPrivate?: boolean;
  /** Admitted all the same: IP addresses, CIDR ranges (`10.1.0.0/16`, `fd00::/8`) and host names (exact). */
  allow?: string[];
  /** What a reader can do about a refusal, appended to each reason (the CLI names its flags). */
  advice?: string;
}

/** A connection the policy refused: its message is the reason, as reports show it. */
export class AddressRefusedError extends Error {
  constructor(readonly address: string, reason: string) {
    super(reason);
    this.name = 'AddressRefusedError';
  }
}

/** An allowlist entry that is no address, range or host name. */
export class AllowEntryError extends Error {}

/** Admits every address: the CLI's default. */
export const ALLOW_ALL: AddressPolicy = { allowsAll: true, refusal: () => undefined };

export function createAddressPolicy(options: AddressPolicyOptions = {}): AddressPolicy {
  if (options.allowPrivate === true) return ALLOW_ALL;
  const allowed = parseAllowlist(options.allow ?? []);
  const advice = options.advice === undefined || options.advice === '' ? '' : `. ${options.advice}`;
  return {
    allowsAll: false,
    refusal(address, hostname) {
      const bare = withoutZone(address);
      const family = net.isIP(bare);
      const name = hostname === undefined ? undefined : normalHostName(hostname);
      if (name !== undefined && allowed.names.has(name)) return undefined;
      if (family === 0) return `refused: ${address} is not an IP address${advice}`;
      if (allowed.addresses.check(bare, family === 6 ? 'ipv6' : 'ipv4')) return undefined;
      const special = classifyAddress(bare);
      if (special === undefined) return undefined;
      const subject = name === undefined || net.isIP(name) !== 0 ? `${address} is` : `${name} is at ${address},`;
      return `refused: ${subject} ${special.what} (${special.range}, ${special.source})${advice}`;
    },
  };
}

/** A special-purpose range: what an address in it is, as a sentence says it, and where it is defined. */
export interface SpecialRange {
  /** `10.0.0.0/8`, or for an IPv4 range inside IPv6 `64:ff9b::/96 with 10.0.0.0/8 inside`. */
  range: string;
  /** `a private address`. */
  what: string;
  /** Where it is defined, with what a reader should know of it: `RFC 1918`. */
  source: string;
}

interface RangeEntry extends SpecialRange {
  family: 4 | 6;
  list: net.BlockList;
}

/**
 * The IPv4 ranges that are not public unicast, after IANA's IPv4 Special-Purpose Address Registry
 * (RFC 6890). Left out as globally reachable there: 192.31.196.0/24 and 192.175.48.0/24 (AS112),
 * 192.52.193.0/24 (AMT). Broadcast comes before the reserved 240.0.0.0/4 that holds it.
 */
const IPV4_RANGES: Array<[string, string, string]> = [
  ['0.0.0.0/8', 'an unspecified address', 'RFC 6890; "this network": a connection there reaches this host'],
  ['10.0.0.0/8', 'a private address', 'RFC 1918'],
  ['100.64.0.0/10', 'a carrier-grade NAT address', 'RFC 6598'],
  ['127.0.0.0/8', 'a loopback address', 'RFC 1122'],
  ['169.254.0.0/16', 'a link-local address', 'RFC 3927; cloud metadata services answer at 169.254.169.254'],
  ['172.16.0.0/12', 'a private address', 'RFC 1918'],
  ['192.0.0.0/24', 'an IETF protocol assignment', 'RFC 6890'],
  ['192.0.2.0/24', 'a documentation address (TEST-NET-1)', 'RFC 5737'],
  ['192.88.99.0/24', 'a deprecated 6to4 relay anycast address', 'RFC 7526'],
  ['192.168.0.0/16', 'a private address', 'RFC 1918'],
  ['198.18.0.0/15', 'a benchmarking address', 'RFC 2544'],
  ['198.51.100.0/24', 'a documentation address (TEST-NET-2)', 'RFC 5737'],
  ['203.0.113.0/24', 'a documentation address (TEST-NET-3)', 'RFC 5737'],
  ['224.0.0.0/4', 'a multicast address', 'RFC 5771'],
  ['255.255.255.255/32', 'the broadcast address', 'RFC 919'],
  ['240.0.0.0/4', 'a reserved address', 'RFC 1112'],
];

/**
 * The IPv6 ranges that are not public unicast, after IANA's IPv6 Special-Purpose Address Registry.
 * The whole IPv4-compatible ::/96 is refused (deprecated by RFC 4291); IPv4-mapped, NAT64 and 6to4
 * addresses only where the IPv4 address inside is refused (their entries are made below).
 */
const IPV6_RANGES: Array<[string, string, string]> = [
  ['::/128', 'the unspecified address', 'RFC 4291'],
  ['::1/128', 'the loopback address', 'RFC 4291'],
  ['::/96', 'an IPv4-compatible address', 'RFC 4291 section 2.5.5.1; deprecated, it carries an IPv4 address'],
  ['::ffff:0:0:0/96', 'an IPv4-translated address', 'RFC 2765'],
  ['64:ff9b:1::/48', 'a local-use NAT64 address', 'RFC 8215'],
  ['100::/64', 'a discard-only address', 'RFC 6666'],
  ['2001::/32', 'a Teredo tunnel address', 'RFC 4380; it carries an IPv4 address'],
  ['2001:2::/48', 'a benchmarking address', 'RFC 5180'],
  ['2001:10::/28', 'a deprecated ORCHID address', 'RFC 4843'],
  ['2001:20::/28', 'an ORCHIDv2 address', 'RFC 7343'],
  ['2001:db8::/32', 'a documentation address', 'RFC 3849'],
  ['3fff::/20', 'a documentation address', 'RFC 9637'],
  ['5f00::/16', 'an SRv6 segment identifier', 'RFC 9602'],
  ['fc00::/7', 'a unique local address', 'RFC 4193, ULA'],
  ['fe80::/10', 'a link-local address', 'RFC 4291'],
  ['fec0::/10', 'a deprecated site-local address', 'RFC 3879'],
  ['ff00::/8', 'a multicast address', 'RFC 4291'],
];

/** IPv6 forms that carry an IPv4 address in their bits, and where: the prefix the IPv4 address follows. */
const IPV4_CARRIERS: Array<{ prefix: string; length: number; what: string; source: string; embed(octets: number[]): string }> = [
  { prefix: '::ffff:0:0/96', length: 96, what: 'an IPv4-mapped address of', source: 'RFC 4291 section 2.5.5.2', embed: (octets) => `::ffff:${octets.join('.')}` },
  { prefix: '64:ff9b::/96', length: 96, what: 'a NAT64 address of', source: 'RFC 6052', embed: (octets) => `64:ff9b::${octets.join('.')}` },
  { prefix: '2002::/16', length: 16, what: 'a 6to4 address of', source: 'RFC 3056', embed: (octets) => `2002:${hexPair(octets[0], octets[1])}:${hexPair(octets[2], octets[3])}::` },
];

function hexPair(high = 0, low = 0): string {
  return ((high << 8) | low).toString(16);
}

function entry(family: 4 | 6, network: string, length: number, special: SpecialRange): RangeEntry {
  const list = new net.BlockList();
  list.addSubnet(network, length, family === 4 ? 'ipv4' : 'ipv6');
  return { ...special, family, list };
}

function rangeEntries(): RangeEntry[] {
  const entries: RangeEntry[] = [];
  for (const [cidr, what, source] of IPV4_RANGES) {
    const [network = '', length = ''] = cidr.split('/');
    entries.push(entry(4, network, Number(length), { range: cidr, what, source }));
    const octets = network.split('.').map(Number);
    for (const carrier of IPV4_CARRIERS) {
      entries.push(entry(6, carrier.embed(octets), carrier.length + Number(length), { range: `${carrier.prefix} with ${cidr} inside`, what: `${carrier.what} ${what}`, source: `${carrier.source}; ${source}` }));
    }
  }
  for (const [cidr, what, source] of IPV6_RANGES) {
    const [network = '', length = ''] = cidr.split('/');
    entries.push(entry(6, network, Number(length), { range: cidr, what, source }));
  }
  return entries;
}

const RANGES = rangeEntries();

/**
 * The special-purpose range an IP address is in, or undefined for a public unicast address. Only
 * ranges of the address's own family are asked: net.BlockList would also match an IPv4 rule
 * against an IPv4-mapped IPv6 address, and the reason should name the form that was found.
 */
export function classifyAddress(address: string): SpecialRange | undefined {
  const bare = withoutZone(address);
  const family = net.isIP(bare);
  if (family === 0) return undefined;
  const found = RANGES.find((range) => range.family === family && range.list.check(bare, family === 6 ? 'ipv6' : 'ipv4'));
  return found === undefined ? undefined : { range: found.range, what: found.what, source: found.source };
}

/** A link-local IPv6 address may carry a zone (`fe80::1%eth0`); the range is the address's. */
function withoutZone(address: string): string {
  return address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
}

/** A host name as URLs give it: lower case, without a trailing dot. */
function normalHostName(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
}

interface Allowlist {
  addresses: net.BlockList;
  names: Set<string>;
}

/**
 * Addresses and ranges in a BlockList (an admitted IPv4 address admits its IPv4-mapped IPv6 form
 * too: the same host); host names exact, as a URL spells them (so `2130706433` is 127.0.0.1).
 */
function parseAllowlist(entries: string[]): Allowlist {
  const allowlist: Allowlist = { addresses: new net.BlockList(), names: new Set() };
  for (const raw of entries) {
    const value = raw.trim().replace(/^\[([^\]]*)\]/, '$1');
    const slash = value.indexOf('/');
    if (slash !== -1) {
      const network = withoutZone(value.slice(0, slash));
      const family = net.isIP(network);
      const length = value.slice(slash + 1);
      if (family === 0 || !/^\d{1,3}$/.test(length) || Number(length) > (family === 4 ? 32 : 128)) throw new AllowEntryError(notAnEntry(raw));
      allowlist.addresses.addSubnet(network, Number(length), family === 4 ? 'ipv4' : 'ipv6');
      continue;
    }
    const host = hostOf(value);
    if (host === undefined) throw new AllowEntryError(notAnEntry(raw));
    const family = net.isIP(host);
    if (family === 0) allowlist.names.add(host);
    else allowlist.addresses.addAddress(host, family === 4 ? 'ipv4' : 'ipv6');
  }
  return allowlist;
}

/** The host of `value` as a URL reads it, when `value` is a host and nothing more (no port, path or user). */
function hostOf(value: string): string | undefined {
  // A port is no part of an entry: `host:80` would read as `host` (80 is http's default port).
  if (value === '' || /[/?#@\s\\]/.test(value) || (value.includes(':') && net.isIP(value) !== 6)) return undefined;
  const bracketed = net.isIP(value) === 6 ? `[${value}]` : value;
  try {
    const url = new URL(`http://${bracketed}/`);
    return url.port === '' && url.hostname !== '' ? normalHostName(url.hostname) : undefined;
  } catch {
    return undefined;
  }
}

function notAnEntry(value: string): string {
  return `an allowlist entry is an IP address, a CIDR range (10.1.0.0/16, fd00::/8) or a host name, not ${JSON.stringify(value)}`;
}

/**
 * Where a target stands before anything is sent to it: allowed (with the address it was pinned
 * to), refused by the policy, not resolved, or no http(s) URL.
 */
export type TargetCheck = { allowed: true; url: string; address: string } | { allowed: false; kind: 'refused' | 'unresolved' | 'invalid'; reason: string };

/** Resolves a host name once; PinnedResolver is one. */
export interface HostResolver {
  resolve(hostname: string): Promise<PinnedAddress>;
}

/**
 * Whether `target` (an http(s) URL) may be checked under `policy`, decided before anything is
 * queued or sent: its host is resolved (once, by `resolver`, which a run can then reuse) and the
 * address checked.
 */
export async function checkTarget(target: string, policy: AddressPolicy, resolver: HostResolver = new PinnedResolver(undefined, policy)): Promise<TargetCheck> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { allowed: false, kind: 'invalid', reason: `not a URL: ${target}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { allowed: false, kind: 'invalid', reason: `not an http(s) URL: ${target}` };
  let pinned: PinnedAddress;
  try {
    pinned = await resolver.resolve(url.hostname);
  } catch (error) {
    if (error instanceof AddressRefusedError) return { allowed: false, kind: 'refused', reason: error.message };
    return { allowed: false, kind: 'unresolved', reason: `cannot resolve ${url.hostname}: ${(error as Error).message.split('\n')[0] ?? ''}` };
  }
  // A resolver given without this policy has not checked the address yet.
  const reason = policy.refusal(pinned.address, url.hostname);
  return reason === undefined ? { allowed: true, url: url.href, address: pinned.address } : { allowed: false, kind: 'refused', reason };
}
