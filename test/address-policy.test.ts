import { AllowEntryError, checkTarget, classifyAddress, createAddressPolicy } from '../live/address-policy.js';
import { PinnedResolver } from '../live/resolve.js';

/**
 * Issue 25, "Safe on the internet": the address policy's classification of every special address
 * class, in IPv4 and IPv6, in the spellings a server or a URL can give, and its allowlist.
 */
const publicOnly = createAddressPolicy();

/** [address, the range it is refused as, what it is]. */
const REFUSED: Array<[string, string, string]> = [
  ['127.0.0.1', '127.0.0.0/8', 'a loopback address'],
  ['127.255.255.254', '127.0.0.0/8', 'a loopback address'],
  ['::1', '::1/128', 'the loopback address'],
  ['0:0:0:0:0:0:0:1', '::1/128', 'the loopback address'],
  ['10.0.0.5', '10.0.0.0/8', 'a private address'],
  ['172.16.0.1', '172.16.0.0/12', 'a private address'],
  ['172.31.255.255', '172.16.0.0/12', 'a private address'],
  ['192.168.1.1', '192.168.0.0/16', 'a private address'],
  ['169.254.169.254', '169.254.0.0/16', 'a link-local address'],
  ['fe80::1', 'fe80::/10', 'a link-local address'],
  ['fe80::1%eth0', 'fe80::/10', 'a link-local address'],
  ['febf::1', 'fe80::/10', 'a link-local address'],
  ['100.64.0.1', '100.64.0.0/10', 'a carrier-grade NAT address'],
  ['100.127.255.255', '100.64.0.0/10', 'a carrier-grade NAT address'],
  ['fc00::1', 'fc00::/7', 'a unique local address'],
  ['fd12:3456::1', 'fc00::/7', 'a unique local address'],
  ['224.0.0.1', '224.0.0.0/4', 'a multicast address'],
  ['239.255.255.250', '224.0.0.0/4', 'a multicast address'],
  ['ff02::1', 'ff00::/8', 'a multicast address'],
  ['0.0.0.0', '0.0.0.0/8', 'an unspecified address'],
  ['0.1.2.3', '0.0.0.0/8', 'an unspecified address'],
  ['::', '::/128', 'the unspecified address'],
  ['255.255.255.255', '255.255.255.255/32', 'the broadcast address'],
  ['240.0.0.1', '240.0.0.0/4', 'a reserved address'],
  ['192.0.2.10', '192.0.2.0/24', 'a documentation address (TEST-NET-1)'],
  ['198.51.100.10', '198.51.100.0/24', 'a documentation address (TEST-NET-2)'],
  ['203.0.113.10', '203.0.113.0/24', 'a documentation address (TEST-NET-3)'],
  ['2001:db8::1', '2001:db8::/32', 'a documentation address'],
  ['3fff::1', '3fff::/20', 'a documentation address'],
  ['198.18.0.1', '198.18.0.0/15', 'a benchmarking address'],
  ['198.19.255.255', '198.18.0.0/15', 'a benchmarking address'],
  ['2001:2::1', '2001:2::/48', 'a benchmarking address'],
  ['192.0.0.8', '192.0.0.0/24', 'an IETF protocol assignment'],
  ['192.88.99.1', '192.88.99.0/24', 'a deprecated 6to4 relay anycast address'],
  ['fec0::1', 'fec0::/10', 'a deprecated site-local address'],
  ['100::1', '100::/64', 'a discard-only address'],
  ['2001::1', '2001::/32', 'a Teredo tunnel address'],
  ['64:ff9b:1::a00:5', '64:ff9b:1::/48', 'a local-use NAT64 address'],
  // IPv4 addresses inside IPv6: mapped in both spellings, compatible, NAT64, 6to4.
  ['::ffff:127.0.0.1', '::ffff:0:0/96 with 127.0.0.0/8 inside', 'an IPv4-mapped address of a loopback address'],
  ['::ffff:7f00:1', '::ffff:0:0/96 with 127.0.0.0/8 inside', 'an IPv4-mapped address of a loopback address'],
  ['0:0:0:0:0:ffff:a9fe:a9fe', '::ffff:0:0/96 with 169.254.0.0/16 inside', 'an IPv4-mapped address of a link-local address'],
  ['::ffff:10.1.2.3', '::ffff:0:0/96 with 10.0.0.0/8 inside', 'an IPv4-mapped address of a private address'],
  ['::127.0.0.1', '::/96', 'an IPv4-compatible address'],
  ['::7f00:1', '::/96', 'an IPv4-compatible address'],
  ['::8.8.8.8', '::/96', 'an IPv4-compatible address'],
  ['::ffff:0:7f00:1', '::ffff:0:0:0/96', 'an IPv4-translated address'],
  ['64:ff9b::10.0.0.5', '64:ff9b::/96 with 10.0.0.0/8 inside', 'a NAT64 address of a private address'],
  ['64:ff9b::a9fe:a9fe', '64:ff9b::/96 with 169.254.0.0/16 inside', 'a NAT64 address of a link-local address'],
  ['64:ff9b::7f00:1', '64:ff9b::/96 with 127.0.0.0/8 inside', 'a NAT64 address of a loopback address'],
  ['2002:7f00:1::1', '2002::/16 with 127.0.0.0/8 inside', 'a 6to4 address of a loopback address'],
  ['2002:c0a8:101::1', '2002::/16 with 192.168.0.0/16 inside', 'a 6to4 address of a private address'],
  ['2002:a9fe:a9fe::', '2002::/16 with 169.254.0.0/16 inside', 'a 6to4 address of a link-local address'],
  ['2002:6440:1::', '2002::/16 with 100.64.0.0/10 inside', 'a 6to4 address of a carrier-grade NAT address'],
];

