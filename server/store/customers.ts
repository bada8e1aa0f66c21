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

const RECORD_COLUMNS = `c.id, c.org_id AS orgId, c.email, c.name, c.phone, c.first_booking_at AS firstBookingAt,
  c.last_booking_at AS lastBookingAt, c.erased_at AS erasedAt, c.created_at AS createdAt, c.updated_at AS updatedAt`;
const COLUMNS = `${RECORD_COLUMNS},
  (SELECT count(*) FROM bookings b WHERE b.customer_id = c.id) AS bookingCount,
  (SELECT coalesce(sum(b.unit_price * b.participants), 0) FROM bookings b
    WHERE b.customer_id = c.id AND b.status = 'CONFIRMED') AS spentCents`;

export function customerStore(db: Db) {
  const prepared = statementCache(db);
  const insert = db.prepare(`INSERT INTO customers (id, org_id, email, name, phone, first_booking_at,
    last_booking_at, erased_at, created_at, updated_at) VALUES (@id, @orgId, @email, @name, @phone,
    @firstBookingAt, @lastBookingAt, @erasedAt, @createdAt, @updatedAt)`);
  const update = db.prepare(`UPDATE customers SET email = @email, name = @name, phone = @phone,
    first_booking_at = @firstBookingAt, last_booking_at = @lastBookingAt, erased_at = @erasedAt,
    updated_at = @updatedAt WHERE id = @id`);
  const byEmail = db.prepare(`SELECT ${COLUMNS} FROM customers c WHERE c.org_id = ? AND c.email = ?`);
  const recordByEmail = db.prepare(`SELECT ${RECORD_COLUMNS} FROM customers c WHERE c.org_id = ? AND c.email = ?`);
  const byId = db.prepare(`SELECT ${COLUMNS} FROM customers c WHERE c.org_id = ? AND c.id = ?`);

  return {
    insertCustomer(row: CustomerRow): void {
      insert.run(row);
    },
    updateCustomer(row: CustomerRow): void {
      update.run(row);
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
      const total = (prepared(`SELECT count(*) AS n FROM customers c WHERE ${where}`).get(...params) as { n: number }).n;
      const rows = prepared(`SELECT ${COLUMNS} FROM customers c WHERE ${where}
        ORDER BY c.last_booking_at DESC, c.id DESC LIMIT ? OFFSET ?`).all(...params, page.limit, page.offset) as CustomerView[];
      return { rows, total };
    },
  };
}
