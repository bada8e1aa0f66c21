import type { Async } from '../index.js';
import type { Page, PageResult } from '../statements.js';
import type { CustomerRow, CustomerView, customerStore } from '../customers.js';
import { quoteAliases, type PgDb } from './db.js';
import { COLUMNS, RECORD_COLUMNS } from '../customers.js';

/** PostgreSQL folds unquoted aliases to lower case: quoting them keeps the SQLite module's column lists the one source. */

// The spent sum is NUMERIC in PostgreSQL (sum of BIGINT); the pool parses it as a number, as SQLite answers it.
const VIEW = quoteAliases(COLUMNS);
const RECORD = quoteAliases(RECORD_COLUMNS);

/** A row of a list page: its total beside it; when the page is empty, the one row holds the total alone. */
type PageRow = Omit<CustomerView, 'id'> & { id: string | null; total: number };

function rowParams(row: CustomerRow): unknown[] {
  return [row.id, row.orgId, row.email, row.name, row.phone, row.firstBookingAt, row.lastBookingAt, row.erasedAt, row.createdAt, row.updatedAt];
}

/** `LIKE ? ESCAPE '\'` of SQLite ignores ASCII case: ILIKE does the same under the C ctype. */
function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

export function customerStorePg(db: PgDb): Async<ReturnType<typeof customerStore>> {
  return {
    /** Inserts a customer; migration 003's trigger counts it in the same statement. */
    async insertCustomer(row: CustomerRow): Promise<void> {
      await db.run(
        `INSERT INTO customers (id, org_id, email, name, phone, first_booking_at, last_booking_at, erased_at, created_at, updated_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        rowParams(row),
      );
    },
    /**
     * One UPDATE. SQLite's module first tries one without the e-mail, to spare the e-mail's unique
     * index a rewrite; in PostgreSQL what an update writes does not depend on the columns SET (the
     * new row version gets an entry in every index unless no indexed column changed value), so
     * the split would buy nothing, and one statement is atomic without a transaction around it.
     */
    async updateCustomer(row: CustomerRow): Promise<void> {
      await db.run(
        `UPDATE customers SET email = $2, name = $3, phone = $4, first_booking_at = $5, last_booking_at = $6, erased_at = $7,
          updated_at = $8 WHERE id = $1`,
        [row.id, row.email, row.name, row.phone, row.firstBookingAt, row.lastBookingAt, row.erasedAt, row.updatedAt],
      );
    },
    async getCustomerByEmail(orgId: string, email: string): Promise<CustomerView | undefined> {
      return await db.get<CustomerView>(`SELECT ${VIEW} FROM customers c WHERE c.org_id = $1 AND c.email = $2`, [orgId, email]);
    },
    /** The stored record alone, without the figures summed over its bookings: for each new booking. */
    async getCustomerRecordByEmail(orgId: string, email: string): Promise<CustomerRow | undefined> {
      return await db.get<CustomerRow>(`SELECT ${RECORD} FROM customers c WHERE c.org_id = $1 AND c.email = $2`, [orgId, email]);
    },
    async getCustomer(orgId: string, id: string): Promise<CustomerView | undefined> {
      return await db.get<CustomerView>(`SELECT ${VIEW} FROM customers c WHERE c.org_id = $1 AND c.id = $2`, [orgId, id]);
    },
    /**
     * Latest `lastBookingAt` first, `id` breaking ties. The total and the page come from one
     * statement, so from one snapshot: they agree even while other connections write, as SQLite's
     * two statements do (nothing runs between them there).
     */
    async listCustomers(orgId: string, search: string | undefined, page: Page): Promise<PageResult<CustomerView>> {
      const params: unknown[] = [orgId];
      let where = 'c.org_id = $1';
      if (search !== undefined) {
        params.push(likePattern(search));
        where += ` AND (c.name ILIKE $2 ESCAPE '\\' OR c.email ILIKE $2 ESCAPE '\\')`;
      }
      // The unfiltered total from the counter the triggers of migration 003 keep.
      const total =
        search === undefined
          ? 'SELECT coalesce(sum(n), 0) AS total FROM customer_counts WHERE org_id = $1'
          : `SELECT count(*) AS total FROM customers c WHERE ${where}`;
      const limit = `$${params.length + 1}`;
      const offset = `$${params.length + 2}`;
      // SQLite sorts NULL as the smallest value, so `last_booking_at DESC` puts customers without a
      // booking last; PostgreSQL's default is the opposite, hence NULLS LAST (customers_recent's
      // order). The outer ORDER BY keeps the page's order through the join.
      const found = await db.all<PageRow>(
        `SELECT p.*, t.total FROM (${total}) t
          LEFT JOIN LATERAL (SELECT ${VIEW} FROM customers c WHERE ${where}
            ORDER BY c.last_booking_at DESC NULLS LAST, c.id DESC LIMIT ${limit} OFFSET ${offset}) p ON true
          ORDER BY p."lastBookingAt" DESC NULLS LAST, p.id DESC`,
        [...params, page.limit, page.offset],
      );
      return {
        rows: found.filter((r) => r.id !== null).map(({ total: _total, ...view }) => view as CustomerView),
        total: found[0]?.total ?? 0,
      };
    },
  };
}
