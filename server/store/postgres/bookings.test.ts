import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bothEngines, type BothEngines } from '../../test-helpers/engines.js';
import { testDatabaseUrl } from '../../test-helpers/postgres.js';
import type { BookingFilter, BookingRow } from '../bookings.js';
import type { Page } from '../statements.js';
import { bookingStorePg } from './bookings.js';

type Parts = ReturnType<typeof bookingStorePg>;

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const SLOTS_FROM = Date.UTC(2030, 0, 1);
const CREATED_FROM = Date.UTC(2029, 11, 1);

/** A small seeded generator (mulberry32): the same "random" bookings on every run. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Writes one row into both engines as given: for the tables of other modules (organizations, experiences, customers). */
async function plant(e: BothEngines, table: string, row: Record<string, unknown>): Promise<void> {
  const columns = Object.keys(row).join(', ');
  const values = Object.values(row);
  e.sqliteDb.prepare(`INSERT INTO ${table} (${columns}) VALUES (${values.map(() => '?').join(', ')})`).run(...values);
  await e.pgDb.run(`INSERT INTO ${table} (${columns}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})`, values);
}

function booking(fields: Pick<BookingRow, 'id' | 'orgId' | 'experienceId' | 'customerId' | 'bookingNumber'> & Partial<BookingRow>): BookingRow {
  return {
    slotStart: SLOTS_FROM,
    slotEnd: SLOTS_FROM + HOUR,
    status: 'CONFIRMED',
    guestName: 'Ada Lovelace',
    guestEmail: 'ada@example.com',
    guestPhone: null,
    participants: 2,
    unitPrice: 4500,
    currency: 'EUR',
    source: 'API',
    metadata: '{}',
    cancellationReason: null,
    cancelledAt: null,
    holdExpiresAt: null,
    checkoutSessionId: null,
    checkoutUrl: null,
    sequence: 0,
    checkedInAt: null,
    tickets: null,
    places: null,
    totalCents: null,
    locale: null,
    createdAt: CREATED_FROM,
    updatedAt: CREATED_FROM,
    ...fields,
  };
}

/** Places a booking occupies in its slot, as the booking service counts them. */
const placesOf = (b: BookingRow): number => (b.status === 'CANCELLED' ? 0 : (b.places ?? b.participants));

