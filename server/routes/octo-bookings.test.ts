import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectData, expectList, harbourCruise, manualClock, type ManualClock, type TestApp } from '../test-helpers/index.js';
import { slotId } from '../domain/slots.js';
import { sweepLapsedHolds } from '../services/hold-expiry.js';
import { createLogger } from '../logger.js';
import { Activity, Booking, OctoBooking, Slot, WebhookEvent, type Experience } from '../../shared/index.js';

// The OCTO validator's booking flows, on the engine under test: reserve (and what it refuses), extend,
// confirm, update, cancel, get and list; the lapsed hold; what Outing shows of an OCTO booking.

const MINUTE = 60_000;
// Monday 5 January 2026, noon in Lisbon (UTC+0 in winter).
const NOW = Date.UTC(2026, 0, 5, 12, 0);
const WED_10 = Date.UTC(2026, 0, 7, 10, 0);
const WED_15 = Date.UTC(2026, 0, 7, 15, 0);
const UUID = '3f1c2a4e-8b7d-4c6e-9a1b-2c3d4e5f6a7b';
const ITEM_A = 'a1b2c3d4-e5f6-4a1b-8c2d-3e4f5a6b7c8d';
const ITEM_B = 'b1b2c3d4-e5f6-4a1b-8c2d-3e4f5a6b7c8d';

let t: TestApp;
let clock: ManualClock;
let cruise: Experience;

beforeEach(async () => {
  clock = manualClock(NOW);
  t = await createTestApp({ now: clock.now });
  cruise = await harbourCruise(t, { maxParticipants: 6 });
});
afterEach(() => t.close());

const octo = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  t.request(method, `/octo${path}`, { body, headers });

function reserveBody(fields: Record<string, unknown> = {}) {
  return {
    uuid: UUID,
    productId: cruise.id,
    optionId: 'DEFAULT',
    availabilityId: slotId(cruise.id, WED_10),
    unitItems: [{ unitId: 'adult', uuid: ITEM_A }, { unitId: 'adult', uuid: ITEM_B }],
    ...fields,
  };
}

async function reserve(fields: Record<string, unknown> = {}): Promise<OctoBooking> {
  const res = await octo('POST', '/bookings', reserveBody(fields));
  expect(res.status, res.text).toBe(200);
  return OctoBooking.parse(res.body);
}

const outingBooking = async (id: string) => expectData(await t.request('GET', `/v1/bookings/${id}`), Booking);
const remaining = async (start = WED_10, exp = cruise.id) => expectData(await t.request('GET', `/v1/slots/${slotId(exp, start)}`), Slot).remaining;
const contact = {
  fullName: 'Ana Sousa', firstName: 'Ana', lastName: 'Sousa', emailAddress: 'ana@example.com', phoneNumber: '+351 912 345 678',
  postalCode: '1100-148', country: 'PT', notes: 'Window seat', locales: ['xx', 'PT', 'en'],
};

