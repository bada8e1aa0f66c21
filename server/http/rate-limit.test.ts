import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { addOrganization, createTestApp, expectData, expectError, manualClock, type TestApp } from '../test-helpers/index.js';
import { testEngine } from '../test-helpers/app.js';
import { createTestDatabase, postgresSkipReason, testDatabaseUrl } from '../test-helpers/postgres.js';
import { Organization } from '../../shared/index.js';
import { createApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { openPostgresStore } from '../store/postgres/index.js';
import { createApiKey } from '../services/api-keys.js';
import { MemoryRateLimiter, StoreRateLimiter, rateLimitHeaders, type RateLimiter } from './rate-limit.js';

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

async function opensANewWindowAfterTheOldOneEnds(make: (now: () => number) => RateLimiter): Promise<void> {
  const clock = manualClock(0);
  const limiter = make(clock.now);
  expect((await limiter.hit('k', 1)).allowed).toBe(true);
  expect((await limiter.hit('k', 1)).allowed).toBe(false);
  clock.advance(59_999);
  const last = await limiter.hit('k', 1);
  expect(last).toEqual({ allowed: false, limit: 1, remaining: 0, resetSeconds: 1 });
  clock.advance(1);
  expect(await limiter.hit('k', 1)).toEqual({ allowed: true, limit: 1, remaining: 0, resetSeconds: 60 });
  // A window opens at a caller's first hit, not on the minute.
  clock.advance(30_500);
  expect(await limiter.hit('other', 2)).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 60 });
  expect(await limiter.hit('k', 1)).toEqual({ allowed: false, limit: 1, remaining: 0, resetSeconds: 30 });
}

describe('RateLimiter', () => {
  it('opens a new one-minute window after the old one ends', async () => {
    await opensANewWindowAfterTheOldOneEnds((now) => new MemoryRateLimiter(now));
  });

  it.skipIf(!testDatabaseUrl())('opens windows alike when it counts in PostgreSQL', async () => {
    const database = await createTestDatabase();
    onTestFinished(() => database.drop());
    const store = await openPostgresStore(database.url, { poolSize: 2 });
    onTestFinished(() => store.close());
    await opensANewWindowAfterTheOldOneEnds((now) => new StoreRateLimiter(store, now));
  });

  it('formats the fields of draft-ietf-httpapi-ratelimit-headers-10', () => {
    expect(rateLimitHeaders({ allowed: true, limit: 10, remaining: 3, resetSeconds: 12 })).toEqual({
      'RateLimit-Policy': '"default";q=10;w=60',
      RateLimit: '"default";r=3;t=12',
    });
    expect(rateLimitHeaders({ allowed: false, limit: 10, remaining: 0, resetSeconds: 12 })['Retry-After']).toBe('12');
  });
});

describe(`rate limits over one PostgreSQL database${testDatabaseUrl() ? '' : ` (skipped: ${postgresSkipReason()})`}`, () => {
  // Explicitly PostgreSQL, whatever the engine under test: run once, in the SQLite project.
  it.skipIf(!testDatabaseUrl() || testEngine() === 'postgres')('are shared by every process serving it', async () => {
    const database = await createTestDatabase();
    onTestFinished(() => database.drop());
    const clock = manualClock();
    const env = { RATE_LIMIT_PER_MINUTE: '3', PUBLIC_REQUESTS_PER_MINUTE: '2', LOG_LEVEL: 'error' };
    // Two `outing serve` processes: a store (pool) and an app each, over one database.
    const processes = [];
    for (let i = 0; i < 2; i++) {
      const store = await openPostgresStore(database.url, { poolSize: 2 });
      onTestFinished(() => store.close());
      const config = loadConfig(env, { databaseUrl: database.url });
      processes.push(createApp({ store, config, logger: createLogger('error', () => {}), now: clock.now }).app);
    }
    const [a, b] = processes as [(typeof processes)[number], (typeof processes)[number]];
    const owner = await openPostgresStore(database.url, { poolSize: 1 });
    onTestFinished(() => owner.close());
    const org = await addOrganization(owner, {}, { now: clock.now() });
    const v1 = (app: typeof a, key = org.secretKey) => app.request('/v1/organization', { headers: { authorization: `Bearer ${key}` } });

    expect((await v1(a)).headers.get('ratelimit')).toBe('"default";r=2;t=60');
    clock.advance(10_000);
    expect((await v1(b)).headers.get('ratelimit')).toBe('"default";r=1;t=50');
    expect((await v1(a)).headers.get('ratelimit')).toBe('"default";r=0;t=50');
    const limited = await v1(b);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('50');
    expect((await v1(a)).status).toBe(429);

    // Concurrent hits through both, a fresh key's window opening under them, are each counted once.
    const other = (await createApiKey(owner, { orgId: org.orgId, name: 'Other', type: 'secret' }, clock.now())).key;
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => v1(i % 2 ? a : b, other)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(3);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(9);

    // The window ends for both at once.
    clock.advance(50_000);
    expect((await v1(b)).headers.get('ratelimit')).toBe('"default";r=2;t=60');

    // Per client address on the public API too.
    const pub = (app: typeof a) => app.request('/public/v1/experiences', { headers: { 'x-outing-key': org.publishableKey } });
    expect((await pub(a)).status).toBe(200);
    expect((await pub(b)).status).toBe(200);
    expect((await pub(a)).status).toBe(429);
    expect((await pub(b)).status).toBe(429);
  });
});
