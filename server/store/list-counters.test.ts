import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { migrate, openDatabase, type Db } from './sqlite/db.js';
import { readMigrations } from './migrations.js';
import { type Store } from './index.js';
import { createStore } from './sqlite/store.js';
import { createPostgresStore } from './postgres/index.js';
import { connectPostgres, migratePostgres, numbered, readPostgresMigrations, type PgDb } from './postgres/db.js';
import type { BookingFilter, BookingRow } from './bookings.js';
import type { CustomerRow } from './customers.js';
import { testEngine } from '../test-helpers/index.js';
import { createTestDatabase, leaseMigratedDatabase } from '../test-helpers/postgres.js';

// The totals of GET /v1/bookings and GET /v1/customers come from counters that triggers keep
// (migration 003), not from counting rows. These tests hold them to the rows after every kind of
// write the product does or could do. They run on the engine under test (OUTING_TEST_ENGINE):
// SQLite in memory, or a database of the PostgreSQL test cluster, where the triggers are PL/pgSQL
// functions written separately and must keep the same counts. The list queries' indexes are held
// by list-plans.test.ts (SQLite) and postgres/list-plans.test.ts.

const T0 = Date.UTC(2027, 2, 1, 8);
const STATUSES = ['CONFIRMED', 'PENDING', 'CANCELLED'] as const;