describe('OCTO reservation', () => {
  it('holds the places at once as a PENDING booking, shown ON_HOLD for 30 minutes', async () => {
    const booking = await reserve({ resellerReference: 'R-1', notes: 'Late arrival' });
    expect(booking).toMatchObject({
      uuid: UUID, status: 'ON_HOLD', testMode: false, resellerReference: 'R-1', productId: cruise.id, optionId: 'DEFAULT',
      availabilityId: slotId(cruise.id, WED_10), utcExpiresAt: '2026-01-05T12:30:00Z', utcConfirmedAt: null, cancellable: true,
      cancellation: null, freesale: false, notes: 'Late arrival', deliveryMethods: ['VOUCHER'],
      voucher: { redemptionMethod: 'DIGITAL', utcRedeemedAt: null, deliveryOptions: [] },
      availability: { id: slotId(cruise.id, WED_10), localDateTimeStart: '2026-01-07T10:00:00+00:00', status: 'AVAILABLE', vacancies: 4, capacity: 6 },
    });
    expect(booking.unitItems.map((i) => [i.uuid, i.unitId, i.status])).toEqual([[ITEM_A, 'adult', 'ON_HOLD'], [ITEM_B, 'adult', 'ON_HOLD']]);
    expect(booking.pricing).toBeUndefined();
    expect(await remaining()).toBe(4);

    const outing = await outingBooking(booking.id);
    expect(outing).toMatchObject({
      status: 'PENDING', source: 'OCTO', totalParticipants: 2, tickets: [], customerId: null, guestName: null, guestEmail: null,
      internalNote: 'Late arrival', bookingNumber: booking.supplierReference, octo: { uuid: UUID, resellerReference: 'R-1', apiKeyId: t.apiKeyId },
    });
    const [created] = expectList(await t.request('GET', `/v1/activity?targetId=${booking.id}`), Activity).data;
    expect(created).toMatchObject({ action: 'booking.create', actor: { type: 'key', id: t.apiKeyId } });
    const events = expectList(await t.request('GET', '/v1/events'), WebhookEvent).data.filter((e) => e.data.booking.id === booking.id);
    expect(events.map((e) => e.event)).toEqual(['BOOKING_CREATED']);
    expect(events[0]!.data.booking).toMatchObject({ source: 'OCTO', octo: { uuid: UUID, resellerReference: 'R-1', apiKeyId: t.apiKeyId } });
  });

  it('prices units and the booking with the octo/pricing capability', async () => {
    const res = await octo('POST', '/bookings', reserveBody(), { 'octo-capabilities': 'octo/pricing' });
    expect(res.headers.get('octo-capabilities')).toBe('octo/pricing');
    const booking = OctoBooking.parse(res.body);
    const price = { original: 4500, retail: 4500, net: null, currency: 'EUR', currencyPrecision: 2, includedTaxes: [] };
    expect(booking.unitItems.map((i) => i.pricing)).toEqual([price, price]);
    expect(booking.pricing).toEqual({ ...price, original: 9000, retail: 9000 });
  });

  it('answers a repeated uuid with the same booking for the same body, and refuses it for another', async () => {
    const first = await reserve();
    const again = await reserve();
    expect(again.id).toBe(first.id);
    expect(await remaining()).toBe(4);
    const other = await octo('POST', '/bookings', reserveBody({ unitItems: [{ unitId: 'adult' }] }));
    expect(other.body).toMatchObject({ error: 'UNPROCESSABLE_ENTITY' });
    const upper = await reserve({ uuid: UUID.toUpperCase() });
    expect(upper.uuid).toBe(UUID);
  });

  it('makes a v4 uuid for each item and the booking when none is sent', async () => {
    const booking = await reserve({ uuid: undefined, unitItems: [{ unitId: 'adult' }] });
    expect(booking.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(booking.unitItems[0]!.uuid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses bad ids, a bad uuid, another currency and empty unit items, keeping nothing', async () => {
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ productId: 'exp_nope' }, { error: 'INVALID_PRODUCT_ID', productId: 'exp_nope' }],
      [{ optionId: 'SUNSET' }, { error: 'INVALID_OPTION_ID', optionId: 'SUNSET' }],
      [{ availabilityId: 'ts_nope' }, { error: 'INVALID_AVAILABILITY_ID', availabilityId: 'ts_nope' }],
      [{ availabilityId: slotId(cruise.id, WED_10 + 60 * MINUTE) }, { error: 'INVALID_AVAILABILITY_ID' }],
      [{ unitItems: [{ unitId: 'child' }] }, { error: 'INVALID_UNIT_ID', unitId: 'child' }],
      [{ uuid: 'not-a-uuid' }, { error: 'BAD_REQUEST' }],
      [{ currency: 'USD' }, { error: 'BAD_REQUEST' }],
      [{ expirationMinutes: 0 }, { error: 'BAD_REQUEST' }],
      [{ unitItems: [] }, { error: 'UNPROCESSABLE_ENTITY' }],
      [{ unitItems: undefined }, { error: 'UNPROCESSABLE_ENTITY' }],
      [{ unitItems: null }, { error: 'UNPROCESSABLE_ENTITY' }],
      [{ unitItems: Array.from({ length: 7 }, () => ({ unitId: 'adult' })) }, { error: 'UNPROCESSABLE_ENTITY' }],
    ];
    for (const [fields, error] of cases) {
      const res = await octo('POST', '/bookings', reserveBody({ uuid: undefined, ...fields }));
      expect({ fields, status: res.status, body: res.body }).toMatchObject({ status: 400, body: { ...error, errorMessage: expect.any(String) } });
    }
    expect(await remaining()).toBe(6);
    expect((await t.request('GET', '/v1/bookings')).body.data).toEqual([]);
  });

  it('refuses a SOLD_OUT availability, too few vacancies and a closed one', async () => {
    await t.request('POST', '/v1/bookings', {
      body: { experienceId: cruise.id, startTime: new Date(WED_10).toISOString(), participants: 5, customerName: 'Bo', customerEmail: 'bo@example.com' },
    });
    const few = await octo('POST', '/bookings', reserveBody());
    expect(few.body).toMatchObject({ error: 'UNPROCESSABLE_ENTITY' });
    await reserve({ uuid: undefined, unitItems: [{ unitId: 'adult' }] });
    const soldOut = await octo('POST', '/bookings', reserveBody({ uuid: undefined, unitItems: [{ unitId: 'adult' }] }));
    expect(soldOut.body).toMatchObject({ error: 'UNPROCESSABLE_ENTITY' });
    await t.request('PATCH', `/v1/slots/${slotId(cruise.id, WED_15)}`, { body: { closed: true } });
    const closed = await octo('POST', '/bookings', reserveBody({ availabilityId: slotId(cruise.id, WED_15) }));
    expect(closed.body).toMatchObject({ error: 'UNPROCESSABLE_ENTITY' });
  });

  it('holds a slot override as its capacity', async () => {
    expect((await t.request('PATCH', `/v1/slots/${slotId(cruise.id, WED_10)}`, { body: { capacity: 1 } })).status).toBe(200);
    expect((await octo('POST', '/bookings', reserveBody())).body).toMatchObject({ error: 'UNPROCESSABLE_ENTITY' });
    expect((await reserve({ unitItems: [{ unitId: 'adult' }] })).availability).toMatchObject({ capacity: 1, vacancies: 0, status: 'SOLD_OUT' });
  });

  it('books price categories as tickets, one unit item per person', async () => {
    const tour = await harbourCruise(t, {
      name: 'Family tour',
      priceCategories: [{ name: 'Adult', price: 3000, type: 'ADULT' }, { name: 'Child', price: 1500, type: 'CHILD' }],
    });
    const [adult, child] = tour.priceCategories;
    const booking = await reserve({
      productId: tour.id, availabilityId: slotId(tour.id, WED_10),
      unitItems: [{ unitId: child!.id }, { unitId: adult!.id }, { unitId: adult!.id }],
    });
    const outing = await outingBooking(booking.id);
    expect(outing.totalParticipants).toBe(3);
    expect(outing.tickets.map((x) => [x.categoryId, x.quantity])).toEqual([[adult!.id, 2], [child!.id, 1]]);
    expect(outing.total).toBe('75.00');
  });
});

