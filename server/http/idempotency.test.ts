import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectData, expectError, expectList, manualClock, type ManualClock, type TestApp } from '../test-helpers/index.js';
import { Experience } from '../../shared/index.js';
import { Refusal } from '../domain/refusal.js';
import { IDEMPOTENCY_TTL_MS } from '../domain/retention.js';
import { UnitOfWork } from '../services/unit-of-work.js';
import { canonicalJson, replyOutcomes } from './idempotency.js';
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

describe('replyOutcomes: what an Idempotency-Key keeps of a reply', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  const idempotent = (key: string) => ({ idempotent: { request: { orgId: t.orgId, key, fingerprint: 'f' }, outcomes: replyOutcomes } });

  it('keeps a business refusal (404, 409) for replay, but not a 5xx', async () => {
    const work = new UnitOfWork(t.store, Date.now, { guestMail: true });
    const refused = await work.run(idempotent('a'), async () => {
      throw new Refusal('CONFLICT', 'No');
    });
    expect(refused.result.status).toBe(409);
    const again = await work.run(idempotent('a'), async () => ok({}));
    expect(again).toEqual({ result: { status: 409, body: refused.result.body, json: refused.result.json }, replayed: true });
    await expect(
      work.run(idempotent('b'), async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await work.run(idempotent('b'), async () => ok({}))).replayed).toBe(false);
  });

  it('keeps no refusal of the request\'s form or of a limit, so the fixed request can use the key', async () => {
    const work = new UnitOfWork(t.store, Date.now, { guestMail: true });
    await expect(work.run(idempotent('c'), async () => {
      throw new Refusal('VALIDATION_ERROR', 'Fix it');
    })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(work.run(idempotent('c'), async () => {
      throw new Refusal('RATE_LIMITED', 'Later', undefined, 5);
    })).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect((await work.run(idempotent('c'), async () => ok({ n: 1 }, 201))).replayed).toBe(false);
  });

  it('answers the very text it kept, the first time and on replay', async () => {
    const work = new UnitOfWork(t.store, Date.now, { guestMail: true });
    const first = await work.run(idempotent('d'), async () => ok({ b: 1, a: 2 }, 201));
    expect(first.result.json).toBe('{"success":true,"data":{"b":1,"a":2}}');
    const replay = await work.run(idempotent('d'), async () => ok({ other: true }, 201));
    expect(replay).toEqual({ result: { status: 201, body: { success: true, data: { b: 1, a: 2 } }, json: first.result.json }, replayed: true });
  });

  it('makes canonical JSON independent of key order', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe(canonicalJson({ a: [{ c: 3, d: 2 }], b: 1 }));
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
  });
});
