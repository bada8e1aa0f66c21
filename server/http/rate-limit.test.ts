import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, expectData, expectError, manualClock, type TestApp } from '../test-helpers/index.js';
import { Organization } from '../../shared/index.js';
import { RateLimiter, rateLimitHeaders } from './rate-limit.js';

describe('rate limit on /v1', () => {
  let t: TestApp | undefined;
  afterEach(() => t?.close());

  it('carries the IETF RateLimit fields on every authenticated /v1 response', async () => {
    const clock = manualClock();
    t = await createTestApp({ now: clock.now, env: { RATE_LIMIT_PER_MINUTE: '5' } });
    const first = await t.request('GET', '/v1/organization');
    expectData(first, Organization);
    expect(first.headers.get('ratelimit-policy')).toBe('"default";q=5;w=60');
    expect(first.headers.get('ratelimit')).toBe('"default";r=4;t=60');
    expect(first.headers.get('retry-after')).toBeNull();
    clock.advance(15_000);
    // Also on errors after authentication: validation and not-found.
    const invalid = await t.request('PATCH', '/v1/organization', { body: {} });
    expectError(invalid, 400, 'VALIDATION_ERROR');
    expect(invalid.headers.get('ratelimit')).toBe('"default";r=3;t=45');
    const missing = await t.request('GET', '/v1/experiences/exp_doesnotexist');
    expectError(missing, 404, 'NOT_FOUND');
    expect(missing.headers.get('ratelimit')).toBe('"default";r=2;t=45');
    expect(missing.headers.get('ratelimit-policy')).toBe('"default";q=5;w=60');
  });

  it('answers 429 RATE_LIMITED with Retry-After once the limit is used, and lets the key in again after the window', async () => {
    const clock = manualClock();
    t = await createTestApp({ now: clock.now, env: { RATE_LIMIT_PER_MINUTE: '2' } });
    expectData(await t.request('GET', '/v1/organization'), Organization);
    clock.advance(10_500);
    const second = await t.request('GET', '/v1/organization');
    expect(second.headers.get('ratelimit')).toBe('"default";r=0;t=50');
    const limited = await t.request('GET', '/v1/organization');
    expectError(limited, 429, 'RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toBe('50');
    expect(limited.headers.get('ratelimit')).toBe('"default";r=0;t=50');
    expect(limited.headers.get('ratelimit-policy')).toBe('"default";q=2;w=60');
    expect(limited.headers.get('x-request-id')).toBeTruthy();
    clock.advance(49_500);
    const again = await t.request('GET', '/v1/organization');
    expectData(again, Organization);
    expect(again.headers.get('ratelimit')).toBe('"default";r=1;t=60');
  });

  it('counts each key on its own', async () => {
    const clock = manualClock();
    t = await createTestApp({ now: clock.now, env: { RATE_LIMIT_PER_MINUTE: '1' } });
    const other = await t.createKey();
    expectData(await t.request('GET', '/v1/organization'), Organization);
    expectError(await t.request('GET', '/v1/organization'), 429, 'RATE_LIMITED');
    expectData(await t.request('GET', '/v1/organization', { key: other.key }), Organization);
  });

  it('does not rate-limit /api/v1 separately from /v1', async () => {
    const clock = manualClock();
    t = await createTestApp({ now: clock.now, env: { RATE_LIMIT_PER_MINUTE: '1' } });
    expectData(await t.request('GET', '/v1/organization'), Organization);
    expectError(await t.request('GET', '/api/v1/organization'), 429, 'RATE_LIMITED');
  });

  it('limits before validating the request', async () => {
    const clock = manualClock();
    t = await createTestApp({ now: clock.now, env: { RATE_LIMIT_PER_MINUTE: '1' } });
    expectData(await t.request('GET', '/v1/organization'), Organization);
    expectError(await t.request('PATCH', '/v1/organization', { body: { nope: 1 } }), 429, 'RATE_LIMITED');
  });

  it('sends no RateLimit fields when RATE_LIMIT_PER_MINUTE is 0, and never limits', async () => {
    t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    for (let i = 0; i < 30; i++) {
      const res = await t.request('GET', '/v1/organization');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit')).toBeNull();
      expect(res.headers.get('ratelimit-policy')).toBeNull();
    }
  });

  it('uses the default of 1200 a minute', async () => {
    t = await createTestApp();
    const res = await t.request('GET', '/v1/organization');
    expect(res.headers.get('ratelimit-policy')).toBe('"default";q=1200;w=60');
    expect(res.headers.get('ratelimit')).toMatch(/^"default";r=1199;t=(59|60)$/);
  });
});

describe('RateLimiter', () => {
  it('opens a new one-minute window after the old one ends', () => {
    const clock = manualClock(0);
    const limiter = new RateLimiter(clock.now);
    expect(limiter.hit('k', 1).allowed).toBe(true);
    expect(limiter.hit('k', 1).allowed).toBe(false);
    clock.advance(59_999);
    const last = limiter.hit('k', 1);
    expect(last).toEqual({ allowed: false, limit: 1, remaining: 0, resetSeconds: 1 });
    clock.advance(1);
    expect(limiter.hit('k', 1)).toEqual({ allowed: true, limit: 1, remaining: 0, resetSeconds: 60 });
  });

  it('formats the fields of draft-ietf-httpapi-ratelimit-headers-10', () => {
    expect(rateLimitHeaders({ allowed: true, limit: 10, remaining: 3, resetSeconds: 12 })).toEqual({
      'RateLimit-Policy': '"default";q=10;w=60',
      RateLimit: '"default";r=3;t=12',
    });
    expect(rateLimitHeaders({ allowed: false, limit: 10, remaining: 0, resetSeconds: 12 })['Retry-After']).toBe('12');
  });
});
