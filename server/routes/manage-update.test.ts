import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp, expectData, expectError, expectList, expectValidationError, harbourCruise, insertBookingRow, manualClock, type ManualClock, type TestApp,
} from '../test-helpers/index.js';
import { issueManageToken } from '../services/messages.js';
import { Activity, Booking, ManagedBooking, Message, Organization, PublicBooking, type Experience } from '../../shared/index.js';

const HOUR = 3_600_000;
// The clock starts on Monday 5 January 2026, 12:00 in Lisbon (UTC+0 in winter).
const SATURDAY_10 = '2026-01-10T10:00:00.000Z';

describe('POST /public/v1/manage/update: the guest changes their party and details', { timeout: 60_000 }, () => {
  let t: TestApp;
  let clock: ManualClock;
  let exp: Experience;

  beforeEach(async () => {
    clock = manualClock();
    t = await createTestApp({ now: clock.now });
    exp = await harbourCruise(t); // ten places, €45.00
  });
  afterEach(async () => {
    await t.close();
  });

  const book = async (fields: Record<string, unknown> = {}) =>
    expectData(
      await t.request('POST', '/v1/bookings', {
        body: {
          experienceId: exp.id, startTime: SATURDAY_10, participants: 2, customerName: 'Eve Adams', customerEmail: 'eve@example.com',
          customerPhone: '+351 911 000 000', ...fields,
        },
      }),
      Booking,
      201,
    );
  const guestOf = async (fields: Record<string, unknown> = {}) => {
    const booking = await book(fields);
    return { booking, token: await issueManageToken(t.store, booking.id, clock.now()) };
  };
  const asGuest = (token: string, method: string, path: string, body?: unknown) =>
    t.request(method, `/public/v1/manage${path}`, { key: null, headers: { 'x-manage-token': token }, body });
  const update = (token: string, body: unknown) => asGuest(token, 'POST', '/update', body);
  const messagesOf = async (id: string) => expectList(await t.request('GET', `/v1/bookings/${id}/messages`), Message).data;
  const eventsOf = async (id: string) => {
    const events = (await t.request('GET', '/v1/events?limit=100')).body as { data: { event: string; data: { booking: { id: string }; changes?: Record<string, unknown> } }[] };
    return events.data.filter((e) => e.data.booking.id === id);
  };

  it('shows the guest their phone and what they may change, on the manage API alone', async () => {
    const { booking, token } = await guestOf();
    const seen = expectData(await asGuest(token, 'GET', ''), ManagedBooking);
    expect(seen).toMatchObject({ canCancel: true, canReschedule: true, canChangeParty: true, canEditContact: true, booking: { guestPhone: '+351 911 000 000' } });
    const res = await asGuest(token, 'GET', '');
    expect(res.headers.get('cache-control')).toBe('no-store');
    // The public booking status shape stays without personal data.
    const status = await t.request('GET', `/public/v1/bookings/${booking.bookingNumber}`, { key: null });
    expect(JSON.stringify(status.body)).not.toContain('guestPhone');
    const widget = await t.request('POST', '/public/v1/bookings', {
      key: (await t.createKey({ type: 'publishable' })).key,
      body: { experienceId: exp.id, startTime: SATURDAY_10, participants: 1, customerName: 'Bo', customerEmail: 'bo@example.com', customerPhone: '+351 1' },
    });
    expect(widget.status).toBe(201);
    expect(Object.keys((widget.body as { data: object }).data)).toEqual(Object.keys(PublicBooking.shape));
  });

  it('changes the participants like PATCH: places, total, event, change notice and the guest as actor', async () => {
    const { booking, token } = await guestOf();
    const res = await update(token, { participants: 4 });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const changed = expectData(res, ManagedBooking);
    expect(changed.booking).toMatchObject({ totalParticipants: 4, total: '180.00', guestPhone: '+351 911 000 000' });
    expect(changed).toMatchObject({ canChangeParty: true, canEditContact: true });
    const record = expectData(await t.request('GET', `/v1/bookings/${booking.id}`), Booking);
    expect(record).toMatchObject({ totalParticipants: 4, total: '180.00' });
    expect((await messagesOf(booking.id)).map((m) => m.kind)).toEqual(['BOOKING_CONFIRMED', 'BOOKING_CHANGED']);
    const events = await eventsOf(booking.id);
    expect(events.map((e) => e.event)).toEqual(['BOOKING_CREATED', 'BOOKING_UPDATED']);
    expect(events[1]!.data.changes).toMatchObject({ totalParticipants: { from: 2, to: 4 } });
    const activity = expectList(await t.request('GET', '/v1/activity'), Activity).data;
    expect(activity.find((a) => a.action === 'booking.update')).toMatchObject({ actor: { type: 'guest', name: 'Eve Adams' } });

    // The same request again changes nothing: no event, no message.
    expect(expectData(await update(token, { participants: 4 }), ManagedBooking).booking.totalParticipants).toBe(4);
    expect(await eventsOf(booking.id)).toHaveLength(2);
    expect(await messagesOf(booking.id)).toHaveLength(2);

    // Fewer is always fine.
    expect(expectData(await update(token, { participants: 1 }), ManagedBooking).booking.total).toBe('45.00');
  });

  it('changes the name and phone (null clears it) without a change notice', async () => {
    const { booking, token } = await guestOf();
    const changed = expectData(await update(token, { customerName: 'Eve Adams-Silva', customerPhone: '+351 922 000 000' }), ManagedBooking);
    expect(changed.booking).toMatchObject({ guestName: 'Eve Adams-Silva', guestPhone: '+351 922 000 000' });
    expect(expectData(await update(token, { customerPhone: null }), ManagedBooking).booking.guestPhone).toBeNull();
    expect(expectData(await t.request('GET', `/v1/bookings/${booking.id}`), Booking)).toMatchObject({ guestName: 'Eve Adams-Silva', guestPhone: null });
    expect((await messagesOf(booking.id)).map((m) => m.kind)).toEqual(['BOOKING_CONFIRMED']);
    expect((await eventsOf(booking.id)).map((e) => e.event)).toEqual(['BOOKING_CREATED', 'BOOKING_UPDATED', 'BOOKING_UPDATED']);
  });

  it('checks the party as a new booking: places left, the party limit on increases only, a slot that is gone', async () => {
    const { booking, token } = await guestOf();
    await book({ participants: 6, customerEmail: 'group@example.com' }); // 8 of 10 taken
    const full = expectError(await update(token, { participants: 5 }), 409, 'CAPACITY_EXCEEDED');
    expect(full.message).toBe('Only 4 places left in this time slot');
    expect(expectData(await update(token, { participants: 4 }), ManagedBooking).booking.totalParticipants).toBe(4);

    // A booking over a lowered per-booking limit may shrink, never grow.
    expect((await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { maxParticipants: 12, maxPerBooking: 2 } })).status).toBe(200);
    expectValidationError(await update(token, { participants: 5 }), 'participants');
    expect(expectData(await update(token, { participants: 3 }), ManagedBooking).booking.totalParticipants).toBe(3);
    expect(expectData(await t.request('GET', `/v1/bookings/${booking.id}`), Booking).totalParticipants).toBe(3);

    // More places where a new booking could no longer go are refused; fewer are still fine.
    expect((await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { maxPerBooking: null, active: false } })).status).toBe(200);
    expectError(await update(token, { participants: 4 }), 409, 'SLOT_UNAVAILABLE');
    expect(expectData(await update(token, { participants: 2 }), ManagedBooking).booking.totalParticipants).toBe(2);
  });

  it('refuses what the contract does not take: an empty body, other fields, bad names and phones', async () => {
    const { token } = await guestOf();
    expectValidationError(await update(token, {}), '');
    expectValidationError(await update(token, { customerEmail: 'other@example.com' }), 'customerEmail');
    expectValidationError(await update(token, { startTime: SATURDAY_10 }), 'startTime');
    expectValidationError(await update(token, { participants: 0 }), 'participants');
    expectValidationError(await update(token, { participants: 2, tickets: [{ categoryId: 'x', quantity: 1 }] }), 'participants');
    expectValidationError(await update(token, { tickets: [{ categoryId: 'x', quantity: 1 }] }), 'tickets');
    expectValidationError(await update(token, { customerName: '   ' }), 'customerName');
    expectValidationError(await update(token, { customerName: 'Eve \u202Eevil' }), 'customerName');
    expectValidationError(await update(token, { customerName: 'Eve\u0000' }), 'customerName');
    expectValidationError(await update(token, { customerPhone: '1'.repeat(41) }), 'customerPhone');
    expectError(await update('A'.repeat(43), { participants: 3 }), 404, 'NOT_FOUND');
  });

  it('changes tickets per category, keeping the booked prices', async () => {
    const ticketed = await harbourCruise(t, {
      name: 'Dolphin trip',
      priceCategories: [{ name: 'Adult', price: 3000 }, { name: 'Child', price: 1500 }],
    });
    const [adult, child] = ticketed.priceCategories;
    const { booking, token } = await guestOf({ experienceId: ticketed.id, participants: undefined, tickets: [{ categoryId: adult!.id, quantity: 2 }] });
    expectValidationError(await update(token, { participants: 3 }), 'participants');
    const changed = expectData(await update(token, { tickets: [{ categoryId: adult!.id, quantity: 1 }, { categoryId: child!.id, quantity: 2 }] }), ManagedBooking);
    expect(changed.booking.tickets.map((c) => [c.name, c.quantity])).toEqual([['Adult', 1], ['Child', 2]]);
    expect(changed.booking).toMatchObject({ totalParticipants: 3, total: '60.00' });
    expect((await messagesOf(booking.id)).map((m) => m.kind)).toEqual(['BOOKING_CONFIRMED', 'BOOKING_CHANGED']);
  });

  it('refuses a party change inside the cutoff but takes the phone until the start; nothing once cancelled or off', async () => {
    const { booking, token } = await guestOf();
    clock.set(Date.parse(SATURDAY_10) - 2 * HOUR);
    expect(expectData(await asGuest(token, 'GET', ''), ManagedBooking)).toMatchObject({ canReschedule: false, canChangeParty: false, canEditContact: true, reason: 'PAST_CUTOFF' });
    expectError(await update(token, { participants: 3 }), 409, 'CHANGE_NOT_ALLOWED');
    expectError(await update(token, { participants: 3, customerPhone: null }), 409, 'CHANGE_NOT_ALLOWED');
    expect(expectData(await update(token, { customerPhone: '+351 933 000 000' }), ManagedBooking).booking.guestPhone).toBe('+351 933 000 000');

    clock.set(Date.parse(SATURDAY_10));
    expect(expectData(await asGuest(token, 'GET', ''), ManagedBooking)).toMatchObject({ canChangeParty: false, canEditContact: false });
    expectError(await update(token, { customerName: 'Eve' }), 409, 'CHANGE_NOT_ALLOWED');

    clock.set(Date.parse(SATURDAY_10) - 48 * HOUR);
    expectData(await t.request('PATCH', '/v1/organization', { body: { guestSelfService: false } }), Organization);
    expect(expectData(await asGuest(token, 'GET', ''), ManagedBooking)).toMatchObject({ canChangeParty: false, canEditContact: false });
    expectError(await update(token, { customerPhone: null }), 409, 'CHANGE_NOT_ALLOWED');
    expectData(await t.request('PATCH', '/v1/organization', { body: { guestSelfService: true } }), Organization);

    expect((await t.request('PATCH', `/v1/bookings/${booking.id}/cancel`, { body: {} })).body).toMatchObject({ data: { status: 'CANCELLED' } });
    expect(expectData(await asGuest(token, 'GET', ''), ManagedBooking)).toMatchObject({ canChangeParty: false, canEditContact: false });
    expectError(await update(token, { customerName: 'Eve' }), 409, 'CHANGE_NOT_ALLOWED');
    expectError(await update(token, { participants: 1 }), 409, 'CHANGE_NOT_ALLOWED');
    expect(expectData(await t.request('GET', `/v1/bookings/${booking.id}`), Booking)).toMatchObject({ guestName: 'Eve Adams', totalParticipants: 2 });
  });

  it('keeps the party of a booking whose online payment is open, but takes its phone', async () => {
    const row = await insertBookingRow(t.store, {
      orgId: t.orgId, experienceId: exp.id, slotStart: Date.parse(SATURDAY_10), participants: 2, unitPrice: 4500, status: 'PENDING',
      holdExpiresAt: clock.now() + 30 * 60_000, checkoutSessionId: 'cs_test_open', checkoutUrl: 'https://pay.example/cs_test_open',
    });
    const token = await issueManageToken(t.store, row.id, clock.now());
    expect(expectData(await asGuest(token, 'GET', ''), ManagedBooking)).toMatchObject({ canReschedule: true, canChangeParty: false, canEditContact: true });
    const refused = expectError(await update(token, { participants: 3 }), 409, 'CHANGE_NOT_ALLOWED');
    expect(refused.message).toContain('payment');
    expect(expectData(await update(token, { customerPhone: '+351 1' }), ManagedBooking).booking).toMatchObject({ guestPhone: '+351 1', totalParticipants: 2, status: 'PENDING' });
  });

  it('lets only one of two guests racing for the last places have them', async () => {
    const first = await guestOf();
    const second = await guestOf({ customerEmail: 'zoe@example.com' });
    await book({ participants: 4, customerEmail: 'group@example.com' }); // 8 of 10 taken: 2 left
    const answers = await Promise.all([update(first.token, { participants: 4 }), update(second.token, { participants: 4 })]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expectError(answers.find((r) => r.status === 409)!, 409, 'CAPACITY_EXCEEDED');
    const records = await Promise.all([first, second].map(async (g) => expectData(await t.request('GET', `/v1/bookings/${g.booking.id}`), Booking)));
    expect(records.map((b) => b.totalParticipants).sort()).toEqual([2, 4]);
    const slots = (await t.request('GET', `/v1/availability?experienceId=${exp.id}&startDate=2026-01-10&endDate=2026-01-10`)).body as {
      data: { slots: { startTime: string; booked: number; remaining: number }[] };
    };
    expect(slots.data.slots.find((s) => s.startTime === SATURDAY_10)).toMatchObject({ booked: 10, remaining: 0 });
  });
});
