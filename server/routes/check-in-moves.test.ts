import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectData, expectList, harbourCruise, manualClock, type ManualClock, type TestApp } from '../test-helpers/index.js';
import { issueManageToken } from '../services/messages.js';
import { Activity, Booking, ManagedBooking, WebhookEvent, type Experience } from '../../shared/index.js';

// Monday 5 January 2026, 12:00 in Lisbon; the harbour cruise sails at 10:00 and 15:00 every day.
const SATURDAY_10 = '2026-01-10T10:00:00.000Z';
const SATURDAY_15 = '2026-01-10T15:00:00.000Z';
const SUNDAY_10 = '2026-01-11T10:00:00.000Z';

let t: TestApp;
let clock: ManualClock;
let exp: Experience;

beforeEach(async () => {
  clock = manualClock();
  t = await createTestApp({ now: clock.now });
  exp = await harbourCruise(t);
});
afterEach(() => t.close());

const patch = (id: string, body: unknown) => t.request('PATCH', `/v1/bookings/${id}`, { body });

/** A confirmed booking of two on Saturday at 10:00, checked in (a minute after it was made). */
async function checkedInBooking(): Promise<Booking> {
  const booking = expectData(
    await t.request('POST', '/v1/bookings', {
      body: { experienceId: exp.id, startTime: SATURDAY_10, participants: 2, customerName: 'Eve Adams', customerEmail: 'eve@example.com' },
    }),
    Booking,
    201,
  );
  clock.advance(60_000);
  const checkedIn = expectData(await patch(booking.id, { checkedIn: true }), Booking);
  expect(checkedIn.checkedInAt).toBe(new Date(clock.now()).toISOString());
  clock.advance(60_000);
  return checkedIn;
}

const lastEvent = async () => expectList(await t.request('GET', '/v1/events?limit=100'), WebhookEvent).data.at(-1)!;

describe('a checked-in booking moved to another slot', () => {
  it('is no longer checked in after PATCH startTime, and BOOKING_UPDATED says so', async () => {
    const booking = await checkedInBooking();
    const moved = expectData(await patch(booking.id, { startTime: SUNDAY_10 }), Booking);
    expect(moved).toMatchObject({ timeSlot: { startTime: SUNDAY_10 }, checkedInAt: null });
    expect(expectData(await t.request('GET', `/v1/bookings/${booking.id}`), Booking).checkedInAt).toBeNull();

    const event = await lastEvent();
    expect(event.event).toBe('BOOKING_UPDATED');
    expect(event.data.changes).toEqual({
      timeSlot: { from: booking.timeSlot, to: moved.timeSlot },
      checkedInAt: { from: booking.checkedInAt, to: null },
    });
    const [entry] = expectList(await t.request('GET', '/v1/activity'), Activity).data;
    expect(entry).toMatchObject({ action: 'booking.update', summary: expect.stringContaining('checkedInAt') });
  });

  it('is no longer checked in after the guest moves it on the manage page', async () => {
    const booking = await checkedInBooking();
    const token = await issueManageToken(t.store, booking.id, clock.now());
    const moved = expectData(
      await t.request('POST', '/public/v1/manage/reschedule', { key: null, headers: { 'x-manage-token': token }, body: { startTime: SATURDAY_15 } }),
      ManagedBooking,
    );
    expect(moved.booking.timeSlot.startTime).toBe(SATURDAY_15);
    const record = expectData(await t.request('GET', `/v1/bookings/${booking.id}`), Booking);
    expect(record.checkedInAt).toBeNull();
    expect((await lastEvent()).data.changes).toMatchObject({ checkedInAt: { from: booking.checkedInAt, to: null } });
  });

  it('is checked in anew when the same PATCH moves it and checks it in', async () => {
    const booking = await checkedInBooking();
    const moved = expectData(await patch(booking.id, { startTime: SUNDAY_10, checkedIn: true }), Booking);
    expect(moved.checkedInAt).toBe(new Date(clock.now()).toISOString());
    expect(moved.checkedInAt).not.toBe(booking.checkedInAt);
  });

  it('stays checked in through changes that keep its slot', async () => {
    const booking = await checkedInBooking();
    const changed = expectData(await patch(booking.id, { participants: 3, guestName: 'Eve A.', metadata: { note: 'window seat' } }), Booking);
    expect(changed.checkedInAt).toBe(booking.checkedInAt);
    // The same start, sent again, is no move.
    expect(expectData(await patch(booking.id, { startTime: SATURDAY_10, participants: 2 }), Booking).checkedInAt).toBe(booking.checkedInAt);
  });
});
