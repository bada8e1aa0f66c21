import type { Async } from '../index.js';
import { quoteAliases, type PgDb } from './db.js';
import type { Page, PageResult } from '../sql.js';
import {
  COLUMNS as SQLITE_COLUMNS,
  DEFERRED_JOIN_OFFSET,
  FROM,
  statusWord,
  type BookingFilter,
  type BookingRow,
  type BookingView,
  type bookingStore,
} from '../bookings.js';

/**
 * SQLite's column list with its aliases quoted: PostgreSQL folds an unquoted `AS orgId` to `orgid`.
 * Derived rather than copied, so a column added there is read here too; the objects come out with
 * BookingView's names as they do from better-sqlite3.
 */
const COLUMNS = quoteAliases(SQLITE_COLUMNS);

/** The list order, every tie broken by id (the C collation compares ids byte by byte, as SQLite). */
const ORDER = 'ORDER BY b.slot_start, b.created_at, b.id';

/** The columns a booking is inserted into, each with the field of BookingRow it holds. */
const INSERTED: readonly (readonly [string, keyof BookingRow])[] = [
  ['id', 'id'], ['org_id', 'orgId'], ['booking_number', 'bookingNumber'], ['experience_id', 'experienceId'],
  ['customer_id', 'customerId'], ['slot_start', 'slotStart'], ['slot_end', 'slotEnd'], ['status', 'status'],
  ['guest_name', 'guestName'], ['guest_email', 'guestEmail'], ['guest_phone', 'guestPhone'], ['participants', 'participants'],
  ['unit_price', 'unitPrice'], ['currency', 'currency'], ['source', 'source'], ['metadata', 'metadata'],
  ['cancellation_reason', 'cancellationReason'], ['cancelled_at', 'cancelledAt'], ['hold_expires_at', 'holdExpiresAt'],
  ['checkout_session_id', 'checkoutSessionId'], ['checkout_url', 'checkoutUrl'], ['sequence', 'sequence'],
  ['checked_in_at', 'checkedInAt'], ['tickets', 'tickets'], ['places', 'places'], ['total_cents', 'totalCents'],
  ['locale', 'locale'], ['created_at', 'createdAt'], ['updated_at', 'updatedAt'],
];
/** What updateBooking may change, as SQLite's UPDATE: never the org, number, experience, price, currency, source or creation. */
const UPDATED: readonly (readonly [string, keyof BookingRow])[] = [
  ['customer_id', 'customerId'], ['slot_start', 'slotStart'], ['slot_end', 'slotEnd'], ['status', 'status'],
  ['guest_name', 'guestName'], ['guest_email', 'guestEmail'], ['guest_phone', 'guestPhone'], ['participants', 'participants'],
  ['metadata', 'metadata'], ['cancellation_reason', 'cancellationReason'], ['cancelled_at', 'cancelledAt'],
  ['hold_expires_at', 'holdExpiresAt'], ['checkout_session_id', 'checkoutSessionId'], ['checkout_url', 'checkoutUrl'],
  ['sequence', 'sequence'], ['checked_in_at', 'checkedInAt'], ['tickets', 'tickets'], ['places', 'places'],
  ['total_cents', 'totalCents'], ['locale', 'locale'], ['updated_at', 'updatedAt'],
];

const INSERT = `INSERT INTO bookings (${INSERTED.map(([column]) => column).join(', ')})
  VALUES (${INSERTED.map((_, i) => `$${i + 1}`).join(', ')})`;
const UPDATE = `UPDATE bookings SET ${UPDATED.map(([column], i) => `${column} = $${i + 1}`).join(', ')}
  WHERE id = $${UPDATED.length + 1}`;

/** The values of `fields` in `row`, in order. */
function valuesOf(row: BookingRow, fields: readonly (readonly [string, keyof BookingRow])[]): unknown[] {
  return fields.map(([, field]) => row[field]);
}

/** The parameters of a statement assembled from pieces: `add` keeps a value and answers its `$n`. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** The filter as SQL, its values in `p`. `status` is one of three fixed words, written into the SQL as SQLite's store does. */
function whereOf(orgId: string, f: BookingFilter, p: Params): string {
  // No unary plus (SQLite's index hint; an error on TEXT here): PostgreSQL's planner has statistics.
  // No `b.status <> 'CONFIRMED'` either: PostgreSQL proves the partial index's condition from the status alone.
  const clauses = [`b.org_id = ${p.add(orgId)}`];
  if (f.experienceId !== undefined) clauses.push(`b.experience_id = ${p.add(f.experienceId)}`);
  if (f.customerId !== undefined) clauses.push(`b.customer_id = ${p.add(f.customerId)}`);
  if (f.status !== undefined) clauses.push(`b.status = '${statusWord(f.status)}'`);
  if (f.startFrom !== undefined) clauses.push(`b.slot_start >= ${p.add(f.startFrom)}`);
  if (f.startTo !== undefined) clauses.push(`b.slot_start <= ${p.add(f.startTo)}`);
  if (f.q !== undefined) {
    // SQLite's `= ? COLLATE NOCASE` and LIKE both ignore ASCII case only: so do lower() and ILIKE
    // under the C ctype the database is made with.
    const like = p.add(`%${f.q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`);
    clauses.push(`(lower(b.booking_number) = lower(${p.add(f.q)}) OR b.guest_email ILIKE ${like} ESCAPE '\\'
      OR b.guest_name ILIKE ${like} ESCAPE '\\')`);
  }
  return clauses.join(' AND ');
}

