import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type Store } from './store/index.js';
import { openStore } from './store/sqlite/store.js';
import { openPostgresStore } from './store/postgres/index.js';
import { testEngine } from './test-helpers/index.js';
import { leaseMigratedDatabase } from './test-helpers/postgres.js';
import { plantDemo, seedDemo } from './demo.js';
import { AHEAD_DAYS, HISTORY_DAYS, OPEN_SLOT_MAX_PLACES, historyStart } from './demo-history.js';
import { addDays, localTodayOf, startOfLocalDay } from './domain/time.js';
import { dailyReport } from './services/reports.js';
import { manifestFor } from './services/manifest.js';
import type { BookingView } from './store/bookings.js';
import { bookingTotalCents } from './domain/bookings.js';
import { categoriesOf, storedTicketsOf } from './domain/tickets.js';

const ZONE = 'Europe/Lisbon';
const ALL = { limit: 100_000, offset: 0 };
const MINUTE = 60_000;

/** Moments the demo may be started at: evenings and mornings, weekdays and weekends, both DST changes. */
const MOMENTS = {
  'a Monday evening, every tour of the day under way or over': Date.UTC(2026, 10, 23, 19, 20),
  'a Saturday morning, before the first tour': Date.UTC(2026, 10, 28, 8, 0),
  'the Sunday clocks go forward': Date.UTC(2027, 2, 28, 12, 0),
  'the Sunday clocks go back, near midnight': Date.UTC(2026, 9, 25, 23, 30),
  'a Wednesday at noon in July': Date.UTC(2027, 6, 14, 12, 0),
};

type Opened = { store: Store; drop(): Promise<void> }[];
async function closeAll(list: Opened): Promise<void> {
  for (const { store, drop } of list.splice(0)) {
    await store.close();
    await drop();
  }
}
/** Each test's stores, closed after it (and on PostgreSQL their databases given back)… */
const opened: Opened = [];
afterEach(() => closeAll(opened));
/** …but for the demos a group of tests shares, closed after the file. */
const shared: Opened = [];
afterAll(() => closeAll(shared));

/** An empty store of the engine under test: SQLite in memory, or a migrated PostgreSQL database of the test cluster. */
async function emptyStore(into: Opened): Promise<Store> {
  if (testEngine() === 'sqlite') {
    const store = openStore(':memory:');
    into.push({ store, drop: async () => {} });
    return store;
  }
  const database = await leaseMigratedDatabase();
  const store = await openPostgresStore(database.url, { poolSize: 2 });
  into.push({ store, drop: () => database.drop() });
  return store;
}

async function planted(now: number, into = opened) {
  const store = await emptyStore(into);
  const seed = await plantDemo(store, 'http://localhost:3000', 'not-a-real-hash', now);
  if (!seed) throw new Error('The demo was not planted');
  return { store, orgId: seed.organizationId, seed };
}

const bookingsOf = async (store: Store, orgId: string): Promise<BookingView[]> => (await store.bookings.listBookings(orgId, {}, ALL)).rows;

/** What the history is made of, without the ids and booking numbers (random by design). */
async function history(store: Store, orgId: string) {
  const rows = await Promise.all((await bookingsOf(store, orgId)).map(async (b) => ({
      experience: b.experienceName,
      slotStart: b.slotStart,
      participants: b.participants,
      status: b.status,
      source: b.source,
      guest: [b.guestName, b.guestEmail, b.guestPhone],
      createdAt: b.createdAt,
      cancelledAt: b.cancelledAt,
      checkedInAt: b.checkedInAt,
      payments: (await store.payments.listPayments(b.id, ALL)).rows.map((p) => [p.amount, p.status, p.reference, p.createdAt]),
    })));
  return rows.sort((a, b) => a.createdAt - b.createdAt || a.slotStart - b.slotStart || a.guest[0]!.localeCompare(b.guest[0]!));
}

