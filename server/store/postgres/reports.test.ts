import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bothEngines, type BothEngines } from '../../test-helpers/engines.js';
import { testDatabaseUrl } from '../../test-helpers/postgres.js';
import type { BookingRow } from '../bookings.js';
import { bookingStorePg } from './bookings.js';
import { reportStorePg } from './reports.js';

type Parts = ReturnType<typeof bookingStorePg> & ReturnType<typeof reportStorePg>;

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const FROM = Date.UTC(2030, 2, 1);

/** Writes one row into both engines as given: for the tables of other modules (organizations, experiences, customers). */
async function plant(e: BothEngines, table: string, row: Record<string, unknown>): Promise<void> {
  const columns = Object.keys(row).join(', ');
  const values = Object.values(row);
  e.sqliteDb.prepare(`INSERT INTO ${table} (${columns}) VALUES (${values.map(() => '?').join(', ')})`).run(...values);
  await e.pgDb.run(`INSERT INTO ${table} (${columns}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})`, values);
}

/** A booking created at `createdAt` in the given state; what the reports do not read is fixed. */
function booking(n: number, orgId: string, createdAt: number, fields: Partial<BookingRow> = {}): BookingRow {
  return {
    id: `bk_${String(n).padStart(4, '0')}`, orgId, bookingNumber: `OUT-R${String(n).padStart(5, '0')}`,
    experienceId: orgId === 'org_A' ? 'exp_A' : 'exp_B', customerId: orgId === 'org_A' ? 'cus_A' : 'cus_B',
    slotStart: createdAt + 3 * DAY, slotEnd: createdAt + 3 * DAY + HOUR, status: 'CONFIRMED', guestName: 'Guest',
    guestEmail: 'guest@example.com', guestPhone: null, participants: 2, unitPrice: 4500, currency: 'EUR', source: 'WIDGET',
    metadata: '{}', cancellationReason: null, cancelledAt: null, holdExpiresAt: null, checkoutSessionId: null,
    checkoutUrl: null, sequence: 0, checkedInAt: null, tickets: null, places: null, totalCents: null, locale: null,
    createdAt, updatedAt: createdAt, ...fields,
  };
}

