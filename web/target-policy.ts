import { checkTarget, createAddressPolicy, type AddressPolicy } from '../live/address-policy.js';
import { PinnedResolver } from '../live/resolve.js';

/** What an operator tells the web checker about addresses (--allow-private, --allow). */
export interface TargetPolicyOptions {
  allowPrivate: boolean;
  /** IP addresses, CIDR ranges and host names allowed although private. */
  allow: string[];
}

/**
 * The address policy of live/address-policy.ts as the web checker uses it: the same policy refuses
 * a target at submission (before it is queued) and every connection its check makes (redirects,
 * the TLS prober, the authorization server, links), on the address each name was pinned to.
 */
export function webAddressPolicy(options: TargetPolicyOptions): AddressPolicy {
  return createAddressPolicy({
    allowPrivate: options.allowPrivate,
    allow: options.allow,
    advice: 'This web checker checks only APIs on the public internet: run adr-check on your own machine for an internal API',
  });
}

/**
 * Why a base URL is refused at submission, or undefined when it may be queued: not http(s),
 * credentials in the URL, a host name that does not resolve, or an address the policy refuses.
 */
export async function targetRefusal(baseUrl: string, policy: AddressPolicy, dnsServer?: string): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return `not a URL: ${baseUrl}. Give the API's base URL, such as https://api.example.nl/v1`;
  }
  if (url.username !== '' || url.password !== '') return 'the URL carries a user name or password. Give the token in the token field instead: it is used for this check only';
  const checked = await checkTarget(baseUrl, policy, new PinnedResolver(dnsServer, policy));
  if (checked.allowed) return undefined;
  return checked.kind === 'invalid' ? `${checked.reason}. Give the API's base URL, such as https://api.example.nl/v1` : checked.reason;
}
