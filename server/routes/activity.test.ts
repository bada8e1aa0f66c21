import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { everyDay, createTestApp, expectData, expectError, expectList, manualClock, type ManualClock, type TestApp } from '../test-helpers/index.js';
import { pruneExpired } from '../services/retention.js';
import { Activity, Booking, Experience, PublicBooking, WebhookEvent } from '../../shared/index.js';

// Monday 2027-03-01, 08:00 UTC = 08:00 in Lisbon.
const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);
const S1 = '2027-03-02T10:00:00.000Z';
const S2 = '2027-03-02T15:00:00.000Z';

let t: TestApp;
let clock: ManualClock;
let exp: Experience;

beforeEach(async () => {
  clock = manualClock(NOW);
  t = await createTestApp({ now: clock.now });
  exp = expectData(
    await t.request('POST', '/v1/experiences', {
      body: { name: 'Harbour cruise', description: '', duration: 60, price: 4500, maxParticipants: 4, schedule: { weekly: everyDay(['10:00', '15:00']) } },
    }),
    Experience,
    201,
  );
});
afterEach(() => t.close());

const book = async (fields: Record<string, unknown> = {}) =>
  expectData(
    await t.request('POST', '/v1/bookings', {
      body: { experienceId: exp.id, startTime: S1, participants: 2, customerName: 'Ana Costa', customerEmail: 'ana@example.com', ...fields },
    }),
    Booking,
    201,
  );
const activity = async (query = '') => expectList(await t.request('GET', `/v1/activity${query}`), Activity).data;

describe('the activity log', () => {
  it('records each change once, newest first, naming the key, its address and the target', async () => {
    const booking = await book();
    expectData(await t.request('PATCH', `/v1/bookings/${booking.id}/cancel`, { body: { reason: 'Weather' } }), Booking);
    const entries = await activity();
    expect(entries.map((e) => e.action).slice(0, 3)).toEqual(['booking.cancel', 'booking.create', 'experience.create']);
    expect(entries[0]).toMatchObject({
      actor: { type: 'key', id: t.apiKeyId, name: 'Default secret key' },
      targetType: 'booking',
      targetId: booking.id,
      summary: `Cancelled ${booking.bookingNumber} (2 guests, Harbour cruise)`,
      createdAt: new Date(NOW).toISOString(),
    });
  });

  it('names a guest booking through the public API by the guest’s own name', async () => {
    const made = expectData(
      await t.request('POST', '/public/v1/bookings', {
        body: { experienceId: exp.id, startTime: S1, participants: 1, customerName: 'Bea Lima', customerEmail: 'bea@example.com' },
      }),
      PublicBooking,
      201,
    );
    const [entry] = await activity();
    expect(entry).toMatchObject({ actor: { type: 'guest', id: null, name: 'Bea Lima' }, action: 'booking.create', summary: expect.stringContaining(made.bookingNumber) });
  });

  it('writes nothing for a refused change', async () => {
    await book({ participants: 4 });
    const before = (await activity()).length;
    expectError(await t.request('POST', '/v1/bookings', { body: { experienceId: exp.id, startTime: S1, participants: 1, customerName: 'Late', customerEmail: 'late@example.com' } }), 409, 'CAPACITY_EXCEEDED');
    expectError(await t.request('DELETE', `/v1/experiences/${exp.id}`), 409, 'CONFLICT');
    expect(await activity()).toHaveLength(before);
  });

  it('filters by actor and by target', async () => {
    const other = await t.createKey({ name: 'Front desk' });
    const first = await book();
    expectData(
      await t.request('POST', '/v1/bookings', { key: other.key, body: { experienceId: exp.id, startTime: S2, participants: 1, customerName: 'Rui', customerEmail: 'rui@example.com' } }),
      Booking,
      201,
    );
    const byDesk = await activity(`?actorId=${other.id}`);
    expect(byDesk.map((e) => [e.action, e.actor.name])).toEqual([['booking.create', 'Front desk']]);
    const aboutFirst = await activity(`?targetId=${first.id}`);
    expect(aboutFirst.map((e) => e.targetId)).toEqual([first.id]);
  });

  it('needs organization:read, and shows only the caller’s organization', async () => {
    const narrow = await t.createKey({ scopes: ['bookings:read'] });
    expectError(await t.request('GET', '/v1/activity', { key: narrow.key }), 403, 'FORBIDDEN');
    const elsewhere = await t.addOrganization({ name: 'Elsewhere', email: 'x@elsewhere.example' });
    const booking = await book();
    const theirs = expectList(await t.request('GET', '/v1/activity', { key: elsewhere.secretKey }), Activity).data;
    expect(theirs.filter((e) => e.targetId === booking.id || e.targetId === exp.id)).toEqual([]);
    expect(expectList(await t.request('GET', `/v1/activity?targetId=${booking.id}`, { key: elsewhere.secretKey }), Activity).data).toEqual([]);
  });

  it('keeps entries 365 days', async () => {
    await book();
    clock.advance(200 * 86_400_000);
    await book({ startTime: '2027-09-18T09:00:00.000Z', customerEmail: 'later@example.com' }); // 10:00 in Lisbon (summer time)
    const before = await activity();
    expect((await pruneExpired({ store: t.store, config: t.config }, clock.now() + 170 * 86_400_000)).activity).toBe(before.length - 1);
    // The entry of the second booking, 170 days old then, stays; everything from the first day went.
    expect((await t.store.activity.listActivity(t.orgId, {}, { limit: 100, offset: 0 })).rows.map((e) => e.action)).toEqual(['booking.create']);
  });

  it('refuses unknown filters', async () => {
    expectError(await t.request('GET', '/v1/activity?who=me'), 400, 'VALIDATION_ERROR');
  });
});

