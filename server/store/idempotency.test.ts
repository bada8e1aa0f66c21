import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { IdempotencyClaim, IdempotencyRow } from './idempotency.js';
import { openTestStore, testEngine } from '../test-helpers/index.js';

const saved = (orgId: string, key: string, createdAt: number, status = 201): IdempotencyRow => ({
  orgId, key, fingerprint: `POST /v1/bookings ${key}`, responseStatus: status, responseBody: `{"key":"${key}"}`, createdAt,
});
const claim = (key: string, claimedAt: number, fingerprint = `f ${key}`): IdempotencyClaim => ({ orgId: 'org_A', key, fingerprint, claimedAt });
const none = { markerBefore: 0, replyBefore: 0 };

describe(`idempotency store (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let store: Store;
  beforeEach(async () => {
    opened = await openTestStore();
    store = opened.store;
  });
  afterEach(async () => {
    await opened.close();
  });

  it('saves and reads replies per organization, keys case-sensitive', async () => {
    expect(await store.idempotency.getIdempotentResponse('org_A', 'k1')).toBeUndefined();
    for (const row of [saved('org_A', 'k1', 100), saved('org_A', 'K1', 200), saved('org_B', 'k1', 300)]) {
      await store.idempotency.saveIdempotentResponse(row);
    }
    const found = await store.idempotency.getIdempotentResponse('org_A', 'k1');
    expect(found).toStrictEqual({
      orgId: 'org_A', key: 'k1', fingerprint: 'POST /v1/bookings k1', responseStatus: 201, responseBody: '{"key":"k1"}', createdAt: 100,
    });
    expect(Object.keys(found!)).toEqual(['orgId', 'key', 'fingerprint', 'responseStatus', 'responseBody', 'createdAt']);
    expect(await store.idempotency.getIdempotentResponse('org_A', 'K1')).toStrictEqual(saved('org_A', 'K1', 200));
    expect(await store.idempotency.getIdempotentResponse('org_B', 'k1')).toStrictEqual(saved('org_B', 'k1', 300));
    expect(await store.idempotency.getIdempotentResponse('org_B', 'K1')).toBeUndefined();
  });

  it('replaces every column when a key is saved again, and refuses a row missing a value', async () => {
    await store.idempotency.saveIdempotentResponse(saved('org_A', 'k1', 100));
    const again: IdempotencyRow = { ...saved('org_A', 'k1', 400, 409), fingerprint: 'PATCH /v1/x', responseBody: '{}' };
    await store.idempotency.saveIdempotentResponse(again);
    expect(await store.idempotency.getIdempotentResponse('org_A', 'k1')).toStrictEqual(again);
    // NOT NULL holds for a new key and for a key saved again; the saved row stays as it was.
    await expect(store.idempotency.saveIdempotentResponse({ ...saved('org_A', 'k2', 100), fingerprint: null as unknown as string })).rejects.toThrow();
    await expect(store.idempotency.saveIdempotentResponse({ ...saved('org_A', 'k1', 100), responseBody: null as unknown as string })).rejects.toThrow();
    expect(await store.idempotency.getIdempotentResponse('org_A', 'k1')).toStrictEqual(again);
    expect(await store.idempotency.getIdempotentResponse('org_A', 'k2')).toBeUndefined();
  });

  it('prunes the rows created strictly before a cut-off, and answers how many', async () => {
    for (const row of [saved('org_A', 'k1', 100), saved('org_A', 'K1', 200), saved('org_B', 'k1', 300)]) {
      await store.idempotency.saveIdempotentResponse(row);
    }
    expect(await store.idempotency.pruneIdempotencyKeys(100)).toBe(0);
    expect(await store.idempotency.pruneIdempotencyKeys(200)).toBe(1);
    expect(await store.idempotency.pruneIdempotencyKeys(200)).toBe(0);
    expect(await store.idempotency.getIdempotentResponse('org_A', 'k1')).toBeUndefined();
    expect(await store.idempotency.getIdempotentResponse('org_A', 'K1')).toStrictEqual(saved('org_A', 'K1', 200));
    expect(await store.idempotency.pruneIdempotencyKeys(10_000)).toBe(2);
    expect(await store.idempotency.getIdempotentResponse('org_B', 'k1')).toBeUndefined();
  });

  it('claims a key once, takes over a stale marker, and releases only its own claim', async () => {
    expect(await store.idempotency.claimIdempotencyKey(claim('k1', 1_000), none)).toBe(true);
    expect(await store.idempotency.getIdempotentResponse('org_A', 'k1')).toStrictEqual({
      orgId: 'org_A', key: 'k1', fingerprint: 'f k1', responseStatus: 0, responseBody: '', createdAt: 1_000,
    });
    // Held: a second claim fails, even with another fingerprint, and leaves the marker as it was.
    expect(await store.idempotency.claimIdempotencyKey(claim('k1', 1_500, 'g'), none)).toBe(false);
    expect(await store.idempotency.claimIdempotencyKey(claim('k1', 1_500, 'g'), { markerBefore: 1_000, replyBefore: 0 })).toBe(false);
    expect(await store.idempotency.getIdempotentResponse('org_A', 'k1')).toMatchObject({ fingerprint: 'f k1', createdAt: 1_000 });
    // A marker claimed before markerBefore is taken over, the new claim's time and fingerprint kept.
    expect(await store.idempotency.claimIdempotencyKey(claim('k1', 5_000, 'g'), { markerBefore: 1_001, replyBefore: 0 })).toBe(true);
    expect(await store.idempotency.getIdempotentResponse('org_A', 'k1')).toStrictEqual({
      orgId: 'org_A', key: 'k1', fingerprint: 'g', responseStatus: 0, responseBody: '', createdAt: 5_000,
    });
    // Releasing needs the claim's own time: the older claim's release leaves the new marker.
    await store.idempotency.releaseIdempotencyKey(claim('k1', 1_000));
    expect(await store.idempotency.getIdempotentResponse('org_A', 'k1')).toMatchObject({ createdAt: 5_000 });
    await store.idempotency.releaseIdempotencyKey(claim('k1', 5_000, 'g'));
    expect(await store.idempotency.getIdempotentResponse('org_A', 'k1')).toBeUndefined();
    // The key is free again.
    expect(await store.idempotency.claimIdempotencyKey(claim('k1', 6_000), none)).toBe(true);
  });

  it('never takes a saved reply over as a marker until it has expired, nor releases it', async () => {
    await store.idempotency.saveIdempotentResponse(saved('org_A', 'k2', 2_000));
    expect(await store.idempotency.claimIdempotencyKey(claim('k2', 9_000), { markerBefore: 8_000, replyBefore: 2_000 })).toBe(false);
    await store.idempotency.releaseIdempotencyKey(claim('k2', 2_000));
    expect(await store.idempotency.getIdempotentResponse('org_A', 'k2')).toStrictEqual(saved('org_A', 'k2', 2_000));
    expect(await store.idempotency.claimIdempotencyKey(claim('k2', 9_000), { markerBefore: 0, replyBefore: 2_001 })).toBe(true);
    expect(await store.idempotency.getIdempotentResponse('org_A', 'k2')).toStrictEqual({
      orgId: 'org_A', key: 'k2', fingerprint: 'f k2', responseStatus: 0, responseBody: '', createdAt: 9_000,
    });
  });

  it('lets exactly one of many claims of a key sent at once win', async () => {
    const wins = await Promise.all(
      Array.from({ length: 12 }, (_, i) => store.idempotency.claimIdempotencyKey(claim('race', 100 + i), none)),
    );
    expect(wins.filter(Boolean)).toHaveLength(1);
    const winner = 100 + wins.indexOf(true);
    expect(await store.idempotency.getIdempotentResponse('org_A', 'race')).toMatchObject({ responseStatus: 0, createdAt: winner });
  });
});
