import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Async } from '../index.js';
import type { CustomerRow, customerStore } from '../customers.js';
import { bothEngines, type BothEngines } from '../../test-helpers/engines.js';
import { testDatabaseUrl } from '../../test-helpers/postgres.js';
import { customerStorePg } from './customers.js';

type Customers = Async<ReturnType<typeof customerStore>>;

/**
 * customers.ts over PostgreSQL, held to its SQLite twin: the same calls on both engines, the
 * same answers (key order included: it is the order of the JSON the API writes).
 */
describe.skipIf(!testDatabaseUrl())('customer store on PostgreSQL', () => {
  let e: BothEngines;
  let pg: Customers;
  beforeEach(async () => {
    e = await bothEngines();
    pg = customerStorePg(e.pgDb);
    for (const org of ['org_a', 'org_b']) {
      await plant('INSERT INTO organizations (id, name, email, timezone, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        org, org, `${org}@example.com`, 'Europe/Paris', 1, 1,
      ]);
    }
    await plant(
      `INSERT INTO experiences (id, org_id, name, description, duration, price, max_participants, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      ['exp_a', 'org_a', 'Kayak', '', 60, 2500, 10, 1, 1],
    );
  });
  afterEach(async () => {
    await e.close();
  });

  /** A row neither module owns, written alike on both engines (`$n` in order of the parameters). */
  async function plant(sql: string, params: unknown[]): Promise<void> {
    e.sqliteDb.prepare(sql.replace(/\$\d+/g, '?')).run(...params);
    await e.pgDb.run(sql, params);
  }

  let bookings = 0;
  async function book(customerId: string, status: string, participants: number, unitPrice: number, totalCents: number | null) {
    bookings += 1;
    await plant(
      `INSERT INTO bookings (id, org_id, booking_number, experience_id, customer_id, slot_start, slot_end, status, guest_name,
        guest_email, participants, unit_price, currency, source, created_at, updated_at, total_cents)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
      [`bkg_${bookings}`, 'org_a', `OUT-${bookings}`, 'exp_a', customerId, 1000, 2000, status, 'G', 'g@example.com', participants,
        unitPrice, 'EUR', 'API', bookings, bookings, totalCents],
    );
  }

  /** Runs `call` on both engines; the answers must be the same, down to the order of the keys. */
  async function same<T>(call: (store: Customers) => Promise<T>): Promise<T> {
    const expected = await call(e.sqlite);
    const actual = await call(pg);
    expect(actual).toStrictEqual(expected);
    expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
    return expected;
  }

  /** Both engines refuse with a uniqueness violation. */
  async function bothRefuseDuplicate(call: (store: Customers) => Promise<unknown>): Promise<void> {
    const codes: unknown[] = [];
    for (const store of [e.sqlite, pg]) {
      const err = await call(store).then(
        () => undefined,
        (error: unknown) => error,
      );
      codes.push((err as { code?: unknown } | undefined)?.code);
    }
    expect(codes[0]).toMatch(/^SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)$/);
    expect(codes[1]).toBe('23505');
  }

  const customer = (id: string, email: string, name: string, lastBookingAt: number | null, orgId = 'org_a'): CustomerRow => ({
    id, orgId, email, name, phone: null, firstBookingAt: lastBookingAt === null ? null : lastBookingAt - 5, lastBookingAt,
    erasedAt: null, createdAt: 10, updatedAt: 10,
  });

  async function insertAll(rows: CustomerRow[]): Promise<void> {
    for (const row of rows) await same((s) => s.insertCustomer(row));
  }

  const pages = async (search: string | undefined, limit: number) => {
    for (let offset = 0; offset <= 10; offset += limit) await same((s) => s.listCustomers('org_a', search, { limit, offset }));
  };

  it('lists customers latest booking first, the never-booked last, id breaking ties, with totals from the counter', async () => {
    expect(await same((s) => s.listCustomers('org_a', undefined, { limit: 5, offset: 0 }))).toEqual({ rows: [], total: 0 });
    await insertAll([
      customer('cus_B', 'b@example.com', 'Bea', 300),
      customer('cus_a', 'a@example.com', 'Ann', null),
      customer('cus_c', 'c@example.com', 'Cyd', 300),
      customer('cus_A', 'aa@example.com', 'Abe', null),
      customer('cus_d', 'd@example.com', 'Dan', 100),
      customer('cus_e', 'e@example.com', 'Eve', 500),
      customer('cus_Z', 'z@example.com', 'Zed', null),
      customer('cus_x', 'x@example.com', 'Xia', 0),
      customer('cus_o', 'o@example.com', 'Other org', 900, 'org_b'),
    ]);
    const all = await same((s) => s.listCustomers('org_a', undefined, { limit: 50, offset: 0 }));
    expect(all.rows.map((c) => c.id)).toEqual(['cus_e', 'cus_c', 'cus_B', 'cus_d', 'cus_x', 'cus_a', 'cus_Z', 'cus_A']);
    expect(all.total).toBe(8);
    for (const limit of [1, 2, 3]) await pages(undefined, limit);
    expect(await same((s) => s.listCustomers('org_a', undefined, { limit: 5, offset: 100 }))).toEqual({ rows: [], total: 8 });
    expect((await same((s) => s.listCustomers('org_b', undefined, { limit: 5, offset: 0 }))).total).toBe(1);
    expect(await same((s) => s.listCustomers('org_none', undefined, { limit: 5, offset: 0 }))).toEqual({ rows: [], total: 0 });
  });

  it('searches names and e-mails ignoring ASCII case only, wildcards taken literally', async () => {
    await insertAll([
      customer('cus_1', 'ann@example.com', 'Ann Smith', 10),
      customer('cus_2', 'bob@annex.io', 'Bob', 20),
      customer('cus_3', '100pct@example.com', '100% Cotton', null),
      customer('cus_4', 'under_score@example.com', 'Under', 30),
      customer('cus_5', 'elise@example.com', 'Élise', 40),
      customer('cus_6', 'back@example.com', 'Back\\slash', null),
      customer('cus_7', 'ANNA@EXAMPLE.COM', 'anna', 10),
      customer('cus_8', 'other@example.com', 'Ann', 10, 'org_b'),
    ]);
    for (const search of ['ann', 'ANN', 'aNn sM', '%', '_', '0%', 'r_s', '\\', 'k\\s', 'élise', 'ÉLISE', 'Élise', 'lise', '', 'nobody', '.io']) {
      await pages(search, 2);
      await same((s) => s.listCustomers('org_a', search, { limit: 50, offset: 0 }));
    }
    const found = await same((s) => s.listCustomers('org_a', 'ANN', { limit: 50, offset: 0 }));
    expect(found.rows.map((c) => c.id)).toEqual(['cus_2', 'cus_7', 'cus_1']);
    expect(found.total).toBe(3);
    // Beyond the last match: no rows, the total still counted.
    expect(await same((s) => s.listCustomers('org_a', 'ann', { limit: 2, offset: 3 }))).toEqual({ rows: [], total: 3 });
    // SQLite's LIKE folds ASCII letters only, and so does ILIKE under the C ctype.
    expect((await same((s) => s.listCustomers('org_a', 'élise', { limit: 50, offset: 0 }))).total).toBe(0);
  });

  it('reads one customer with its booking count and what it spent on confirmed bookings', async () => {
    await insertAll([customer('cus_1', 'ann@example.com', 'Ann', 10), customer('cus_2', 'bob@example.com', 'Bob', null)]);
    await same((s) => s.getCustomer('org_a', 'cus_1'));
    await book('cus_1', 'CONFIRMED', 3, 2500, null); // 7500
    await book('cus_1', 'CONFIRMED', 2, 2500, 4200); // tickets: their total
    await book('cus_1', 'PENDING', 1, 2500, null);
    await book('cus_1', 'CANCELLED', 4, 2500, null);
    await book('cus_1', 'CONFIRMED', 1, 3_000_000_000, null); // beyond 32 bits
    const ann = await same((s) => s.getCustomer('org_a', 'cus_1'));
    expect(ann).toMatchObject({ bookingCount: 5, spentCents: 7500 + 4200 + 3_000_000_000 });
    expect(await same((s) => s.getCustomer('org_a', 'cus_2'))).toMatchObject({ bookingCount: 0, spentCents: 0 });
    await same((s) => s.getCustomerByEmail('org_a', 'ann@example.com'));
    await same((s) => s.getCustomerRecordByEmail('org_a', 'ann@example.com'));
    await same((s) => s.listCustomers('org_a', undefined, { limit: 10, offset: 0 }));
    await same((s) => s.listCustomers('org_a', 'a', { limit: 10, offset: 0 }));
    // Not found: another org, another case of the e-mail (stored lower-cased, compared as is), no such id.
    expect(await same((s) => s.getCustomer('org_b', 'cus_1'))).toBeUndefined();
    expect(await same((s) => s.getCustomer('org_a', 'cus_none'))).toBeUndefined();
    expect(await same((s) => s.getCustomerByEmail('org_a', 'ANN@example.com'))).toBeUndefined();
    expect(await same((s) => s.getCustomerByEmail('org_b', 'ann@example.com'))).toBeUndefined();
    expect(await same((s) => s.getCustomerRecordByEmail('org_a', 'nobody@example.com'))).toBeUndefined();
  });

  it('updates a customer, its e-mail too, and refuses an e-mail another customer of the org has', async () => {
    await insertAll([
      customer('cus_1', 'ann@example.com', 'Ann', 10),
      customer('cus_2', 'bob@example.com', 'Bob', 20),
      customer('cus_3', 'ann@example.com', 'Ann elsewhere', 20, 'org_b'),
    ]);
    const ann = customer('cus_1', 'ann@example.com', 'Ann Smith', 50);
    await same((s) => s.updateCustomer({ ...ann, phone: '+33 6 00 00 00 00', updatedAt: 60 }));
    await same((s) => s.getCustomer('org_a', 'cus_1'));
    await same((s) => s.updateCustomer({ ...ann, email: 'ann.smith@example.com', lastBookingAt: null, firstBookingAt: null, updatedAt: 70 }));
    expect(await same((s) => s.getCustomerByEmail('org_a', 'ann@example.com'))).toBeUndefined();
    await same((s) => s.getCustomerRecordByEmail('org_a', 'ann.smith@example.com'));
    await same((s) => s.listCustomers('org_a', undefined, { limit: 10, offset: 0 }));
    await bothRefuseDuplicate((s) => s.updateCustomer({ ...ann, email: 'bob@example.com', updatedAt: 80 }));
    await same((s) => s.getCustomer('org_a', 'cus_1'));
    // Erasure: the e-mail becomes a placeholder, the name and phone a mark.
    await same((s) => s.updateCustomer({ ...ann, email: 'erased+cus_1@invalid', name: '[erased]', phone: '[erased]', erasedAt: 90, updatedAt: 90 }));
    await same((s) => s.getCustomer('org_a', 'cus_1'));
    // An unknown id changes nothing.
    await same((s) => s.updateCustomer(customer('cus_none', 'x@example.com', 'X', 1)));
    await same((s) => s.listCustomers('org_a', undefined, { limit: 10, offset: 0 }));
  });

  it('refuses a second customer with the same e-mail in an org, or the same id', async () => {
    await insertAll([customer('cus_1', 'ann@example.com', 'Ann', 10), customer('cus_2', 'ann@example.com', 'Ann', 10, 'org_b')]);
    await bothRefuseDuplicate((s) => s.insertCustomer(customer('cus_3', 'ann@example.com', 'Ann again', null)));
    await bothRefuseDuplicate((s) => s.insertCustomer(customer('cus_1', 'new@example.com', 'New', null)));
    // A refused insert is not counted.
    expect((await same((s) => s.listCustomers('org_a', undefined, { limit: 10, offset: 0 }))).total).toBe(1);
  });

  it('counts down the customers of a deleted organization (the counter follows ON DELETE CASCADE)', async () => {
    await insertAll([customer('cus_1', 'ann@example.com', 'Ann', 10, 'org_b'), customer('cus_2', 'bob@example.com', 'Bob', 10, 'org_b')]);
    await plant('DELETE FROM organizations WHERE id = $1', ['org_b']);
    expect(await same((s) => s.listCustomers('org_b', undefined, { limit: 10, offset: 0 }))).toEqual({ rows: [], total: 0 });
  });
});
