import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp, everyDay, expectData, expectList, expectValidationError, manualClock, testEngine, type ManualClock, type TestApp,
} from '../test-helpers/index.js';
import { issueManageToken } from '../services/messages.js';
import { usePaymentsHarness } from '../payments/test-helpers/setup.js';
import { HOST_PAGE } from '../payments/test-helpers/setup.js';
import { Booking, Experience, ManagedBooking, PromoCode, PublicBooking, WebhookEvent } from '../../shared/index.js';

// Monday 2027-03-01, 08:00 UTC; the walk runs every day at 10:00 and 15:00.
const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);
const S1 = '2027-03-02T10:00:00.000Z';
const S2 = '2027-03-02T15:00:00.000Z';

let t: TestApp;
let clock: ManualClock;
let walk: Experience;

const WALK = { name: 'Alfama walk', description: '', duration: 120, price: 1999, maxParticipants: 10, schedule: { weekly: everyDay(['10:00', '15:00']) } };

async function newCode(body: Record<string, unknown>): Promise<PromoCode> {
  return expectData(await t.request('POST', '/v1/promo-codes', { body: { discountType: 'PERCENT', discountValue: 10, ...body } }), PromoCode, 201);
}
const usesOf = async (id: string) => expectData(await t.request('GET', `/v1/promo-codes/${id}`), PromoCode).uses;
async function book(fields: Record<string, unknown>): Promise<Booking> {
  const body = { experienceId: walk.id, startTime: S1, participants: 2, customerName: 'Ana', customerEmail: 'ana@example.com', ...fields };
  return expectData(await t.request('POST', '/v1/bookings', { body }), Booking, 201);
}
const patch = async (id: string, body: Record<string, unknown>) => await t.request('PATCH', `/v1/bookings/${id}`, { body });
const lastUpdate = async (id: string) =>
  expectList(await t.request('GET', '/v1/events?type=BOOKING_UPDATED&limit=100'), WebhookEvent).data.filter((e) => e.data.booking.id === id).at(-1);

beforeEach(async () => {
  clock = manualClock(NOW);
  t = await createTestApp({ now: clock.now, org: { timezone: 'Europe/Lisbon', currency: 'EUR' } });
  walk = expectData(await t.request('POST', '/v1/experiences', { body: WALK }), Experience, 201);
});
afterEach(() => t.close());

