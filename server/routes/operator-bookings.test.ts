import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp, expectData, expectError, expectList, expectValidationError, harbourCruise, manualClock, type ManualClock, type TestApp,
} from '../test-helpers/index.js';
import { addUser, signIn } from '../test-helpers/accounts.js';
import { issueManageToken } from '../services/messages.js';
import { composeQueuedMessage } from '../services/message-compose.js';
import { Availability, Booking, Experience, Message, Payment, PublicBooking, WebhookEvent } from '../../shared/index.js';

// Bookings taken at the desk (docs/running-the-day.md, "New bookings and the day list").
// Monday 2027-03-01, 08:00 UTC = 08:00 in Lisbon. The cruise sails at 10:00 and 15:00 for two hours,
// and takes bookings up to three hours before: today's 10:00 lies inside the notice period.
const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);
const TODAY_10 = '2027-03-01T10:00:00.000Z';
const TODAY_15 = '2027-03-01T15:00:00.000Z';
const TOMORROW_10 = '2027-03-02T10:00:00.000Z';
const NOTE = 'Wheelchair user: board by the side gate';

let t: TestApp;
let clock: ManualClock;
let exp: Experience;

beforeEach(async () => {
  clock = manualClock(NOW);
  t = await createTestApp({ now: clock.now });
  exp = await harbourCruise(t, { minNoticeMinutes: 180 });
});
afterEach(() => t.close());

