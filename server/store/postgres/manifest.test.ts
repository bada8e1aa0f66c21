import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bothEngines, type BothEngines } from '../../test-helpers/engines.js';
import { testDatabaseUrl } from '../../test-helpers/postgres.js';
import type { BookingRow } from '../bookings.js';
import { bookingStorePg } from './bookings.js';
import { manifestStorePg } from './manifest.js';

type Parts = ReturnType<typeof bookingStorePg> & ReturnType<typeof manifestStorePg>;

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const MIDNIGHT = Date.UTC(2030, 5, 10);
const CREATED = Date.UTC(2030, 4, 1);

/** Writes one row into both engines as given: for the tables of other modules (organizations, experiences, customers, payments). */
async function plant(e: BothEngines, table: string, row: Record<string, unknown>): Promise<void> {
  const columns = Object.keys(row).join(', ');
  const values = Object.values(row);
  e.sqliteDb.prepare(`INSERT INTO ${table} (${columns}) VALUES (${values.map(() => '?').join(', ')})`).run(...values);
  await e.pgDb.run(`INSERT INTO ${table} (${columns}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})`, values);
}

function booking(id: string, experienceId: string, slotStart: number, fields: Partial<BookingRow> = {}): BookingRow {
  return {
    id, orgId: experienceId === 'exp_other' ? 'org_B' : 'org_A', bookingNumber: `OUT-${id.toUpperCase()}`, experienceId,
    customerId: experienceId === 'exp_other' ? 'cus_B' : 'cus_A', slotStart, slotEnd: slotStart + 2 * HOUR, status: 'CONFIRMED',
    guestName: `Guest ${id}`, guestEmail: `${id}@example.com`, guestPhone: null, participants: 2, unitPrice: 3000,
    currency: 'EUR', source: 'API', metadata: '{"pickup":"hotel"}', cancellationReason: null, cancelledAt: null,
    holdExpiresAt: null, checkoutSessionId: null, checkoutUrl: null, sequence: 0, checkedInAt: null, tickets: null,
    places: null, totalCents: null, locale: null, createdAt: CREATED, updatedAt: CREATED, ...fields,
  };
}