describe(`a booking's promo code after it is made (${testEngine()})`, () => {
  it('frees the use on every cancellation (cancel route, PATCH status, manage page); the booking keeps its discount', async () => {
    const code = await newCode({ code: 'FREEUP', maxUses: 3 });
    const [a, b, c] = [await book({ promoCode: 'freeup' }), await book({ promoCode: 'freeup', startTime: S2 }), await book({ promoCode: 'FREEUP' })];
    expect(await usesOf(code.id)).toBe(3);

    const cancelled = expectData(await t.request('PATCH', `/v1/bookings/${a.id}/cancel`, { body: {} }), Booking);
    expect(cancelled).toMatchObject({ status: 'CANCELLED', subtotal: '39.98', discount: { code: 'FREEUP', amount: '4.00' }, total: '35.98', amountDue: '0.00' });
    expect(await usesOf(code.id)).toBe(2);

    expectData(await patch(b.id, { status: 'CANCELLED' }), Booking);
    expect(await usesOf(code.id)).toBe(1);

    const token = await issueManageToken(t.store, c.id, clock.now());
    const managed = expectData(await t.request('POST', '/public/v1/manage/cancel', { key: null, headers: { 'x-manage-token': token }, body: {} }), ManagedBooking);
    expect(managed.booking).toMatchObject({ status: 'CANCELLED', discount: { code: 'FREEUP', amount: '4.00' } });
    expect(await usesOf(code.id)).toBe(0);

    // A cancelled booking changed again (metadata) frees nothing more.
    expectData(await patch(a.id, { metadata: { note: 'x' } }), Booking);
    expect(await usesOf(code.id)).toBe(0);
    // A code deleted since: cancelling its booking is fine, and the booking keeps its discount.
    const d = await book({ promoCode: 'FREEUP', customerEmail: 'd@example.com' });
    await t.request('DELETE', `/v1/promo-codes/${code.id}`);
    expect(expectData(await t.request('PATCH', `/v1/bookings/${d.id}/cancel`, { body: {} }), Booking)).toMatchObject({ discount: { code: 'FREEUP', amount: '4.00' } });
  });

  it('recomputes the discount by the booking’s own rule when the subtotal changes, even after the code expired or was deleted', async () => {
    const code = await newCode({ code: 'TEN', validUntil: '2027-03-01T09:00:00Z' });
    const b = await book({ promoCode: 'ten' });
    expect(b).toMatchObject({ subtotal: '39.98', discount: { code: 'TEN', amount: '4.00' }, total: '35.98' });
    clock.set(Date.parse('2027-03-01T10:00:00Z')); // the code has expired
    const grown = expectData(await patch(b.id, { participants: 3 }), Booking);
    // 59.97 × 10 % = 5.997 → 6.00.
    expect(grown).toMatchObject({ subtotal: '59.97', discount: { code: 'TEN', amount: '6.00' }, total: '53.97', amountDue: '53.97' });
    expect((await lastUpdate(b.id))!.data.changes).toEqual({
      totalParticipants: { from: 2, to: 3 },
      subtotal: { from: '39.98', to: '59.97' },
      discount: { from: { code: 'TEN', amount: '4.00' }, to: { code: 'TEN', amount: '6.00' } },
      total: { from: '35.98', to: '53.97' },
      amountDue: { from: '35.98', to: '53.97' },
    });
    expect(expectData(await t.request('GET', `/v1/bookings/${b.id}`), Booking)).toEqual(grown);

    await t.request('DELETE', `/v1/promo-codes/${code.id}`);
    expect(expectData(await patch(b.id, { participants: 1 }), Booking)).toMatchObject({ subtotal: '19.99', discount: { code: 'TEN', amount: '2.00' }, total: '17.99' });
    // A change that leaves the subtotal alone names no money.
    expectData(await patch(b.id, { customerName: 'Ana Lima' }), Booking);
    expect(Object.keys((await lastUpdate(b.id))!.data.changes ?? {})).toEqual(['guestName']);
  });

  it('an AMOUNT stays capped at the subtotal as it changes; a payment lowers amountDue', async () => {
    await newCode({ code: 'FIFTY', discountType: 'AMOUNT', discountValue: 5000 });
    const b = await book({ promoCode: 'FIFTY' });
    expect(b).toMatchObject({ subtotal: '39.98', discount: { code: 'FIFTY', amount: '39.98' }, total: '0.00', amountDue: '0.00' });
    const grown = expectData(await patch(b.id, { participants: 3 }), Booking);
    expect(grown).toMatchObject({ subtotal: '59.97', discount: { code: 'FIFTY', amount: '50.00' }, total: '9.97', amountDue: '9.97' });
    expect((await lastUpdate(b.id))!.data.changes).toMatchObject({
      discount: { from: { code: 'FIFTY', amount: '39.98' }, to: { code: 'FIFTY', amount: '50.00' } },
      total: { from: '0.00', to: '9.97' },
      amountDue: { from: '0.00', to: '9.97' },
    });
    const c = await book({ promoCode: 'FIFTY', participants: 4, startTime: S2, customerEmail: 'c@example.com', payment: { amount: '20.00', method: 'CASH' } });
    expect(c).toMatchObject({ subtotal: '79.96', total: '29.96', amountDue: '9.96' });
    expect(expectData(await patch(c.id, { participants: 5 }), Booking)).toMatchObject({ subtotal: '99.95', discount: { amount: '50.00' }, total: '49.95', amountDue: '29.95' });
  });

  it('recomputes with tickets and extras changed', async () => {
    const boat = expectData(await t.request('POST', '/v1/experiences', {
      body: { ...WALK, name: 'Boat', priceCategories: [{ name: 'Adult', price: 2500 }, { name: 'Child', price: 1000 }], extras: [{ name: 'Lunch', price: 1200 }] },
    }), Experience, 201);
    const [adult, child] = boat.priceCategories;
    const lunch = boat.extras[0]!;
    await newCode({ code: 'QUARTER', discountValue: 25 });
    const b = await book({ experienceId: boat.id, participants: undefined, tickets: [{ categoryId: adult!.id, quantity: 2 }], promoCode: 'QUARTER' });
    expect(b).toMatchObject({ subtotal: '50.00', discount: { amount: '12.50' }, total: '37.50' });
    const more = expectData(await patch(b.id, { tickets: [{ categoryId: adult!.id, quantity: 2 }, { categoryId: child!.id, quantity: 1 }] }), Booking);
    expect(more).toMatchObject({ subtotal: '60.00', discount: { amount: '15.00' }, total: '45.00' });
    const fed = expectData(await patch(b.id, { extras: [{ extraId: lunch.id, quantity: 3 }] }), Booking);
    // 60.00 + 36.00 = 96.00; 25 % = 24.00.
    expect(fed).toMatchObject({ subtotal: '96.00', discount: { amount: '24.00' }, total: '72.00' });
    expect((await lastUpdate(b.id))!.data.changes).toMatchObject({
      subtotal: { from: '60.00', to: '96.00' }, discount: { from: { code: 'QUARTER', amount: '15.00' }, to: { code: 'QUARTER', amount: '24.00' } },
      total: { from: '45.00', to: '72.00' }, amountDue: { from: '45.00', to: '72.00' },
    });
  });

  it('refuses codes on PATCH: they are set at creation only', async () => {
    await newCode({ code: 'LATE' });
    const b = await book({});
    expectValidationError(await patch(b.id, { promoCode: 'LATE' }), 'promoCode');
    expectValidationError(await patch(b.id, { voucherCode: 'GV-AAAA-BBBB-CCCC' }), 'voucherCode');
    expect(expectData(await t.request('GET', `/v1/bookings/${b.id}`), Booking)).toMatchObject({ discount: null, total: '39.98' });
  });
});

describe('a lapsed payment hold', () => {
  const harness = usePaymentsHarness();

  it('frees its promo code’s use when it is cancelled', async () => {
    const { h } = harness();
    const code = expectData(await h.t.request('POST', '/v1/promo-codes', { body: { code: 'HOLD', discountType: 'PERCENT', discountValue: 10, maxUses: 1 } }), PromoCode, 201);
    const held = expectData(await h.t.request('POST', '/public/v1/bookings', {
      body: { experienceId: h.experienceId, startTime: h.startTime, participants: 2, customerName: 'Ana Lima', customerEmail: 'ana@example.com', promoCode: 'hold' },
      headers: { origin: new URL(HOST_PAGE).origin, referer: HOST_PAGE },
    }), PublicBooking, 201);
    expect(held).toMatchObject({ status: 'PENDING', discount: { code: 'HOLD' } });
    const uses = async () => expectData(await h.t.request('GET', `/v1/promo-codes/${code.id}`), PromoCode).uses;
    expect(await uses()).toBe(1);
    h.clock.advance(30 * 60_000);
    expect(await (await h.sweeper()).runOnce()).toBe(1);
    expect((await h.bookingOf(held.bookingNumber)).status).toBe('CANCELLED');
    expect(await uses()).toBe(0);
  });
});
