import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which IP addresses an outbound request (webhook delivery, calendar import) may not reach unless
 * the operator allows it: everything that is not a public unicast address. Guarding against SSRF
 * means a URL given by an API caller must not make the server talk to itself, its LAN or the
 * cloud metadata service (169.254.169.254).
 */

interface Range {
  /** Network address as a bigint (32 bits for IPv4, 128 for IPv6) and prefix length. */
  base: bigint;
  bits: number;
  kind: string;
}

function ipv4ToBigInt(address: string): bigint {
  return address.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function v4(cidr: string, kind: string): Range {
  const [net = '', bits = '32'] = cidr.split('/');
  return { base: ipv4ToBigInt(net), bits: Number(bits), kind };
}

const IPV4_BLOCKED: Range[] = [
  v4('0.0.0.0/8', 'an unspecified ("this network") address'),
  v4('10.0.0.0/8', 'a private address'),
  v4('100.64.0.0/10', 'a carrier-grade NAT (CGNAT) address'),
  v4('127.0.0.0/8', 'a loopback address'),
  v4('169.254.0.0/16', 'a link-local address'),
  v4('172.16.0.0/12', 'a private address'),
  v4('192.0.0.0/24', 'an IETF protocol-assignment address'),
  v4('192.168.0.0/16', 'a private address'),
  v4('198.18.0.0/15', 'a benchmarking-network address'),
  v4('224.0.0.0/4', 'a multicast address'),
  v4('240.0.0.0/4', 'a reserved address'),
];

/** Parses any IPv6 text form (compressed, with a dotted IPv4 tail, with a zone) into 128 bits. */
export function parseIPv6(input: string): bigint | undefined {
  const address = input.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIPv6(address)) return undefined;
  let text = address;
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    // A dotted IPv4 tail (::ffff:127.0.0.1) is the last two 16-bit groups.
    const n = ipv4ToBigInt(last);
    text = `${text.slice(0, lastColon + 1)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  let groups: string[];
  if (text.includes('::')) {
    const [left = '', right = ''] = text.split('::');
    const l = left ? left.split(':') : [];
    const r = right ? right.split(':') : [];
    groups = [...l, ...Array<string>(8 - l.length - r.length).fill('0'), ...r];
  } else {
    groups = text.split(':');
  }
  const all = groups.map((g) => parseInt(g, 16));
  if (all.length !== 8 || all.some((g) => Number.isNaN(g))) return undefined;
  return all.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}

function inRange(value: bigint, width: number, base: bigint, bits: number): boolean {
  const shift = BigInt(width - bits);
  return value >> shift === base >> shift;
}

function v6(prefix: string): bigint {
  const value = parseIPv6(prefix);
  if (value === undefined) throw new Error(`bad IPv6 prefix ${prefix}`);
  return value;
}

const IPV6_BLOCKED: { base: bigint; bits: number; kind: string }[] = [
  { base: v6('fc00::'), bits: 7, kind: 'a private (unique local) address' },
  { base: v6('fe80::'), bits: 10, kind: 'a link-local address' },
  { base: v6('fec0::'), bits: 10, kind: 'a private (site-local) address' },
  { base: v6('ff00::'), bits: 8, kind: 'a multicast address' },
  { base: v6('100::'), bits: 64, kind: 'a discard-only address' },
  { base: v6('2001:db8::'), bits: 32, kind: 'a documentation address' },
];

/** IPv6 ranges that carry an IPv4 address: the embedded one decides. */
const IPV4_EMBEDDING: { base: bigint; bits: number; extract: (value: bigint) => bigint }[] = [
  { base: v6('::ffff:0:0'), bits: 96, extract: (v) => v & 0xffffffffn }, // IPv4-mapped
  { base: v6('::'), bits: 96, extract: (v) => v & 0xffffffffn }, // IPv4-compatible (deprecated)
  { base: v6('64:ff9b::'), bits: 96, extract: (v) => v & 0xffffffffn }, // NAT64
  { base: v6('2002::'), bits: 16, extract: (v) => (v >> 80n) & 0xffffffffn }, // 6to4
];

function formatIPv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join('.');
}

function classifyIPv4Value(value: bigint): string | undefined {
  if (value === 0xffffffffn) return 'a broadcast address';
  return IPV4_BLOCKED.find((r) => inRange(value, 32, r.base, r.bits))?.kind;
}

/**
 * Why an address may not be reached (e.g. "a loopback address"), or undefined for a public one.
 * Accepts IPv4 dotted quads and every IPv6 form; anything else (not an IP address) is refused as
 * "not an IP address" so a caller can never mistake garbage for public.
 */
export function blockedAddressReason(address: string): string | undefined {
  if (isIPv4(address)) return classifyIPv4Value(ipv4ToBigInt(address));
  const value = parseIPv6(address);
  if (value === undefined) return 'not an IP address';
  if (value === 0n) return 'an unspecified address';
  if (value === 1n) return 'a loopback address';
  for (const e of IPV4_EMBEDDING) {
    if (inRange(value, 128, e.base, e.bits)) {
      const embedded = e.extract(value);
      const why = classifyIPv4Value(embedded);
      return why ? `${why} (${formatIPv4(embedded)} inside IPv6)` : undefined;
    }
  }
  return IPV6_BLOCKED.find((r) => inRange(value, 128, r.base, r.bits))?.kind;
}

/** `localhost` and its subdomains always mean this machine (RFC 6761), whatever DNS says. */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}
