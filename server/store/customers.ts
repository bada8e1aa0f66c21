import { likePattern } from './dialect.js';
import type { Page, PageResult, Sql } from './sql.js';

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

/** The people who booked with an organization, one per e-mail address (compared as stored). */
export interface CustomerStore {
  /** Inserts a customer; migration 003's trigger counts it in the same statement. */
  insertCustomer(row: CustomerRow): Promise<void>;
  /** Every field but the organization and the creation time. */
  updateCustomer(row: CustomerRow): Promise<void>;
  getCustomerByEmail(orgId: string, email: string): Promise<CustomerView | undefined>;
  /** The stored record alone, without the figures summed over its bookings: for each new booking. */
  getCustomerRecordByEmail(orgId: string, email: string): Promise<CustomerRow | undefined>;
  getCustomer(orgId: string, id: string): Promise<CustomerView | undefined>;
  /**
   * Latest `lastBookingAt` first (customers without a booking last), `id` breaking ties from the
   * highest. `search` is found in the name or the e-mail, ignoring ASCII case, `%` and `_` taken literally.
   */
  listCustomers(orgId: string, search: string | undefined, page: Page): Promise<PageResult<CustomerView>>;
}

const RECORD_COLUMNS = `c.id, c.org_id AS "orgId", c.email, c.name, c.phone, c.first_booking_at AS "firstBookingAt",
  c.last_booking_at AS "lastBookingAt", c.erased_at AS "erasedAt", c.created_at AS "createdAt", c.updated_at AS "updatedAt"`;
// Each customer's figures from its own bookings, through bookings_customer.
const COLUMNS = `${RECORD_COLUMNS},
  (SELECT count(*) FROM bookings b WHERE b.customer_id = c.id) AS "bookingCount",
  (SELECT coalesce(sum(coalesce(b.total_cents, b.unit_price * b.participants)), 0) FROM bookings b
    WHERE b.customer_id = c.id AND b.status = 'CONFIRMED') AS "spentCents"`;

/** A row of a list page, read as values (`COLUMNS` in order, then the total); `id` is null on an empty page. */
type PageRow = [
  string | null, string, string, string, string | null, number | null, number | null, number | null, number, number, number, number, number,
];

function viewOf(r: PageRow): CustomerView {
  return {
    id: r[0]!, orgId: r[1], email: r[2], name: r[3], phone: r[4], firstBookingAt: r[5], lastBookingAt: r[6], erasedAt: r[7],
    createdAt: r[8], updatedAt: r[9], bookingCount: r[10], spentCents: r[11],
  };
}

export function customerStore(sql: Sql): CustomerStore {
  return {
    async insertCustomer(row) {
      await sql.run(
        `INSERT INTO customers (id, org_id, email, name, phone, first_booking_at, last_booking_at, erased_at, created_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [row.id, row.orgId, row.email, row.name, row.phone, row.firstBookingAt, row.lastBookingAt, row.erasedAt, row.createdAt, row.updatedAt],
      );
    },
    async updateCustomer(row) {
      const fields = [row.name, row.phone, row.firstBookingAt, row.lastBookingAt, row.erasedAt, row.updatedAt];
      // The usual case (each booking of a returning customer) first, without the e-mail: SQLite
      // rewrites the entry of every index whose column is SET, even to the same value, and the
      // e-mail's unique index entry cost ~1.1 KB of WAL and ~10 µs per booking (measured).
      const changed = await sql.run(
        `UPDATE customers SET name = ?, phone = ?, first_booking_at = ?, last_booking_at = ?, erased_at = ?, updated_at = ?
          WHERE id = ? AND email = ?`,
        [...fields, row.id, row.email],
      );
      if (changed > 0) return;
      await sql.run(
        `UPDATE customers SET name = ?, phone = ?, first_booking_at = ?, last_booking_at = ?, erased_at = ?, updated_at = ?, email = ?
          WHERE id = ?`,
        [...fields, row.email, row.id],
      );
    },
    getCustomerByEmail: (orgId, email) =>
      sql.get<CustomerView>(`SELECT ${COLUMNS} FROM customers c WHERE c.org_id = ? AND c.email = ?`, [orgId, email]),
    getCustomerRecordByEmail: (orgId, email) =>
      sql.get<CustomerRow>(`SELECT ${RECORD_COLUMNS} FROM customers c WHERE c.org_id = ? AND c.email = ?`, [orgId, email]),
    getCustomer: (orgId, id) => sql.get<CustomerView>(`SELECT ${COLUMNS} FROM customers c WHERE c.org_id = ? AND c.id = ?`, [orgId, id]),
    async listCustomers(orgId, search, page) {
      let where = 'c.org_id = ?';
      const params: unknown[] = [orgId];
      if (search !== undefined) {
        const like = likePattern(search);
        where += ` AND (${sql.dialect.likeIgnoringCase('c.name')} OR ${sql.dialect.likeIgnoringCase('c.email')})`;
        params.push(like, like);
      }
      // The unfiltered total from the counter the triggers of migration 003 keep.
      const total =
        search === undefined
          ? 'SELECT coalesce(sum(n), 0) AS total FROM customer_counts WHERE org_id = ?'
          : `SELECT count(*) AS total FROM customers c WHERE ${where}`;
      // The total and the page in one statement, so from one snapshot: they agree even while others
      // write. `DESC NULLS LAST` is customers_recent's order on both engines (SQLite's NULL is the
      // smallest value, PostgreSQL's the largest); the outer ORDER BY keeps it through the join.
      // Read as values: cheaper than building each row's object on SQLite.
      const found = await sql.values<PageRow>(
        `SELECT p.*, t.total FROM (${total}) t
          LEFT JOIN (SELECT ${COLUMNS} FROM customers c WHERE ${where}
            ORDER BY c.last_booking_at DESC NULLS LAST, c.id DESC LIMIT ? OFFSET ?) p ON true
          ORDER BY p."lastBookingAt" DESC NULLS LAST, p.id DESC`,
        [...params, ...params, page.limit, page.offset],
      );
      return { rows: found.filter((r) => r[0] !== null).map(viewOf), total: found[0]?.[12] ?? 0 };
    },
  };
}
