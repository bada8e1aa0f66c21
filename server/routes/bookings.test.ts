import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SYSTEM } from '../domain/actor.js';
import { everyDay, harbourCruise, insertBookingRow,
  createTestApp, expectData, expectError, expectList, expectPriceChanged, expectValidationError, manualClock, type ManualClock, type TestApp,
  type TestResponse,
} from '../test-helpers/index.js';
import { createBooking } from '../services/bookings.js';
import { composeQueuedMessage } from '../services/message-compose.js';
import { Availability, Booking, Customer, Experience, Organization, WebhookEvent } from '../../shared/index.js';

// Monday 2027-03-01, 08:00 UTC = 08:00 in Lisbon (WET until 28 March).
const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);
const S1 = '2027-03-02T10:00:00.000Z';
const S2 = '2027-03-02T15:00:00.000Z';
const S3 = '2027-03-03T10:00:00.000Z';
const BOOKING_NUMBER = /^BK-[0-9A-HJKMNP-TV-Z]{8}$/;
const HOUR = 3_600_000;


let t: TestApp;
let clock: ManualClock;
let exp: Experience;

const newExperience = (fields: Record<string, unknown> = {}): Promise<Experience> => harbourCruise(t, fields);

function bookingBody(fields: Record<string, unknown> = {}) {
  return {
    experienceId: exp.id,
    startTime: S1,
    participants: 2,
    customerName: 'Ana Costa',
    customerEmail: 'ana@example.com',
    ...fields,
  };
}
const post = (body: unknown, headers: Record<string, string> = {}, key?: string) =>
  t.request('POST', '/v1/bookings', { body, headers, key });
async function book(fields: Record<string, unknown> = {}): Promise<Booking> {
  return expectData(await post(bookingBody(fields)), Booking, 201);
}
const get = async (ref: string) => expectData(await t.request('GET', `/v1/bookings/${ref}`), Booking);
const patch = (ref: string, body: unknown) => t.request('PATCH', `/v1/bookings/${ref}`, { body });
const cancel = (ref: string, body?: unknown) => t.request('PATCH', `/v1/bookings/${ref}/cancel`, { body });

async function events(): Promise<WebhookEvent[]> {
  return expectList(await t.request('GET', '/v1/events?limit=100'), WebhookEvent).data;
}
async function slot(startTime: string, experienceId = exp.id) {
  const date = startTime.slice(0, 10);
  const a = expectData(
    await t.request('GET', `/v1/availability?experienceId=${experienceId}&startDate=${date}&endDate=${date}`),
    Availability,
  );
  const found = a.slots.find((s) => s.startTime === startTime);
  if (!found) throw new Error(`no slot at ${startTime}`);
  return found;
}

/** What the database holds for the test org: compared before and after a refused request. */
async function written() {
  const page = { limit: 1, offset: 0 };
  return {
    bookings: (await t.store.bookings.listBookings(t.orgId, {}, page)).total,
    customers: (await t.store.customers.listCustomers(t.orgId, undefined, page)).total,
    events: (await t.store.events.listEvents(t.orgId, {}, page)).total,
    places: [...(await t.store.bookings.bookedPlacesBetween(exp.id, 0, 8.64e15)).values()].reduce((a, b) => a + b, 0),
  };
}

/** A PENDING booking awaiting online payment, as the payments flow makes it. */
async function pendingBooking(fields: Record<string, unknown> = {}) {
  const view = await createBooking(
    t.store,
    t.orgId,
    {
      experienceId: exp.id,
      startTime: S1,
      participants: 2,
      customerName: 'Paula Pending',
      customerEmail: 'paula@example.com',
      ...fields,
    },
    { source: 'WIDGET', holdExpiresAt: clock.now() + 30 * 60_000, actor: SYSTEM },
    clock.now(),
  );
  return view;
}

/** The exact event body (docs/webhooks.md) for a booking as it stands. */
function expectEventOf(event: WebhookEvent, kind: WebhookEvent['event'], booking: Booking) {
  expect(Object.keys(event).sort()).toEqual(['data', 'event', 'id', 'timestamp']);
  expect(event.id).toMatch(/^evt_[A-Za-z0-9]+$/);
  expect(event.event).toBe(kind);
  expect(event.timestamp).toBe(new Date(clock.now()).toISOString());
  const { experience, timeSlot, ...record } = booking;
  expect(Object.keys(event.data).sort()).toEqual(
    (kind === 'BOOKING_UPDATED' ? ['booking', 'changes', 'experience', 'timeSlot'] : ['booking', 'experience', 'timeSlot']).sort(),
  );
  expect(event.data.booking).toEqual(record);
  expect(Object.keys(event.data.booking)).not.toContain('experience');
  expect(Object.keys(event.data.booking)).not.toContain('timeSlot');
  expect(event.data.experience).toEqual(experience);
  expect(event.data.timeSlot).toEqual(timeSlot);
}

beforeEach(async () => {
  clock = manualClock(NOW);
  t = await createTestApp({ now: clock.now, org: { timezone: 'Europe/Lisbon', currency: 'EUR' } });
  exp = await newExperience();
});
afterEach(() => t.close());