describe.skipIf(!testDatabaseUrl())('bookingStorePg answers as the SQLite booking store', () => {
  let e: BothEngines;
  let pg: Parts;
  const bookings = new Map<string, BookingRow>();

  /** Calls both engines and holds PostgreSQL's answer to SQLite's. */
  async function same<T>(call: (store: Parts) => Promise<T>): Promise<T> {
    const fromSqlite = await call(e.sqlite);
    const fromPg = await call(pg);
    expect(fromPg).toStrictEqual(fromSqlite);
    return fromSqlite;
  }
  /** Both engines refuse the call. */
  async function bothReject(call: (store: Parts) => Promise<unknown>): Promise<void> {
    await expect(call(e.sqlite)).rejects.toThrow();
    await expect(call(pg)).rejects.toThrow();
  }
  /** The same writes in one transaction of each engine. */
  async function write(work: (store: Parts) => Promise<void>): Promise<void> {
    await e.sqlite.transaction(() => work(e.sqlite));
    await e.pgDb.transaction(() => work(pg));
  }
  async function insert(rows: BookingRow[]): Promise<void> {
    await write(async (s) => {
      for (const row of rows) {
        await s.insertBooking(row);
        await s.addBookedPlaces(row.experienceId, row.slotStart, placesOf(row));
      }
    });
    for (const row of rows) bookings.set(row.id, row);
  }
  /** Rewrites a booking and moves its places as the booking service does. */
  async function change(next: BookingRow): Promise<void> {
    const before = bookings.get(next.id)!;
    await write(async (s) => {
      await s.updateBooking(next);
      await s.addBookedPlaces(before.experienceId, before.slotStart, -placesOf(before));
      await s.addBookedPlaces(next.experienceId, next.slotStart, placesOf(next));
    });
    bookings.set(next.id, next);
  }

  const FILTERS: BookingFilter[] = [
    {},
    { status: 'CONFIRMED' },
    { status: 'PENDING' },
    { status: 'CANCELLED' },
    { experienceId: 'exp_X' },
    { experienceId: 'exp_Y', status: 'CONFIRMED' },
    { experienceId: 'exp_X', status: 'PENDING' },
    { experienceId: 'exp_none' },
    { customerId: 'cus_2' },
    { customerId: 'cus_3', status: 'CANCELLED' },
    { startFrom: SLOTS_FROM + 3 * DAY },
    { startTo: SLOTS_FROM + 2 * DAY + 10 * HOUR },
    { startFrom: SLOTS_FROM + 2 * DAY, startTo: SLOTS_FROM + 6 * DAY, status: 'CONFIRMED' },
    { startFrom: SLOTS_FROM + 2 * DAY, startTo: SLOTS_FROM + 6 * DAY, status: 'PENDING' },
    { startFrom: SLOTS_FROM + DAY, startTo: SLOTS_FROM + 4 * DAY, experienceId: 'exp_Z', status: 'CONFIRMED' },
    { startFrom: SLOTS_FROM + DAY, customerId: 'cus_1' },
    { q: 'anna' },
    { q: 'ANNA@EXAMPLE' },
    { q: 'zoë' },
    { q: 'ZOË' },
    { q: '50%' },
    { q: '_' },
    { q: '\\' },
    { q: 'out-bulk0007' },
    { q: 'OUT-BULK0007' },
    { q: 'nobody' },
    { q: 'o', status: 'PENDING', startFrom: SLOTS_FROM + DAY },
    { q: 'smith', experienceId: 'exp_Y', customerId: 'cus_4' },
  ];
  const PAGES: Page[] = [
    { limit: 25, offset: 0 },
    { limit: 100, offset: 37 },
    { limit: 30, offset: 990 },
    { limit: 30, offset: 1000 },
    { limit: 100, offset: 1150 },
    { limit: 10, offset: 5000 },
  ];

  /** Every list, total and count the store answers, on both engines. */
  async function everythingAnswersTheSame(): Promise<void> {
    for (const org of ['org_A', 'org_B', 'org_none']) {
      for (const filter of FILTERS) {
        for (const page of PAGES) await same((s) => s.listBookings(org, filter, page));
      }
      await same((s) => s.orgHasBookings(org));
      await same((s) => s.listActiveBookingsBetween(org, SLOTS_FROM + DAY, SLOTS_FROM + 3 * DAY));
      await same((s) => s.listActiveBookingsBetween(org, SLOTS_FROM, SLOTS_FROM + 10 * DAY, 'exp_Y'));
    }
    for (const customer of ['cus_1', 'cus_2', 'cus_3', 'cus_4', 'cus_5', 'cus_B', 'cus_none']) {
      await same((s) => s.customerTotals(customer));
      await same((s) => s.listCustomerBookings(customer, 7));
      await same((s) => s.listCustomerBookings(customer, 500));
    }
    for (const experience of ['exp_X', 'exp_Y', 'exp_Z', 'exp_W']) {
      const map = await same((s) => s.bookedPlacesBetween(experience, SLOTS_FROM, SLOTS_FROM + 5 * DAY + 10 * HOUR));
      const pgMap = await pg.bookedPlacesBetween(experience, SLOTS_FROM, SLOTS_FROM + 5 * DAY + 10 * HOUR);
      expect([...pgMap.entries()]).toEqual([...map.entries()]); // in slot order too
      for (let day = 0; day < 10; day++) {
        for (const hour of [10, 15, 17]) {
          const slot = SLOTS_FROM + day * DAY + hour * HOUR;
          const booked = await same((s) => s.bookedPlaces(experience, slot));
          // The counter follows the bookings themselves.
          const expected = [...bookings.values()]
            .filter((b) => b.experienceId === experience && b.slotStart === slot)
            .reduce((n, b) => n + placesOf(b), 0);
          expect(booked).toBe(expected);
        }
      }
    }
  }

  beforeAll(async () => {
    e = await bothEngines();
    pg = bookingStorePg(e.pgDb);
    const at = CREATED_FROM - DAY;
    for (const org of ['org_A', 'org_B']) {
      await plant(e, 'organizations', { id: org, name: org, email: `${org}@example.com`, timezone: 'UTC', created_at: at, updated_at: at });
    }
    for (const [id, org] of [['exp_X', 'org_A'], ['exp_Y', 'org_A'], ['exp_Z', 'org_A'], ['exp_W', 'org_B']] as const) {
      await plant(e, 'experiences', {
        id, org_id: org, name: `Tour ${id}`, description: '', duration: 60, price: 4500, max_participants: 40, created_at: at, updated_at: at,
      });
    }
    for (const [id, org] of [['cus_1', 'org_A'], ['cus_2', 'org_A'], ['cus_3', 'org_A'], ['cus_4', 'org_A'], ['cus_5', 'org_A'], ['cus_B', 'org_B']] as const) {
      await plant(e, 'customers', { id, org_id: org, email: `${id}@example.com`, name: id, created_at: at, updated_at: at });
    }
  });
  afterAll(async () => {
    await e?.close();
  });

  it('answers the same with no bookings at all', async () => {
    await everythingAnswersTheSame();
    await same((s) => s.getBooking('org_A', 'bk_none'));
    await same((s) => s.getBookingByNumber('org_A', 'OUT-NONE'));
    await same((s) => s.getBookingByCheckoutSession('cs_none'));
    await same((s) => s.bookingNumberTaken('OUT-NONE'));
    await same((s) => s.listLapsedHolds(Date.UTC(2031, 0, 1), 10));
    expect(await pg.listBookings('org_A', {}, { limit: 10, offset: 0 })).toStrictEqual({ rows: [], total: 0 });
  });

  it('inserts and reads single bookings, by id, number and checkout session', async () => {
    const first = booking({
      id: 'bk_first', orgId: 'org_A', experienceId: 'exp_X', customerId: 'cus_1', bookingNumber: 'OUT-FIRST1',
      guestPhone: '+351 912 345 678', metadata: '{"room":"12"}', locale: 'pt', checkoutSessionId: 'cs_dup',
      checkoutUrl: 'https://pay.example/cs_dup', slotStart: SLOTS_FROM + 10 * HOUR, slotEnd: SLOTS_FROM + 11 * HOUR,
    });
    const ticketed = booking({
      id: 'bk_ticketed', orgId: 'org_A', experienceId: 'exp_Y', customerId: 'cus_2', bookingNumber: 'OUT-TICKET',
      unitPrice: 0, participants: 3, places: 2, totalCents: 12345, tickets: '[{"category":"adult","quantity":2}]',
      checkoutSessionId: 'cs_dup', slotStart: SLOTS_FROM + 15 * HOUR, slotEnd: SLOTS_FROM + 16 * HOUR,
    });
    await insert([first]);
    const read = await same((s) => s.getBooking('org_A', 'bk_first'));
    expect(read).toStrictEqual({ ...first, experienceName: 'Tour exp_X' });
    await insert([ticketed]);
    await same((s) => s.getBooking('org_A', 'bk_ticketed'));
    await same((s) => s.getBooking('org_B', 'bk_first')); // another org's booking is not found
    await same((s) => s.getBookingByNumber('org_A', 'OUT-TICKET'));
    await same((s) => s.getBookingByNumber('org_A', 'out-ticket')); // exact, not case-blind
    await same((s) => s.getBookingByNumber('org_B', 'OUT-TICKET'));
    // Two bookings on one session: both answer the first written.
    expect((await same((s) => s.getBookingByCheckoutSession('cs_dup')))?.id).toBe('bk_first');
    expect(await same((s) => s.bookingNumberTaken('OUT-FIRST1'))).toBe(true);
    await same((s) => s.bookingNumberTaken('out-first1'));
    expect(await same((s) => s.orgHasBookings('org_A'))).toBe(true);
    expect(await same((s) => s.bookedPlaces('exp_Y', SLOTS_FROM + 15 * HOUR))).toBe(2);
    await same((s) => s.customerTotals('cus_2'));
  });

  it('refuses the same writes: a taken id or number, an unknown experience or customer, a broken CHECK', async () => {
    const base = { orgId: 'org_A', experienceId: 'exp_X', customerId: 'cus_1' } as const;
    await bothReject((s) => s.insertBooking(booking({ ...base, id: 'bk_first', bookingNumber: 'OUT-OTHER1' })));
    await bothReject((s) => s.insertBooking(booking({ ...base, id: 'bk_other', bookingNumber: 'OUT-FIRST1' })));
    await bothReject((s) => s.insertBooking(booking({ ...base, experienceId: 'exp_none', id: 'bk_other', bookingNumber: 'OUT-OTHER1' })));
    await bothReject((s) => s.insertBooking(booking({ ...base, customerId: 'cus_none', id: 'bk_other', bookingNumber: 'OUT-OTHER1' })));
    await bothReject((s) => s.insertBooking(booking({ ...base, participants: 0, id: 'bk_other', bookingNumber: 'OUT-OTHER1' })));
    // More places given back than were taken: CHECK (booked >= 0) refuses it, the count stays.
    await bothReject((s) => s.addBookedPlaces('exp_X', SLOTS_FROM + 10 * HOUR, -3));
    expect(await same((s) => s.bookedPlaces('exp_X', SLOTS_FROM + 10 * HOUR))).toBe(2);
    // Places given back in a slot nobody booked: nothing to change, no row made.
    await write((s) => s.addBookedPlaces('exp_X', SLOTS_FROM + 17 * HOUR, -1));
    await same((s) => s.bookedPlacesBetween('exp_X', SLOTS_FROM, SLOTS_FROM + DAY));
    await same((s) => s.addBookedPlaces('exp_X', SLOTS_FROM + 17 * HOUR, 0));
    expect(await same((s) => s.bookingNumberTaken('OUT-OTHER1'))).toBe(false);
    await bothReject((s) => s.listBookings('org_A', { status: 'LOST' as BookingRow['status'] }, { limit: 10, offset: 0 }));
    await same((s) => s.listBookings('org_A', {}, { limit: 10, offset: 0 }));
  });

  it('lists 1,300 bookings alike: filters, search, ties, deep pages and totals', async () => {
    const random = seeded(7);
    const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    const ids = new Set<string>();
    const names = ['Anna Smith', 'ANNA smith', 'anna@home', 'Zoë Martins', 'ZOË MARTINS', 'Bob O\'Neil', '50% off Carl', 'under_score', 'back\\slash', 'Émile Zola', 'Ola'];
    const rows: BookingRow[] = [];
    for (let i = 0; i < 1300; i++) {
      let id: string;
      do id = `bk_${Array.from({ length: 4 }, () => pick([...BASE62])).join('')}`;
      while (ids.has(id));
      ids.add(id);
      const inB = random() < 0.08;
      const status = pick(['CONFIRMED', 'CONFIRMED', 'CONFIRMED', 'CONFIRMED', 'PENDING', 'CANCELLED'] as const);
      const slotStart = SLOTS_FROM + Math.floor(random() * 10) * DAY + pick([10, 15]) * HOUR;
      const createdAt = CREATED_FROM + Math.floor(random() * 12) * HOUR; // many ties: the id decides
      const name = pick(names);
      const ticketedRow = random() < 0.2;
      const participants = 1 + Math.floor(random() * 4);
      rows.push(booking({
        id,
        orgId: inB ? 'org_B' : 'org_A',
        experienceId: inB ? 'exp_W' : pick(['exp_X', 'exp_Y', 'exp_Z']),
        customerId: inB ? 'cus_B' : pick(['cus_1', 'cus_2', 'cus_3', 'cus_4', 'cus_5']),
        bookingNumber: `OUT-BULK${String(i).padStart(4, '0')}`,
        status,
        slotStart,
        slotEnd: slotStart + HOUR,
        guestName: name,
        guestEmail: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
        participants,
        unitPrice: ticketedRow ? 0 : 4500,
        tickets: ticketedRow ? '[{"category":"child","quantity":1}]' : null,
        places: ticketedRow ? participants : null,
        totalCents: ticketedRow ? 2500 * participants : null,
        cancelledAt: status === 'CANCELLED' ? createdAt + HOUR : null,
        cancellationReason: status === 'CANCELLED' ? 'Weather' : null,
        createdAt,
        updatedAt: createdAt,
      }));
    }
    await insert(rows);
    const all = await same((s) => s.listBookings('org_A', {}, { limit: 5, offset: 0 }));
    expect(all.total).toBe([...bookings.values()].filter((b) => b.orgId === 'org_A').length);
    expect(all.total).toBeGreaterThan(1150); // deep pages hold rows
    await everythingAnswersTheSame();
  });

  it('follows changes alike: cancellations, confirmations, moves, check-ins; and deletes', async () => {
    const random = seeded(11);
    const ids = [...bookings.keys()].sort();
    for (let i = 0; i < 60; i++) {
      const before = bookings.get(ids[Math.floor(random() * ids.length)]!)!;
      const at = before.updatedAt + DAY;
      const kind = i % 4;
      const next: BookingRow =
        kind === 0 ? { ...before, status: 'CANCELLED', cancelledAt: at, cancellationReason: 'Changed plans', updatedAt: at, sequence: before.sequence + 1 }
        : kind === 1 ? { ...before, status: 'CONFIRMED', holdExpiresAt: null, updatedAt: at }
        : kind === 2 ? { ...before, slotStart: before.slotStart + DAY, slotEnd: before.slotEnd + DAY, customerId: 'cus_5', guestName: 'Moved Smith', updatedAt: at, sequence: before.sequence + 1 }
        : { ...before, checkedInAt: at, metadata: '{"note":"arrived"}', locale: 'en', updatedAt: at };
      await change(next);
      await same((s) => s.getBooking(next.orgId, next.id));
    }
    // Rows deleted outside this module (an org's data erased): the counters follow through the triggers.
    for (const id of ids.slice(0, 5)) {
      e.sqliteDb.prepare('DELETE FROM bookings WHERE id = ?').run(id);
      await e.pgDb.run('DELETE FROM bookings WHERE id = $1', [id]);
      await same((s) => s.getBooking('org_A', id));
    }
    await everythingAnswersTheSame();
  });

  it('finds lapsed holds alike: by expiry, then in the order they were made', async () => {
    const expiries = [5, 3, 5, 1, 5, 3];
    const holds = expiries.map((hour, i) =>
      booking({
        id: `bk_hold_${i}`, orgId: i % 2 ? 'org_B' : 'org_A', experienceId: i % 2 ? 'exp_W' : 'exp_Z', customerId: i % 2 ? 'cus_B' : 'cus_3',
        bookingNumber: `OUT-HOLD${i}`, status: 'PENDING', holdExpiresAt: CREATED_FROM + hour * HOUR,
        checkoutSessionId: `cs_hold_${i}`, slotStart: SLOTS_FROM + 2 * DAY + 15 * HOUR, slotEnd: SLOTS_FROM + 2 * DAY + 16 * HOUR,
      }),
    );
    for (const hold of holds) await insert([hold]);
    for (const hour of [0, 1, 3, 4, 5, 24]) {
      for (const limit of [1, 2, 4, 100]) await same((s) => s.listLapsedHolds(CREATED_FROM + hour * HOUR, limit));
    }
    expect((await pg.listLapsedHolds(CREATED_FROM + 5 * HOUR, 100)).map((b) => b.id)).toEqual([
      'bk_hold_3', 'bk_hold_1', 'bk_hold_5', 'bk_hold_0', 'bk_hold_2', 'bk_hold_4',
    ]);
    // A hold paid for: confirmed, it is no longer lapsed.
    await change({ ...bookings.get('bk_hold_1')!, status: 'CONFIRMED', holdExpiresAt: null });
    await same((s) => s.listLapsedHolds(CREATED_FROM + 5 * HOUR, 100));
    await same((s) => s.getBookingByCheckoutSession('cs_hold_1'));
    await everythingAnswersTheSame();
  });
});