/** A small deterministic generator, so that a failure replays. */
function random(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

/**
 * Plain SQL on the store's own connection, for counting rows and for writes no store function
 * does (deletes, rows loaded by a tool). Written with `?` placeholders for both engines. On
 * PostgreSQL it runs through the store's PgDb, so inside `store.transaction` it joins the
 * transaction, as a SQLite statement on the one connection does.
 */
interface Raw {
  rows<R>(sql: string, ...params: unknown[]): Promise<R[]>;
  run(sql: string, ...params: unknown[]): Promise<void>;
}

function rawSqlite(db: Db): Raw {
  return {
    rows: async <R>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as R[],
    run: async (sql, ...params) => void db.prepare(sql).run(...params),
  };
}

function rawPostgres(db: PgDb): Raw {
  return {
    rows: <R>(sql: string, ...params: unknown[]) => db.all<R>(numbered(sql), params),
    run: async (sql, ...params) => void (await db.run(numbered(sql), params)),
  };
}

/** A migrated, empty store of the engine under test, with plain SQL beside it. */
async function emptyStore(poolSize = 2): Promise<{ store: Store; raw: Raw; close(): Promise<void> }> {
  if (testEngine() === 'sqlite') {
    const db = openDatabase(':memory:');
    migrate(db);
    const store = createStore(db);
    return { store, raw: rawSqlite(db), close: () => store.close() };
  }
  const database = await leaseMigratedDatabase();
  const db = connectPostgres(database.url, { max: poolSize });
  const store = createPostgresStore(db);
  return { store, raw: rawPostgres(db), close: async () => { await store.close(); await database.drop(); } };
}

/**
 * A database of the engine under test with the migrations before `version` only (on PostgreSQL a
 * new, empty database of the cluster: a leased one has every migration), plain SQL on it, and
 * `migrateRest`, which applies the others and answers the store.
 */
async function migratedBefore(version: number): Promise<{ raw: Raw; migrateRest(): Promise<Store>; close(): Promise<void> }> {
  if (testEngine() === 'sqlite') {
    const db = openDatabase(':memory:');
    const migrations = readMigrations();
    migrate(db, migrations.filter((m) => m.version < version));
    return {
      raw: rawSqlite(db),
      migrateRest: async () => (migrate(db, migrations), createStore(db)),
      close: async () => void db.close(),
    };
  }
  const database = await createTestDatabase();
  const db = connectPostgres(database.url, { max: 2 });
  const migrations = readPostgresMigrations();
  await migratePostgres(db, migrations.filter((m) => m.version < version));
  return {
    raw: rawPostgres(db),
    migrateRest: async () => (await migratePostgres(db, migrations), createPostgresStore(db)),
    close: async () => { await db.pool.end(); await database.drop(); },
  };
}

async function world() {
  // Four connections on PostgreSQL, so that writes not in one transaction really run side by side.
  const { store, raw, close } = await emptyStore(4);
  const orgs = ['org_a', 'org_b'];
  const experiences: Record<string, string[]> = {};
  for (const orgId of orgs) {
    await store.organizations.insertOrganization({ id: orgId, name: orgId, email: `${orgId}@example.com`, phone: null, timezone: 'Europe/Lisbon', currency: 'EUR', onlinePayments: 0, cancellationCutoffHours: 24, guestSelfService: 1, createdAt: T0, updatedAt: T0 });
    experiences[orgId] = await Promise.all([1, 2, 3].map(async (k) => {
      const id = `exp_${orgId}_${k}`;
      await store.experiences.insertExperience({
        id, orgId, name: id, description: '', duration: 60, price: 1000, maxParticipants: 50, maxPerBooking: null, schedule: null,
        minNoticeMinutes: 0, maxAdvanceDays: 365, active: 1, priceCategories: '[]', createdAt: T0, updatedAt: T0,
      });
      return id;
    }));
  }
  return { raw, store, orgs, experiences, close };
}

function customer(orgId: string, n: number): CustomerRow {
  return { id: `cus_${orgId}_${n}`, orgId, email: `c${n}@example.com`, name: `C ${n}`, phone: null, firstBookingAt: T0, lastBookingAt: T0 + n, erasedAt: null, createdAt: T0, updatedAt: T0 };
}

function booking(orgId: string, n: number, experienceId: string, customerId: string, status: BookingRow['status'], slotStart: number): BookingRow {
  return {
    id: `bk_${orgId}_${n}`, orgId, bookingNumber: `BK-${orgId.slice(-1).toUpperCase()}${String(n).padStart(7, '0')}`, experienceId, customerId,
    slotStart, slotEnd: slotStart + 3_600_000, status, guestName: `Guest ${n}`, guestEmail: `g${n}@example.com`, guestPhone: null,
    participants: 1 + (n % 3), unitPrice: 1000, currency: 'EUR', source: 'API', metadata: '{}', cancellationReason: null, cancelledAt: null,
    holdExpiresAt: null, checkoutSessionId: null, checkoutUrl: null, sequence: 0, checkedInAt: null, tickets: null, places: null, totalCents: null, locale: null, internalNote: null, answers: null, extras: null, promoCodeId: null, discountCode: null, discountType: null, discountValue: null, voucherId: null, voucherMask: null, voucherCents: null, createdAt: T0 + n, updatedAt: T0 + n,
  };
}

/** Every total the lists can answer, compared with counting the rows themselves. */
async function expectExactTotals(raw: Raw, store: Store, orgs: string[], experiences: Record<string, string[]>): Promise<void> {
  const page = { limit: 1, offset: 0 };
  const count = async (sql: string, ...params: unknown[]) => (await raw.rows<{ n: number }>(`SELECT count(*) AS n FROM ${sql}`, ...params))[0]!.n;
  for (const orgId of orgs) {
    const filters: BookingFilter[] = [{}, ...STATUSES.map((status) => ({ status }))];
    const other = orgs.find((o) => o !== orgId);
    for (const experienceId of [...experiences[orgId]!, ...(other ? [experiences[other]![0]!] : [])]) {
      filters.push({ experienceId }, ...STATUSES.map((status) => ({ experienceId, status })));
      filters.push({ experienceId, startFrom: T0 + 5 * 3_600_000, startTo: T0 + 40 * 3_600_000 });
    }
    for (const status of [undefined, ...STATUSES]) filters.push({ status, startFrom: T0 + 10 * 3_600_000, startTo: T0 + 30 * 3_600_000 });
    for (const f of filters) {
      const where = ['org_id = ?'];
      const params: unknown[] = [orgId];
      if (f.experienceId !== undefined) (where.push('experience_id = ?'), params.push(f.experienceId));
      if (f.status !== undefined) (where.push('status = ?'), params.push(f.status));
      if (f.startFrom !== undefined) (where.push('slot_start >= ?'), params.push(f.startFrom));
      if (f.startTo !== undefined) (where.push('slot_start <= ?'), params.push(f.startTo));
      expect((await store.bookings.listBookings(orgId, f, page)).total, `${orgId} ${JSON.stringify(f)}`).toBe(await count(`bookings WHERE ${where.join(' AND ')}`, ...params));
    }
    expect((await store.customers.listCustomers(orgId, undefined, page)).total, `${orgId} customers`).toBe(await count('customers WHERE org_id = ?', orgId));
  }
  // No counter row drifts, even for groups no list asks about. (The comparison sits outside the
  // subquery: PostgreSQL does not let WHERE name a column alias of its own SELECT.)
  const drift = await raw.rows(`SELECT * FROM (SELECT c.org_id, c.experience_id, c.status, c.n, (SELECT count(*) FROM bookings b
      WHERE b.org_id = c.org_id AND b.experience_id = c.experience_id AND b.status = c.status) AS actual FROM booking_counts c) k
    WHERE k.n <> k.actual`);
  expect(drift).toEqual([]);
  const missing = await raw.rows(`SELECT org_id, experience_id, status FROM bookings EXCEPT SELECT org_id, experience_id, status FROM booking_counts`);
  expect(missing).toEqual([]);
}

describe(`list counters (migration 003) (${testEngine()})`, () => {
  let w: Awaited<ReturnType<typeof world>>;
  beforeEach(async () => {
    w = await world();
  });
  afterEach(async () => {
    await w.close();
  });

  it('stay exact across inserts, status changes, moves, erasure and deletes, in and out of transactions', async () => {
    const { raw, store, orgs, experiences } = w;
    const next = random(2027);
    const customers: Record<string, CustomerRow[]> = { org_a: [], org_b: [] };
    const live: BookingRow[] = [];
    let n = 0;
    await expectExactTotals(raw, store, orgs, experiences);
    for (let step = 0; step < 400; step++) {
      const orgId = orgs[next(2)]!;
      const action = next(10);
      if (action < 5 || live.length === 0) {
        // a booking, with a new or a returning customer
        if (customers[orgId]!.length === 0 || next(3) === 0) {
          const c = customer(orgId, n++);
          await store.customers.insertCustomer(c);
          customers[orgId]!.push(c);
        }
        const c = customers[orgId]![next(customers[orgId]!.length)]!;
        const status = STATUSES[next(3)]!;
        const row = booking(orgId, n++, experiences[orgId]![next(3)]!, c.id, status, T0 + next(48) * 3_600_000);
        await store.transaction(async () => await store.bookings.insertBooking(row));
        live.push(row);
      } else if (action < 7) {
        // a status change (confirm, cancel), sometimes to the same status
        const i = next(live.length);
        const row = { ...live[i]!, status: STATUSES[next(3)]!, sequence: live[i]!.sequence + 1 };
        await store.bookings.updateBooking(row);
        live[i] = row;
      } else if (action < 8) {
        // a move to another slot and a change of guest: the store's UPDATE sets status too
        const i = next(live.length);
        const row = { ...live[i]!, slotStart: T0 + next(48) * 3_600_000, guestName: 'Moved' };
        await store.bookings.updateBooking(row);
        live[i] = row;
      } else if (action < 9) {
        // erasure: the customer and its bookings rewritten in one transaction, as eraseCustomer does
        const list = customers[orgId]!;
        if (list.length === 0) continue;
        const c = list[next(list.length)]!;
        await store.transaction(async () => {
          await store.customers.updateCustomer({ ...c, name: 'erased', email: `erased-${c.id}@erased.invalid`, erasedAt: T0 });
          for (const b of await store.bookings.listCustomerBookings(c.id, 1000)) await store.bookings.updateBooking({ ...b, guestName: 'erased', guestEmail: `erased-${c.id}@erased.invalid` });
        });
      } else {
        // a delete, which no route does today: the counters must follow whatever code writes,
        // including a rolled-back transaction
        const i = next(live.length);
        const row = live[i]!;
        if (next(4) === 0) {
          await expect(store.transaction(async () => {
              await raw.run('DELETE FROM bookings WHERE id = ?', row.id);
              throw new Error('rolled back');
            })).rejects.toThrow('rolled back');
        } else {
          await raw.run('DELETE FROM bookings WHERE id = ?', row.id);
          live.splice(i, 1);
        }
      }
      if (step % 20 === 0) await expectExactTotals(raw, store, orgs, experiences);
    }
    await expectExactTotals(raw, store, orgs, experiences);
    expect((await store.bookings.listBookings('org_a', {}, { limit: 1, offset: 0 })).total + (await store.bookings.listBookings('org_b', {}, { limit: 1, offset: 0 })).total).toBe(live.length);
  });

  it('stay exact when writes run at once on several connections', async () => {
    const { raw, store, orgs, experiences } = w;
    const next = random(31);
    // Every write below is one statement of its own, sent together: on PostgreSQL they run side by
    // side, and the first rows of a group race to create its counter row (the upsert must count
    // both, never fail on the other's row). SQLite runs them one after the other.
    const customers = await Promise.all(orgs.flatMap((orgId) => [0, 1, 2].map(async (k) => {
      const c = customer(orgId, k);
      await store.customers.insertCustomer(c);
      return c;
    })));
    const rows = Array.from({ length: 120 }, (_, k) => {
      const c = customers[next(customers.length)]!;
      return booking(c.orgId, 100 + k, experiences[c.orgId]![next(3)]!, c.id, STATUSES[next(3)]!, T0 + next(48) * 3_600_000);
    });
    await Promise.all(rows.map((row) => store.bookings.insertBooking(row)));
    await expectExactTotals(raw, store, orgs, experiences);
    // Status changes at once, each in a transaction as the services make them.
    await Promise.all(rows.map((row, k) =>
      store.transaction(async () => await store.bookings.updateBooking({ ...row, status: STATUSES[(STATUSES.indexOf(row.status) + 1 + (k % 2)) % 3]!, sequence: 1 }))));
    await expectExactTotals(raw, store, orgs, experiences);
    expect((await store.bookings.listBookings('org_a', {}, { limit: 1, offset: 0 })).total + (await store.bookings.listBookings('org_b', {}, { limit: 1, offset: 0 })).total).toBe(120);
  });

  it('follow customers deleted with their bookings, and an organization deleted with everything', async () => {
    const { raw, store, orgs, experiences } = w;
    for (let k = 0; k < 6; k++) {
      const orgId = orgs[k % 2]!;
      const c = customer(orgId, k);
      await store.customers.insertCustomer(c);
      await store.bookings.insertBooking(booking(orgId, 100 + k, experiences[orgId]![k % 3]!, c.id, STATUSES[k % 3]!, T0 + k * 3_600_000));
    }
    await expectExactTotals(raw, store, orgs, experiences);
    await raw.run("DELETE FROM bookings WHERE customer_id = 'cus_org_a_0'");
    await raw.run("DELETE FROM customers WHERE id = 'cus_org_a_0'");
    await expectExactTotals(raw, store, orgs, experiences);
    // The org's bookings first (they reference experiences and customers), then the org: its
    // customers go by ON DELETE CASCADE, which fires their triggers too.
    await raw.run("DELETE FROM bookings WHERE org_id = 'org_b'");
    await raw.run("DELETE FROM organizations WHERE id = 'org_b'");
    await expectExactTotals(raw, store, orgs, experiences);
    expect((await store.customers.listCustomers('org_b', undefined, { limit: 1, offset: 0 })).total).toBe(0);
    expect((await store.bookings.listBookings('org_b', {}, { limit: 1, offset: 0 })).total).toBe(0);
  });

});

describe(`list counters (migration 003), from rows written or already there (${testEngine()})`, () => {
  it('count rows written without the store too (a tool loading rows, a copy between databases)', async () => {
    const { store, raw, close } = await emptyStore();
    onTestFinished(close);
    await store.organizations.insertOrganization({ id: 'org_a', name: 'a', email: 'a@example.com', phone: null, timezone: 'UTC', currency: 'EUR', onlinePayments: 0, cancellationCutoffHours: 24, guestSelfService: 1, createdAt: T0, updatedAt: T0 });
    await store.experiences.insertExperience({
      id: 'exp_a', orgId: 'org_a', name: 'a', description: '', duration: 60, price: 1000, maxParticipants: 50, maxPerBooking: null, schedule: null,
      minNoticeMinutes: 0, maxAdvanceDays: 365, active: 1, priceCategories: '[]', createdAt: T0, updatedAt: T0,
    });
    await store.customers.insertCustomer(customer('org_a', 1));
    await raw.run(`INSERT INTO customers (id, org_id, email, name, created_at, updated_at) VALUES ('cus_raw', 'org_a', 'raw@example.com', 'Raw', 0, 0)`);
    await store.bookings.insertBooking(booking('org_a', 2, 'exp_a', 'cus_org_a_1', 'CONFIRMED', T0));
    await raw.run(`INSERT INTO bookings (id, org_id, booking_number, experience_id, customer_id, slot_start, slot_end, status, guest_name,
      guest_email, participants, unit_price, currency, source, metadata, sequence, created_at, updated_at)
      VALUES ('bk_raw', 'org_a', 'BK-RAWRAW00', 'exp_a', 'cus_raw', 0, 1, 'PENDING', 'Raw', 'raw@example.com', 1, 100, 'EUR', 'API', '{}', 0, 0, 0)`);
    await expectExactTotals(raw, store, ['org_a'], { org_a: ['exp_a'] });
    expect((await store.bookings.listBookings('org_a', {}, { limit: 1, offset: 0 })).total).toBe(2);
    expect((await store.customers.listCustomers('org_a', undefined, { limit: 1, offset: 0 })).total).toBe(2);
  });

  it('are filled from the rows already there when the migration runs', async () => {
    const before = await migratedBefore(3);
    onTestFinished(before.close);
    const { raw } = before;
    await raw.run(`INSERT INTO organizations (id, name, email, phone, timezone, currency, online_payments, created_at, updated_at)
      VALUES ('org_x', 'x', 'x@example.com', NULL, 'UTC', 'EUR', 0, 0, 0)`);
    await raw.run(`INSERT INTO experiences (id, org_id, name, description, duration, price, max_participants, created_at, updated_at)
      VALUES ('exp_x', 'org_x', 'x', '', 60, 100, 10, 0, 0)`);
    await raw.run(`INSERT INTO customers (id, org_id, email, name, created_at, updated_at) VALUES ('cus_1', 'org_x', 'a@x', 'a', 0, 0), ('cus_2', 'org_x', 'b@x', 'b', 0, 0)`);
    for (let k = 0; k < 7; k++) {
      await raw.run(`INSERT INTO bookings (id, org_id, booking_number, experience_id, customer_id, slot_start, slot_end, status, guest_name,
        guest_email, participants, unit_price, currency, source, created_at, updated_at) VALUES ('bk_${k}', 'org_x', 'BK-${k}', 'exp_x',
        'cus_${1 + (k % 2)}', ${k}, ${k + 1}, '${STATUSES[k % 3]}', 'g', 'g@x', 1, 100, 'EUR', 'API', ${k}, ${k})`);
    }
    const store = await before.migrateRest();
    const page = { limit: 1, offset: 0 };
    expect((await store.bookings.listBookings('org_x', {}, page)).total).toBe(7);
    expect((await store.bookings.listBookings('org_x', { status: 'CONFIRMED' }, page)).total).toBe(3);
    expect((await store.bookings.listBookings('org_x', { experienceId: 'exp_x', status: 'CANCELLED' }, page)).total).toBe(2);
    expect((await store.customers.listCustomers('org_x', undefined, page)).total).toBe(2);
  });
});