/** The rows of a filter, counted over an index range (date range, customer) or, for q, a scan. */
function countOf(orgId: string, f: BookingFilter, p: Params): string {
  return `SELECT count(*) FROM bookings b WHERE ${whereOf(orgId, f, p)}`;
}

/** `pagination.total` of a list as a scalar query, as cheaply as the filter allows (SQLite's totalOf, clause for clause). */
function totalOf(orgId: string, f: BookingFilter, p: Params): string {
  const ranged = f.startFrom !== undefined || f.startTo !== undefined;
  if (f.q === undefined && f.customerId === undefined) {
    if (!ranged) {
      // The counters migration 003's trigger keeps: one row per org, experience and status.
      const clauses = [`org_id = ${p.add(orgId)}`];
      if (f.experienceId !== undefined) clauses.push(`experience_id = ${p.add(f.experienceId)}`);
      if (f.status !== undefined) clauses.push(`status = ${p.add(f.status)}`);
      return `SELECT coalesce(sum(n), 0)::bigint FROM booking_counts WHERE ${clauses.join(' AND ')}`;
    }
    // CONFIRMED over a date range: every booking of the range less the PENDING and CANCELLED ones.
    if (f.status === 'CONFIRMED' && f.experienceId === undefined) {
      return `SELECT (${countOf(orgId, { ...f, status: undefined }, p)}) - (${countOf(orgId, { ...f, status: 'PENDING' }, p)})
        - (${countOf(orgId, { ...f, status: 'CANCELLED' }, p)})`;
    }
  }
  return countOf(orgId, f, p);
}

/** The page's rows; a deep page skips its offset over the index alone (a deferred join on the primary key: PostgreSQL has no rowid). */
function pageOf(orgId: string, f: BookingFilter, page: Page, p: Params): string {
  const where = whereOf(orgId, f, p);
  const window = `LIMIT ${p.add(page.limit)} OFFSET ${p.add(page.offset)}`;
  return page.offset >= DEFERRED_JOIN_OFFSET
    ? `SELECT ${COLUMNS} FROM (SELECT b.id FROM bookings b WHERE ${where} ${ORDER} ${window}) p
       JOIN bookings b ON b.id = p.id JOIN experiences e ON e.id = b.experience_id`
    : `SELECT ${COLUMNS} ${FROM} WHERE ${where} ${ORDER} ${window}`;
}

type ListedRow = { [K in keyof BookingView]: BookingView[K] | null } & { listTotal: number };