describe('OCTO extend, confirm and expiry', () => {
  it('extends a hold, never shortening it', async () => {
    await reserve({ expirationMinutes: 60 });
    const short = await octo('POST', `/bookings/${UUID}/extend`, { expirationMinutes: 10 });
    expect(OctoBooking.parse(short.body).utcExpiresAt).toBe('2026-01-05T13:00:00Z');
    clock.advance(50 * MINUTE);
    const longer = await octo('POST', `/bookings/${UUID}/extend`, { expirationMinutes: 30 });
    expect(OctoBooking.parse(longer.body).utcExpiresAt).toBe('2026-01-05T13:20:00Z');
    const patched = await octo('PATCH', `/bookings/${UUID}`, { expirationMinutes: 60 });
    expect(OctoBooking.parse(patched.body)).toMatchObject({ status: 'ON_HOLD', utcExpiresAt: '2026-01-05T13:50:00Z' });
    const held = OctoBooking.parse(patched.body);
    expect((await outingBooking(held.id)).holdExpiresAt).toBe('2026-01-05T13:50:00.000Z');
    const actions = expectList(await t.request('GET', `/v1/activity?targetId=${held.id}`), Activity).data.map((a) => `${a.action}:${a.actor.type}`);
    expect(actions.filter((a) => a === 'booking.update:key').length).toBeGreaterThanOrEqual(2);
  });

  it('confirms with the contact echoed exactly and a changed unit count; the guest is the contact', async () => {
    const held = await reserve();
    const res = await octo('POST', `/bookings/${UUID}/confirm`, {
      contact, resellerReference: 'R-2', unitItems: [{ uuid: ITEM_A, unitId: 'adult' }, { unitId: 'adult' }, { unitId: 'adult' }],
    });
    const booking = OctoBooking.parse(res.body);
    expect(booking).toMatchObject({
      status: 'CONFIRMED', contact, resellerReference: 'R-2', utcExpiresAt: null, utcConfirmedAt: '2026-01-05T12:00:00Z',
      voucher: { deliveryOptions: [{ deliveryFormat: 'QRCODE', deliveryValue: held.supplierReference }] },
    });
    expect(booking.unitItems).toHaveLength(3);
    expect(booking.unitItems[0]!.uuid).toBe(ITEM_A);
    expect(booking.unitItems.every((i) => i.status === 'CONFIRMED')).toBe(true);
    expect(await remaining()).toBe(3);
    const outing = await outingBooking(held.id);
    expect(outing).toMatchObject({
      status: 'CONFIRMED', totalParticipants: 3, guestName: 'Ana Sousa', guestEmail: 'ana@example.com', guestPhone: '+351 912 345 678', locale: 'pt',
    });
    const again = await octo('POST', `/bookings/${UUID}/confirm`, { contact: { fullName: 'Somebody else' } });
    expect(OctoBooking.parse(again.body).contact).toEqual(contact);
    const actions = expectList(await t.request('GET', `/v1/activity?targetId=${held.id}`), Activity).data.map((a) => a.action);
    expect(actions).toContain('booking.update');
    const updated = expectList(await t.request('GET', '/v1/events'), WebhookEvent).data.filter((e) => e.data.booking.id === held.id && e.event === 'BOOKING_UPDATED');
    expect(updated).toHaveLength(1);
    expect(updated[0]!.data).toMatchObject({ booking: { status: 'CONFIRMED', octo: { resellerReference: 'R-2' } }, changes: { status: { from: 'PENDING', to: 'CONFIRMED' } } });
  });

  it('refuses a confirmation without a contact', async () => {
    await reserve();
    expect((await octo('POST', `/bookings/${UUID}/confirm`, {})).body).toMatchObject({ error: 'BAD_REQUEST' });
  });

  it('shows a lapsed hold EXPIRED at once, and the sweeper cancels it as expired and frees its places', async () => {
    const held = await reserve();
    clock.advance(30 * MINUTE);
    const shown = OctoBooking.parse((await octo('GET', `/bookings/${UUID}`)).body);
    expect(shown).toMatchObject({ status: 'EXPIRED', utcExpiresAt: '2026-01-05T12:30:00Z', cancellable: false, cancellation: { refund: 'FULL', reason: 'expired' } });
    expect((await octo('POST', `/bookings/${UUID}/confirm`, { contact })).body).toMatchObject({ error: 'INVALID_BOOKING_UUID', uuid: UUID });
    expect((await octo('POST', `/bookings/${UUID}/extend`, {})).body).toMatchObject({ error: 'UNPROCESSABLE_ENTITY' });

    const logger = createLogger('error', () => {});
    expect(await sweepLapsedHolds({ store: t.store, provider: undefined, logger, now: clock.now })).toBe(1);
    const outing = await outingBooking(held.id);
    expect(outing).toMatchObject({ status: 'CANCELLED', cancellationReason: 'expired' });
    expect(await remaining()).toBe(6);
    expect((await t.request('GET', `/v1/bookings/${held.id}/payments`)).body.data ?? []).toEqual([]);
    const cancelled = expectList(await t.request('GET', `/v1/activity?targetId=${held.id}`), Activity).data.find((a) => a.action === 'booking.cancel');
    expect(cancelled?.actor.type).toBe('system');
    const events = expectList(await t.request('GET', '/v1/events'), WebhookEvent).data.filter((e) => e.data.booking.id === held.id).map((e) => e.event);
    expect(events).toEqual(['BOOKING_CREATED', 'BOOKING_CANCELED']);
    const after = OctoBooking.parse((await octo('GET', `/bookings/${UUID}`)).body);
    expect(after).toMatchObject({ status: 'EXPIRED', utcExpiresAt: '2026-01-05T12:30:00Z', cancellation: { reason: 'expired', utcCancelledAt: '2026-01-05T12:30:00Z' } });
  });
});

