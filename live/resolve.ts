import dns from 'node:dns';
import net from 'node:net';
import { AddressRefusedError, type AddressPolicy } from './address-policy.js';

export interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

/** The callback shape of `lookup` that node:net, node:http and node:tls call. */
type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * Each host name resolved once per run, and every connection of the run made to that address:
 * a name that answers the target first and another address next (DNS rebinding) never gets a
 * request to the second. TLS keeps the name for SNI and certificate verification; only the
 * address comes from here. With `dnsServer` (host or host:port) names are asked of that server
 * instead of the system's resolver. With `policy` the pinned address (an IP literal's too) is
 * checked before it is handed out: a refused one rejects with AddressRefusedError, every time the
 * name is asked for, so nothing connects there.
 */
export class PinnedResolver {
  private readonly pinned = new Map<string, Promise<PinnedAddress>>();

  constructor(private readonly dnsServer?: string, private readonly policy?: AddressPolicy) {}

  /** The run's address for a host name (an IP literal is its own address), admitted by the policy. */
  resolve(hostname: string): Promise<PinnedAddress> {
    const name = hostname.replace(/^\[|\]$/g, '').toLowerCase();
    let found = this.pinned.get(name);
    if (found === undefined) {
      const literal = net.isIP(name);
      const address = literal !== 0 ? Promise.resolve<PinnedAddress>({ address: name, family: literal === 6 ? 6 : 4 })
        : this.dnsServer === undefined ? systemLookup(name) : askServer(name, this.dnsServer);
      found = address.then((pinned) => this.admitted(name, pinned));
      // Refusals are expected answers: no unhandled rejection where nobody asks again.
      found.catch(() => undefined);
      this.pinned.set(name, found);
    }
    return found;
  }

  private admitted(name: string, pinned: PinnedAddress): PinnedAddress {
    const refusal = this.policy?.refusal(pinned.address, name);
    if (refusal !== undefined) throw new AddressRefusedError(pinned.address, refusal);
    return pinned;
  }

  /** A `lookup` option for node:http(s), node:net and node:tls that answers from the pinned address. */
  readonly lookup = (hostname: string, options: dns.LookupOptions | number | LookupCallback, callback?: LookupCallback): void => {
    const done = typeof options === 'function' ? options : callback;
    const all = typeof options === 'object' && options.all === true;
    if (done === undefined) return;
    this.resolve(hostname).then(
      ({ address, family }) => (all ? done(null, [{ address, family }]) : done(null, address, family)),
      (error: NodeJS.ErrnoException) => done(error, all ? [] : ''),
    );
  };
}

async function systemLookup(name: string): Promise<PinnedAddress> {
  const { address, family } = await dns.promises.lookup(name);
  return { address, family: family === 6 ? 6 : 4 };
}

/** IPv4 first, as most clients connect; IPv6 when the name has no A record. */
async function askServer(name: string, server: string): Promise<PinnedAddress> {
  const resolver = new dns.promises.Resolver({ timeout: 2000, tries: 2 });
  resolver.setServers([server]);
  const v4 = await resolver.resolve4(name).catch(() => [] as string[]);
  if (v4[0] !== undefined) return { address: v4[0], family: 4 };
  const v6 = await resolver.resolve6(name).catch(() => [] as string[]);
  if (v6[0] !== undefined) return { address: v6[0], family: 6 };
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name} (asked ${server})`), { code: 'ENOTFOUND' });
}