describe('POST /v1/bookings', () => {
  it('takes a CONFIRMED booking with the whole record', async () => {
    const res = await post(bookingBody({ participants: 2, customerPhone: '+351 912 345 678', metadata: { ref: 'A-1' } }));
    const b = expectData(res, Booking, 201);
    expect(b).toEqual({
      id: expect.stringMatching(/^bk_[A-Za-z0-9]+$/),
      bookingNumber: expect.stringMatching(BOOKING_NUMBER),
      status: 'CONFIRMED',
      experience: { id: exp.id, title: 'Harbour cruise' },
      timeSlot: { id: expect.stringMatching(/^ts_/), startTime: S1, endTime: '2027-03-02T12:00:00.000Z' },
      customerId: expect.stringMatching(/^cus_[A-Za-z0-9]+$/),
      guestName: 'Ana Costa',
      guestEmail: 'ana@example.com',
      guestPhone: '+351 912 345 678',
      totalParticipants: 2,
      tickets: [],
      answers: [],
      extras: [],
      unitPrice: 4500,
      subtotal: '90.00',
      discount: null,
      voucher: null,
      total: '90.00',
      amountDue: '90.00',
      currency: 'EUR',
      amountRefunded: '0.00',
      source: 'API',
      octo: null,
      metadata: { ref: 'A-1' },
      locale: 'en',
      cancellationReason: null,
      cancelledAt: null,
      holdExpiresAt: null,
      checkedInAt: null,
      internalNote: null,
      createdAt: '2027-03-01T08:00:00.000Z',
      updatedAt: '2027-03-01T08:00:00.000Z',
    });
    expect(b.timeSlot.id).toBe((await slot(S1)).id);
    expect(await get(b.id)).toEqual(b);
  });

  it('defaults guestPhone to null and metadata to {}', async () => {
    const b = await book();
    expect(b.guestPhone).toBeNull();
    expect(b.metadata).toEqual({});
  });

  it('accepts a start written with another offset for the same instant', async () => {
    const b = await book({ startTime: '2027-03-02T11:00:00+01:00' });
    expect(b.timeSlot.startTime).toBe(S1);
  });

  it('writes totals in major units with two decimals', async () => {
    const cheap = await newExperience({ price: 5 });
    expect((await book({ experienceId: cheap.id, participants: 3 })).total).toBe('0.15');
    const free = await newExperience({ price: 0 });
    expect((await book({ experienceId: free.id, participants: 3 })).total).toBe('0.00');
    const dear = await newExperience({ price: 123456 });
    expect((await book({ experienceId: dear.id, participants: 7 })).total).toBe('8641.92');
  });

  it('gives each booking a distinct BK- number in Crockford base32', async () => {
    const big = await newExperience({ maxParticipants: 10_000 });
    const numbers = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const b = await book({ experienceId: big.id, participants: 1, customerEmail: `g${i}@example.com` });
      expect(b.bookingNumber).toMatch(BOOKING_NUMBER);
      numbers.add(b.bookingNumber);
    }
    expect(numbers.size).toBe(40);
  });

  it('keeps the unit price of the booking when the experience price changes', async () => {
    const before = await book();
    expectData(await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { price: 6000 } }), Experience);
    expect(await get(before.id)).toMatchObject({ unitPrice: 4500, total: '90.00' });
    const after = await book({ customerEmail: 'later@example.com' });
    expect(after).toMatchObject({ unitPrice: 6000, total: '120.00' });
  });

  it('records BOOKING_CREATED with the exact payload in the same request', async () => {
    const b = await book({ metadata: { note: 'window seat' } });
    const [event, ...more] = await events();
    expect(more).toEqual([]);
    expectEventOf(event!, 'BOOKING_CREATED', b);
  });

  it('also answers on /api/v1', async () => {
    const res = await t.request('POST', '/api/v1/bookings', { body: bookingBody() });
    expectData(res, Booking, 201);
  });

  describe('checks, in order: body 400 → experience 404 → slot 409 → places 409', () => {
    it('answers 400 for a bad body even when the experience is unknown', async () => {
      expectValidationError(await post(bookingBody({ experienceId: 'exp_unknown', startTime: '2027-03-02T10:00:00' })), 'startTime');
    });

    it('answers 404 for an unknown experience even when the start is no slot', async () => {
      expectError(await post(bookingBody({ experienceId: 'exp_unknown', startTime: '2027-03-02T10:05:00Z' })), 404, 'NOT_FOUND');
      expectError(await post(bookingBody({ experienceId: 'not-an-id' })), 404, 'NOT_FOUND');
    });

    it('answers 404 for another organization’s experience', async () => {
      const other = await t.addOrganization({ name: 'Other' });
      expectError(await post(bookingBody(), {}, other.secretKey), 404, 'NOT_FOUND');
    });

    it('answers SLOT_UNAVAILABLE before CAPACITY_EXCEEDED', async () => {
      await book({ participants: 10 });
      clock.set(Date.parse(S1) + 60_000); // the full slot has started
      expectError(await post(bookingBody({ participants: 1, customerEmail: 'late@example.com' })), 409, 'SLOT_UNAVAILABLE');
    });

    it('answers CAPACITY_EXCEEDED with the places that remain', async () => {
      await book({ participants: 7 });
      const before = await written();
      const error = expectError(await post(bookingBody({ participants: 4, customerEmail: 'b@example.com' })), 409, 'CAPACITY_EXCEEDED');
      expect(error.details).toEqual([{ path: 'participants', message: '3 remaining' }]);
      expect(await written()).toEqual(before);
      expectData(await post(bookingBody({ participants: 3, customerEmail: 'b@example.com' })), Booking, 201);
      const full = expectError(await post(bookingBody({ participants: 1, customerEmail: 'c@example.com' })), 409, 'CAPACITY_EXCEEDED');
      expect(full.details).toEqual([{ path: 'participants', message: '0 remaining' }]);
    });
  });

  describe('expectedTotal: the total the guest was shown', () => {
    const reprice = async (price: number) => expectData(await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { price } }), Experience);

    it('books when it matches the total computed now', async () => {
      expect(await book({ expectedTotal: '90.00' })).toMatchObject({ status: 'CONFIRMED', total: '90.00' });
      const free = await newExperience({ name: 'Free harbour walk', price: 0 });
      expect(await book({ experienceId: free.id, expectedTotal: '0.00', customerEmail: 'free@example.com' })).toMatchObject({ total: '0.00' });
    });

    it('answers 409 PRICE_CHANGED with the new total in details, and writes nothing, when a price changed meanwhile', async () => {
      // Quoted at 45.00 a head; the operator raised it to 60.00 before the guest pressed Book.
      await reprice(6000);
      const before = await written();
      const activity = (await t.request('GET', '/v1/activity?limit=100')).body;
      const res = await post(bookingBody({ expectedTotal: '90.00' }));
      expect(expectPriceChanged(res)).toBe('120.00');
      expect(res.body).toEqual({
        success: false,
        error: { code: 'PRICE_CHANGED', message: 'The total is now 120.00, not the expected 90.00: a price changed; nothing was booked', details: { total: '120.00' } },
      });
      expect(await written()).toEqual(before);
      expect((await t.request('GET', '/v1/activity?limit=100')).body).toEqual(activity);
      // Asked again with the total now, it books at that total.
      expect(await book({ expectedTotal: '120.00' })).toMatchObject({ unitPrice: 6000, total: '120.00' });
    });

    it('also refuses a total lower than the one computed, and a price cut is said too', async () => {
      expect(expectPriceChanged(await post(bookingBody({ expectedTotal: '89.99' })))).toBe('90.00');
      await reprice(2500);
      expect(expectPriceChanged(await post(bookingBody({ expectedTotal: '90.00' })))).toBe('50.00');
    });

    it('is optional: without it the booking takes the price of the moment, as before', async () => {
      await reprice(6000);
      expect(await book()).toMatchObject({ total: '120.00' });
    });

    it('must be a money string with two decimals', async () => {
      for (const expectedTotal of ['90', '90.0', '90.000', '-90.00', '9,00', 90, null]) {
        expectValidationError(await post(bookingBody({ expectedTotal })), 'expectedTotal');
      }
      expect(await written()).toMatchObject({ bookings: 0 });
    });

    it('comes after the body, the experience and the party, and before the slot and the places', async () => {
      await reprice(6000);
      const stale = { expectedTotal: '90.00' };
      expectValidationError(await post(bookingBody({ ...stale, participants: 0 })), 'participants');
      expectError(await post(bookingBody({ ...stale, experienceId: 'exp_unknown' })), 404, 'NOT_FOUND');
      // The party limit (maxPerBooking 10) is checked first.
      expectValidationError(await post(bookingBody({ ...stale, participants: 11 })), 'participants');
      // Not a slot, and a slot without the places: the price is said first.
      expect(expectPriceChanged(await post(bookingBody({ ...stale, startTime: '2027-03-02T10:30:00Z' })))).toBe('120.00');
      await book({ participants: 9, customerEmail: 'group@example.com' });
      expect(expectPriceChanged(await post(bookingBody(stale)))).toBe('120.00');
      expectError(await post(bookingBody({ expectedTotal: '120.00' })), 409, 'CAPACITY_EXCEEDED');
    });

    it('replays a PRICE_CHANGED under its Idempotency-Key; the total now, under a new key, books', async () => {
      await reprice(6000);
      const headers = { 'idempotency-key': 'quote-1' };
      const first = await post(bookingBody({ expectedTotal: '90.00' }), headers);
      const again = await post(bookingBody({ expectedTotal: '90.00' }), headers);
      expect(expectPriceChanged(again)).toBe('120.00');
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expectData(await post(bookingBody({ expectedTotal: '120.00' }), { 'idempotency-key': 'quote-2' }), Booking, 201);
    });
  });

  describe('refuses bad input and writes nothing', () => {
    const cases: [string, () => Record<string, unknown>, number, string, string?][] = [
      ['an instant without an offset', () => bookingBody({ startTime: '2027-03-02T10:00:00' }), 400, 'VALIDATION_ERROR', 'startTime'],
      ['a date instead of an instant', () => bookingBody({ startTime: '2027-03-02' }), 400, 'VALIDATION_ERROR', 'startTime'],
      ['a start that is not a slot', () => bookingBody({ startTime: '2027-03-02T10:30:00Z' }), 409, 'SLOT_UNAVAILABLE'],
      ['a start on a day without slots', () => bookingBody({ startTime: '2027-03-02T03:00:00Z' }), 409, 'SLOT_UNAVAILABLE'],
      ['zero participants', () => bookingBody({ participants: 0 }), 400, 'VALIDATION_ERROR', 'participants'],
      ['negative participants', () => bookingBody({ participants: -2 }), 400, 'VALIDATION_ERROR', 'participants'],
      ['fractional participants', () => bookingBody({ participants: 1.5 }), 400, 'VALIDATION_ERROR', 'participants'],
      ['participants as a string', () => bookingBody({ participants: '2' }), 400, 'VALIDATION_ERROR', 'participants'],
      ['participants above maxPerBooking', () => bookingBody({ participants: 11 }), 400, 'VALIDATION_ERROR', 'participants'],
      ['an unknown field', () => bookingBody({ coupon: 'FREE' }), 400, 'VALIDATION_ERROR', 'coupon'],
      ['a missing name', () => bookingBody({ customerName: undefined }), 400, 'VALIDATION_ERROR', 'customerName'],
      ['a blank name', () => bookingBody({ customerName: '   ' }), 400, 'VALIDATION_ERROR', 'customerName'],
      ['a name of 201 characters', () => bookingBody({ customerName: 'x'.repeat(201) }), 400, 'VALIDATION_ERROR', 'customerName'],
      ['a bad e-mail', () => bookingBody({ customerEmail: 'not-an-email' }), 400, 'VALIDATION_ERROR', 'customerEmail'],
      ['a phone of 41 characters', () => bookingBody({ customerPhone: '1'.repeat(41) }), 400, 'VALIDATION_ERROR', 'customerPhone'],
      ['a missing experienceId', () => bookingBody({ experienceId: undefined }), 400, 'VALIDATION_ERROR', 'experienceId'],
      [
        '21 metadata keys',
        () => bookingBody({ metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) }),
        400,
        'VALIDATION_ERROR',
        'metadata',
      ],
      ['a metadata key of 41 characters', () => bookingBody({ metadata: { ['k'.repeat(41)]: 'v' } }), 400, 'VALIDATION_ERROR'],
      ['a metadata value of 501 characters', () => bookingBody({ metadata: { note: 'v'.repeat(501) } }), 400, 'VALIDATION_ERROR'],
      ['a metadata value that is not a string', () => bookingBody({ metadata: { n: 1 } }), 400, 'VALIDATION_ERROR'],
      ['metadata that is an array', () => bookingBody({ metadata: ['a'] }), 400, 'VALIDATION_ERROR', 'metadata'],
    ];
    for (const [what, body, status, code, path] of cases) {
      it(`refuses ${what} with ${status} ${code}`, async () => {
        const before = await written();
        const res = await post(body());
        if (path) expectValidationError(res, path);
        else expectError(res, status, code as never);
        expect(await written()).toEqual(before);
      });
    }

    it('accepts the metadata limits themselves: 20 keys, 40-character keys, 500-character values', async () => {
      const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${'k'.repeat(38)}${String(i).padStart(2, '0')}`, 'v'.repeat(500)]));
      const b = await book({ metadata: twenty });
      expect(b.metadata).toEqual(twenty);
    });

    it('refuses a start that has already passed', async () => {
      clock.set(Date.parse(S1) + 1);
      const before = await written();
      expectError(await post(bookingBody()), 409, 'SLOT_UNAVAILABLE');
      expect(await written()).toEqual(before);
    });

    it('refuses a start inside the notice period', async () => {
      const noticed = await newExperience({ minNoticeMinutes: 27 * 60 }); // S1 is 26 h away
      const before = await written();
      expectError(await post(bookingBody({ experienceId: noticed.id })), 409, 'SLOT_UNAVAILABLE');
      expect(await written()).toEqual(before);
      expectData(await post(bookingBody({ experienceId: noticed.id, startTime: S3 })), Booking, 201);
    });

    it('refuses a start beyond the booking window', async () => {
      const soon = await newExperience({ maxAdvanceDays: 1 }); // today 1 March + 1 day: 2 March is the last
      expectData(await post(bookingBody({ experienceId: soon.id, startTime: S2 })), Booking, 201);
      const before = await written();
      expectError(await post(bookingBody({ experienceId: soon.id, startTime: S3 })), 409, 'SLOT_UNAVAILABLE');
      expect(await written()).toEqual(before);
    });

    it('refuses any start of an inactive experience with SLOT_UNAVAILABLE', async () => {
      expectData(await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { active: false } }), Experience);
      const before = await written();
      expectError(await post(bookingBody()), 409, 'SLOT_UNAVAILABLE');
      expect(await written()).toEqual(before);
    });

    it('refuses a start after the schedule’s end date, and one on a closed exception date', async () => {
      const ending = await newExperience({
        schedule: { weekly: everyDay(['10:00']), endDate: '2027-03-02', exceptions: [{ date: '2027-03-02', times: [] }] },
      });
      expectError(await post(bookingBody({ experienceId: ending.id, startTime: S1 })), 409, 'SLOT_UNAVAILABLE');
      expectError(await post(bookingBody({ experienceId: ending.id, startTime: S3 })), 409, 'SLOT_UNAVAILABLE');
    });

    it('refuses malformed JSON and a wrong content type', async () => {
      expectError(await t.request('POST', '/v1/bookings', { body: '{"experienceId":', headers: { 'content-type': 'application/json' } }), 400, 'INVALID_JSON');
      expectError(await t.request('POST', '/v1/bookings', { body: JSON.stringify(bookingBody()), headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(await written()).toMatchObject({ bookings: 0, events: 0 });
    });

    it('needs bookings:write', async () => {
      const reader = await t.createKey({ scopes: ['bookings:read'] });
      expect(expectError(await post(bookingBody(), {}, reader.key), 403, 'FORBIDDEN').message).toContain('bookings:write');
      expectError(await post(bookingBody(), {}, null as never), 401, 'UNAUTHORIZED');
      expect(await written()).toMatchObject({ bookings: 0 });
    });
  });
});

describe('Idempotency-Key on POST /v1/bookings', () => {
  const withKey = (key: string, body: unknown = bookingBody(), apiKey?: string) => post(body, { 'idempotency-key': key }, apiKey);

  it('replays the first response with Idempotent-Replayed: true and books once', async () => {
    const first = await withKey('order-1');
    const created = expectData(first, Booking, 201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    clock.advance(5_000);
    const again = await withKey('order-1');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await written()).toMatchObject({ bookings: 1, events: 1, places: created.totalParticipants });
  });

  it('refuses the same key with another body with 422 IDEMPOTENCY_KEY_REUSED', async () => {
    await withKey('order-2');
    const before = await written();
    expectError(await withKey('order-2', bookingBody({ participants: 3 })), 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(await written()).toEqual(before);
  });

  it('replays a 409 refusal even once places are free again', async () => {
    const blocker = await book({ participants: 9, customerEmail: 'big@example.com' });
    const refused = await withKey('order-3', bookingBody({ participants: 2 }));
    expectError(refused, 409, 'CAPACITY_EXCEEDED');
    expectData(await cancel(blocker.id), Booking);
    const again = await withKey('order-3', bookingBody({ participants: 2 }));
    expect(again.status).toBe(409);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(refused.body);
    expectData(await withKey('order-3b', bookingBody({ participants: 2 })), Booking, 201);
  });

  it('replays a 404 refusal', async () => {
    const body = bookingBody({ experienceId: 'exp_missing' });
    expectError(await withKey('order-4', body), 404, 'NOT_FOUND');
    const again = await withKey('order-4', body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expectError(again, 404, 'NOT_FOUND');
  });

  it('does not store a 400, so the corrected request books under the same key', async () => {
    expectValidationError(await withKey('order-5', bookingBody({ participants: 0 })), 'participants');
    const fixed = await withKey('order-5', bookingBody());
    expectData(fixed, Booking, 201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('scopes keys to the organization', async () => {
    const other = await t.addOrganization({ name: 'Other', timezone: 'Europe/Lisbon' });
    const theirs = await withKey('shared', bookingBody(), other.secretKey);
    expectError(theirs, 404, 'NOT_FOUND'); // our experience is not theirs
    const mine = await withKey('shared');
    expect(mine.headers.get('idempotent-replayed')).toBeNull();
    expectData(mine, Booking, 201);
  });

  it('forgets a key after 24 hours', async () => {
    const first = expectData(await withKey('order-6', bookingBody({ startTime: S3 })), Booking, 201);
    clock.advance(24 * HOUR - 1);
    const replay = await withKey('order-6', bookingBody({ startTime: S3 }));
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    clock.advance(2);
    const fresh = await withKey('order-6', bookingBody({ startTime: S3 }));
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    expect(expectData(fresh, Booking, 201).id).not.toBe(first.id);
    // and the expired key may carry another body
    clock.advance(24 * HOUR + 1);
    expectData(await withKey('order-6', bookingBody({ startTime: S3, participants: 1 })), Booking, 201);
  });

  it('refuses a key longer than 255 characters', async () => {
    expectError(await withKey('k'.repeat(256)), 400, 'VALIDATION_ERROR');
    expectData(await withKey('k'.repeat(255)), Booking, 201);
  });

  it('creates one booking for concurrent duplicates over a listening server', async () => {
    const server = await t.listen();
    const send = () =>
      fetch(`${server.url}/v1/bookings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.secretKey}`, 'content-type': 'application/json', 'idempotency-key': 'burst' },
        body: JSON.stringify(bookingBody()),
      }).then(async (r) => ({ status: r.status, replayed: r.headers.get('idempotent-replayed'), body: (await r.json()) as unknown }));
    const answers = await Promise.all(Array.from({ length: 30 }, send));
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(201));
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(answers.filter((a) => a.replayed === null)).toHaveLength(1);
    expect(await written()).toMatchObject({ bookings: 1, events: 1, places: 2 });
  });
});

describe('GET /v1/bookings', () => {
  const listOf = async (query = '') => expectList(await t.request('GET', `/v1/bookings${query}`), Booking);

  it('sorts by slot start, then creation, then id, and pages', async () => {
    const late = await book({ startTime: S3 });
    clock.advance(1000);
    const early1 = await book({ startTime: S1, customerEmail: 'b@example.com' });
    clock.advance(1000);
    const early2 = await book({ startTime: S1, customerEmail: 'c@example.com' });
    clock.advance(1000);
    const tieA = await book({ startTime: S2, customerEmail: 'd@example.com' });
    const tieB = await book({ startTime: S2, customerEmail: 'e@example.com' });
    const ties = [tieA, tieB].sort((a, b) => (a.id < b.id ? -1 : 1)).map((b) => b.id);
    const all = await listOf();
    expect(all.data.map((b) => b.id)).toEqual([early1.id, early2.id, ...ties, late.id]);
    expect(all.pagination).toEqual({ total: 5, limit: 20, offset: 0, hasMore: false });

    const page = await listOf('?limit=2&offset=2');
    expect(page.data.map((b) => b.id)).toEqual(ties);
    expect(page.pagination).toEqual({ total: 5, limit: 2, offset: 2, hasMore: true });
    const last = await listOf('?limit=2&offset=4');
    expect(last.data.map((b) => b.id)).toEqual([late.id]);
    expect(last.pagination.hasMore).toBe(false);
  });

  it('sorts by slot start or creation, reversed by a leading -, each page in that order, also under /api/v1', async () => {
    const late = await book({ startTime: S3 });
    clock.advance(1000);
    const early = await book({ startTime: S1, customerEmail: 'b@example.com' });
    clock.advance(1000);
    const tieA = await book({ startTime: S2, customerEmail: 'd@example.com' });
    const tieB = await book({ startTime: S2, customerEmail: 'e@example.com' });
    const [first, second] = [tieA, tieB].sort((a, b) => (a.id < b.id ? -1 : 1)).map((b) => b.id);
    const ids = async (query: string) => (await listOf(query)).data.map((b) => b.id);
    expect(await ids('?sort=startTime')).toEqual([early.id, first, second, late.id]);
    expect(await ids('?sort=-startTime')).toEqual([late.id, second, first, early.id]);
    expect(await ids('?sort=createdAt')).toEqual([late.id, early.id, first, second]);
    expect(await ids('?sort=-createdAt')).toEqual([second, first, early.id, late.id]);
    // Pages join up in the order asked, and carry the same total.
    const one = await listOf('?sort=-createdAt&limit=3');
    const two = await listOf('?sort=-createdAt&limit=3&offset=3');
    expect([...one.data, ...two.data].map((b) => b.id)).toEqual([second, first, early.id, late.id]);
    expect([one.pagination, two.pagination]).toEqual([
      { total: 4, limit: 3, offset: 0, hasMore: true },
      { total: 4, limit: 3, offset: 3, hasMore: false },
    ]);
    // With a filter, and under /api/v1.
    expect(await ids(`?sort=-startTime&startDate=2027-03-02&endDate=2027-03-02`)).toEqual([second, first, early.id]);
    const api = expectList(await t.request('GET', '/api/v1/bookings?sort=-startTime'), Booking);
    expect(api.data.map((b) => b.id)).toEqual([late.id, second, first, early.id]);
    // A booking made since shows at once in every order (no stale cached answer).
    clock.advance(1000);
    const newest = await book({ startTime: S1, customerEmail: 'f@example.com' });
    expect((await ids('?sort=-createdAt'))[0]).toBe(newest.id);
    expect((await listOf('?sort=createdAt')).pagination.total).toBe(5);
  });

  it('filters by source, a reseller’s nameless booking included, and refuses an unknown source', async () => {
    const own = await book({ startTime: S1 });
    const resold = await insertBookingRow(t.store, {
      orgId: t.orgId, experienceId: exp.id, slotStart: Date.parse(S2), source: 'OCTO', customerId: null, guestName: null, guestEmail: null,
    });
    const ids = async (query: string) => (await listOf(query)).data.map((b) => b.id);
    expect(await ids('?source=API')).toEqual([own.id]);
    expect(await ids('?source=WIDGET')).toEqual([]);
    const octo = await listOf('?source=OCTO');
    expect(octo.data.map((b) => [b.id, b.source, b.customerId, b.guestName, b.guestEmail])).toEqual([[resold.id, 'OCTO', null, null, null]]);
    expect(octo.pagination.total).toBe(1);
    expect(await ids('?source=OCTO&status=CONFIRMED&startDate=2027-03-02&endDate=2027-03-02')).toEqual([resold.id]);
    expect((await listOf()).pagination.total).toBe(2);
    for (const q of ['source=octo', 'source=NOPE', 'source=']) expectValidationError(await t.request('GET', `/v1/bookings?${q}`), 'source');
  });

  it('refuses an unknown sort on `sort`', async () => {
    for (const q of ['sort=id', 'sort=startTime,createdAt', 'sort=', 'sort=-', 'sort=%2BstartTime', 'sort=StartTime', 'sort=-id']) {
      const details = expectValidationError(await t.request('GET', `/v1/bookings?${q}`), 'sort');
      expect(details.length, q).toBeGreaterThan(0);
    }
  });

  it('refuses bad paging and unknown parameters', async () => {
    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'limit=abc', 'status=DONE', 'startDate=2027-13-01', 'endDate=2027-03-02T10:00:00', 'sort=id']) {
      expectError(await t.request('GET', `/v1/bookings?${q}`), 400, 'VALIDATION_ERROR');
    }
  });

  it('filters by experience, customer and status', async () => {
    const other = await newExperience({ name: 'Tile workshop' });
    const a = await book({ customerEmail: 'ana@example.com' });
    const b = await book({ experienceId: other.id, customerEmail: 'ana@example.com' });
    const c = await book({ customerEmail: 'rui@example.com' });
    expectData(await cancel(c.id), Booking);
    expect((await listOf(`?experienceId=${other.id}`)).data.map((x) => x.id)).toEqual([b.id]);
    expect((await listOf(`?customerId=${a.customerId}`)).data.map((x) => x.id).sort()).toEqual([a.id, b.id].sort());
    expect((await listOf('?status=CANCELLED')).data.map((x) => x.id)).toEqual([c.id]);
    expect((await listOf('?status=CONFIRMED')).pagination.total).toBe(2);
    expect((await listOf('?status=PENDING')).data).toEqual([]);
    expect((await listOf(`?experienceId=${exp.id}&status=CONFIRMED`)).data.map((x) => x.id)).toEqual([a.id]);
  });

  it('reads dates in the organization’s time zone, not the experience’s or UTC', async () => {
    expectData(await t.request('PATCH', '/v1/organization', { body: { timezone: 'America/Los_Angeles' } }), Organization);
    // 14:00 in Tokyo on 3 March = 05:00 UTC on 3 March = 21:00 in Los Angeles on 2 March.
    const tokyo = await newExperience({ schedule: { timezone: 'Asia/Tokyo', weekly: { wed: ['14:00'] } } });
    const b = await book({ experienceId: tokyo.id, startTime: '2027-03-03T05:00:00Z' });
    expect((await listOf('?startDate=2027-03-02&endDate=2027-03-02')).data.map((x) => x.id)).toEqual([b.id]);
    expect((await listOf('?startDate=2027-03-03')).data).toEqual([]);
    expect((await listOf('?endDate=2027-03-01')).data).toEqual([]);
    expect((await listOf('?endDate=2027-03-02')).data.map((x) => x.id)).toEqual([b.id]);
  });

  it('takes instants as inclusive bounds on the slot start', async () => {
    const b1 = await book({ startTime: S1 });
    const b2 = await book({ startTime: S2, customerEmail: 'x@example.com' });
    const ids = async (q: Record<string, string>) => (await listOf(`?${new URLSearchParams(q)}`)).data.map((x) => x.id);
    expect(await ids({ startDate: S2 })).toEqual([b2.id]);
    expect(await ids({ startDate: '2027-03-02T15:00:00.001Z' })).toEqual([]);
    expect(await ids({ endDate: '2027-03-02T11:00:00+01:00' })).toEqual([b1.id]);
    expect(await ids({ endDate: '2027-03-02T09:59:59.999Z' })).toEqual([]);
    expect(await ids({ startDate: S1, endDate: S2 })).toEqual([b1.id, b2.id]);
  });

  it('searches by booking number, guest e-mail or name, case-insensitively', async () => {
    const ana = await book({ customerName: 'Ana Costa', customerEmail: 'Ana.Costa@Example.com' });
    const rui = await book({ customerName: 'Rui Sousa', customerEmail: 'rui@mail.example', startTime: S2 });
    const ids = async (q: string) => (await listOf(`?q=${encodeURIComponent(q)}`)).data.map((x) => x.id);
    expect(await ids(ana.bookingNumber)).toEqual([ana.id]);
    expect(await ids(rui.bookingNumber.toLowerCase())).toEqual([rui.id]);
    expect(await ids('ana.costa@example')).toEqual([ana.id]);
    expect(await ids('MAIL.EXAMPLE')).toEqual([rui.id]);
    expect(await ids('sousa')).toEqual([rui.id]);
    expect(await ids('COSTA')).toEqual([ana.id]);
    expect(await ids('example')).toEqual([ana.id, rui.id]);
    expect(await ids('%')).toEqual([]);
    expect(await ids('_')).toEqual([]);
    expect(await ids('nobody')).toEqual([]);
  });

  it('shows only the caller’s organization', async () => {
    await book();
    const other = await t.addOrganization({ name: 'Other' });
    const theirs = expectList(await t.request('GET', '/v1/bookings', { key: other.secretKey }), Booking);
    expect(theirs.data).toEqual([]);
    expect(theirs.pagination.total).toBe(0);
  });
});

describe('GET /v1/bookings/{id}', () => {
  it('finds a booking by id, by booking number, and by the number in lower case', async () => {
    const b = await book();
    expect(await get(b.id)).toEqual(b);
    expect(await get(b.bookingNumber)).toEqual(b);
    expect(await get(b.bookingNumber.toLowerCase())).toEqual(b);
  });

  it('answers 404 for another organization’s booking, an unknown one, or an id of the wrong shape', async () => {
    const b = await book();
    const other = await t.addOrganization({ name: 'Other' });
    expectError(await t.request('GET', `/v1/bookings/${b.id}`, { key: other.secretKey }), 404, 'NOT_FOUND');
    expectError(await t.request('GET', `/v1/bookings/${b.bookingNumber}`, { key: other.secretKey }), 404, 'NOT_FOUND');
    for (const ref of ['bk_doesnotexist', 'BK-00000000', 'xyz', 'BK-ILOU0000', 'exp_abc', `${b.bookingNumber}X`]) {
      expectError(await t.request('GET', `/v1/bookings/${ref}`), 404, 'NOT_FOUND');
    }
    expectError(await cancel('xyz'), 404, 'NOT_FOUND');
    expectError(await patch('xyz', { metadata: {} }), 404, 'NOT_FOUND');
  });

  it('needs bookings:read', async () => {
    const b = await book();
    const writer = await t.createKey({ scopes: ['experiences:read'] });
    expectError(await t.request('GET', `/v1/bookings/${b.id}`, { key: writer.key }), 403, 'FORBIDDEN');
  });
});

describe('PATCH /v1/bookings/{id}/cancel', () => {
  it('cancels, frees the places and fires BOOKING_CANCELED', async () => {
    const b = await book({ participants: 4 });
    expect(await slot(S1)).toMatchObject({ booked: 4, remaining: 6 });
    clock.advance(60_000);
    const res = await cancel(b.bookingNumber, { reason: 'Weather' });
    const cancelled = expectData(res, Booking);
    expect(cancelled).toEqual({
      ...b,
      status: 'CANCELLED',
      amountDue: '0.00',
      cancellationReason: 'Weather',
      cancelledAt: '2027-03-01T08:01:00.000Z',
      updatedAt: '2027-03-01T08:01:00.000Z',
    });
    expect(await slot(S1)).toMatchObject({ booked: 0, remaining: 10 });
    const all = await events();
    expect(all.map((e) => e.event)).toEqual(['BOOKING_CREATED', 'BOOKING_CANCELED']);
    expectEventOf(all[1]!, 'BOOKING_CANCELED', cancelled);
    // The freed places can be booked again.
    expectData(await post(bookingBody({ participants: 10, customerEmail: 'z@example.com' })), Booking, 201);
  });

  it('takes no body as well, leaving the reason null', async () => {
    const b = await book();
    expect(expectData(await cancel(b.id), Booking)).toMatchObject({ status: 'CANCELLED', cancellationReason: null });
  });

  it('refuses a second cancel with INVALID_STATUS_TRANSITION and fires nothing more', async () => {
    const b = await book();
    expectData(await cancel(b.id), Booking);
    const before = await written();
    expectError(await cancel(b.id), 409, 'INVALID_STATUS_TRANSITION');
    expect(await written()).toEqual(before);
  });

  it('refuses a reason over 500 characters and unknown fields', async () => {
    const b = await book();
    expectValidationError(await cancel(b.id, { reason: 'r'.repeat(501) }), 'reason');
    expectValidationError(await cancel(b.id, { why: 'no' }), 'why');
    expect((await get(b.id)).status).toBe('CONFIRMED');
  });

  it('cancels a PENDING booking too, freeing its held places', async () => {
    const pending = await pendingBooking({ participants: 3 });
    expect(await slot(S1)).toMatchObject({ booked: 3 });
    const cancelled = expectData(await cancel(pending.id), Booking);
    expect(cancelled).toMatchObject({ status: 'CANCELLED', holdExpiresAt: null });
    expect(await slot(S1)).toMatchObject({ booked: 0 });
  });
});

describe('PATCH /v1/bookings/{id}', () => {
  const lastEvent = async () => (await events()).at(-1)!;

  describe('status moves', () => {
    it('moves PENDING → CONFIRMED with BOOKING_UPDATED and changes.status', async () => {
      const pending = await pendingBooking();
      expect((await get(pending.id)).holdExpiresAt).not.toBeNull();
      clock.advance(1000);
      const confirmed = expectData(await patch(pending.id, { status: 'CONFIRMED' }), Booking);
      expect(confirmed).toMatchObject({ status: 'CONFIRMED', holdExpiresAt: null, updatedAt: new Date(clock.now()).toISOString() });
      const event = await lastEvent();
      expectEventOf(event, 'BOOKING_UPDATED', confirmed);
      expect(event.data.changes).toEqual({ status: { from: 'PENDING', to: 'CONFIRMED' } });
      expect(await slot(S1)).toMatchObject({ booked: 2 });
    });

    it('moves PENDING → CANCELLED and CONFIRMED → CANCELLED with BOOKING_CANCELED', async () => {
      const pending = await pendingBooking();
      const a = expectData(await patch(pending.id, { status: 'CANCELLED' }), Booking);
      expect(a).toMatchObject({ status: 'CANCELLED', cancelledAt: new Date(clock.now()).toISOString(), cancellationReason: null });
      expectEventOf(await lastEvent(), 'BOOKING_CANCELED', a);
      const confirmed = await book({ startTime: S2 });
      const b = expectData(await patch(confirmed.id, { status: 'CANCELLED' }), Booking);
      expect(b.status).toBe('CANCELLED');
      expectEventOf(await lastEvent(), 'BOOKING_CANCELED', b);
      expect(await slot(S1)).toMatchObject({ booked: 0 });
      expect(await slot(S2)).toMatchObject({ booked: 0 });
      expect((await events()).map((e) => e.event)).not.toContain('BOOKING_UPDATED');
    });

    it('refuses CONFIRMED → PENDING and every move out of CANCELLED', async () => {
      const confirmed = await book();
      const before = await written();
      expectError(await patch(confirmed.id, { status: 'PENDING' }), 409, 'INVALID_STATUS_TRANSITION');
      expect(await written()).toEqual(before);
      expectData(await cancel(confirmed.id), Booking);
      for (const status of ['CONFIRMED', 'PENDING']) {
        const after = await written();
        expectError(await patch(confirmed.id, { status }), 409, 'INVALID_STATUS_TRANSITION');
        expect(await written()).toEqual(after);
      }
      expect((await get(confirmed.id)).status).toBe('CANCELLED');
    });

    it('refuses an unknown status with 400', async () => {
      const b = await book();
      expectValidationError(await patch(b.id, { status: 'DONE' }), 'status');
    });
  });

  describe('what a patch may change', () => {
    it('accepts the record names as aliases', async () => {
      const b = await book();
      const changed = expectData(
        await patch(b.id, { totalParticipants: 3, guestName: 'Ana C.', guestEmail: 'ana@example.com', guestPhone: '+351 1' }),
        Booking,
      );
      expect(changed).toMatchObject({ totalParticipants: 3, guestName: 'Ana C.', guestPhone: '+351 1', total: '135.00' });
    });

    it('refuses both names of one field, an empty body and unknown fields', async () => {
      const b = await book();
      for (const body of [
        { participants: 3, totalParticipants: 3 },
        { customerName: 'A', guestName: 'A' },
        { customerEmail: 'a@example.com', guestEmail: 'a@example.com' },
        { customerPhone: null, guestPhone: null },
        {},
        { experienceId: exp.id },
        { unitPrice: 1 },
      ]) {
        expectError(await patch(b.id, body), 400, 'VALIDATION_ERROR');
      }
      expect(await get(b.id)).toEqual(b);
      expect((await events()).map((e) => e.event)).toEqual(['BOOKING_CREATED']);
    });

    it('reschedules to another slot, moving its places', async () => {
      const b = await book({ participants: 3 });
      clock.advance(1000);
      const moved = expectData(await patch(b.id, { startTime: S2 }), Booking);
      expect(moved.timeSlot).toEqual({ id: (await slot(S2)).id, startTime: S2, endTime: '2027-03-02T17:00:00.000Z' });
      expect(await slot(S1)).toMatchObject({ booked: 0 });
      expect(await slot(S2)).toMatchObject({ booked: 3 });
      const event = await lastEvent();
      expectEventOf(event, 'BOOKING_UPDATED', moved);
      expect(event.data.changes).toEqual({ timeSlot: { from: b.timeSlot, to: moved.timeSlot } });
    });

    it('checks a new start like a new booking', async () => {
      const b = await book({ participants: 3 });
      await book({ startTime: S2, participants: 8, customerEmail: 'full@example.com' });
      const before = await written();
      const full = expectError(await patch(b.id, { startTime: S2 }), 409, 'CAPACITY_EXCEEDED');
      expect(full.details).toEqual([{ path: 'participants', message: '2 remaining' }]);
      expectError(await patch(b.id, { startTime: '2027-03-02T10:30:00Z' }), 409, 'SLOT_UNAVAILABLE');
      expectError(await patch(b.id, { startTime: '2027-03-01T07:00:00Z' }), 409, 'SLOT_UNAVAILABLE');
      expectValidationError(await patch(b.id, { startTime: '2027-03-02T15:00:00' }), 'startTime');
      expect(await written()).toEqual(before);
      expect(await get(b.id)).toEqual(b);
    });

    it('counts its own places as free when it grows in the same slot', async () => {
      const b = await book({ participants: 4 });
      await book({ participants: 5, customerEmail: 'other@example.com' });
      const grown = expectData(await patch(b.id, { participants: 5 }), Booking);
      expect(grown).toMatchObject({ totalParticipants: 5, total: '225.00' });
      expect(await slot(S1)).toMatchObject({ booked: 10, remaining: 0 });
      const refused = expectError(await patch(b.id, { participants: 6 }), 409, 'CAPACITY_EXCEEDED');
      expect(refused.details).toEqual([{ path: 'participants', message: '5 remaining' }]);
    });

    it('moves a booking to a new slot and grows it in one change, checked against the target slot', async () => {
      const b = await book({ participants: 2 });
      await book({ startTime: S2, participants: 6, customerEmail: 'o@example.com' });
      expectError(await patch(b.id, { startTime: S2, participants: 5 }), 409, 'CAPACITY_EXCEEDED');
      const moved = expectData(await patch(b.id, { startTime: S2, participants: 4 }), Booking);
      expect(moved).toMatchObject({ totalParticipants: 4, timeSlot: { startTime: S2 } });
      expect(await slot(S2)).toMatchObject({ booked: 10 });
      expect(await slot(S1)).toMatchObject({ booked: 0 });
    });

    it('refuses growing above maxPerBooking with 400', async () => {
      const small = await newExperience({ maxPerBooking: 3 });
      const b = await book({ experienceId: small.id, participants: 2 });
      expectValidationError(await patch(b.id, { participants: 4 }), 'participants');
    });

    it('never refuses fewer participants on the same slot, even above a lowered maxPerBooking or capacity', async () => {
      const b = await book({ participants: 8 });
      expectData(await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { maxParticipants: 5, maxPerBooking: 3 } }), Experience);
      const fewer = expectData(await patch(b.id, { participants: 6 }), Booking);
      expect(fewer).toMatchObject({ totalParticipants: 6, total: '270.00' });
      expect(await slot(S1)).toMatchObject({ capacity: 5, booked: 6, remaining: 0 });
    });

    it('recomputes the total from the booking’s own unit price', async () => {
      const b = await book({ participants: 2 });
      expectData(await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { price: 9999 } }), Experience);
      const changed = expectData(await patch(b.id, { participants: 5 }), Booking);
      expect(changed).toMatchObject({ unitPrice: 4500, total: '225.00' });
      expect((await lastEvent()).data.changes).toEqual({
        totalParticipants: { from: 2, to: 5 },
        subtotal: { from: '90.00', to: '225.00' },
        total: { from: '90.00', to: '225.00' },
        amountDue: { from: '90.00', to: '225.00' },
      });
    });

    it('moves the booking to the customer of a new e-mail', async () => {
      const b = await book({ customerEmail: 'ana@example.com' });
      const keep = await book({ customerEmail: 'ana@example.com', startTime: S2 });
      const moved = expectData(await patch(b.id, { customerEmail: 'Ana.New@Example.com' }), Booking);
      expect(moved.customerId).not.toBe(b.customerId);
      expect(moved.guestEmail).toBe('Ana.New@Example.com');
      const fresh = expectData(await t.request('GET', `/v1/customers/${moved.customerId}`), Customer);
      expect(fresh).toMatchObject({ email: 'ana.new@example.com', name: 'Ana Costa', bookingCount: 1, totalSpent: '90.00' });
      const old = expectData(await t.request('GET', `/v1/customers/${b.customerId}`), Customer);
      expect(old).toMatchObject({ bookingCount: 1, totalSpent: '90.00' });
      expect(keep.customerId).toBe(b.customerId);
      expect((await lastEvent()).data.changes).toEqual({
        guestEmail: { from: 'ana@example.com', to: 'Ana.New@Example.com' },
        customerId: { from: b.customerId, to: moved.customerId },
      });
    });

    it('keeps the customer when the e-mail changes only in case', async () => {
      const b = await book({ customerEmail: 'ana@example.com' });
      const changed = expectData(await patch(b.id, { customerEmail: 'ANA@example.com' }), Booking);
      expect(changed).toMatchObject({ customerId: b.customerId, guestEmail: 'ANA@example.com' });
      expect((await lastEvent()).data.changes).toEqual({ guestEmail: { from: 'ana@example.com', to: 'ANA@example.com' } });
    });

    it('names each changed field in changes, with from and to', async () => {
      const b = await book({ metadata: { a: '1' } });
      const cases: [Record<string, unknown>, Record<string, { from: unknown; to: unknown }>][] = [
        [{ customerName: 'Ana Maria Costa' }, { guestName: { from: 'Ana Costa', to: 'Ana Maria Costa' } }],
        [{ customerPhone: '+351 900' }, { guestPhone: { from: null, to: '+351 900' } }],
        [{ customerPhone: null }, { guestPhone: { from: '+351 900', to: null } }],
        [{ metadata: { b: '2' } }, { metadata: { from: { a: '1' }, to: { b: '2' } } }],
        [
          { participants: 3, metadata: {} },
          {
            totalParticipants: { from: 2, to: 3 },
            subtotal: { from: '90.00', to: '135.00' },
            total: { from: '90.00', to: '135.00' },
            amountDue: { from: '90.00', to: '135.00' },
            metadata: { from: { b: '2' }, to: {} },
          },
        ],
      ];
      let sequence = 1;
      for (const [body, changes] of cases) {
        clock.advance(1000);
        const changed = expectData(await patch(b.id, body), Booking);
        const all = await events();
        expect(all).toHaveLength(++sequence);
        const event = all.at(-1)!;
        expectEventOf(event, 'BOOKING_UPDATED', changed);
        expect(event.data.changes).toEqual(changes);
      }
    });

    it('fires nothing and keeps updatedAt for a patch that changes nothing', async () => {
      const b = await book({ customerPhone: '+351 1', metadata: { a: '1' } });
      clock.advance(60_000);
      const same = await patch(b.id, {
        startTime: '2027-03-02T11:00:00+01:00',
        participants: 2,
        customerName: 'Ana Costa',
        customerEmail: 'ana@example.com',
        customerPhone: '+351 1',
        metadata: { a: '1' },
        status: 'CONFIRMED',
      });
      expect(expectData(same, Booking)).toEqual(b);
      expect((await events()).map((e) => e.event)).toEqual(['BOOKING_CREATED']);
    });

    it('lets a cancelled booking change its metadata only', async () => {
      const b = await book({ metadata: { a: '1' } });
      expectData(await cancel(b.id), Booking);
      const changed = expectData(await patch(b.id, { metadata: { refund: 'done' } }), Booking);
      expect(changed).toMatchObject({ status: 'CANCELLED', metadata: { refund: 'done' } });
      const event = await lastEvent();
      expectEventOf(event, 'BOOKING_UPDATED', changed);
      expect(event.data.changes).toEqual({ metadata: { from: { a: '1' }, to: { refund: 'done' } } });
      for (const body of [{ participants: 1 }, { startTime: S2 }, { customerName: 'X' }, { customerEmail: 'x@example.com' }, { customerPhone: '1' }]) {
        const before = await written();
        expectError(await patch(b.id, body), 409, 'INVALID_STATUS_TRANSITION');
        expect(await written()).toEqual(before);
      }
      expect(await slot(S1)).toMatchObject({ booked: 0 });
    });

    it('refuses patching another organization’s booking', async () => {
      const b = await book();
      const other = await t.addOrganization({ name: 'Other' });
      expectError(await t.request('PATCH', `/v1/bookings/${b.id}`, { body: { metadata: {} }, key: other.secretKey }), 404, 'NOT_FOUND');
    });
  });
});

describe('the booking lifecycle seen from outside', () => {
  it('shows a booking in availability, the customer list and the bookings list; cancelling frees its places', async () => {
    const res: TestResponse = await post(bookingBody({ participants: 3, customerEmail: 'Mia@Example.com', customerName: 'Mia' }));
    const b = expectData(res, Booking, 201);
    expect(await slot(S1)).toMatchObject({ booked: 3, remaining: 7 });
    const customers = expectList(await t.request('GET', '/v1/customers'), Customer);
    expect(customers.data).toEqual([expect.objectContaining({ id: b.customerId, email: 'mia@example.com', bookingCount: 1, totalSpent: '135.00' })]);
    expect(expectList(await t.request('GET', '/v1/bookings'), Booking).data).toEqual([b]);
    expectData(await cancel(b.id), Booking);
    expect(await slot(S1)).toMatchObject({ booked: 0, remaining: 10 });
    expect(expectData(await t.request('GET', `/v1/customers/${b.customerId}`), Customer)).toMatchObject({ bookingCount: 1, totalSpent: '0.00' });
  });
});

describe('the guest’s language', () => {
  it('is en by default, taken on create and PATCH, reported in changes, and refused when unknown', async () => {
    const plain = await book();
    expect(plain.locale).toBe('en');
    const pt = await book({ locale: 'pt', customerEmail: 'rui@example.com' });
    expect(pt.locale).toBe('pt');
    for (const locale of ['xx', 'EN', 'pt-BR', '']) expectValidationError(await post(bookingBody({ locale, customerEmail: 'x@example.com' })), 'locale');
    const changed = expectData(await patch(plain.id, { locale: 'pt' }), Booking);
    expect(changed.locale).toBe('pt');
    const updated = (await events()).find((e) => e.event === 'BOOKING_UPDATED')!;
    expect(updated.data.changes).toEqual({ locale: { from: 'en', to: 'pt' } });
    expectValidationError(await patch(plain.id, { locale: 'EN' }), 'locale');
    // The widget sends its language on /public/v1.
    const res = await t.request('POST', '/public/v1/bookings', { key: t.publishableKey, body: { ...bookingBody({ customerEmail: 'w@example.com' }), locale: 'pt' } });
    expect(res.status).toBe(201);
    const widget = expectData(await t.request('GET', `/v1/bookings/${(res.body as { data: { bookingNumber: string } }).data.bookingNumber}`), Booking);
    expect(widget.locale).toBe('pt');
  });

  it('takes each of the seven languages, and refuses any other tag on both APIs', async () => {
    for (const [i, locale] of ['en', 'pt', 'es', 'fr', 'de', 'it', 'nl'].entries()) {
      expect((await book({ locale, participants: 1, customerEmail: `g${i}@example.com` })).locale).toBe(locale);
    }
    for (const locale of ['xx', 'EN', 'pt-BR', 'de-AT']) {
      expectValidationError(await t.request('POST', '/public/v1/bookings', { key: t.publishableKey, body: { ...bookingBody(), locale } }), 'locale');
      expectValidationError(await post(bookingBody({ locale })), 'locale');
    }
  });

  it('without one, is the organization’s default language on both APIs, and its confirmation speaks it', async () => {
    expectData(await t.request('PATCH', '/v1/organization', { body: { defaultLocale: 'de' } }), Organization);
    const api = await book({ customerEmail: 'api@example.com' });
    expect(api.locale).toBe('de');
    const res = await t.request('POST', '/public/v1/bookings', { key: t.publishableKey, body: bookingBody({ customerEmail: 'widget@example.com' }) });
    expect(res.status).toBe(201);
    const widget = await get((res.body as { data: { bookingNumber: string } }).data.bookingNumber);
    expect(widget.locale).toBe('de');
    // A language given still wins over the default.
    expect((await book({ locale: 'it', customerEmail: 'it@example.com' })).locale).toBe('it');
    const message = (await t.store.messages.listBookingMessages(t.orgId, api.id, { limit: 10, offset: 0 })).rows.find((m) => m.kind === 'BOOKING_CONFIRMED');
    const composed = await composeQueuedMessage(t.store, message!, { publicUrl: 'https://book.example.com' }, clock.now());
    expect(composed?.headers['Content-Language']).toBe('de');
    expect(composed?.subject).toMatch(/^Buchung bestätigt: /);
  });
});
