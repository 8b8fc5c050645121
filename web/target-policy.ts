import dns from 'node:dns';
import net from 'node:net';

/**
 * Whether a base URL a stranger gives may be checked from here: refused at submission, before it
 * is queued. This is the web checker's call point for the address policy of live/resolve.ts
 * (issue 25, helper H1), which refuses the same addresses for every connection a check makes; until
 * that lands, the submission check below is the web checker's own.
 */
export interface TargetPolicy {
  allowPrivate: boolean;
  /** CIDR ranges allowed although private. */
  allow: string[];
}

/** Loopback, private, link-local (cloud metadata), CGNAT, ULA, multicast, unspecified, reserved, documentation. */
const REFUSED_V4 = ['0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24', '192.0.2.0/24', '192.168.0.0/16', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '224.0.0.0/4', '240.0.0.0/4'];
const REFUSED_V6 = ['::/128', '::1/128', 'fc00::/7', 'fe80::/10', 'fec0::/10', 'ff00::/8', '64:ff9b::/96', '64:ff9b:1::/48', '100::/64', '2001:db8::/32', '2002::/16'];

function blockList(ranges: string[], family: 'ipv4' | 'ipv6', list = new net.BlockList()): net.BlockList {
  for (const range of ranges) {
    const [address = '', prefix = '0'] = range.split('/');
    list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

const REFUSED = blockList(REFUSED_V6, 'ipv6', blockList(REFUSED_V4, 'ipv4'));

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged as the IPv4 address it carries. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] !== undefined) return { address: mapped[1], family: 'ipv4' };
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hexMapped?.[1] !== undefined && hexMapped[2] !== undefined) {
    const high = parseInt(hexMapped[1], 16);
    const low = parseInt(hexMapped[2], 16);
    return { address: `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, family: 'ipv4' };
  }
  return { address, family: net.isIPv6(address) ? 'ipv6' : 'ipv4' };
}

export function isRefusedAddress(address: string, policy: TargetPolicy): boolean {
  if (policy.allowPrivate) return false;
  const plain = unmapped(address);
  const [allowV4, allowV6] = [policy.allow.filter((range) => net.isIPv4(range.split('/')[0] ?? '')), policy.allow.filter((range) => net.isIPv6(range.split('/')[0] ?? ''))];
  const allowed = blockList(allowV6, 'ipv6', blockList(allowV4, 'ipv4'));
  if (allowed.check(plain.address, plain.family)) return false;
  return REFUSED.check(plain.address, plain.family);
}

/**
 * Why a base URL is refused, or undefined when it may be checked: not http(s), credentials in the
 * URL, a host name that does not resolve, or any of its addresses refused. Host names are read as
 * WHATWG URL reads them, so 2130706433, 0177.0.0.1 and 0x7f.1 are 127.0.0.1 here too.
 */
export async function targetRefusal(baseUrl: string, policy: TargetPolicy): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return `not a URL: ${baseUrl}. Give the API's base URL, such as https://api.example.nl/v1`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `not an http(s) URL: ${baseUrl}. Give the API's base URL, such as https://api.example.nl/v1`;
  if (url.username !== '' || url.password !== '') return 'the URL carries a user name or password. Give the token in the token field instead: it is used for this check only';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (net.isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = (await dns.promises.lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch (error) {
      return `the host name ${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'no answer'}). Check the URL`;
    }
  }
  const refused = addresses.find((address) => isRefusedAddress(address, policy));
  if (refused !== undefined) return `${host} is on a private or reserved address (${refused}): this web checker checks only APIs on the public internet. Run adr-check on your own machine for an internal API`;
  return undefined;
}