export function bookingStorePg(db: PgDb): Async<ReturnType<typeof bookingStore>> {
  const one = (where: string, params: unknown[]) => db.get<BookingView>(`SELECT ${COLUMNS} ${FROM} WHERE ${where}`, params);

  return {
    /** Inserts a booking; migration 003's trigger counts it in the same statement. */
    async insertBooking(row: BookingRow): Promise<void> {
      await db.run(INSERT, valuesOf(row, INSERTED));
    },
    async updateBooking(row: BookingRow): Promise<void> {
      await db.run(UPDATE, [...valuesOf(row, UPDATED), row.id]);
    },
    async getBooking(orgId: string, id: string): Promise<BookingView | undefined> {
      return await one('b.org_id = $1 AND b.id = $2', [orgId, id]);
    },
    async getBookingByNumber(orgId: string, bookingNumber: string): Promise<BookingView | undefined> {
      return await one('b.org_id = $1 AND b.booking_number = $2', [orgId, bookingNumber]);
    },
    async getBookingByCheckoutSession(sessionId: string): Promise<BookingView | undefined> {
      // SQLite answers the first match of its table scan, in rowid (insertion) order; ids sort by creation.
      return await one('b.checkout_session_id = $1 ORDER BY b.id LIMIT 1', [sessionId]);
    },
    async bookingNumberTaken(bookingNumber: string): Promise<boolean> {
      return (await db.get('SELECT 1 FROM bookings WHERE booking_number = $1', [bookingNumber])) !== undefined;
    },
    async orgHasBookings(orgId: string): Promise<boolean> {
      return (await db.get('SELECT 1 FROM bookings WHERE org_id = $1 LIMIT 1', [orgId])) !== undefined;
    },
    /**
     * Sorted by slot start, then creation, then id. The total and the page are one statement, so
     * one snapshot: SQLite reads both with no write in between, and so must a list here.
     */
    async listBookings(orgId: string, filter: BookingFilter, page: Page): Promise<PageResult<BookingView>> {
      const p = new Params();
      const rowsSql = pageOf(orgId, filter, page, p);
      const totalSql = totalOf(orgId, filter, p);
      // The LEFT JOIN answers one row (the total, no booking) for an empty page.
      const listed = await db.all<ListedRow>(
        `WITH page AS (${rowsSql})
         SELECT t."listTotal", page.* FROM (SELECT (${totalSql}) AS "listTotal") t LEFT JOIN page ON true
         ORDER BY page."slotStart", page."createdAt", page.id`,
        p.values,
      );
      const rows = listed.filter((r) => r.id !== null).map(({ listTotal: _, ...view }) => view as BookingView);
      return { rows, total: listed[0]!.listTotal };
    },
    async listCustomerBookings(customerId: string, limit: number): Promise<BookingView[]> {
      return await db.all<BookingView>(
        `SELECT ${COLUMNS} ${FROM} WHERE b.customer_id = $1 ORDER BY b.slot_start DESC, b.created_at DESC, b.id DESC LIMIT $2`,
        [customerId, limit],
      );
    },
    async customerTotals(customerId: string): Promise<{ bookingCount: number; spentCents: number; firstAt: number | null; lastAt: number | null }> {
      const totals = await db.get<{ bookingCount: number; spentCents: number; firstAt: number | null; lastAt: number | null }>(
        `SELECT count(*) AS "bookingCount",
          coalesce(sum(CASE WHEN status = 'CONFIRMED' THEN coalesce(total_cents, unit_price * participants) ELSE 0 END), 0)::bigint AS "spentCents",
          min(created_at) AS "firstAt", max(created_at) AS "lastAt"
          FROM bookings WHERE customer_id = $1`,
        [customerId],
      );
      return totals!; // an aggregate without GROUP BY answers one row
    },
    /** Bookings (not cancelled) whose slot starts in [from, to), for calendar feeds. */
    async listActiveBookingsBetween(orgId: string, from: number, to: number, experienceId?: string): Promise<BookingView[]> {
      const window = `b.status != 'CANCELLED' AND b.slot_start >= $2 AND b.slot_start < $3`;
      return experienceId === undefined
        ? await db.all<BookingView>(`SELECT ${COLUMNS} ${FROM} WHERE b.org_id = $1 AND ${window} ORDER BY b.slot_start, b.id`, [orgId, from, to])
        : await db.all<BookingView>(
            `SELECT ${COLUMNS} ${FROM} WHERE b.org_id = $1 AND ${window} AND b.experience_id = $4 ORDER BY b.slot_start, b.id`,
            [orgId, from, to, experienceId],
          );
    },
    async listLapsedHolds(now: number, limit: number): Promise<BookingView[]> {
      // SQLite reads these from bookings_holds, in expiry order and then rowid (insertion) order;
      // ids sort by creation, so the same order is written out here.
      return await db.all<BookingView>(
        `SELECT ${COLUMNS} ${FROM} WHERE b.status = 'PENDING' AND b.hold_expires_at IS NOT NULL AND b.hold_expires_at <= $1
          ORDER BY b.hold_expires_at, b.id LIMIT $2`,
        [now, limit],
      );
    },
    /** Places taken in one slot (CONFIRMED + PENDING bookings). */
    async bookedPlaces(experienceId: string, slotStart: number): Promise<number> {
      const row = await db.get<{ booked: number }>('SELECT booked FROM slot_counts WHERE experience_id = $1 AND slot_start = $2', [
        experienceId,
        slotStart,
      ]);
      return row?.booked ?? 0;
    },
    async addBookedPlaces(experienceId: string, slotStart: number, delta: number): Promise<void> {
      if (delta > 0) {
        // `slot_counts.booked`: a bare `booked` is ambiguous in PostgreSQL's DO UPDATE.
        await db.run(
          `INSERT INTO slot_counts (experience_id, slot_start, booked) VALUES ($1, $2, $3)
            ON CONFLICT (experience_id, slot_start) DO UPDATE SET booked = slot_counts.booked + excluded.booked`,
          [experienceId, slotStart, delta],
        );
      } else if (delta < 0) {
        // A plain UPDATE as in SQLite: below zero, CHECK (booked >= 0) rejects it; no row, nothing changes.
        await db.run('UPDATE slot_counts SET booked = booked - $1 WHERE experience_id = $2 AND slot_start = $3', [
          -delta,
          experienceId,
          slotStart,
        ]);
      }
    },
    /** Places taken per slot start in [from, to). */
    async bookedPlacesBetween(experienceId: string, from: number, to: number): Promise<Map<number, number>> {
      // In slot order, as SQLite reads them from the primary key.
      const rows = await db.all<{ slotStart: number; booked: number }>(
        `SELECT slot_start AS "slotStart", booked FROM slot_counts WHERE experience_id = $1 AND slot_start >= $2 AND slot_start < $3
          ORDER BY slot_start`,
        [experienceId, from, to],
      );
      return new Map(rows.map((r) => [r.slotStart, r.booked]));
    },
  };
}
