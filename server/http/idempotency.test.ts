import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectData, expectError, expectList, manualClock, type ManualClock, type TestApp } from '../test-helpers/index.js';
import { Experience } from '../../shared/index.js';
import { Refusal } from '../domain/refusal.js';
import { Idempotency, IDEMPOTENCY_TTL_MS, IN_FLIGHT_LEASE_MS, canonicalJson } from './idempotency.js';
import { ok } from './reply.js';

const walk = { name: 'Harbour walk', description: 'Along the quay', duration: 60, price: 1500, maxParticipants: 10 };

describe('Idempotency-Key on POST /v1/experiences', () => {
  let t: TestApp;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = manualClock();
    t = await createTestApp({ now: clock.now });
  });
  afterEach(() => t.close());

  const post = (key: string | undefined, body: unknown, path = '/v1/experiences', apiKey?: string) =>
    t.request('POST', path, { body, headers: key === undefined ? {} : { 'idempotency-key': key }, key: apiKey });

  it('replays the first response for the same key and body, with Idempotent-Replayed: true', async () => {
    const first = await post('k-1', walk);
    const created = expectData(first, Experience, 201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    clock.advance(1000);
    const again = await post('k-1', walk);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(expectList(await t.request('GET', '/v1/experiences'), Experience).data.map((e) => e.id)).toEqual([created.id]);
  });

  it('treats the same JSON with its keys in another order as the same request', async () => {
    const first = await post('k-order', walk);
    const reordered = Object.fromEntries(Object.entries(walk).reverse());
    const again = await post('k-order', reordered);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('treats /api/v1 and /v1 as the same path', async () => {
    const first = await post('k-alias', walk);
    const again = await post('k-alias', walk, '/api/v1/experiences');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('answers the same key with another body with 422 IDEMPOTENCY_KEY_REUSED', async () => {
    await post('k-2', walk);
    expectError(await post('k-2', { ...walk, price: 1600 }), 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(expectList(await t.request('GET', '/v1/experiences'), Experience).data).toHaveLength(1);
  });

  it('does not store a validation error, so the fixed request can reuse the key', async () => {
    expectError(await post('k-3', { ...walk, duration: 0 }), 400, 'VALIDATION_ERROR');
    const fixed = await post('k-3', walk);
    expectData(fixed, Experience, 201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('does not store refused authentication or scope', async () => {
    expectError(await post('k-4', walk, '/v1/experiences', 'osk_nope'), 401, 'INVALID_API_KEY');
    const reader = await t.createKey({ scopes: ['experiences:read'] });
    expectError(await post('k-4', walk, '/v1/experiences', reader.key), 403, 'FORBIDDEN');
    expectError(
      await t.request('POST', '/v1/experiences', { body: JSON.stringify(walk), headers: { 'idempotency-key': 'k-4', 'content-type': 'text/plain' } }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expectData(await post('k-4', walk), Experience, 201);
  });

  it('scopes keys to the organization', async () => {
    const other = await t.addOrganization({ name: 'Other Org' });
    const mine = expectData(await post('shared-key', walk), Experience, 201);
    const theirs = await post('shared-key', walk, '/v1/experiences', other.secretKey);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(expectData(theirs, Experience, 201).id).not.toBe(mine.id);
  });

  it('forgets a key after 24 hours', async () => {
    const first = expectData(await post('k-5', walk), Experience, 201);
    clock.advance(IDEMPOTENCY_TTL_MS + 1);
    const later = await post('k-5', { ...walk, name: 'Another' });
    expect(expectData(later, Experience, 201).id).not.toBe(first.id);
  });

  it('refuses a key longer than 255 characters with a validation error', async () => {
    expectError(await post('x'.repeat(256), walk), 400, 'VALIDATION_ERROR');
    expectData(await post('x'.repeat(255), walk), Experience, 201);
  });

  it('refuses an empty key with a validation error', async () => {
    expectError(await post('', walk), 400, 'VALIDATION_ERROR');
  });
});

describe('Idempotency (unit)', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  it('answers a duplicate of an asynchronous request still in progress with 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    const idem = new Idempotency(t.store, Date.now);
    const request = { orgId: t.orgId, key: 'slow', fingerprint: 'POST /v1/x {}' };
    let finish: () => void = () => {};
    const first = idem.runAsync(request, () => new Promise((resolve) => (finish = () => resolve(ok({ n: 1 }, 201)))));
    let err: unknown;
    try {
      await idem.runAsync(request, async () => ok({ n: 2 }, 201));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(Refusal);
    expect(err).toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
    finish();
    expect((await first).replayed).toBe(false);
    const replay = await idem.runAsync(request, async () => ok({ n: 3 }, 201));
    // Replayed as saved: the body, and the very text that was sent the first time.
    expect(replay).toEqual({ reply: { status: 201, body: { success: true, data: { n: 1 } }, json: '{"success":true,"data":{"n":1}}' }, replayed: true });
  });

  it('holds the key in the store while in flight, so a second process sharing the database is refused too', async () => {
    // Two Idempotency instances over one store stand for two processes: nothing is shared in memory.
    const first = new Idempotency(t.store, Date.now);
    const second = new Idempotency(t.store, Date.now);
    const request = { orgId: t.orgId, key: 'shared', fingerprint: 'POST /public/v1/bookings {}' };
    let finish: () => void = () => {};
    const running = first.runAsync(request, () => new Promise((resolve) => (finish = () => resolve(ok({ n: 1 }, 201)))));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(second.runAsync(request, async () => ok({ n: 2 }, 201))).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
    // Another request under the same key is a reuse, in flight or not.
    await expect(second.runAsync({ ...request, fingerprint: 'other' }, async () => ok({}, 201))).rejects.toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    finish();
    await running;
    expect(await second.runAsync(request, async () => ok({ n: 3 }, 201))).toEqual({
      reply: { status: 201, body: { success: true, data: { n: 1 } }, json: '{"success":true,"data":{"n":1}}' },
      replayed: true,
    });
  });

  it('frees the key of a request whose process died in flight once the lease has run out', async () => {
    const clock = manualClock();
    const request = { orgId: t.orgId, key: 'orphan', fingerprint: 'f' };
    // A claim nobody will finish: what a SIGKILLed process leaves behind.
    await t.store.idempotency.claimIdempotencyKey({ ...request, claimedAt: clock.now() }, { markerBefore: 0, replyBefore: 0 });
    const idem = new Idempotency(t.store, clock.now);
    clock.advance(IN_FLIGHT_LEASE_MS - 1);
    await expect(idem.runAsync(request, async () => ok({ n: 1 }, 201))).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
    clock.advance(2);
    expect(await idem.runAsync(request, async () => ok({ n: 2 }, 201))).toEqual({
      reply: { status: 201, body: { success: true, data: { n: 2 } }, json: '{"success":true,"data":{"n":2}}' },
      replayed: false,
    });
  });

  it('frees the key at once when the asynchronous work fails or its reply is not kept', async () => {
    const idem = new Idempotency(t.store, Date.now);
    const request = { orgId: t.orgId, key: 'retry-me', fingerprint: 'f' };
    await expect(idem.runAsync(request, async () => {
      throw new Error('network down');
    })).rejects.toThrow('network down');
    expect(await t.store.idempotency.getIdempotentResponse(t.orgId, 'retry-me')).toBeUndefined();
    await expect(idem.runAsync(request, async () => {
      throw new Refusal('VALIDATION_ERROR', 'Fix it');
    })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(await t.store.idempotency.getIdempotentResponse(t.orgId, 'retry-me')).toBeUndefined();
    expect((await idem.runAsync(request, async () => ok({ done: true }, 201))).replayed).toBe(false);
    expect((await idem.runAsync(request, async () => ok({ done: false }, 201))).replayed).toBe(true);
  });

  it('stores a business refusal (404, 409) for replay, but not a 5xx', async () => {
    const idem = new Idempotency(t.store, Date.now);
    const refused = await idem.runInTransaction({ orgId: t.orgId, key: 'a', fingerprint: 'f' }, async () => {
      throw new Refusal('CONFLICT', 'No');
    });
    expect(refused.reply.status).toBe(409);
    expect((await idem.runInTransaction({ orgId: t.orgId, key: 'a', fingerprint: 'f' }, async () => ok({}))).replayed).toBe(true);
    await expect(
      idem.runInTransaction({ orgId: t.orgId, key: 'b', fingerprint: 'f' }, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await idem.runInTransaction({ orgId: t.orgId, key: 'b', fingerprint: 'f' }, async () => ok({}))).replayed).toBe(false);
  });

  it('makes canonical JSON independent of key order', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe(canonicalJson({ a: [{ c: 3, d: 2 }], b: 1 }));
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
  });
});
