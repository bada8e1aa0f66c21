import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { PromoCodeRow } from './promo-codes.js';
import { addOrganization, openTestStore, testEngine } from '../test-helpers/index.js';
import { REFUSALS } from '../test-helpers/engines.js';

// Behaviour of the store, not of one engine: the vitest project server-postgres runs these same
// tests against a leased, migrated PostgreSQL database.

const refusal = (why: keyof typeof REFUSALS) => ({
  code: testEngine() === 'postgres' ? REFUSALS[why].pg : expect.stringMatching(REFUSALS[why].sqlite),
});

describe(`promo code store (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let store: Store;
  let orgA: string;
  let orgB: string;
  beforeEach(async () => {
    opened = await openTestStore();
    store = opened.store;
    orgA = (await addOrganization(store, { name: 'A Tours' })).orgId;
    orgB = (await addOrganization(store, { name: 'B Tours', email: 'b@example.com' })).orgId;
  });
  afterEach(async () => {
    await opened.close();
  });

  const code = (id: string, orgId: string, text: string, createdAt: number, fields: Partial<PromoCodeRow> = {}): PromoCodeRow => ({
    id, orgId, code: text, discountType: 'PERCENT', discountValue: 10, experienceIds: null, validFrom: null, validUntil: null,
    maxUses: null, uses: 0, active: 1, createdAt, updatedAt: createdAt, ...fields,
  });

  it('keeps codes: insert, read by id and by text in any case, list newest first with a filter, update, delete', async () => {
    await store.promoCodes.insertPromoCode(code('promo_1', orgA, 'SUMMER10', 1000));
    await store.promoCodes.insertPromoCode(code('promo_2', orgA, 'WINTER', 2000, { active: 0, discountType: 'AMOUNT', discountValue: 500 }));
    await store.promoCodes.insertPromoCode(code('promo_3', orgA, 'SPRING', 3000, {
      experienceIds: '["exp_1"]', validFrom: 500, validUntil: 9_000_000_000_000, maxUses: 3,
    }));
    await store.promoCodes.insertPromoCode(code('promo_4', orgB, 'SUMMER10', 4000));

    expect(await store.promoCodes.getPromoCode(orgA, 'promo_3')).toEqual(code('promo_3', orgA, 'SPRING', 3000, {
      experienceIds: '["exp_1"]', validFrom: 500, validUntil: 9_000_000_000_000, maxUses: 3,
    }));
    expect(await store.promoCodes.getPromoCode(orgB, 'promo_3')).toBeUndefined();
    expect((await store.promoCodes.getPromoCodeByCode(orgA, '  summer10 '))?.id).toBe('promo_1');
    expect((await store.promoCodes.getPromoCodeByCode(orgB, 'Summer10'))?.id).toBe('promo_4');
    expect(await store.promoCodes.getPromoCodeByCode(orgA, 'AUTUMN')).toBeUndefined();

    const all = await store.promoCodes.listPromoCodes(orgA, {}, { limit: 2, offset: 0 });
    expect(all.total).toBe(3);
    expect(all.rows.map((r) => r.id)).toEqual(['promo_3', 'promo_2']);
    expect((await store.promoCodes.listPromoCodes(orgA, {}, { limit: 2, offset: 2 })).rows.map((r) => r.id)).toEqual(['promo_1']);
    const active = await store.promoCodes.listPromoCodes(orgA, { active: true }, { limit: 10, offset: 0 });
    expect({ total: active.total, ids: active.rows.map((r) => r.id) }).toEqual({ total: 2, ids: ['promo_3', 'promo_1'] });
    const inactive = await store.promoCodes.listPromoCodes(orgA, { active: false }, { limit: 10, offset: 0 });
    expect({ total: inactive.total, ids: inactive.rows.map((r) => r.id) }).toEqual({ total: 1, ids: ['promo_2'] });

    const changed = { ...code('promo_1', orgA, 'SUMMER15', 1000), discountValue: 15, maxUses: 9, active: 0, updatedAt: 5000 };
    await store.promoCodes.updatePromoCode(changed);
    expect(await store.promoCodes.getPromoCode(orgA, 'promo_1')).toEqual(changed);
    // Another org's update touches nothing.
    await store.promoCodes.updatePromoCode({ ...changed, orgId: orgB, code: 'HIJACK' });
    expect((await store.promoCodes.getPromoCode(orgA, 'promo_1'))?.code).toBe('SUMMER15');

    expect(await store.promoCodes.deletePromoCode(orgB, 'promo_1')).toBe(false);
    expect(await store.promoCodes.deletePromoCode(orgA, 'promo_1')).toBe(true);
    expect(await store.promoCodes.getPromoCode(orgA, 'promo_1')).toBeUndefined();
  });

  it('refuses a second code of the same text in one org', async () => {
    await store.promoCodes.insertPromoCode(code('promo_1', orgA, 'SUMMER10', 1000));
    await expect(store.promoCodes.insertPromoCode(code('promo_2', orgA, 'SUMMER10', 2000))).rejects.toMatchObject(refusal('unique'));
  });

  it('takes uses up to maxUses and frees them, never below zero', async () => {
    await store.promoCodes.insertPromoCode(code('promo_1', orgA, 'TWICE', 1000, { maxUses: 2 }));
    await store.promoCodes.insertPromoCode(code('promo_2', orgA, 'ALWAYS', 1000));
    const uses = async (id: string) => (await store.promoCodes.getPromoCode(orgA, id))?.uses;

    expect(await store.promoCodes.takeUse('promo_1')).toBe(true);
    expect(await store.promoCodes.takeUse('promo_1')).toBe(true);
    expect(await store.promoCodes.takeUse('promo_1')).toBe(false);
    expect(await uses('promo_1')).toBe(2);
    expect(await store.promoCodes.freeUse('promo_1')).toBe(true);
    expect(await uses('promo_1')).toBe(1);
    expect(await store.promoCodes.takeUse('promo_1')).toBe(true);
    expect(await uses('promo_1')).toBe(2);

    for (let i = 0; i < 5; i++) expect(await store.promoCodes.takeUse('promo_2')).toBe(true);
    expect(await uses('promo_2')).toBe(5);

    expect(await store.promoCodes.freeUse('promo_1')).toBe(true);
    expect(await store.promoCodes.freeUse('promo_1')).toBe(true);
    expect(await store.promoCodes.freeUse('promo_1')).toBe(false);
    expect(await uses('promo_1')).toBe(0);
    expect(await store.promoCodes.takeUse('promo_missing')).toBe(false);
  });

  it('never passes maxUses when many take at once', async () => {
    await store.promoCodes.insertPromoCode(code('promo_1', orgA, 'THREE', 1000, { maxUses: 3 }));
    const took = await Promise.all(Array.from({ length: 12 }, () => store.transaction(() => store.promoCodes.takeUse('promo_1'))));
    expect(took.filter(Boolean)).toHaveLength(3);
    expect((await store.promoCodes.getPromoCode(orgA, 'promo_1'))?.uses).toBe(3);
  });
});