const body = (fields: Record<string, unknown> = {}) => ({
  experienceId: exp.id,
  startTime: TOMORROW_10,
  participants: 2,
  customerName: 'Ana Costa',
  customerEmail: 'ana@example.com',
  ...fields,
});
const post = (fields: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  t.request('POST', '/v1/bookings', { body: body(fields), headers });
const book = async (fields: Record<string, unknown> = {}) => expectData(await post(fields), Booking, 201);
const events = async () => expectList(await t.request('GET', '/v1/events?limit=100'), WebhookEvent).data;
const payments = async (id: string) => expectList(await t.request('GET', `/v1/bookings/${id}/payments`), Payment).data;
const messages = async (id: string) => expectList(await t.request('GET', `/v1/bookings/${id}/messages`), Message).data;
const startsOf = (a: Availability) => a.slots.map((s) => s.startTime);
const availability = async (query: string) =>
  expectData(await t.request('GET', `/v1/availability?experienceId=${exp.id}&startDate=2027-03-01&endDate=2027-03-01${query}`), Availability);

describe('POST /v1/bookings with ignoreNotice', () => {
  it('books a slot inside the notice period only when asked to', async () => {
    expectError(await post({ startTime: TODAY_10 }), 409, 'SLOT_UNAVAILABLE');
    expectError(await post({ startTime: TODAY_10, ignoreNotice: false }), 409, 'SLOT_UNAVAILABLE');
    const b = await book({ startTime: TODAY_10, ignoreNotice: true });
    expect(b).toMatchObject({ status: 'CONFIRMED', timeSlot: { startTime: TODAY_10 } });
  });

  it('books a slot under way until it ends, and never one that has ended', async () => {
    clock.set(Date.parse(TODAY_10) + 90 * 60_000); // 11:30, half an hour before the end
    expectError(await post({ startTime: TODAY_10 }), 409, 'SLOT_UNAVAILABLE');
    expect((await book({ startTime: TODAY_10, ignoreNotice: true })).timeSlot.startTime).toBe(TODAY_10);
    clock.set(Date.parse(TODAY_10) + 120 * 60_000); // 12:00: over
    const ended = expectError(await post({ startTime: TODAY_10, ignoreNotice: true }), 409, 'SLOT_UNAVAILABLE');
    expect(ended.message).toMatch(/ended/);
  });

  it('keeps every other check: a start off the schedule, the places left, the party', async () => {
    expectError(await post({ startTime: '2027-03-01T11:00:00.000Z', ignoreNotice: true }), 409, 'SLOT_UNAVAILABLE');
    await book({ startTime: TODAY_10, ignoreNotice: true, participants: 9 });
    expectError(await post({ startTime: TODAY_10, ignoreNotice: true, participants: 2 }), 409, 'CAPACITY_EXCEEDED');
    expectValidationError(await post({ startTime: TODAY_10, ignoreNotice: true, participants: 11 }), 'participants');
    expectValidationError(await post({ ignoreNotice: 'yes' }), 'ignoreNotice');
  });

  it('GET /v1/availability?ignoreNotice=true also lists the slots inside the notice period and under way', async () => {
    expect(startsOf(await availability(''))).toEqual([TODAY_15]);
    expect(startsOf(await availability('&ignoreNotice=false'))).toEqual([TODAY_15]);
    expect(startsOf(await availability('&ignoreNotice=true'))).toEqual([TODAY_10, TODAY_15]);
    clock.set(Date.parse(TODAY_10) + 60 * 60_000); // 11:00: the 10:00 cruise is under way
    const open = await availability('&ignoreNotice=true');
    expect(startsOf(open)).toEqual([TODAY_10, TODAY_15]);
    expect(open.slots[0]).toMatchObject({ capacity: 10, booked: 0, remaining: 10, available: true });
    expect(startsOf(await availability(''))).toEqual([TODAY_15]);
    clock.set(Date.parse(TODAY_10) + 120 * 60_000); // 12:00: ended, gone from both
    expect(startsOf(await availability('&ignoreNotice=true'))).toEqual([TODAY_15]);
    expectValidationError(await t.request('GET', `/v1/availability?experienceId=${exp.id}&ignoreNotice=1`), 'ignoreNotice');
  });
});

describe('POST /v1/bookings with payment', () => {
  it('records a SUCCEEDED manual payment of the total, PAYMENT_SUCCEEDED after BOOKING_CREATED', async () => {
    const b = await book({ payment: { method: 'CASH' } });
    const [paid] = await payments(b.id);
    expect(paid).toEqual({
      id: expect.stringMatching(/^pay_/),
      bookingId: b.id,
      amount: '90.00',
      currency: 'EUR',
      status: 'SUCCEEDED',
      provider: 'manual',
      method: 'CASH',
      reference: null,
      failureReason: null,
      refundRequired: false,
      createdAt: new Date(NOW).toISOString(),
    });
    const fired = (await events()).filter((e) => e.data.booking.id === b.id);
    expect(fired.map((e) => e.event)).toEqual(['BOOKING_CREATED', 'PAYMENT_SUCCEEDED']);
    expect(fired[1]!.data.payment).toEqual({ id: paid!.id, amount: '90.00', currency: 'EUR', status: 'SUCCEEDED', provider: 'manual', method: 'CASH', failureReason: null });
    const manifest = (await t.request('GET', '/v1/manifest?date=2027-03-02')).body as { data: { slots: { bookings: { id: string; paid: string }[] }[] } };
    expect(manifest.data.slots.flatMap((s) => s.bookings).find((x) => x.id === b.id)?.paid).toBe('90.00');
  });

  it('takes a part payment with a reference', async () => {
    const b = await book({ payment: { method: 'BANK_TRANSFER', amount: '40.00', reference: 'TRF-77' } });
    expect(await payments(b.id)).toMatchObject([{ amount: '40.00', method: 'BANK_TRANSFER', reference: 'TRF-77' }]);
  });

  it('refuses an amount of nothing or above the total on payment.amount, and STRIPE, booking nothing', async () => {
    for (const amount of ['0.00', '90.01', '1000.00']) {
      expectValidationError(await post({ payment: { method: 'CARD', amount } }), 'payment.amount');
    }
    expectValidationError(await post({ payment: { method: 'STRIPE' } }), 'payment.method');
    expectValidationError(await post({ payment: { amount: '10.00' } }), 'payment.method');
    expectValidationError(await post({ payment: { method: 'CASH', amount: '10' } }), 'payment.amount');
    expectValidationError(await post({ payment: { method: 'CASH', extra: 1 } }), 'payment.extra');
    expect(expectList(await t.request('GET', '/v1/bookings'), Booking).data).toEqual([]);
    expect(await events()).toEqual([]);
  });

  it('refuses a payment on a booking that costs nothing', async () => {
    const free = await harbourCruise(t, { name: 'Free walk', price: 0 });
    expectValidationError(await post({ experienceId: free.id, payment: { method: 'CASH' } }), 'payment.amount');
  });
});

describe('POST /v1/bookings with sendConfirmation', () => {
  it('false records no confirmation e-mail; a later change e-mails the guest as usual', async () => {
    const quiet = await book({ sendConfirmation: false });
    expect(await messages(quiet.id)).toEqual([]);
    expect((await t.request('PATCH', `/v1/bookings/${quiet.id}`, { body: { participants: 3 } })).status).toBe(200);
    expect((await messages(quiet.id)).map((m) => m.kind)).toEqual(['BOOKING_CHANGED']);
    const told = await book({ sendConfirmation: true, customerEmail: 'bruno@example.com' });
    expect((await messages(told.id)).map((m) => m.kind)).toEqual(['BOOKING_CONFIRMED']);
    expect((await messages((await book({ customerEmail: 'carla@example.com' })).id)).map((m) => m.kind)).toEqual(['BOOKING_CONFIRMED']);
  });
});

describe('internalNote', () => {
  it('is kept on create and PATCH, shown in /v1, webhooks and /v1/events, and cleared with null', async () => {
    const b = await book({ internalNote: NOTE });
    expect(b.internalNote).toBe(NOTE);
    expect(expectData(await t.request('GET', `/v1/bookings/${b.id}`), Booking).internalNote).toBe(NOTE);
    const changed = expectData(await t.request('PATCH', `/v1/bookings/${b.id}`, { body: { internalNote: 'Pays on board' } }), Booking);
    expect(changed.internalNote).toBe('Pays on board');
    const fired = await events();
    expect(fired.map((e) => [e.event, e.data.booking.internalNote])).toEqual([
      ['BOOKING_CREATED', NOTE],
      ['BOOKING_UPDATED', 'Pays on board'],
    ]);
    expect(fired[1]!.data.changes).toEqual({ internalNote: { from: NOTE, to: 'Pays on board' } });
    // Nothing the guest sees changed: no e-mail about it.
    expect((await messages(b.id)).map((m) => m.kind)).toEqual(['BOOKING_CONFIRMED']);
    const cleared = expectData(await t.request('PATCH', `/v1/bookings/${b.id}`, { body: { internalNote: null } }), Booking);
    expect(cleared.internalNote).toBeNull();
    expect(await book({ customerEmail: 'none@example.com' })).toMatchObject({ internalNote: null });
  });

  it('may be written on a cancelled booking', async () => {
    const b = await book();
    expect((await t.request('PATCH', `/v1/bookings/${b.id}/cancel`, { body: {} })).status).toBe(200);
    expect(expectData(await t.request('PATCH', `/v1/bookings/${b.id}`, { body: { internalNote: 'Refunded at the desk' } }), Booking).internalNote).toBe(
      'Refunded at the desk',
    );
  });

  it('is at most 2000 characters', async () => {
    expect((await book({ internalNote: 'x'.repeat(2000) })).internalNote).toHaveLength(2000);
    expectValidationError(await post({ internalNote: 'x'.repeat(2001), customerEmail: 'long@example.com' }), 'internalNote');
    const b = await book({ customerEmail: 'p@example.com' });
    expectValidationError(await t.request('PATCH', `/v1/bookings/${b.id}`, { body: { internalNote: 'x'.repeat(2001) } }), 'internalNote');
    expectValidationError(await t.request('PATCH', `/v1/bookings/${b.id}`, { body: { internalNote: 5 } }), 'internalNote');
  });

  it('never reaches the guest: not in the manage API nor in any guest e-mail', async () => {
    const b = await book({ internalNote: NOTE, customerPhone: '+351 912 345 678' });
    const token = await issueManageToken(t.store, b.id, clock.now());
    const managed = await t.request('GET', '/public/v1/manage', { key: null, headers: { 'x-manage-token': token } });
    expect(managed.status).toBe(200);
    expect(managed.text).not.toContain('Wheelchair');
    expect(managed.text).not.toContain('internalNote');
    // A change and a cancellation too, in both languages.
    await t.request('PATCH', `/v1/bookings/${b.id}`, { body: { participants: 3, locale: 'pt' } });
    await t.request('PATCH', `/v1/bookings/${b.id}/cancel`, { body: {} });
    const rows = (await t.store.messages.listBookingMessages(t.orgId, b.id, { limit: 10, offset: 0 })).rows;
    expect(rows.map((m) => m.kind)).toEqual(['BOOKING_CONFIRMED', 'BOOKING_CHANGED', 'BOOKING_CANCELLED']);
    for (const row of rows) {
      const mail = await composeQueuedMessage(t.store, row, { publicUrl: 'https://book.example.com' }, clock.now());
      expect(mail).toBeDefined();
      expect(JSON.stringify(mail)).not.toContain('Wheelchair');
    }
  });
});

describe('/public/v1 takes none of the operator’s fields', () => {
  it('refuses ignoreNotice, payment, sendConfirmation and internalNote on bookings, and ignoreNotice on availability', async () => {
    const guest = { experienceId: exp.id, startTime: TOMORROW_10, participants: 2, customerName: 'Ana', customerEmail: 'ana@example.com' };
    for (const extra of [{ ignoreNotice: true }, { payment: { method: 'CASH' } }, { sendConfirmation: false }, { internalNote: 'x' }]) {
      const field = Object.keys(extra)[0]!;
      expectValidationError(await t.request('POST', '/public/v1/bookings', { body: { ...guest, ...extra } }), field);
    }
    expectValidationError(await t.request('GET', `/public/v1/availability?experienceId=${exp.id}&ignoreNotice=true`), 'ignoreNotice');
    // And its booking never shows the note.
    const made = await t.request('POST', '/public/v1/bookings', { body: guest });
    expect(Object.keys(expectData(made, PublicBooking, 201))).not.toContain('internalNote');
    expect(made.text).not.toContain('internalNote');
  });
});

describe('source', () => {
  it('is DASHBOARD for a booking made with a dashboard session, API with a secret key', async () => {
    const user = await addUser(t, { role: 'staff' });
    const session = await signIn(t, user.email);
    const desk = expectData(await t.request('POST', '/v1/bookings', { key: null, headers: session.headers, body: body() }), Booking, 201);
    expect(desk.source).toBe('DASHBOARD');
    expect(expectData(await t.request('GET', `/v1/bookings/${desk.id}`), Booking).source).toBe('DASHBOARD');
    expect((await book({ customerEmail: 'key@example.com' })).source).toBe('API');
    const listed = expectList(await t.request('GET', '/v1/bookings'), Booking).data;
    expect(listed.map((b) => b.source).sort()).toEqual(['API', 'DASHBOARD']);
  });
});

describe('POST /v1/bookings/{id}/payments with method', () => {
  it('records the method, OTHER by default, and refuses STRIPE', async () => {
    const b = await book();
    const pay = (extra: Record<string, unknown>) =>
      t.request('POST', `/v1/bookings/${b.id}/payments`, { body: { amount: '10.00', status: 'SUCCEEDED', ...extra } });
    expect(expectData(await pay({ method: 'CARD' }), Payment, 201).method).toBe('CARD');
    expect(expectData(await pay({}), Payment, 201).method).toBe('OTHER');
    expectValidationError(await pay({ method: 'STRIPE' }), 'method');
    expectValidationError(await pay({ method: 'cash' }), 'method');
    expect((await payments(b.id)).map((p) => p.method)).toEqual(['CARD', 'OTHER']);
    const fired = (await events()).filter((e) => e.event === 'PAYMENT_SUCCEEDED');
    expect(fired.map((e) => e.data.payment?.method)).toEqual(['CARD', 'OTHER']);
  });
});
