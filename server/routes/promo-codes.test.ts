import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp, everyDay, expectData, expectError, expectList, expectValidationError, manualClock, testEngine, type ManualClock, type TestApp,
} from '../test-helpers/index.js';
import { Activity, Deleted, Experience, PromoCode } from '../../shared/index.js';

const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);

let t: TestApp;
let clock: ManualClock;
let exp: Experience;

beforeEach(async () => {
  clock = manualClock(NOW);
  t = await createTestApp({ now: clock.now, org: { timezone: 'Europe/Lisbon', currency: 'EUR' } });
  exp = expectData(
    await t.request('POST', '/v1/experiences', {
      body: { name: 'Tram tour', description: '', duration: 60, price: 3000, maxParticipants: 50, schedule: { weekly: everyDay(['10:00']) } },
    }),
    Experience,
    201,
  );
});
afterEach(() => t.close());

const create = async (body: Record<string, unknown>, key?: string) => expectData(await t.request('POST', '/v1/promo-codes', { body, key }), PromoCode, 201);

describe(`promo codes (${testEngine()})`, () => {
  it('creates a code upper-cased with its defaults, reads, lists newest first, filters and pages', async () => {
    const summer = await create({ code: 'summer-10', discountType: 'PERCENT', discountValue: 10 });
    expect(summer).toEqual({
      id: expect.stringMatching(/^promo_/),
      code: 'SUMMER-10',
      discountType: 'PERCENT',
      discountValue: 10,
      experienceIds: null,
      validFrom: null,
      validUntil: null,
      maxUses: null,
      uses: 0,
      active: true,
      createdAt: '2027-03-01T08:00:00.000Z',
    });
    clock.advance(1000);
    const tram = await create({
      code: 'Tram_5', discountType: 'AMOUNT', discountValue: 500, experienceIds: [exp.id],
      validFrom: '2027-03-01T00:00:00+01:00', validUntil: '2027-04-01T00:00:00Z', maxUses: 3, active: false,
    });
    expect(tram).toMatchObject({
      code: 'TRAM_5', discountType: 'AMOUNT', discountValue: 500, experienceIds: [exp.id],
      validFrom: '2027-02-28T23:00:00.000Z', validUntil: '2027-04-01T00:00:00.000Z', maxUses: 3, uses: 0, active: false,
    });
    clock.advance(1000);
    const third = await create({ code: 'THIRD', discountType: 'PERCENT', discountValue: 100 });

    expect(expectData(await t.request('GET', `/v1/promo-codes/${tram.id}`), PromoCode)).toEqual(tram);
    const all = expectList(await t.request('GET', '/v1/promo-codes'), PromoCode);
    expect(all.data.map((c) => c.code)).toEqual(['THIRD', 'TRAM_5', 'SUMMER-10']);
    expect(all.pagination.total).toBe(3);
    const page = expectList(await t.request('GET', '/v1/promo-codes?limit=1&offset=1'), PromoCode);
    expect({ codes: page.data.map((c) => c.id), total: page.pagination.total, hasMore: page.pagination.hasMore }).toEqual({ codes: [tram.id], total: 3, hasMore: true });
    expect(expectList(await t.request('GET', '/v1/promo-codes?active=true'), PromoCode).data.map((c) => c.id)).toEqual([third.id, summer.id]);
    expect(expectList(await t.request('GET', '/v1/promo-codes?active=false'), PromoCode).data.map((c) => c.id)).toEqual([tram.id]);
    // Also under /api/v1.
    expect(expectList(await t.request('GET', '/api/v1/promo-codes?active=false'), PromoCode).data.map((c) => c.id)).toEqual([tram.id]);
    expectValidationError(await t.request('GET', '/v1/promo-codes?active=yes'), 'active');
  });

  it('refuses a duplicate in any case with 409, on create and on a PATCH of the code', async () => {
    const a = await create({ code: 'SUMMER10', discountType: 'PERCENT', discountValue: 10 });
    expectError(await t.request('POST', '/v1/promo-codes', { body: { code: 'summer10', discountType: 'AMOUNT', discountValue: 100 } }), 409, 'CONFLICT');
    const b = await create({ code: 'WINTER', discountType: 'PERCENT', discountValue: 5 });
    expectError(await t.request('PATCH', `/v1/promo-codes/${b.id}`, { body: { code: 'Summer10' } }), 409, 'CONFLICT');
    // Its own code in another case is no conflict.
    expect(expectData(await t.request('PATCH', `/v1/promo-codes/${a.id}`, { body: { code: 'summer10' } }), PromoCode).code).toBe('SUMMER10');
    // Another organization may have the same code.
    const other = await t.addOrganization({ name: 'Other', timezone: 'Europe/Lisbon' });
    expect((await create({ code: 'summer10', discountType: 'PERCENT', discountValue: 10 }, other.secretKey)).code).toBe('SUMMER10');
  });

  it('refuses bad bodies with 400 naming the field', async () => {
    const base = { code: 'GOOD', discountType: 'PERCENT', discountValue: 10 };
    const bad = async (body: Record<string, unknown>, path: string) => expectValidationError(await t.request('POST', '/v1/promo-codes', { body }), path);
    await bad({ ...base, code: 'NO SPACES' }, 'code');
    await bad({ ...base, code: 'é-code' }, 'code');
    await bad({ ...base, code: 'AB' }, 'code');
    await bad({ ...base, code: 'A'.repeat(33) }, 'code');
    await bad({ ...base, code: 'gv-SUMMER' }, 'code');
    await bad({ ...base, code: 'BAD\u0000CODE' }, 'code');
    await bad({ ...base, discountValue: 101 }, 'discountValue');
    await bad({ ...base, discountValue: 0 }, 'discountValue');
    await bad({ ...base, discountValue: 2.5 }, 'discountValue');
    await bad({ ...base, discountType: 'FREE' }, 'discountType');
    await bad({ ...base, validFrom: '2027-04-01T00:00:00Z', validUntil: '2027-04-01T00:00:00Z' }, 'validUntil');
    await bad({ ...base, validFrom: '2027-04-02T00:00:00Z', validUntil: '2027-04-01T00:00:00Z' }, 'validUntil');
    await bad({ ...base, validFrom: 'tomorrow' }, 'validFrom');
    await bad({ ...base, maxUses: 0 }, 'maxUses');
    await bad({ ...base, experienceIds: [] }, 'experienceIds');
    await bad({ ...base, experienceIds: ['exp_nothere'] }, 'experienceIds[0]');
    await bad({ ...base, experienceIds: [exp.id, `exp_x\u0000`] }, 'experienceIds[1]');
    await bad({ ...base, uses: 4 }, 'uses');
    await bad({ discountType: 'PERCENT', discountValue: 10 }, 'code');
    // Another org's experience is not one of this org's.
    const other = await t.addOrganization({ name: 'Other', timezone: 'Europe/Lisbon' });
    const theirs = expectData(
      await t.request('POST', '/v1/experiences', {
        key: other.secretKey,
        body: { name: 'Boat', description: '', duration: 60, price: 100, maxParticipants: 5, schedule: { weekly: everyDay(['10:00']) } },
      }),
      Experience,
      201,
    );
    await bad({ ...base, experienceIds: [exp.id, theirs.id] }, 'experienceIds[1]');
    expect(expectList(await t.request('GET', '/v1/promo-codes'), PromoCode).data).toEqual([]);
  });

  it('PATCH merges and checks the result as a create; an empty body is a 400', async () => {
    const code = await create({ code: 'SPRING', discountType: 'AMOUNT', discountValue: 500, validFrom: '2027-03-01T00:00:00Z' });
    const patch = async (body: Record<string, unknown>) => await t.request('PATCH', `/v1/promo-codes/${code.id}`, { body });
    expectValidationError(await patch({}), '');
    // 500 as a percentage is over 100: the merged record is refused.
    expectValidationError(await patch({ discountType: 'PERCENT' }), 'discountValue');
    expectValidationError(await patch({ validUntil: '2027-02-01T00:00:00Z' }), 'validUntil');
    expectValidationError(await patch({ code: 'GV-ABCD' }), 'code');
    expectValidationError(await patch({ experienceIds: ['exp_nothere'] }), 'experienceIds[0]');
    expectValidationError(await patch({ uses: 0 }), 'uses');
    expectValidationError(await t.request('PATCH', '/v1/promo-codes/promo_x%00', { body: { active: false } }), 'id');

    clock.advance(5000);
    const changed = expectData(await patch({ discountType: 'PERCENT', discountValue: 15, validUntil: '2027-06-01T00:00:00Z', maxUses: 10, experienceIds: [exp.id] }), PromoCode);
    expect(changed).toEqual({
      ...code,
      discountType: 'PERCENT', discountValue: 15, validUntil: '2027-06-01T00:00:00.000Z', maxUses: 10, experienceIds: [exp.id],
    });
    const cleared = expectData(await patch({ validFrom: null, validUntil: null, maxUses: null, experienceIds: null, active: false }), PromoCode);
    expect(cleared).toMatchObject({ validFrom: null, validUntil: null, maxUses: null, experienceIds: null, active: false, createdAt: code.createdAt });
    expect(expectData(await t.request('GET', `/v1/promo-codes/${code.id}`), PromoCode)).toEqual(cleared);
  });

  it('deletes a code; other organizations’ codes are 404; activity names each change', async () => {
    const code = await create({ code: 'BYE', discountType: 'PERCENT', discountValue: 20 });
    await t.request('PATCH', `/v1/promo-codes/${code.id}`, { body: { active: false } });
    const other = await t.addOrganization({ name: 'Other', timezone: 'Europe/Lisbon' });
    for (const [method, body] of [['GET', undefined], ['PATCH', { active: true }], ['DELETE', undefined]] as const) {
      expectError(await t.request(method, `/v1/promo-codes/${code.id}`, { key: other.secretKey, ...(body ? { body } : {}) }), 404, 'NOT_FOUND');
    }
    expectError(await t.request('GET', '/v1/promo-codes/promo_nothere'), 404, 'NOT_FOUND');
    expect(expectData(await t.request('DELETE', `/v1/promo-codes/${code.id}`), Deleted)).toEqual({ id: code.id, deleted: true });
    expectError(await t.request('GET', `/v1/promo-codes/${code.id}`), 404, 'NOT_FOUND');
    expectError(await t.request('DELETE', `/v1/promo-codes/${code.id}`), 404, 'NOT_FOUND');

    const activity = expectList(await t.request('GET', '/v1/activity'), Activity).data.filter((a) => a.targetType === 'promo_code');
    expect(activity.map((a) => ({ action: a.action, targetId: a.targetId, summary: a.summary }))).toEqual([
      { action: 'promo_code.delete', targetId: code.id, summary: 'Deleted the promo code BYE' },
      { action: 'promo_code.update', targetId: code.id, summary: 'Changed active of the promo code BYE' },
      { action: 'promo_code.create', targetId: code.id, summary: 'Added the promo code BYE (20% off)' },
    ]);
  });

  it('needs promotions:read to read and promotions:write to change', async () => {
    const code = await create({ code: 'SCOPED', discountType: 'PERCENT', discountValue: 20 });
    const reader = (await t.createKey({ scopes: ['promotions:read'] })).key;
    const bookings = (await t.createKey({ scopes: ['bookings:read', 'bookings:write'] })).key;
    expect(expectList(await t.request('GET', '/v1/promo-codes', { key: reader }), PromoCode).data).toHaveLength(1);
    expectData(await t.request('GET', `/v1/promo-codes/${code.id}`, { key: reader }), PromoCode);
    expectError(await t.request('POST', '/v1/promo-codes', { key: reader, body: { code: 'NEW', discountType: 'PERCENT', discountValue: 5 } }), 403, 'FORBIDDEN');
    expectError(await t.request('PATCH', `/v1/promo-codes/${code.id}`, { key: reader, body: { active: false } }), 403, 'FORBIDDEN');
    expectError(await t.request('DELETE', `/v1/promo-codes/${code.id}`, { key: reader }), 403, 'FORBIDDEN');
    expectError(await t.request('GET', '/v1/promo-codes', { key: bookings }), 403, 'FORBIDDEN');
    expectError(await t.request('GET', `/v1/promo-codes/${code.id}`, { key: bookings }), 403, 'FORBIDDEN');
    expectError(await t.request('GET', '/v1/promo-codes', { key: t.publishableKey }), 401, 'INVALID_API_KEY');
  });
});
