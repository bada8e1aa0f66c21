import { describe, expect, it } from 'vitest';
import { clientIp } from './client-ip.js';

describe('client IP', () => {
  it('is the socket address unless TRUST_PROXY is on', () => {
    expect(clientIp('203.0.113.9', '198.51.100.1', false)).toBe('203.0.113.9');
    expect(clientIp('127.0.0.1', undefined, true)).toBe('127.0.0.1');
  });

  it('behind a proxy, is the last address of X-Forwarded-For that is not a proxy’s own', () => {
    expect(clientIp('127.0.0.1', '198.51.100.1', true)).toBe('198.51.100.1');
    // A client can write anything on the left; only the rightmost public hop is trusted.
    expect(clientIp('127.0.0.1', '1.2.3.4, 198.51.100.1, 10.0.0.2', true)).toBe('198.51.100.1');
    expect(clientIp('::1', 'garbage, 2001:db8::1, fd00::1', true)).toBe('2001:db8::1');
    expect(clientIp('127.0.0.1', '10.0.0.1, 192.168.1.1', true)).toBe('10.0.0.1');
    expect(clientIp('127.0.0.1', 'not-an-ip', true)).toBe('127.0.0.1');
  });
});
