import { isIP } from 'node:net';

/** Addresses a reverse proxy in front of Outing may have: loopback and private ranges. */
function isProxyAddress(ip: string): boolean {
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (isIP(v4) === 4) {
    const [a = 0, b = 0] = v4.split('.').map(Number);
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
  }
  const lower = ip.toLowerCase();
  return lower === '::1' || lower.startsWith('fc') || lower.startsWith('fd');
}

/**
 * The client's address. Behind a reverse proxy (TRUST_PROXY on) it is the last untrusted address of
 * X-Forwarded-For: walking from the right, proxies' own (private) addresses are skipped, because
 * anything to the left of the first public address could have been written by the client itself.
 */
export function clientIp(socketIp: string, forwardedFor: string | undefined, trustProxy: boolean): string {
  if (!trustProxy || !forwardedFor) return socketIp;
  const hops = forwardedFor
    .split(',')
    .map((h) => h.trim())
    .filter((h) => isIP(h) !== 0);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i];
    if (hop !== undefined && !isProxyAddress(hop)) return hop;
  }
  return hops[0] ?? socketIp;
}
