import { describe, expect, it } from 'vitest';
import type { LookupAddress } from 'node:dns';
import { blockedAddressReason } from './addresses.js';
import { checkOutboundUrl, guardedLookup, OutboundError, type Resolver } from './outbound.js';

/**
 * One row per range of the IANA IPv4 and IPv6 Special-Purpose Address Registries that is not
 * globally reachable (plus multicast, site-local and the space outside 2000::/3), with a sample
 * address inside it. Nothing here opens a connection: the URL check and the connect-time lookup
 * are called directly.
 */
const REFUSED: [range: string, name: string, sample: string][] = [
  ['0.0.0.0/8', 'This network', '0.1.2.3'],
  ['0.0.0.0/32', 'This host on this network', '0.0.0.0'],
  ['10.0.0.0/8', 'Private-Use', '10.1.2.3'],
  ['100.64.0.0/10', 'Shared Address Space (CGNAT)', '100.127.255.254'],
  ['127.0.0.0/8', 'Loopback', '127.0.0.1'],
  ['169.254.0.0/16', 'Link Local', '169.254.169.254'],
  ['172.16.0.0/12', 'Private-Use', '172.31.0.1'],
  ['192.0.0.0/24', 'IETF Protocol Assignments', '192.0.0.100'],
  ['192.0.0.0/29', 'IPv4 Service Continuity Prefix', '192.0.0.2'],
  ['192.0.0.8/32', 'IPv4 dummy address', '192.0.0.8'],
  ['192.0.0.9/32', 'Port Control Protocol Anycast (anycast: refused on purpose)', '192.0.0.9'],
  ['192.0.0.10/32', 'Traversal Using Relays around NAT Anycast (anycast: refused on purpose)', '192.0.0.10'],
  ['192.0.0.170/32', 'NAT64/DNS64 Discovery', '192.0.0.170'],
  ['192.0.0.171/32', 'NAT64/DNS64 Discovery', '192.0.0.171'],
  ['192.0.2.0/24', 'Documentation (TEST-NET-1)', '192.0.2.1'],
  ['192.88.99.0/24', 'Deprecated (6to4 Relay Anycast)', '192.88.99.1'],
  ['192.168.0.0/16', 'Private-Use', '192.168.1.1'],
  ['198.18.0.0/15', 'Benchmarking', '198.19.255.1'],
  ['198.51.100.0/24', 'Documentation (TEST-NET-2)', '198.51.100.7'],
  ['203.0.113.0/24', 'Documentation (TEST-NET-3)', '203.0.113.9'],
  ['224.0.0.0/4', 'Multicast', '239.255.255.250'],
  ['240.0.0.0/4', 'Reserved', '250.1.2.3'],
  ['255.255.255.255/32', 'Limited Broadcast', '255.255.255.255'],
  ['::1/128', 'Loopback Address', '::1'],
  ['::/128', 'Unspecified Address', '::'],
  ['::ffff:0:0/96 (loopback inside)', 'IPv4-mapped Address', '::ffff:127.0.0.1'],
  ['::ffff:0:0/96 (private inside)', 'IPv4-mapped Address', '::ffff:10.1.2.3'],
  ['::ffff:0:0:0/96', 'IPv4-translated Address', '::ffff:0:808:808'],
  ['64:ff9b::/96 (link-local inside)', 'IPv4-IPv6 Translat.', '64:ff9b::a9fe:a9fe'],
  ['64:ff9b:1::/48', 'IPv4-IPv6 Translat. (local use)', '64:ff9b:1::808:808'],
  ['100::/64', 'Discard-Only Address Block', '100::1'],
  ['100:0:0:1::/64', 'Dummy IPv6 Prefix', '100:0:0:1::1'],
  ['2001::/23', 'IETF Protocol Assignments', '2001:5::1'],
  ['2001::/32', 'TEREDO', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  ['2001:1::1/128', 'Port Control Protocol Anycast (anycast: refused on purpose)', '2001:1::1'],
  ['2001:2::/48', 'Benchmarking', '2001:2::1'],
  ['2001:10::/28', 'Deprecated (previously ORCHID)', '2001:10::1'],
  ['2001:20::/28', 'ORCHIDv2', '2001:20::1'],
  ['2001:30::/28', 'Drone Remote ID Protocol Entity Tags (DETs) Prefix', '2001:30::1'],
  ['2001:db8::/32', 'Documentation', '2001:db8::1'],
  ['2002::/16 (private inside)', '6to4', '2002:c0a8:101::1'],
  ['3fff::/20', 'Documentation', '3fff:fff::1'],
  ['5f00::/16', 'Segment Routing (SRv6) SIDs', '5f00::1'],
  ['fc00::/7', 'Unique-Local', 'fd12:3456::1'],
  ['fe80::/10', 'Link-Local Unicast', 'fe80::1'],
  ['fec0::/10', 'Site-local (deprecated)', 'fec0::1'],
  ['ff00::/8', 'Multicast', 'ff02::1'],
  ['::/96', 'IPv4-compatible (deprecated), outside 2000::/3', '::7f00:1'],
  ['4000::/3', 'Unassigned, outside 2000::/3', '4000::1'],
];

/** Globally reachable addresses, some of them inside special-purpose ranges marked so. */
const ALLOWED: [what: string, sample: string][] = [
  ['public IPv4', '8.8.8.8'],
  ['public IPv4', '93.184.216.34'],
  ['next to 172.16.0.0/12', '172.32.0.1'],
  ['next to 100.64.0.0/10', '100.128.0.1'],
  ['AS112-v4 (192.31.196.0/24)', '192.31.196.1'],
  ['AMT (192.52.193.0/24)', '192.52.193.1'],
  ['Direct Delegation AS112 (192.175.48.0/24)', '192.175.48.1'],
  ['public IPv6', '2606:4700:4700::1111'],
  ['public IPv6', '2a00:1450:4001::200e'],
  ['AMT (2001:3::/32)', '2001:3::1'],
  ['AS112-v6 (2001:4:112::/48)', '2001:4:112::1'],
  ['Direct Delegation AS112 (2620:4f:8000::/48)', '2620:4f:8000::1'],
  ['IPv4-mapped public address', '::ffff:8.8.8.8'],
  ['NAT64 of a public address (64:ff9b::/96)', '64:ff9b::808:808'],
  ['6to4 of a public address', '2002:808:808::1'],
];

const urlFor = (address: string) => (address.includes(':') ? `http://[${address}]/` : `http://${address}/`);

function lookupOutcome(address: string, allowPrivate: boolean): Promise<{ err: NodeJS.ErrnoException | null; address?: string }> {
  const resolver: Resolver = async () => [{ address, family: address.includes(':') ? 6 : 4 }];
  const lookup = guardedLookup(allowPrivate, resolver);
  return new Promise((resolve) =>
    lookup('hooks.example.com', {}, (err: NodeJS.ErrnoException | null, found: string | LookupAddress[]) =>
      resolve({ err, address: typeof found === 'string' ? found : undefined }),
    ),
  );
}

describe('special-purpose ranges that are not globally reachable', () => {
  it.each(REFUSED)('refuses %s (%s): %s', async (_range, _name, sample) => {
    expect(blockedAddressReason(sample)).toEqual(expect.any(String));

    // When saved as a literal URL…
    let refusal: unknown;
    try {
      checkOutboundUrl(urlFor(sample), false);
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(OutboundError);
    expect(refusal).toMatchObject({ code: 'REFUSED_ADDRESS', message: expect.stringContaining('OUTBOUND_ALLOW_PRIVATE') });

    // …and when a name resolves to it at connect time.
    const resolved = await lookupOutcome(sample, false);
    expect(resolved.err).toBeInstanceOf(OutboundError);
    expect(resolved.err).toMatchObject({ code: 'REFUSED_ADDRESS' });
    expect(resolved.err?.message).not.toContain(sample);

    // OUTBOUND_ALLOW_PRIVATE=true lets it through.
    expect(checkOutboundUrl(urlFor(sample), true)).toBeInstanceOf(URL);
    expect(await lookupOutcome(sample, true)).toEqual({ err: null, address: sample });
  });
});

describe('globally reachable addresses', () => {
  it.each(ALLOWED)('allows %s: %s', async (_what, sample) => {
    expect(blockedAddressReason(sample)).toBeUndefined();
    expect(checkOutboundUrl(urlFor(sample), false)).toBeInstanceOf(URL);
    expect(await lookupOutcome(sample, false)).toEqual({ err: null, address: sample });
  });
});

describe('address forms', () => {
  it.each([
    ['2130706433', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['0x7f.1', 'loopback'],
    ['017700000001', 'loopback'],
    ['127.1', 'loopback'],
    ['3221225985', 'reserved'], // 192.0.2.1
    ['0xc0.0x58.0x63.1', 'reserved'], // 192.88.99.1
    ['[::ffff:c000:201]', 'reserved'], // ::ffff:192.0.2.1
    ['[2001:DB8::1]', 'reserved'],
  ])('reads %s canonically (%s)', (host, kind) => {
    expect(() => checkOutboundUrl(`http://${host}/`, false)).toThrow(kind);
  });

  it('reads addresses as DNS returns them: zone ids, brackets, IPv4 tails', () => {
    expect(blockedAddressReason('fe80::1%eth0')).toContain('link-local');
    expect(blockedAddressReason('[::1]')).toContain('loopback');
    expect(blockedAddressReason('::ffff:7f00:1')).toBe('a loopback address (127.0.0.1 inside IPv6)');
    expect(blockedAddressReason('2002:7f00:1::1')).toContain('loopback');
  });

  it('never takes something that is not an address for a public one', () => {
    for (const text of ['example.com', '', '0x7f.1', '010.0.0.1', '1.2.3', '::g', '8.8.8.8.8']) {
      expect(blockedAddressReason(text)).toBe('not an IP address');
    }
  });

  it('names the range in the refusal but hides the address behind a resolved name', async () => {
    expect(() => checkOutboundUrl('http://198.51.100.7/', false)).toThrow(
      '198.51.100.7 is a reserved, documentation or benchmarking address; set OUTBOUND_ALLOW_PRIVATE=true to allow it',
    );
    const { err } = await lookupOutcome('64:ff9b::6440:1', false);
    expect(err?.message).toBe('hooks.example.com resolves to a carrier-grade NAT (CGNAT) address; set OUTBOUND_ALLOW_PRIVATE=true to allow it');
  });
});
