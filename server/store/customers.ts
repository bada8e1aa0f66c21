import type { Db } from './db.js';
import { statementCache, type Page, type PageResult } from './statements.js';

export interface CustomerRow {
  id: string;
  orgId: string;
  email: string;
  name: string;
  phone: string | null;
  firstBookingAt: number | null;
  lastBookingAt: number | null;
  erasedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** A customer with the figures computed from its bookings. */
export interface CustomerView extends CustomerRow {
  bookingCount: number;
  spentCents: number;
}

export const RECORD_COLUMNS = `c.id, c.org_id AS orgId, c.email, c.name, c.phone, c.first_booking_at AS firstBookingAt,
  c.last_booking_at AS lastBookingAt, c.erased_at AS erasedAt, c.created_at AS createdAt, c.updated_at AS updatedAt`;
export const COLUMNS = `${RECORD_COLUMNS},
  (SELECT count(*) FROM bookings b WHERE b.customer_id = c.id) AS bookingCount,
  (SELECT coalesce(sum(coalesce(b.total_cents, b.unit_price * b.participants)), 0) FROM bookings b
    WHERE b.customer_id = c.id AND b.status = 'CONFIRMED') AS spentCents`;

type RawCustomer = [string, string, string, string, string | null, number | null, number | null, number | null, number, number, number, number];
/** A list page is read raw and shaped here: cheaper than better-sqlite3 building each row's object. */
function viewOf(r: RawCustomer): CustomerView {
  return {
    id: r[0], orgId: r[1], email: r[2], name: r[3], phone: r[4], firstBookingAt: r[5], lastBookingAt: r[6], erasedAt: r[7],
    createdAt: r[8], updatedAt: r[9], bookingCount: r[10], spentCents: r[11],
  };
}

export function customerStore(db: Db) {
  const prepared = statementCache(db);
  const insert = db.prepare(`INSERT INTO customers (id, org_id, email, name, phone, first_booking_at,
    last_booking_at, erased_at, created_at, updated_at) VALUES (@id, @orgId, @email, @name, @phone,
    @firstBookingAt, @lastBookingAt, @erasedAt, @createdAt, @updatedAt)`);
  const update = db.prepare(`UPDATE customers SET email = @email, name = @name, phone = @phone,
    first_booking_at = @firstBookingAt, last_booking_at = @lastBookingAt, erased_at = @erasedAt,
    updated_at = @updatedAt WHERE id = @id`);
  // The same without the e-mail, for the usual case (each booking of a returning customer): SQLite
  // rewrites the entry of every index whose column is SET, even to the same value, and the e-mail's
  // unique index entry cost ~1.1 KB of WAL and ~10 µs per booking (measured).
  const updateSameEmail = db.prepare(`UPDATE customers SET name = @name, phone = @phone,
    first_booking_at = @firstBookingAt, last_booking_at = @lastBookingAt, erased_at = @erasedAt,
    updated_at = @updatedAt WHERE id = @id AND email = @email`);
  const byEmail = db.prepare(`SELECT ${COLUMNS} FROM customers c WHERE c.org_id = ? AND c.email = ?`);
  const recordByEmail = db.prepare(`SELECT ${RECORD_COLUMNS} FROM customers c WHERE c.org_id = ? AND c.email = ?`);
  const byId = db.prepare(`SELECT ${COLUMNS} FROM customers c WHERE c.org_id = ? AND c.id = ?`);
  // The unfiltered total from the counter the triggers of migration 003 keep.
  const countAll = db.prepare('SELECT coalesce(sum(n), 0) FROM customer_counts WHERE org_id = ?').pluck();

  return {
    /** Inserts a customer; migration 003's trigger counts it in the same statement. */
    insertCustomer(row: CustomerRow): void {
      insert.run(row);
    },
    updateCustomer(row: CustomerRow): void {
      if (updateSameEmail.run(row).changes === 0) update.run(row);
    },
    getCustomerByEmail(orgId: string, email: string): CustomerView | undefined {
      return byEmail.get(orgId, email) as CustomerView | undefined;
    },
    /** The stored record alone, without the figures summed over its bookings: for each new booking. */
    getCustomerRecordByEmail(orgId: string, email: string): CustomerRow | undefined {
      return recordByEmail.get(orgId, email) as CustomerRow | undefined;
    },
    getCustomer(orgId: string, id: string): CustomerView | undefined {
      return byId.get(orgId, id) as CustomerView | undefined;
    },
    /** Latest `lastBookingAt` first, `id` breaking ties. */
    listCustomers(orgId: string, search: string | undefined, page: Page): PageResult<CustomerView> {
      let where = 'c.org_id = ?';
      const params: unknown[] = [orgId];
      if (search !== undefined) {
        const like = `%${search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
        where += ` AND (c.name LIKE ? ESCAPE '\\' OR c.email LIKE ? ESCAPE '\\')`;
        params.push(like, like);
      }
      const total =
        search === undefined
          ? (countAll.get(orgId) as number)
          : (prepared(`SELECT count(*) FROM customers c WHERE ${where}`).pluck().get(...params) as number);
      const raw = prepared(`SELECT ${COLUMNS} FROM customers c WHERE ${where}
        ORDER BY c.last_booking_at DESC, c.id DESC LIMIT ? OFFSET ?`)
        .raw(true)
        .all(...params, page.limit, page.offset) as RawCustomer[];
      return { rows: raw.map(viewOf), total };
    },
  };
}