describe.skipIf(!testDatabaseUrl())('reportStorePg answers as the SQLite report store', () => {
  let e: BothEngines;
  let pg: Parts;

  async function same<T>(call: (store: Parts) => Promise<T>): Promise<T> {
    const fromSqlite = await call(e.sqlite);
    const fromPg = await call(pg);
    expect(fromPg).toStrictEqual(fromSqlite);
    return fromSqlite;
  }
  async function insert(rows: BookingRow[]): Promise<void> {
    await e.sqlite.transaction(async () => {
      for (const row of rows) await e.sqlite.insertBooking(row);
    });
    await e.pgDb.transaction(async () => {
      for (const row of rows) await pg.insertBooking(row);
    });
  }
  /** Local midnights of a zone 1 h ahead of UTC, with a 23-hour day (as a DST change makes one). */
  const days = (count: number): number[] =>
    Array.from({ length: count + 1 }, (_, i) => FROM - HOUR + i * DAY - (i > 3 ? HOUR : 0));

  /** Every report over several spans and orgs. */
  async function reportsAnswerTheSame(): Promise<void> {
    for (const org of ['org_A', 'org_B', 'org_none']) {
      for (const bounds of [days(10), days(1), [FROM - 5 * DAY, FROM + 30 * DAY], [FROM], [], [FROM + 2 * DAY, FROM]]) {
        await same((s) => s.createdTotalsBetween(org, bounds));
        await same((s) => s.cancellationsBetween(org, bounds));
      }
    }
  }

  beforeAll(async () => {
    e = await bothEngines();
    pg = { ...bookingStorePg(e.pgDb), ...reportStorePg(e.pgDb) };
    const at = FROM - 30 * DAY;
    for (const org of ['org_A', 'org_B']) {
      await plant(e, 'organizations', { id: org, name: org, email: `${org}@example.com`, timezone: 'Europe/Lisbon', created_at: at, updated_at: at });
    }
    await plant(e, 'experiences', { id: 'exp_A', org_id: 'org_A', name: 'A', description: '', duration: 60, price: 4500, max_participants: 10_000, created_at: at, updated_at: at });
    await plant(e, 'experiences', { id: 'exp_B', org_id: 'org_B', name: 'B', description: '', duration: 60, price: 4500, max_participants: 10, created_at: at, updated_at: at });
    await plant(e, 'customers', { id: 'cus_A', org_id: 'org_A', email: 'a@example.com', name: 'A', created_at: at, updated_at: at });
    await plant(e, 'customers', { id: 'cus_B', org_id: 'org_B', email: 'b@example.com', name: 'B', created_at: at, updated_at: at });
  });
  afterAll(async () => {
    await e?.close();
  });

  it('answers zeros for days without bookings, and nothing for fewer than two bounds', async () => {
    await reportsAnswerTheSame();
    expect(await pg.createdTotalsBetween('org_A', days(2))).toStrictEqual([
      { bookings: 0, participants: 0, totalCents: 0 },
      { bookings: 0, participants: 0, totalCents: 0 },
    ]);
    expect(await pg.cancellationsBetween('org_A', [FROM])).toStrictEqual([]);
  });

  it('sums bookings by the day they were created and cancellations by the day they happened', async () => {
    let n = 0;
    const rows: BookingRow[] = [];
    for (let hour = -30; hour < 11 * 24; hour += 5) {
      const createdAt = FROM + hour * HOUR;
      const org = hour % 3 === 0 ? 'org_B' : 'org_A';
      rows.push(booking(++n, org, createdAt, { participants: 1 + (hour & 3) }));
      // Ticketed: unit_price 0 and a total of its own.
      rows.push(booking(++n, org, createdAt, { unitPrice: 0, participants: 3, places: 3, tickets: '[]', totalCents: 7000 + hour }));
      // Cancelled a day and a half later: not in its creation day, counted on its cancellation day.
      rows.push(booking(++n, org, createdAt, { status: 'CANCELLED', cancelledAt: createdAt + 36 * HOUR, cancellationReason: 'Weather' }));
      if (hour % 2 === 0) rows.push(booking(++n, org, createdAt, { status: 'PENDING', holdExpiresAt: createdAt + HOUR }));
    }
    // Exactly on a bound: in the day it opens, not the one it closes.
    rows.push(booking(++n, 'org_A', days(10)[4]!, { participants: 7 }));
    rows.push(booking(++n, 'org_A', days(10)[4]!, { status: 'CANCELLED', cancelledAt: days(10)[6]! }));
    // The largest booking the API allows (10,000 places at 10^9 cents): the sums stay exact.
    rows.push(booking(++n, 'org_A', FROM + 2 * DAY, { participants: 10_000, unitPrice: 1_000_000_000 }));
    await insert(rows);
    await reportsAnswerTheSame();
    const totals = await pg.createdTotalsBetween('org_A', days(10));
    expect(totals.reduce((sum, d) => sum + d.bookings, 0)).toBeGreaterThan(50);
    expect(totals[2]!.totalCents).toBeGreaterThan(10_000 * 1_000_000_000);
    expect((await pg.cancellationsBetween('org_A', days(10))).some((c) => c > 0)).toBe(true);
  });

  it('follows a booking cancelled later', async () => {
    const row = booking(9001, 'org_A', FROM + DAY + HOUR, { participants: 4 });
    await insert([row]);
    const cancelled: BookingRow = { ...row, status: 'CANCELLED', cancelledAt: FROM + 5 * DAY, cancellationReason: 'Ill', updatedAt: FROM + 5 * DAY };
    await e.sqlite.updateBooking(cancelled);
    await pg.updateBooking(cancelled);
    await reportsAnswerTheSame();
  });
});
