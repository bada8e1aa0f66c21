import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { BookingRow } from './bookings.js';
import type { CreatedTotals } from './reports.js';
import { addOrganization, insertBookingRow, openTestStore, testEngine } from '../test-helpers/index.js';

// Behaviour of the store, not of one engine: the `server-postgres` project runs the same
// expectations on a leased, migrated PostgreSQL database.

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const FROM = Date.UTC(2030, 2, 1);

/** Local midnights of a zone 1 h ahead of UTC whose fourth day (index 3) is 23 hours long, as a DST change makes one. */
const days = (count: number): number[] => Array.from({ length: count + 1 }, (_, i) => FROM - HOUR + i * DAY - (i > 3 ? HOUR : 0));
const B = days(5);

const totals = (bookings: number, participants: number, totalCents: number): CreatedTotals => ({ bookings, participants, totalCents });
const ZERO = totals(0, 0, 0);

describe(`report store (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let store: Store;
  let orgA: string;
  let orgB: string;
  /** Booking 7: created on day 4, cancelled by the last test. */
  let seventh: BookingRow;
  beforeEach(async () => {
    opened = await openTestStore();
    store = opened.store;
    orgA = (await addOrganization(store)).orgId;
    orgB = (await addOrganization(store)).orgId;
    for (const [id, orgId] of [['exp_A', orgA], ['exp_B', orgB]] as const) {
      await store.experiences.insertExperience({
        id, orgId, name: id, description: '', duration: 60, price: 4500, maxParticipants: 100_000, maxPerBooking: null, schedule: null,
        minNoticeMinutes: 0, maxAdvanceDays: 365, active: 1, priceCategories: '[]', createdAt: FROM - 30 * DAY, updatedAt: FROM - 30 * DAY,
      });
    }
    const book = (createdAt: number, fields: Partial<BookingRow> = {}, orgId = orgA) =>
      insertBookingRow(store, {
        orgId, experienceId: orgId === orgA ? 'exp_A' : 'exp_B', slotStart: createdAt + 3 * DAY, participants: 2, unitPrice: 4500,
        createdAt, updatedAt: createdAt, ...fields,
      });
    const cancelled = (cancelledAt: number) => ({ status: 'CANCELLED' as const, cancelledAt, cancellationReason: 'Weather' });

    await book(B[0]!); // 1: exactly on a bound, in the day it opens
    await book(B[1]! - 1, { participants: 3, unitPrice: 1000 }); // 2: the last instant of day 0
    await book(B[1]!, { unitPrice: 0, participants: 3, places: 3, tickets: '[]', totalCents: 7000 }); // 3: ticketed
    await book(FROM + 50 * HOUR, { status: 'PENDING', participants: 1, holdExpiresAt: FROM + 51 * HOUR }); // 4: a hold counts
    await book(FROM + 51 * HOUR, cancelled(FROM + 99 * HOUR)); // 5: created day 2, cancelled day 4
    await book(B[4]! - 1, { participants: 10_000, unitPrice: 1_000_000_000 }); // 6: the largest booking the API allows, on the 23-hour day
    seventh = await book(FROM + 94 * HOUR + 30 * 60_000, { participants: 1, unitPrice: 100 }); // 7: past the short day's end: day 4
    await book(B[0]! - 1); // 8: before the first day
    await book(FROM + HOUR, {}, orgB); // 9: another org's
    await book(FROM + HOUR, cancelled(B[2]!)); // 10: created day 0, cancelled exactly on day 2's bound
    await book(FROM - 10 * DAY, cancelled(B[1]! - 1)); // 11: created long before, cancelled day 0
    await book(FROM + 30 * HOUR, { ...cancelled(B[5]! + 1), unitPrice: 0, tickets: '[]', totalCents: 9900 }); // 12: ticketed, cancelled after
  });
  afterEach(async () => {
    await opened.close();
  });

  it('sums the bookings not cancelled by the day they were created, ticketed ones by their totals', async () => {
    expect(await store.reports.createdTotalsBetween(orgA, B)).toStrictEqual([
      totals(2, 5, 9000 + 3000),
      totals(1, 3, 7000),
      totals(1, 1, 4500),
      totals(1, 10_000, 10_000_000_000_000),
      totals(1, 1, 100),
    ]);
    expect(await store.reports.createdTotalsBetween(orgB, B)).toStrictEqual([totals(1, 2, 9000), ZERO, ZERO, ZERO, ZERO]);
  });

  it('counts cancellations by the day they happened', async () => {
    expect(await store.reports.cancellationsBetween(orgA, B)).toStrictEqual([1, 0, 1, 0, 1]);
    expect(await store.reports.cancellationsBetween(orgB, B)).toStrictEqual([0, 0, 0, 0, 0]);
  });

  it('answers any number of spans, in order, and zeros where nothing happened', async () => {
    // One span, two, three (not a power of two), four (one).
    expect(await store.reports.createdTotalsBetween(orgA, [B[0]!, B[5]!])).toStrictEqual([totals(6, 10_010, 10_000_000_023_600)]);
    expect(await store.reports.cancellationsBetween(orgA, [B[0]!, B[5]!])).toStrictEqual([3]);
    expect(await store.reports.createdTotalsBetween(orgA, [B[2]!, B[3]!, B[4]!])).toStrictEqual([
      totals(1, 1, 4500), totals(1, 10_000, 10_000_000_000_000),
    ]);
    expect(await store.reports.createdTotalsBetween(orgA, B.slice(1, 5))).toStrictEqual([
      totals(1, 3, 7000), totals(1, 1, 4500), totals(1, 10_000, 10_000_000_000_000),
    ]);
    expect(await store.reports.cancellationsBetween(orgA, B.slice(1, 5))).toStrictEqual([0, 1, 0]);
    expect(await store.reports.createdTotalsBetween(orgA, B.slice(0, 5))).toStrictEqual([
      totals(2, 5, 12_000), totals(1, 3, 7000), totals(1, 1, 4500), totals(1, 10_000, 10_000_000_000_000),
    ]);

    // A year and a day, as the longest report asks.
    const year = days(367);
    const created = await store.reports.createdTotalsBetween(orgA, year);
    expect(created).toHaveLength(367);
    expect(created.slice(0, 5)).toStrictEqual(await store.reports.createdTotalsBetween(orgA, B));
    expect(created.slice(5)).toStrictEqual(Array(362).fill(ZERO));
    const cancellations = await store.reports.cancellationsBetween(orgA, year);
    expect(cancellations).toStrictEqual([1, 0, 1, 0, 1, 1, ...Array<number>(361).fill(0)]); // booking 12 on day 5
    expect(await store.reports.cancellationsBetween(orgA, days(366))).toHaveLength(366);

    expect(await store.reports.createdTotalsBetween('org_none', days(2))).toStrictEqual([ZERO, ZERO]);
    expect(await store.reports.cancellationsBetween('org_none', days(2))).toStrictEqual([0, 0]);
    // Bounds out of order make an empty span.
    expect(await store.reports.createdTotalsBetween(orgA, [B[2]!, B[0]!])).toStrictEqual([ZERO]);
    expect(await store.reports.cancellationsBetween(orgA, [B[2]!, B[0]!])).toStrictEqual([0]);
  });

  it('answers nothing for fewer than two bounds', async () => {
    expect(await store.reports.createdTotalsBetween(orgA, [FROM])).toStrictEqual([]);
    expect(await store.reports.createdTotalsBetween(orgA, [])).toStrictEqual([]);
    expect(await store.reports.cancellationsBetween(orgA, [FROM])).toStrictEqual([]);
    expect(await store.reports.cancellationsBetween(orgA, [])).toStrictEqual([]);
  });

  it('sums a span per experience as the days count it, one entry per experience with any figure', async () => {
    await store.experiences.insertExperience({
      id: 'exp_C', orgId: orgA, name: 'Cave walk', description: '', duration: 60, price: 2500, maxParticipants: 100, maxPerBooking: null,
      schedule: null, minNoticeMinutes: 0, maxAdvanceDays: 365, active: 1, priceCategories: '[]', createdAt: FROM - 30 * DAY, updatedAt: FROM - 30 * DAY,
    });
    await store.experiences.insertExperience({
      id: 'exp_D', orgId: orgA, name: 'Quiet tour', description: '', duration: 60, price: 2500, maxParticipants: 100, maxPerBooking: null,
      schedule: null, minNoticeMinutes: 0, maxAdvanceDays: 365, active: 1, priceCategories: '[]', createdAt: FROM - 30 * DAY, updatedAt: FROM - 30 * DAY,
    });
    const onC = { orgId: orgA, experienceId: 'exp_C', slotStart: FROM + 10 * DAY, unitPrice: 2500 };
    await insertBookingRow(store, { ...onC, participants: 4, createdAt: B[1]! + HOUR, updatedAt: B[1]! + HOUR });
    // Made long before, cancelled on day 3.
    await insertBookingRow(store, {
      ...onC, participants: 1, createdAt: FROM - 5 * DAY, updatedAt: B[3]! + 1, status: 'CANCELLED', cancelledAt: B[3]! + 1, cancellationReason: null,
    });
    const entry = (experienceId: string, experienceName: string, bookings: number, participants: number, totalCents: number, cancellations: number) => ({
      experienceId, experienceName, bookings, participants, totalCents, cancellations,
    });
    // The whole of the days: exp_A as the days sum it (6 bookings, 3 cancellations), exp_C, never exp_D.
    const whole = await store.reports.totalsByExperience(orgA, B[0]!, B[5]!);
    expect(whole).toStrictEqual([entry('exp_A', 'exp_A', 6, 10_010, 10_000_000_023_600, 3), entry('exp_C', 'Cave walk', 1, 4, 10_000, 1)]);
    const days = await store.reports.createdTotalsBetween(orgA, B);
    const A = whole[0]!;
    expect([A.bookings + 1, A.participants + 4, A.totalCents + 10_000]).toEqual([
      days.reduce((n, d) => n + d.bookings, 0), days.reduce((n, d) => n + d.participants, 0), days.reduce((n, d) => n + d.totalCents, 0),
    ]);
    // Days 3 and 4: exp_C has only its cancellation.
    expect(await store.reports.totalsByExperience(orgA, B[3]!, B[5]!)).toStrictEqual([
      entry('exp_A', 'exp_A', 2, 10_001, 10_000_000_000_100, 1), entry('exp_C', 'Cave walk', 0, 0, 0, 1),
    ]);
    expect(await store.reports.totalsByExperience(orgB, B[0]!, B[5]!)).toStrictEqual([entry('exp_B', 'exp_B', 1, 2, 9000, 0)]);
    expect(await store.reports.totalsByExperience('org_none', B[0]!, B[5]!)).toStrictEqual([]);
    expect(await store.reports.totalsByExperience(orgA, B[5]!, B[5]!)).toStrictEqual([]);
  });

  it('counts a booking by participants with extras once: its stored total is the participants and the extras', async () => {
    // 2 × 45.00 and one 12.00 extra, made on day 1 in orgB.
    await insertBookingRow(store, {
      orgId: orgB, experienceId: 'exp_B', slotStart: B[1]! + 3 * DAY, participants: 2, unitPrice: 4500, totalCents: 10_200, createdAt: B[1]!, updatedAt: B[1]!,
    });
    expect(await store.reports.createdTotalsBetween(orgB, B)).toStrictEqual([totals(1, 2, 9000), totals(1, 2, 10_200), ZERO, ZERO, ZERO]);
    expect((await store.reports.totalsByExperience(orgB, B[0]!, B[5]!))[0]).toMatchObject({ bookings: 2, participants: 4, totalCents: 19_200 });
  });

  it('follows a booking cancelled later', async () => {
    await store.bookings.updateBooking({
      ...seventh, status: 'CANCELLED', cancelledAt: B[1]! + HOUR, cancellationReason: 'Ill', updatedAt: B[1]! + HOUR,
    });
    expect((await store.reports.createdTotalsBetween(orgA, B))[4]).toStrictEqual(ZERO);
    expect(await store.reports.cancellationsBetween(orgA, B)).toStrictEqual([1, 1, 1, 0, 1]);
  });
});