describe('the demo', () => {
  it('is the same history every time for the same moment (ids aside)', async () => {
    const now = MOMENTS['a Monday evening, every tour of the day under way or over'];
    const one = await planted(now);
    const two = await planted(now);
    const first = await history(one.store, one.orgId);
    expect(first.length).toBeGreaterThan(100);
    expect(await history(two.store, two.orgId)).toEqual(first);
    expect((await bookingsOf(one.store, one.orgId))[0]!.id).not.toBe((await bookingsOf(two.store, two.orgId))[0]!.id);
  });

  it('is planted only on an empty database', async () => {
    const { store, orgId } = await planted(Date.now());
    const before = await history(store, orgId);
    expect(await plantDemo(store, 'http://localhost:3000', 'not-a-real-hash', Date.now())).toBeUndefined();
    expect(await seedDemo(store, 'http://localhost:3000', Date.now())).toBeUndefined();
    expect(await store.organizations.countOrganizations()).toBe(1);
    expect(await history(store, orgId)).toEqual(before);
  });

  // The budget is SQLite's, in process: on PostgreSQL each write is a round trip to the server, and
  // the test cluster shares the machine, so there the time says little about the demo's code.
  it.skipIf(testEngine() !== 'sqlite')('takes a fraction of a second', async () => {
    await planted(Date.now()); // warms up the code paths, as a server has by the time it seeds
    const started = performance.now();
    await planted(Date.now());
    const took = performance.now() - started;
    console.info(`The demo's records took ${took.toFixed(0)} ms to plant`);
    // About 0.15 s on a quiet laptop; the password's hash before it takes longer on purpose.
    expect(took).toBeLessThan(1500);
  });

  describe.each(Object.entries(MOMENTS))('started on %s', (_, now) => {
    // These tests only read the demo: one planting serves them all (on PostgreSQL a planting is
    // seconds of round trips).
    let demo: ReturnType<typeof planted> | undefined;
    const plantedOnce = () => (demo ??= planted(now, shared));

    it('has guests today, bookings on most days of the last 30, and a few cancellations and payments', async () => {
      const { store, orgId } = await plantedOnce();
      const today = await manifestFor(store, orgId, {}, now);
      expect(today.date).toBe(localTodayOf(now, ZONE));
      expect(today.slots.flatMap((s) => s.bookings).length).toBeGreaterThan(0);

      const report = await dailyReport(store, orgId, {}, now);
      expect(report.days).toHaveLength(HISTORY_DAYS);
      const busyDays = report.days.filter((d) => d.bookings > 0).length;
      expect(busyDays).toBeGreaterThanOrEqual(HISTORY_DAYS - 3);
      const sum = (f: (d: (typeof report.days)[number]) => number) => report.days.reduce((n, d) => n + f(d), 0);
      expect(sum((d) => d.bookings)).toBeGreaterThan(100);
      expect(sum((d) => d.cancellations)).toBeGreaterThan(3);
      expect(sum((d) => d.revenueCents)).toBeGreaterThan(0);
      // Varied parties.
      const sizes = new Set((await bookingsOf(store, orgId)).map((b) => b.participants));
      expect(sizes.size).toBeGreaterThanOrEqual(4);
    });

    it('oversells nothing, and leaves the open tours with room for visitors to book', async () => {
      const { store, orgId } = await plantedOnce();
      const experiences = new Map((await store.experiences.listAllExperiences(orgId)).map((e) => [e.id, e]));
      const perSlot = new Map<string, { experienceId: string; start: number; places: number }>();
      for (const b of await bookingsOf(store, orgId)) {
        const key = `${b.experienceId}@${b.slotStart}`;
        const slot = perSlot.get(key) ?? { experienceId: b.experienceId, start: b.slotStart, places: 0 };
        // A ticketed booking's places leave out the babies on a lap.
        if (b.status !== 'CANCELLED') slot.places += b.places ?? b.participants;
        perSlot.set(key, slot);
      }
      const lastDay = startOfLocalDay(addDays(localTodayOf(now, ZONE), AHEAD_DAYS + 1), ZONE);
      for (const slot of perSlot.values()) {
        const exp = experiences.get(slot.experienceId)!;
        expect(slot.places).toBeLessThanOrEqual(exp.maxParticipants);
        // The per-slot counters availability reads agree with the rows.
        expect(await store.bookings.bookedPlaces(exp.id, slot.start)).toBe(slot.places);
        expect(slot.start).toBeLessThan(lastDay);
        const open = slot.start - exp.minNoticeMinutes * MINUTE > now;
        if (!open) continue;
        expect(slot.places).toBeLessThanOrEqual(OPEN_SLOT_MAX_PLACES);
        // One booking may take a whole boat: its open departures are left empty.
        if (exp.name === 'Sunset Sail on the Tagus') expect(slot.places).toBe(0);
      }
    });

    it('writes every booking, payment, cancellation and check-in at its own moment, in order, with its event and activity', async () => {
      const { store, orgId } = await plantedOnce();
      const from = historyStart(now, ZONE);
      const bookings = await bookingsOf(store, orgId);
      const org = (await store.organizations.getOrganization(orgId))!;
      expect(org.createdAt).toBeLessThan(from);
      for (const exp of await store.experiences.listAllExperiences(orgId)) expect(exp.createdAt).toBeLessThan(from);

      let payments = 0;
      for (const b of bookings) {
        expect(b.createdAt).toBeGreaterThanOrEqual(from);
        expect(b.createdAt).toBeLessThanOrEqual(now);
        for (const at of [b.cancelledAt, b.checkedInAt]) {
          if (at === null) continue;
          expect(at).toBeGreaterThan(b.createdAt);
          expect(at).toBeLessThanOrEqual(now);
        }
        for (const p of (await store.payments.listPayments(b.id, ALL)).rows) {
          payments++;
          expect(p.createdAt).toBeGreaterThan(b.createdAt);
          expect(p.createdAt).toBeLessThanOrEqual(now);
          expect(p.amount).toBe(bookingTotalCents(b));
        }
      }
      expect(payments).toBeGreaterThan(bookings.length / 3);

      const events = (await store.events.listEvents(orgId, {}, ALL)).rows;
      const times = events.map((e) => e.createdAt);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      const count = (type: string) => events.filter((e) => e.type === type).length;
      expect(count('BOOKING_CREATED')).toBe(bookings.length);
      expect(count('BOOKING_CANCELED')).toBe(bookings.filter((b) => b.status === 'CANCELLED').length);
      expect(count('PAYMENT_SUCCEEDED')).toBe(payments);
      expect(count('BOOKING_UPDATED')).toBe(bookings.filter((b) => b.checkedInAt !== null).length);

      const activity = (await store.activity.listActivity(orgId, {}, ALL)).rows;
      expect(activity.filter((a) => a.action === 'booking.create')).toHaveLength(bookings.length);
      expect(activity.filter((a) => a.action === 'booking.check_in').length).toBeGreaterThan(0);
      expect(new Set(activity.filter((a) => a.action === 'booking.create').map((a) => a.actorType))).toEqual(new Set(['guest', 'user']));
      for (const a of activity) expect(a.createdAt).toBeLessThanOrEqual(now);
    });
  });

  it('sells the workshop as adult, child and infant tickets, and its history books them', async () => {
    const { store, orgId } = await planted(MOMENTS['a Monday evening, every tour of the day under way or over']);
    const experiences = await store.experiences.listAllExperiences(orgId);
    const workshop = experiences.find((x) => x.name === 'Pastel de Nata Workshop')!;
    expect(categoriesOf(workshop.priceCategories).map((c) => [c.name, c.price, c.type, c.occupiesPlace])).toEqual([
      ['Adult', 6000, 'ADULT', true],
      ['Child', 3500, 'CHILD', true],
      ['Infant', 0, 'INFANT', false],
    ]);
    // The other two still book by participants, as before categories existed.
    for (const other of experiences.filter((x) => x !== workshop)) expect(categoriesOf(other.priceCategories)).toEqual([]);

    const booked = (await bookingsOf(store, orgId)).filter((b) => b.experienceId === workshop.id);
    expect(booked.length).toBeGreaterThan(5);
    for (const b of booked) {
      const tickets = storedTicketsOf(b.tickets);
      expect(tickets.length, b.bookingNumber).toBeGreaterThan(0);
      expect(b.participants).toBe(tickets.reduce((n, t) => n + t.quantity, 0));
      expect(b.places).toBe(tickets.filter((t) => t.occupiesPlace).reduce((n, t) => n + t.quantity, 0));
      expect(b.totalCents).toBe(tickets.reduce((n, t) => n + t.quantity * t.unitPrice, 0));
    }
    // Families: some bring children, some a baby on a lap (a guest who takes no place).
    const all = booked.flatMap((b) => storedTicketsOf(b.tickets));
    expect(all.some((t) => t.name === 'Child')).toBe(true);
    expect(all.some((t) => t.name === 'Infant')).toBe(true);
    expect(booked.some((b) => b.places! < b.participants)).toBe(true);
  });

  it('still plants a history on a day the walk does not run (Christmas), with nothing open taken beyond its share', async () => {
    const now = Date.UTC(2026, 11, 25, 9, 0);
    const { store, orgId } = await planted(now);
    expect((await dailyReport(store, orgId, {}, now)).days.filter((d) => d.bookings > 0).length).toBeGreaterThan(HISTORY_DAYS - 4);
    // The sail is the only tour of Christmas Day and still open at nine: no guests yet, as the sail's rule wants.
    expect((await manifestFor(store, orgId, {}, now)).slots.map((s) => [s.experience.name, s.booked])).toEqual([['Sunset Sail on the Tagus', 0]]);
  });
});
