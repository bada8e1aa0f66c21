import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Async } from '../index.js';
import type { IdempotencyRow, idempotencyStore } from '../idempotency.js';
import { bothEngines, type BothEngines } from '../../test-helpers/engines.js';
import { testDatabaseUrl } from '../../test-helpers/postgres.js';
import { idempotencyStorePg } from './idempotency.js';

type Keys = Async<ReturnType<typeof idempotencyStore>>;

describe.skipIf(!testDatabaseUrl())('PostgreSQL idempotency store, held to SQLite’s', () => {
  let e: BothEngines;
  let pg: Keys;
  beforeEach(async () => {
    e = await bothEngines();
    pg = idempotencyStorePg(e.pgDb);
  });
  afterEach(async () => await e.close());

  /** The same call on both engines: both answer, and alike. */
  async function same<T>(call: (s: Keys) => Promise<T>): Promise<T> {
    const expected = await call(e.sqlite);
    expect(await call(pg)).toStrictEqual(expected);
    return expected;
  }

  async function bothReject(call: (s: Keys) => Promise<unknown>): Promise<void> {
    await expect(call(e.sqlite)).rejects.toThrow();
    await expect(call(pg)).rejects.toThrow();
  }

  const saved = (orgId: string, key: string, createdAt: number, status = 201): IdempotencyRow => ({
    orgId, key, fingerprint: `POST /v1/bookings ${key}`, responseStatus: status, responseBody: `{"key":"${key}"}`, createdAt,
  });

  it('saves, replaces, reads and prunes responses alike', async () => {
    await same((s) => s.getIdempotentResponse('org_A', 'k1'));
    for (const row of [saved('org_A', 'k1', 100), saved('org_A', 'K1', 200), saved('org_B', 'k1', 300)]) {
      await same((s) => s.saveIdempotentResponse(row));
    }
    // Keys are per organization and case-sensitive.
    await same((s) => s.getIdempotentResponse('org_A', 'k1'));
    await same((s) => s.getIdempotentResponse('org_A', 'K1'));
    await same((s) => s.getIdempotentResponse('org_B', 'k1'));
    await same((s) => s.getIdempotentResponse('org_B', 'K1'));

    // Saving a key again replaces every column of its row.
    await same((s) => s.saveIdempotentResponse({ ...saved('org_A', 'k1', 400, 409), fingerprint: 'PATCH /v1/x', responseBody: '{}' }));
    expect(await same((s) => s.getIdempotentResponse('org_A', 'k1'))).toMatchObject({ responseStatus: 409, createdAt: 400 });

    // A row without its fingerprint is refused, as NOT NULL makes SQLite's REPLACE refuse it too.
    await bothReject((s) => s.saveIdempotentResponse({ ...saved('org_A', 'k2', 100), fingerprint: null as unknown as string }));
    await bothReject((s) => s.saveIdempotentResponse({ ...saved('org_A', 'k1', 100), responseBody: null as unknown as string }));
    await same((s) => s.getIdempotentResponse('org_A', 'k1'));

    // Strictly older than the cut-off.
    expect(await same((s) => s.pruneIdempotencyKeys(300))).toBe(1);
    expect(await same((s) => s.pruneIdempotencyKeys(300))).toBe(0);
    await same((s) => s.getIdempotentResponse('org_A', 'K1'));
    await same((s) => s.getIdempotentResponse('org_B', 'k1'));
    expect(await same((s) => s.pruneIdempotencyKeys(10_000))).toBe(2);
    await same((s) => s.getIdempotentResponse('org_A', 'k1'));
  });
  it('claims, takes over and releases in-flight markers alike', async () => {
    const claim = (key: string, claimedAt: number) => ({ orgId: 'org_A', key, fingerprint: `f ${key}`, claimedAt });
    const none = { markerBefore: 0, replyBefore: 0 };
    expect(await same((s) => s.claimIdempotencyKey(claim('k1', 1_000), none))).toBe(true);
    await same((s) => s.getIdempotentResponse('org_A', 'k1'));
    // Held: a second claim fails, even with another fingerprint.
    expect(await same((s) => s.claimIdempotencyKey({ ...claim('k1', 1_500), fingerprint: 'g' }, none))).toBe(false);
    // A marker older than markerBefore is taken over, and the new claim's time and fingerprint kept.
    expect(await same((s) => s.claimIdempotencyKey({ ...claim('k1', 5_000), fingerprint: 'g' }, { markerBefore: 1_001, replyBefore: 0 }))).toBe(true);
    expect(await same((s) => s.getIdempotentResponse('org_A', 'k1'))).toMatchObject({ fingerprint: 'g', createdAt: 5_000, responseStatus: 0 });
    // Releasing needs the claim's own time: an older claim's release leaves the new marker.
    await same((s) => s.releaseIdempotencyKey(claim('k1', 1_000)));
    expect(await same((s) => s.getIdempotentResponse('org_A', 'k1'))).toMatchObject({ createdAt: 5_000 });
    await same((s) => s.releaseIdempotencyKey(claim('k1', 5_000)));
    expect(await same((s) => s.getIdempotentResponse('org_A', 'k1'))).toBeUndefined();

    // A saved reply is never taken over as a marker, only once expired (created before replyBefore).
    await same((s) => s.saveIdempotentResponse(saved('org_A', 'k2', 2_000)));
    expect(await same((s) => s.claimIdempotencyKey(claim('k2', 9_000), { markerBefore: 8_000, replyBefore: 2_000 }))).toBe(false);
    await same((s) => s.releaseIdempotencyKey(claim('k2', 2_000)));
    expect(await same((s) => s.getIdempotentResponse('org_A', 'k2'))).toMatchObject({ responseStatus: 201 });
    expect(await same((s) => s.claimIdempotencyKey(claim('k2', 9_000), { markerBefore: 0, replyBefore: 2_001 }))).toBe(true);
    expect(await same((s) => s.getIdempotentResponse('org_A', 'k2'))).toMatchObject({ responseStatus: 0, responseBody: '', createdAt: 9_000 });
  });

  it('lets exactly one of many simultaneous claims of a key win on PostgreSQL', async () => {
    const wins = await Promise.all(
      Array.from({ length: 12 }, (_, i) => pg.claimIdempotencyKey({ orgId: 'org_A', key: 'race', fingerprint: 'f', claimedAt: 100 + i }, { markerBefore: 0, replyBefore: 0 })),
    );
    expect(wins.filter(Boolean)).toHaveLength(1);
  });
});