describe('OCTO update and cancel', () => {
  it('moves a booking to another availability, freeing the first', async () => {
    await reserve();
    const moved = OctoBooking.parse((await octo('PATCH', `/bookings/${UUID}`, { availabilityId: slotId(cruise.id, WED_15) })).body);
    expect(moved.availabilityId).toBe(slotId(cruise.id, WED_15));
    expect(await remaining(WED_10)).toBe(6);
    expect(await remaining(WED_15)).toBe(4);
  });

  it('resizes, keeping the named items, and refuses more than there is room for without changing anything', async () => {
    const held = await reserve();
    const bigger = OctoBooking.parse((await octo('PATCH', `/bookings/${UUID}`, {
      unitItems: [{ uuid: ITEM_B, unitId: 'adult', resellerReference: 'seat 2' }, { unitId: 'adult' }, { unitId: 'adult' }],
    })).body);
    expect(bigger.unitItems.map((i) => i.uuid).slice(0, 1)).toEqual([ITEM_B]);
    expect(bigger.unitItems[0]!.resellerReference).toBe('seat 2');
    expect(await remaining()).toBe(3);
    const tooMany = await octo('PATCH', `/bookings/${UUID}`, { unitItems: Array.from({ length: 7 }, () => ({ unitId: 'adult' })), contact });
    expect(tooMany.body).toMatchObject({ error: 'UNPROCESSABLE_ENTITY' });
    expect(await remaining()).toBe(3);
    expect((await outingBooking(held.id)).guestName).toBeNull();
  });

  it('replaces the contact', async () => {
    const held = await reserve();
    await octo('POST', `/bookings/${UUID}/confirm`, { contact });
    const changed = OctoBooking.parse((await octo('PATCH', `/bookings/${UUID}`, { contact: { firstName: 'Rui', lastName: 'Lopes', locales: ['de'] } })).body);
    expect(changed.contact).toEqual({ ...Object.fromEntries(Object.keys(contact).map((k) => [k, null])), firstName: 'Rui', lastName: 'Lopes', locales: ['de'] });
    expect(await outingBooking(held.id)).toMatchObject({ guestName: 'Rui Lopes', guestEmail: null, locale: 'de', status: 'CONFIRMED' });
  });

  it('moves to another product only with an availability and unit items', async () => {
    const walk = await harbourCruise(t, { name: 'Old town walk', price: 2000 });
    const held = await reserve();
    const half = await octo('PATCH', `/bookings/${UUID}`, { productId: walk.id, availabilityId: slotId(walk.id, WED_10) });
    expect(half.body).toMatchObject({ error: 'UNPROCESSABLE_ENTITY' });
    const moved = OctoBooking.parse((await octo('PATCH', `/bookings/${UUID}`, {
      productId: walk.id, optionId: 'DEFAULT', availabilityId: slotId(walk.id, WED_10), unitItems: [{ unitId: 'adult' }],
    }, { 'octo-capabilities': 'octo/pricing' })).body);
    expect(moved).toMatchObject({ productId: walk.id, availabilityId: slotId(walk.id, WED_10), pricing: { retail: 2000 } });
    expect(await remaining(WED_10, cruise.id)).toBe(6);
    expect(await remaining(WED_10, walk.id)).toBe(9);
    expect(await outingBooking(held.id)).toMatchObject({ experience: { id: walk.id }, totalParticipants: 1 });
  });

  it('cancels with a reason, accepts force of any type, and answers a cancelled booking as it is', async () => {
    const held = await reserve();
    await octo('POST', `/bookings/${UUID}/confirm`, { contact });
    const res = await octo('POST', `/bookings/${UUID}/cancel`, { reason: 'Weather', force: { really: true } });
    expect(OctoBooking.parse(res.body)).toMatchObject({ status: 'CANCELLED', cancellable: false, cancellation: { refund: 'FULL', reason: 'Weather', utcCancelledAt: '2026-01-05T12:00:00Z' } });
    expect(await remaining()).toBe(6);
    expect((await outingBooking(held.id))).toMatchObject({ status: 'CANCELLED', cancellationReason: 'Weather' });
    expect((await octo('POST', `/bookings/${UUID}/cancel`, { force: 1 })).status).toBe(200);
    expect((await octo('POST', `/bookings/${UUID}/cancel`, { reason: 'x'.repeat(501) })).body).toMatchObject({ error: 'BAD_REQUEST' });
    expect((await octo('PATCH', `/bookings/${UUID}`, { notes: 'again' })).body).toMatchObject({ error: 'UNPROCESSABLE_ENTITY' });
    expect((await octo('POST', `/bookings/${UUID}/confirm`, { contact })).body).toMatchObject({ error: 'UNPROCESSABLE_ENTITY' });
  });

  it('refuses to cancel a confirmed booking past the cutoff', async () => {
    await reserve();
    await octo('POST', `/bookings/${UUID}/confirm`, { contact });
    clock.set(WED_10 - 23 * 60 * MINUTE); // the default cutoff is 24 hours
    expect(OctoBooking.parse((await octo('GET', `/bookings/${UUID}`)).body).cancellable).toBe(false);
    expect((await octo('POST', `/bookings/${UUID}/cancel`, {})).body).toMatchObject({ error: 'UNPROCESSABLE_ENTITY' });
  });
});

