import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which IP addresses an outbound request (webhook delivery, calendar import) may not reach unless
 * the operator allows it: everything that is not a globally reachable unicast address. Guarding
 * against SSRF means a URL given by an API caller must not make the server talk to itself, its
 * LAN, the cloud metadata service (169.254.169.254) or anything the IANA special-purpose address
 * registries (IPv4 and IPv6) mark as not globally reachable.
 *
 * ipaddr.js names the registries' ranges (`range()`); the few it does not tell apart are listed
 * below. The policy fails closed: a range name it does not know (a newer ipaddr.js may add some)
 * is refused until someone decides it is public.
 */

/**
 * ipaddr.js range names that are globally reachable. AS112 (RFC 7534/7535) and AMT (RFC 7450) are
 * ordinary public servers; everything else it names is refused, including the globally reachable
 * anycast addresses inside 192.0.0.0/24 and 2001::/23 (PCP, TURN, DNS-SD SRP), because an anycast
 * service address reaches whichever server is nearest, which may well be on our own network.
 */
const GLOBAL_RANGES = new Set(['unicast', 'as112', 'amt', 'as112v6']);

const REASONS: Record<string, string> = {
  unspecified: 'an unspecified ("this network") address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT (CGNAT) address',
  private: 'a private address',
  // ipaddr.js's IPv4 "reserved": 192.0.0.0/24, the three TEST-NETs, 192.88.99.0/24, 198.18.0.0/15,
  // 240.0.0.0/4; its IPv6 "reserved": 2001::/23, 2001:db8::/32, 3fff::/20.
  reserved: 'a reserved, documentation or benchmarking address',
  benchmarking: 'a benchmarking-network address',
  uniqueLocal: 'a private (unique local) address',
  deprecatedSiteLocal: 'a private (site-local) address',
  discard: 'a discard-only address',
  rfc6145: 'an IPv4-translated address',
  rfc6052: 'a local-use NAT64 address',
  teredo: 'a Teredo tunnel address',
  // ORCHIDs and DETs (RFC 7343, RFC 9374) are identifiers for overlay protocols, not routable locators.
  deprecatedOrchid: 'an overlay identifier (ORCHID)',
  orchid2: 'an overlay identifier (ORCHID)',
  droneRemoteIdProtocolEntityTags: 'an overlay identifier (DET)',
  segmentRouting: 'a segment-routing (SRv6) address',
};

function reasonFor(range: string): string {
  return REASONS[range] ?? `a special-purpose address (${range})`;
}

/**
 * The IPv6 ranges that ipaddr.js does not separate from a neighbour, each with its name in the
 * IANA IPv6 Special-Purpose Address Registry (or, for 2000::/3, the IPv6 Address Space registry).
 */
const IPV6_HAND_LIST = {
  /** "IPv4-IPv6 Translat." local use (RFC 8215): ipaddr.js files it with 64:ff9b::/96, which is global. */
  localNat64: ipaddr.IPv6.parseCIDR('64:ff9b:1::/48'),
  /**
   * "Global Unicast" (IANA IPv6 Address Space). ipaddr.js calls every address it has no name for
   * `unicast`, including the deprecated IPv4-compatible ::/96, the "Dummy IPv6 Prefix"
   * 100:0:0:1::/64 (RFC 9780) and space IANA has not assigned: none of it is reachable.
   */
  globalUnicast: ipaddr.IPv6.parseCIDR('2000::/3'),
};

function ipv4Reason(address: ipaddr.IPv4): string | undefined {
  const range = address.range();
  return GLOBAL_RANGES.has(range) ? undefined : reasonFor(range);
}

function embedded(why: string | undefined, v4: ipaddr.IPv4): string | undefined {
  return why ? `${why} (${v4.toString()} inside IPv6)` : undefined;
}

function ipv4At(parts: number[], index: number): ipaddr.IPv4 {
  const high = parts[index] ?? 0;
  const low = parts[index + 1] ?? 0;
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function ipv6Reason(address: ipaddr.IPv6): string | undefined {
  const range: string = address.range();
  // Ranges that carry an IPv4 address: the embedded one decides.
  if (range === 'ipv4Mapped') {
    const v4 = address.toIPv4Address();
    return embedded(ipv4Reason(v4), v4);
  }
  if (range === 'rfc6052') {
    if (address.match(IPV6_HAND_LIST.localNat64)) return reasonFor('rfc6052');
    const v4 = ipv4At(address.parts, 6);
    return embedded(ipv4Reason(v4), v4);
  }
  if (range === '6to4') {
    const v4 = ipv4At(address.parts, 1);
    return embedded(ipv4Reason(v4), v4);
  }
  if (!GLOBAL_RANGES.has(range)) return reasonFor(range);
  if (!address.match(IPV6_HAND_LIST.globalUnicast)) return 'outside the global unicast space (2000::/3)';
  return undefined;
}

/**
 * Why an address may not be reached (e.g. "a loopback address"), or undefined for a public one.
 * Accepts IPv4 dotted quads (as the URL parser and DNS give them) and every IPv6 form, brackets and
 * zone ids included; anything else is refused as "not an IP address", so garbage is never public.
 */
export function blockedAddressReason(input: string): string | undefined {
  const text = input.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  // node:net's strict check first: ipaddr.js alone would also read `0x7f.1` or `010.0.0.1`, and
  // differently from the URL parser (which has already made them canonical).
  const family = isIP(text);
  if (family === 4) return ipv4Reason(ipaddr.IPv4.parse(text));
  if (family === 6) return ipv6Reason(ipaddr.IPv6.parse(text));
  return 'not an IP address';
}

/** `localhost` and its subdomains always mean this machine (RFC 6761), whatever DNS says. */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}