describe.skipIf(!testDatabaseUrl())('manifestStorePg answers as the SQLite manifest store', () => {
  let e: BothEngines;
  let pg: Parts;

  async function same<T>(call: (store: Parts) => Promise<T>): Promise<T> {
    const fromSqlite = await call(e.sqlite);
    const fromPg = await call(pg);
    expect(fromPg).toStrictEqual(fromSqlite);
    return fromSqlite;
  }
  async function insert(rows: BookingRow[]): Promise<void> {
    for (const row of rows) {
      await e.sqlite.insertBooking(row);
      await pg.insertBooking(row);
    }
  }
  async function manifestsAnswerTheSame(): Promise<void> {
    for (const org of ['org_A', 'org_B', 'org_none']) {
      for (const [from, to] of [[MIDNIGHT, MIDNIGHT + DAY], [MIDNIGHT + DAY, MIDNIGHT + 2 * DAY], [MIDNIGHT - DAY, MIDNIGHT + 3 * DAY], [MIDNIGHT + DAY, MIDNIGHT]] as const) {
        await same((s) => s.listManifestBookings(org, from, to));
        for (const experience of ['exp_kayak', 'exp_Kayak', 'exp_other', 'exp_none']) await same((s) => s.listManifestBookings(org, from, to, experience));
      }
    }
  }

  beforeAll(async () => {
    e = await bothEngines();
    pg = { ...bookingStorePg(e.pgDb), ...manifestStorePg(e.pgDb) };
    const at = CREATED - DAY;
    for (const org of ['org_A', 'org_B']) {
      await plant(e, 'organizations', { id: org, name: org, email: `${org}@example.com`, timezone: 'UTC', created_at: at, updated_at: at });
    }
    // Names that sort differently by byte and by dictionary ('Kayak' < 'Twin' < 'kayak' < 'Éclair' byte-wise), and two alike
    // (the experience id decides).
    for (const [id, name, org] of [
      ['exp_kayak', 'kayak', 'org_A'], ['exp_Kayak', 'Kayak', 'org_A'], ['exp_eclair', 'Éclair walk', 'org_A'],
      ['exp_twin2', 'Twin', 'org_A'], ['exp_twin1', 'Twin', 'org_A'], ['exp_other', 'Kayak', 'org_B'],
    ] as const) {
      await plant(e, 'experiences', { id, org_id: org, name, description: '', duration: 120, price: 3000, max_participants: 20, created_at: at, updated_at: at });
    }
    await plant(e, 'customers', { id: 'cus_A', org_id: 'org_A', email: 'a@example.com', name: 'A', created_at: at, updated_at: at });
    await plant(e, 'customers', { id: 'cus_B', org_id: 'org_B', email: 'b@example.com', name: 'B', created_at: at, updated_at: at });
  });
  afterAll(async () => {
    await e?.close();
  });

  it('answers an empty day alike', async () => {
    await manifestsAnswerTheSame();
    expect(await pg.listManifestBookings('org_A', MIDNIGHT, MIDNIGHT + DAY)).toStrictEqual([]);
  });

  it('lists a day by slot, experience name, experience, creation and id, with what each paid', async () => {
    const nine = MIDNIGHT + 9 * HOUR;
    const rows = [
      booking('b07', 'exp_kayak', nine),
      booking('b03', 'exp_Kayak', nine, { createdAt: CREATED + 5 }),
      booking('b05', 'exp_Kayak', nine, { createdAt: CREATED + 1 }),
      booking('b04', 'exp_Kayak', nine, { createdAt: CREATED + 1 }),
      booking('b02', 'exp_eclair', nine, { guestPhone: '+44 20 7946 0000', checkedInAt: nine - 600_000 }),
      booking('b09', 'exp_twin2', nine),
      booking('b08', 'exp_twin1', nine),
      booking('b01', 'exp_twin1', MIDNIGHT), // exactly at midnight: in this day
      booking('b10', 'exp_kayak', MIDNIGHT + DAY), // next midnight: the next day
      booking('b11', 'exp_kayak', MIDNIGHT + 14 * HOUR, { status: 'PENDING', holdExpiresAt: CREATED + HOUR }),
      booking('b12', 'exp_kayak', MIDNIGHT + 14 * HOUR, { status: 'CANCELLED', cancelledAt: CREATED + DAY }),
      booking('b13', 'exp_Kayak', MIDNIGHT + 14 * HOUR, { unitPrice: 0, participants: 4, places: 3, tickets: '[{"category":"adult","quantity":3}]', totalCents: 9000 }),
      booking('b14', 'exp_other', nine),
    ];
    await insert(rows);
    const payments: [string, string, number, 'SUCCEEDED' | 'FAILED'][] = [
      ['pay_1', 'b03', 3000, 'SUCCEEDED'], ['pay_2', 'b03', 3000, 'SUCCEEDED'], ['pay_3', 'b03', 3000, 'FAILED'],
      ['pay_4', 'b13', 9000, 'SUCCEEDED'], ['pay_5', 'b11', 6000, 'FAILED'], ['pay_6', 'b14', 6000, 'SUCCEEDED'],
    ];
    for (const [id, bookingId, amount, status] of payments) {
      await plant(e, 'payments', {
        id, org_id: bookingId === 'b14' ? 'org_B' : 'org_A', booking_id: bookingId, amount, currency: 'EUR', status,
        provider: 'fake', created_at: CREATED + HOUR,
      });
    }
    const day = await same((s) => s.listManifestBookings('org_A', MIDNIGHT, MIDNIGHT + DAY));
    expect(day.map((b) => b.id)).toEqual(['b01', 'b04', 'b05', 'b03', 'b08', 'b09', 'b07', 'b02', 'b13', 'b11']);
    expect(day.find((b) => b.id === 'b03')?.paidCents).toBe(6000);
    await manifestsAnswerTheSame();
  });

  it('follows check-ins and cancellations', async () => {
    const b04 = (await pg.getBooking('org_A', 'b04'))!;
    const { experienceName: _, ...row } = b04;
    const checkedIn: BookingRow = { ...row, checkedInAt: MIDNIGHT + 8 * HOUR, updatedAt: MIDNIGHT + 8 * HOUR };
    await e.sqlite.updateBooking(checkedIn);
    await pg.updateBooking(checkedIn);
    const cancelled: BookingRow = { ...checkedIn, id: 'b05', bookingNumber: 'OUT-B05', status: 'CANCELLED', cancelledAt: MIDNIGHT, checkedInAt: null };
    await e.sqlite.updateBooking(cancelled);
    await pg.updateBooking(cancelled);
    await manifestsAnswerTheSame();
  });
});