describe('OCTO get and list', () => {
  it('answers an unknown uuid with INVALID_BOOKING_UUID naming it', async () => {
    for (const path of ['/bookings/nope', `/bookings/${UUID}`]) {
      const res = await octo('GET', path);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'INVALID_BOOKING_UUID', uuid: path.slice(10) });
    }
  });

  it('lists the organization\'s bookings made with any key, by slot start, and needs a reference or a date', async () => {
    const other = await t.createKey({ scopes: ['octo'] });
    const late = await reserve({ availabilityId: slotId(cruise.id, WED_15), resellerReference: 'R-1' });
    const early = OctoBooking.parse((await t.request('POST', '/octo/bookings', {
      key: other.key, body: reserveBody({ uuid: undefined, unitItems: [{ unitId: 'adult' }], resellerReference: 'R-2' }),
    })).body);
    const list = async (query: string) => ((await octo('GET', `/bookings?${query}`)).body as OctoBooking[]).map((b) => b.id);
    expect(await list('localDate=2026-01-07')).toEqual([early.id, late.id]);
    expect(await list('localDateStart=2026-01-06&localDateEnd=2026-01-08')).toEqual([early.id, late.id]);
    expect(await list('localDate=2026-01-08')).toEqual([]);
    expect(await list('resellerReference=R-2')).toEqual([early.id]);
    expect(await list(`supplierReference=${late.supplierReference}`)).toEqual([late.id]);
    expect(await list(`localDate=2026-01-07&productId=${cruise.id}&optionId=DEFAULT`)).toEqual([early.id, late.id]);
    expect((await octo('GET', '/bookings')).body).toMatchObject({ error: 'BAD_REQUEST' });
    expect((await octo('GET', '/bookings?productId=x')).body).toMatchObject({ error: 'BAD_REQUEST' });
    expect((await octo('GET', '/bookings?localDateStart=2026-01-06')).body).toMatchObject({ error: 'BAD_REQUEST' });
    const elsewhere = await t.addOrganization();
    const theirs = await t.request('GET', '/octo/bookings?localDate=2026-01-07', { key: elsewhere.secretKey });
    expect(theirs.body).toEqual([]);
  });

  it('lists OCTO bookings in /v1 by source', async () => {
    const held = await reserve();
    const listed = expectList(await t.request('GET', '/v1/bookings?source=OCTO'), Booking).data;
    expect(listed.map((b) => b.id)).toEqual([held.id]);
  });
});