describe('check-in', () => {
  const checkIn = (id: string, checkedIn: boolean) => t.request('PATCH', `/v1/bookings/${id}`, { body: { checkedIn } });
  const updates = async () =>
    expectList(await t.request('GET', '/v1/events?type=BOOKING_UPDATED&limit=100'), WebhookEvent).data;

  it('sets checkedInAt, keeps the first time when repeated, and clears it; each change fires BOOKING_UPDATED and is logged', async () => {
    const booking = await book();
    expect(booking.checkedInAt).toBeNull();
    const first = expectData(await checkIn(booking.id, true), Booking);
    expect(first.checkedInAt).toBe(new Date(NOW).toISOString());
    clock.advance(60_000);
    expect(expectData(await checkIn(booking.id, true), Booking).checkedInAt).toBe(first.checkedInAt);
    expect(expectData(await checkIn(booking.id, false), Booking).checkedInAt).toBeNull();

    const fired = await updates();
    expect(fired.map((e) => e.data.changes)).toEqual([
      { checkedInAt: { from: null, to: first.checkedInAt } },
      { checkedInAt: { from: first.checkedInAt, to: null } },
    ]);
    expect(fired[0]?.data.booking.checkedInAt).toBe(first.checkedInAt);
    const logged = await activity(`?targetId=${booking.id}`);
    expect(logged.map((e) => e.action)).toEqual(['booking.check_in', 'booking.check_in', 'booking.create']);
    expect(logged[0]?.summary).toMatch(/^Undid the check-in of /);
    expect(logged[1]?.summary).toMatch(/^Checked in /);
  });

  it('refuses a cancelled booking with 409 INVALID_STATUS_TRANSITION and changes nothing', async () => {
    const booking = await book();
    expectData(await t.request('PATCH', `/v1/bookings/${booking.id}/cancel`), Booking);
    expectError(await checkIn(booking.id, true), 409, 'INVALID_STATUS_TRANSITION');
    expect(expectData(await t.request('GET', `/v1/bookings/${booking.id}`), Booking).checkedInAt).toBeNull();
  });

  it('takes only a boolean', async () => {
    const booking = await book();
    expectError(await t.request('PATCH', `/v1/bookings/${booking.id}`, { body: { checkedIn: 'yes' } }), 400, 'VALIDATION_ERROR');
  });
});
