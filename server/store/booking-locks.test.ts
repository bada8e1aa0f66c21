import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import { addOrganization, everyDay, testEngine } from '../test-helpers/index.js';
import { openTwoStores } from '../test-helpers/process-database.js';
import { createExperience } from '../services/experiences.js';
import { createBooking } from '../services/bookings.js';
import { SYSTEM } from '../domain/actor.js';
import type { BookingInput } from '../../shared/index.js';

// PostgreSQL, two stores over one database as two processes are: a booking's transaction holds the
// write lock shared (store/sql.ts, "Transactions and the write lock"), so a booking on another slot
// goes through while one is still open; a booking of the same slot waits for it on the slot's
// counter row, and any other write waits for the exclusive lock. (SQLite's writers always take
// turns: nothing to show there.)

const NOW = Date.UTC(2027, 2, 1, 8);
const SLOT_1 = '2027-03-02T10:00:00.000Z';
const SLOT_2 = '2027-03-02T15:00:00.000Z';
const SLOT_3 = '2027-03-03T10:00:00.000Z';

/** Whether `promise` settles within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  const until = Date.now() + ms;
  while (!settled && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  return settled;
}

describe.skipIf(testEngine() !== 'postgres')('bookings beside each other on PostgreSQL (two processes)', () => {
  let one: Store;
  let two: Store;
  let close: () => Promise<void>;
  let orgId: string;
  let experienceId: string;
  const booking = (startTime: string, email: string, participants = 1): BookingInput => ({
    experienceId, startTime, participants, customerName: email.split('@')[0]!, customerEmail: email,
  });

  beforeEach(async () => {
    ({ store: one, other: two, close } = await openTwoStores());
    orgId = (await addOrganization(one, { timezone: 'UTC' })).orgId;
    experienceId = (await createExperience(one, orgId, {
      name: 'Walk', description: '', duration: 60, price: 1000, maxParticipants: 4, schedule: { weekly: everyDay(['10:00', '15:00']) },
    } as never, NOW, SYSTEM)).id;
    // Ada is a customer already: her next booking adds no customer (nor a row to the org's customer counter).
    await createBooking(one, orgId, booking(SLOT_3, 'ada@example.com'), { source: 'API', actor: SYSTEM }, NOW);
  });
  afterEach(async () => await close());

  it('books another slot while a booking’s transaction is still open; the same slot and other writes wait for it', async () => {
    let booked!: () => void;
    const bookedInside = new Promise<void>((resolve) => (booked = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Process one: a booking of slot 1 (4 places: takes 3), its transaction kept open.
    const open = one.transaction(
      async () => {
        await createBooking(one, orgId, booking(SLOT_1, 'ada@example.com', 3), { source: 'API', actor: SYSTEM }, NOW);
        booked();
        await held;
      },
      { lock: 'shared' },
    );
    await bookedInside;
    try {
      // Process two: slot 2, a new guest, goes through meanwhile.
      const other = createBooking(two, orgId, booking(SLOT_2, 'bob@example.com', 2), { source: 'API', actor: SYSTEM }, NOW);
      expect(await settlesWithin(other, 10_000)).toBe(true);
      expect((await other).bookingNumber).toMatch(/^BK-/);
      // Slot 1 again: waits for the open booking (its counter row), as does an exclusive write.
      const sameSlot = createBooking(two, orgId, booking(SLOT_1, 'cy@example.com', 2), { source: 'API', actor: SYSTEM }, NOW);
      const exclusive = two.transaction(async () => await two.settings.setSetting('test.flag', 'on'));
      expect(await settlesWithin(Promise.race([sameSlot, exclusive]), 500)).toBe(false);
      release();
      await open;
      // Once it committed: 3 of 4 places were taken, so the 2 more are refused.
      await expect(sameSlot).rejects.toMatchObject({ code: 'CAPACITY_EXCEEDED', message: 'Only 1 place left in this time slot' });
      await exclusive;
    } finally {
      release();
      await open.catch(() => {});
    }
    expect(await two.bookings.bookedPlaces(experienceId, Date.parse(SLOT_1))).toBe(3);
    expect(await two.bookings.bookedPlaces(experienceId, Date.parse(SLOT_2))).toBe(2);
    // The events in the order their transactions committed: slot 2's before slot 1's, which began first.
    const events = await two.events.listEvents(orgId, {}, { limit: 10, offset: 0 });
    const slots = events.rows.map((e) => (JSON.parse(e.payload) as { data: { timeSlot: { startTime: string } } }).data.timeSlot.startTime);
    expect(slots).toEqual([SLOT_3, SLOT_2, SLOT_1]);
  });
});
