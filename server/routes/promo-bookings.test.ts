import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp, everyDay, expectData, expectError, expectPriceChanged, expectValidationError, manualClock, testEngine,
  type ManualClock, type ResponseLike, type TestApp,
} from '../test-helpers/index.js';
import { Booking, CodeRefusedDetails, ErrorEnvelope, Experience, PromoCode, PublicBooking } from '../../shared/index.js';

// Monday 2027-03-01, 08:00 UTC; the walk runs every day at 10:00 and 15:00 (Lisbon = UTC in March).
const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);
const S1 = '2027-03-02T10:00:00.000Z';
const S2 = '2027-03-02T15:00:00.000Z';

let t: TestApp;
let clock: ManualClock;
let walk: Experience;

const WALK = { name: 'Alfama walk', description: '', duration: 120, price: 1999, maxParticipants: 10, schedule: { weekly: everyDay(['10:00', '15:00']) } };

async function newExperience(fields: Record<string, unknown> = {}): Promise<Experience> {
  return expectData(await t.request('POST', '/v1/experiences', { body: { ...WALK, ...fields } }), Experience, 201);
}
async function newCode(body: Record<string, unknown>): Promise<PromoCode> {
  return expectData(await t.request('POST', '/v1/promo-codes', { body: { discountType: 'PERCENT', discountValue: 10, ...body } }), PromoCode, 201);
}
const codeOf = async (id: string) => expectData(await t.request('GET', `/v1/promo-codes/${id}`), PromoCode);

type Api = '/v1' | '/public/v1';
const guest = (i = 0) => ({ customerName: `Guest ${i}`, customerEmail: `guest${i}@example.com` });
const post = (api: Api, fields: Record<string, unknown>) =>
  t.request('POST', `${api}/bookings`, { body: { experienceId: walk.id, startTime: S1, participants: 1, ...guest(), ...fields } });
async function book(api: Api, fields: Record<string, unknown>): Promise<Booking | PublicBooking> {
  return expectData(await post(api, fields), api === '/v1' ? Booking : PublicBooking, 201);
}

/** A `400 PROMO_CODE_INVALID` and its reason. */
function expectPromoRefused(res: ResponseLike, reason: string): string {
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 400, body: { success: false, error: { code: 'PROMO_CODE_INVALID' } } });
  const { error } = ErrorEnvelope.parse(res.body);
  expect(CodeRefusedDetails.strict().parse(error.details)).toEqual({ reason });
  return error.message;
}

beforeEach(async () => {
  clock = manualClock(NOW);
  t = await createTestApp({ now: clock.now, org: { timezone: 'Europe/Lisbon', currency: 'EUR' } });
  walk = await newExperience();
});
afterEach(() => t.close());