const PUBLIC = ['8.8.8.8', '1.1.1.1', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '169.253.255.255', '192.169.0.1', '198.17.255.255', '223.255.255.255',
  '2606:4700:4700::1111', '2a00:1450:4001::1', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', 'fbff::1', 'fec0::'.replace('fec0', 'fe7f')];

describe('every special address class is refused, with its range and source', () => {
  test.each(REFUSED)('%s is %s', (address, range, what) => {
    expect(classifyAddress(address)).toMatchObject({ range, what });
    const reason = publicOnly.refusal(address);
    expect(reason).toMatch(/^refused: /);
    expect(reason).toContain(`${address} is ${what} (${range}, `);
  });

  test.each(PUBLIC)('%s is public', (address) => {
    expect(classifyAddress(address)).toBeUndefined();
    expect(publicOnly.refusal(address)).toBeUndefined();
  });

  test('the reason names the host, its address, the range and its source, then the advice', () => {
    const policy = createAddressPolicy({ advice: 'Give --allow to check it all the same' });
    expect(policy.refusal('169.254.169.254', 'metadata.example')).toBe('refused: metadata.example is at 169.254.169.254, a link-local address (169.254.0.0/16, RFC 3927; cloud metadata services answer at 169.254.169.254). Give --allow to check it all the same');
    expect(policy.refusal('10.0.0.5', '10.0.0.5')).toBe('refused: 10.0.0.5 is a private address (10.0.0.0/8, RFC 1918). Give --allow to check it all the same');
  });

  test('what is not an IP address is refused, never admitted by accident', () => {
    expect(publicOnly.refusal('not-an-address')).toBe('refused: not-an-address is not an IP address');
    expect(publicOnly.refusal('')).toBe('refused:  is not an IP address');
  });
});

describe('the allowlist admits exactly what it names', () => {
  const policy = createAddressPolicy({ allow: ['127.0.0.1', '10.1.0.0/16', '[fd00::5]', 'fd12::/16', 'API.Internal.Example.'] });

  test.each([
    ['127.0.0.1', undefined],
    ['::ffff:127.0.0.1', undefined],
    ['10.1.255.255', undefined],
    ['fd00::5', undefined],
    ['fd12:ffff::1', undefined],
  ])('%s is admitted', (address) => {
    expect(policy.refusal(address)).toBeUndefined();
  });

  test.each(['127.0.0.2', '::1', '10.2.0.0', '10.0.255.255', 'fd00::6', 'fd13::1', '169.254.169.254'])('%s is still refused', (address) => {
    expect(policy.refusal(address)).toMatch(/^refused: /);
  });

  test('a host name is admitted by its exact name, whatever it resolves to; another name at the same address is not', () => {
    expect(policy.refusal('10.9.9.9', 'api.internal.example')).toBeUndefined();
    expect(policy.refusal('10.9.9.9', 'API.INTERNAL.EXAMPLE.')).toBeUndefined();
    expect(policy.refusal('10.9.9.9', 'other.internal.example')).toBe('refused: other.internal.example is at 10.9.9.9, a private address (10.0.0.0/8, RFC 1918)');
    expect(policy.refusal('10.9.9.9', 'x.api.internal.example')).toMatch(/^refused: /);
  });

  test('an entry spelled as a URL reads it (2130706433 is 127.0.0.1)', () => {
    expect(createAddressPolicy({ allow: ['2130706433'] }).refusal('127.0.0.1')).toBeUndefined();
    expect(createAddressPolicy({ allow: ['2130706433'] }).refusal('127.0.0.2')).toMatch(/^refused: /);
  });

  test.each(['10.0.0.0/33', 'fd00::/129', 'host/8', '10.0.0.0/x', 'host:80', 'http://host/', 'user@host', '', 'a b'])('%j is no entry', (entry) => {
    expect(() => createAddressPolicy({ allow: [entry] })).toThrow(AllowEntryError);
    expect(() => createAddressPolicy({ allow: [entry] })).toThrow(`an allowlist entry is an IP address, a CIDR range (10.1.0.0/16, fd00::/8) or a host name, not ${JSON.stringify(entry)}`);
  });

  test('allowPrivate admits everything', () => {
    const open = createAddressPolicy({ allowPrivate: true });
    expect(open.allowsAll).toBe(true);
    expect(REFUSED.map(([address]) => open.refusal(address)).filter((reason) => reason !== undefined)).toEqual([]);
  });
});

describe('checkTarget: at submission, the URL as WHATWG parses it, the address as resolved', () => {
  const policy = createAddressPolicy({ allow: ['127.0.0.3'] });

  test.each([
    ['http://2130706433/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://0x7f000001/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', '::ffff:7f00:1'],
    ['http://[::1]:8080/v1', '::1'],
    ['http://0251.0376.0251.0376/latest/meta-data/', '169.254.169.254'],
    ['http://2852039166/', '169.254.169.254'],
    ['https://[64:ff9b::10.0.0.5]/', '64:ff9b::a00:5'],
    ['https://[2002:c0a8:101::1]/', '2002:c0a8:101::1'],
  ])('%s is refused as %s', async (target, address) => {
    const checked = await checkTarget(target, policy);
    expect(checked.allowed).toBe(false);
    if (checked.allowed) return;
    expect(checked.kind).toBe('refused');
    expect(checked.reason).toMatch(new RegExp(`^refused: ${address.replace(/[.]/g, '\\.')} is `));
  });

  test('an allowed address passes, with the address it was pinned to', async () => {
    expect(await checkTarget('http://0x7f.0.0.3:8080/v1', policy)).toEqual({ allowed: true, url: 'http://127.0.0.3:8080/v1', address: '127.0.0.3' });
    expect(await checkTarget('https://8.8.8.8/v1', policy)).toEqual({ allowed: true, url: 'https://8.8.8.8/v1', address: '8.8.8.8' });
  });

  test('what is no http(s) URL is invalid', async () => {
    expect(await checkTarget('ftp://8.8.8.8/', policy)).toEqual({ allowed: false, kind: 'invalid', reason: 'not an http(s) URL: ftp://8.8.8.8/' });
    expect(await checkTarget('http://[::1', policy)).toEqual({ allowed: false, kind: 'invalid', reason: 'not a URL: http://[::1' });
  });

  test('a resolver without the policy: the address is checked all the same', async () => {
    const checked = await checkTarget('http://10.0.0.5/', policy, new PinnedResolver());
    expect(checked).toEqual({ allowed: false, kind: 'refused', reason: 'refused: 10.0.0.5 is a private address (10.0.0.0/8, RFC 1918)' });
  });

  test('the pinned resolver refuses an IP literal and a name alike, every time it is asked', async () => {
    const resolver = new PinnedResolver(undefined, policy);
    await expect(resolver.resolve('[::1]')).rejects.toThrow('refused: ::1 is the loopback address (::1/128, RFC 4291)');
    await expect(resolver.resolve('localhost')).rejects.toThrow(/^refused: localhost is at (127\.0\.0\.1|::1), /);
    await expect(resolver.resolve('localhost')).rejects.toThrow(/^refused: localhost is at (127\.0\.0\.1|::1), /);
    await expect(resolver.resolve('127.0.0.3')).resolves.toEqual({ address: '127.0.0.3', family: 4 });
  });
});