describe(`promo codes on bookings (${testEngine()})`, () => {
  for (const api of ['/v1', '/public/v1'] as const) {
    it(`${api}: refuses each reason in the contract's order, with its message in words`, async () => {
      const other = await newExperience({ name: 'Tram ride' });
      expect(expectPromoRefused(await post(api, { promoCode: 'NOSUCH' }), 'NOT_FOUND')).toBe('This promo code does not exist');

      // Inactive, not yet valid, for another experience and used up all at once: INACTIVE first.
      const code = await newCode({ code: 'ORDER', active: false, validFrom: '2027-03-05T00:00:00Z', validUntil: '2027-03-10T00:00:00Z', experienceIds: [other.id], maxUses: 1 });
      expect(expectPromoRefused(await post(api, { promoCode: 'order' }), 'INACTIVE')).toBe('The promo code ORDER is no longer active');
      await t.request('PATCH', `/v1/promo-codes/${code.id}`, { body: { active: true } });
      expect(expectPromoRefused(await post(api, { promoCode: 'order' }), 'NOT_YET_VALID')).toBe('The promo code ORDER is not valid yet');
      // "Now" is when the booking is made, not the slot: validFrom is inclusive, validUntil exclusive.
      clock.set(Date.parse('2027-03-10T00:00:00Z'));
      expect(expectPromoRefused(await post(api, { promoCode: 'order', startTime: '2027-03-11T10:00:00.000Z' }), 'EXPIRED')).toBe('The promo code ORDER has expired');
      clock.set(Date.parse('2027-03-05T00:00:00Z'));
      expect(expectPromoRefused(await post(api, { promoCode: 'order', startTime: '2027-03-06T10:00:00.000Z' }), 'NOT_FOR_EXPERIENCE'))
        .toBe('The promo code ORDER does not apply to Alfama walk');
      await t.request('PATCH', `/v1/promo-codes/${code.id}`, { body: { experienceIds: [other.id, walk.id] } });
      await book(api, { promoCode: ' Order ', startTime: '2027-03-06T10:00:00.000Z' });
      expect(expectPromoRefused(await post(api, { promoCode: 'ORDER', startTime: '2027-03-06T15:00:00.000Z', ...guest(2) }), 'USED_UP'))
        .toBe('The promo code ORDER has been used up');
      expect((await codeOf(code.id)).uses).toBe(1);
      // 1–64 characters, else a 400 on promoCode.
      expectValidationError(await post(api, { promoCode: '' }), 'promoCode');
      expectValidationError(await post(api, { promoCode: 'X'.repeat(65) }), 'promoCode');
      expectPromoRefused(await post(api, { promoCode: '   ' }), 'NOT_FOUND');
    });

    it(`${api}: takes a percentage half-up or an amount capped at the subtotal, and counts the use`, async () => {
      const pct = await newCode({ code: 'FIFTEEN', discountType: 'PERCENT', discountValue: 15 });
      // 3 × 19.99 = 59.97; 15 % = 8.9955 → 9.00.
      const b = await book(api, { participants: 3, promoCode: 'fifteen' });
      expect(b).toMatchObject({ subtotal: '59.97', discount: { code: 'FIFTEEN', amount: '9.00' }, total: '50.97', amountDue: '50.97' });
      expect((await codeOf(pct.id)).uses).toBe(1);

      const small = await newExperience({ name: 'Short walk', price: 1050 });
      await newCode({ code: 'FIVE', discountType: 'PERCENT', discountValue: 5 });
      // 10.50 × 5 % = 0.525 → 0.53.
      expect(await book(api, { experienceId: small.id, promoCode: 'FIVE' })).toMatchObject({ subtotal: '10.50', discount: { code: 'FIVE', amount: '0.53' }, total: '9.97' });

      await newCode({ code: 'TENOFF', discountType: 'AMOUNT', discountValue: 1000 });
      expect(await book(api, { participants: 2, promoCode: 'TENOFF', startTime: S2 })).toMatchObject({ subtotal: '39.98', discount: { code: 'TENOFF', amount: '10.00' }, total: '29.98' });
      await newCode({ code: 'BIGONE', discountType: 'AMOUNT', discountValue: 100000 });
      expect(await book(api, { participants: 1, promoCode: 'BIGONE', startTime: S2, ...guest(3) })).toMatchObject({
        subtotal: '19.99', discount: { code: 'BIGONE', amount: '19.99' }, total: '0.00', amountDue: '0.00',
      });
      // Without a code: no discount.
      expect(await book(api, { participants: 1, ...guest(4) })).toMatchObject({ subtotal: '19.99', discount: null, total: '19.99' });
    });

    it(`${api}: discounts tickets and extras together, and compares expectedTotal after the discount`, async () => {
      const ticketed = await newExperience({
        name: 'Boat trip',
        priceCategories: [{ name: 'Adult', price: 2500 }, { name: 'Child', price: 1000 }],
        extras: [{ name: 'Lunch', price: 1200, per: 'PERSON' }],
      });
      const [adult, child] = ticketed.priceCategories;
      const lunch = ticketed.extras[0]!;
      await newCode({ code: 'QUARTER', discountType: 'PERCENT', discountValue: 25 });
      const fields = {
        experienceId: ticketed.id, participants: undefined,
        tickets: [{ categoryId: adult!.id, quantity: 2 }, { categoryId: child!.id, quantity: 1 }],
        extras: [{ extraId: lunch.id, quantity: 3 }], promoCode: 'quarter',
      };
      // 2 × 25.00 + 10.00 + 3 × 12.00 = 96.00; 25 % = 24.00; total 72.00.
      expect(expectPriceChanged(await post(api, { ...fields, expectedTotal: '96.00' }))).toBe('72.00');
      const b = await book(api, { ...fields, expectedTotal: '72.00' });
      expect(b).toMatchObject({ subtotal: '96.00', discount: { code: 'QUARTER', amount: '24.00' }, total: '72.00', amountDue: '72.00' });
      // A refused code answers before the price.
      expectPromoRefused(await post(api, { ...fields, promoCode: 'NOPE', expectedTotal: '1.00' }), 'NOT_FOUND');
    });

    it(`${api}: checks the code before the slot (decision 1), and a full slot takes no use`, async () => {
      const code = await newCode({ code: 'FULL', maxUses: 5 });
      await book(api, { participants: 10 });
      // A bad code on a full slot is PROMO_CODE_INVALID, not 409.
      expectPromoRefused(await post(api, { promoCode: 'WRONG', ...guest(1) }), 'NOT_FOUND');
      expectPromoRefused(await post(api, { promoCode: 'WRONG', startTime: '2027-03-02T11:00:00.000Z', ...guest(1) }), 'NOT_FOUND');
      // A good one meets the slot's own refusal, and nothing is taken.
      expectError(await post(api, { promoCode: 'FULL', ...guest(1) }), 409, 'CAPACITY_EXCEEDED');
      expectError(await post(api, { promoCode: 'FULL', startTime: '2027-03-02T11:00:00.000Z', ...guest(1) }), 409, 'SLOT_UNAVAILABLE');
      expect((await codeOf(code.id)).uses).toBe(0);
      // An unknown experience is a 404 before any code.
      expectError(await post(api, { experienceId: 'exp_nothere', promoCode: 'WRONG' }), 404, 'NOT_FOUND');
    });
  }

  it('keeps the booking’s own copy of the rule when the code changes or is deleted', async () => {
    const code = await newCode({ code: 'KEEP', discountType: 'PERCENT', discountValue: 50 });
    const b = expectData(await post('/v1', { participants: 2, promoCode: 'keep' }), Booking, 201);
    await t.request('PATCH', `/v1/promo-codes/${code.id}`, { body: { discountValue: 10, code: 'KEPT' } });
    const read = async () => expectData(await t.request('GET', `/v1/bookings/${b.id}`), Booking);
    expect(await read()).toMatchObject({ subtotal: '39.98', discount: { code: 'KEEP', amount: '19.99' }, total: '19.99' });
    await t.request('DELETE', `/v1/promo-codes/${code.id}`);
    expect(await read()).toMatchObject({ subtotal: '39.98', discount: { code: 'KEEP', amount: '19.99' }, total: '19.99' });
  });

  for (const api of ['/v1', '/public/v1'] as const) {
    it(`${api}: 12 bookings at once for a code of 3 uses: exactly 3 take it`, async () => {
      const code = await newCode({ code: 'THREE', maxUses: 3 });
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => post(api, { promoCode: 'three', startTime: i % 2 ? S1 : S2, ...guest(i) })));
      expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
      for (const a of answers.filter((x) => x.status !== 201)) expectPromoRefused(a, 'USED_UP');
      expect((await codeOf(code.id)).uses).toBe(3);
    });
  }
});
