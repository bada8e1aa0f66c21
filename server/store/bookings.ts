import type { Db } from './sqlite/db.js';
import { statementCache, type Page, type PageResult } from './statements.js';

export interface BookingRow {
  id: string;
  orgId: string;
  bookingNumber: string;
  experienceId: string;
  customerId: string;
  slotStart: number;
  slotEnd: number;
  status: 'CONFIRMED' | 'PENDING' | 'CANCELLED';
  guestName: string;
  guestEmail: string;
  guestPhone: string | null;
  participants: number;
  unitPrice: number;
  currency: string;
  source: 'API' | 'WIDGET';
  metadata: string; // JSON object
  cancellationReason: string | null;
  cancelledAt: number | null;
  holdExpiresAt: number | null;
  checkoutSessionId: string | null;
  checkoutUrl: string | null;
  sequence: number;
  /** When the guest was checked in at the start, or null. */
  checkedInAt: number | null;
  /** JSON array of the tickets as booked (migration 007); null for a booking without price categories. */
  tickets: string | null;
  /** Places the tickets occupy; null: the participants. */
  places: number | null;
  /** What the tickets cost, in cents; null: unitPrice × participants. */
  totalCents: number | null;
  /** The guest's language (migration 008); null is English. */
  locale: 'en' | 'pt' | null;
  createdAt: number;
  updatedAt: number;
}

/** A booking with its experience's name, which the record shows as `experience.title`. */
export interface BookingView extends BookingRow {
  experienceName: string;
}

export interface BookingFilter {
  experienceId?: string;
  customerId?: string;
  status?: BookingRow['status'];
  startFrom?: number; // slot start ≥
  startTo?: number; // slot start ≤
  q?: string;
}

export const COLUMNS = `b.id, b.org_id AS orgId, b.booking_number AS bookingNumber, b.experience_id AS experienceId,
  b.customer_id AS customerId, b.slot_start AS slotStart, b.slot_end AS slotEnd, b.status,
  b.guest_name AS guestName, b.guest_email AS guestEmail, b.guest_phone AS guestPhone, b.participants,
  b.unit_price AS unitPrice, b.currency, b.source, b.metadata, b.cancellation_reason AS cancellationReason,
  b.cancelled_at AS cancelledAt, b.hold_expires_at AS holdExpiresAt, b.checkout_session_id AS checkoutSessionId,
  b.checkout_url AS checkoutUrl, b.sequence, b.checked_in_at AS checkedInAt, b.tickets, b.places, b.total_cents AS totalCents,
  b.locale, b.created_at AS createdAt, b.updated_at AS updatedAt, e.name AS experienceName`;
export const FROM = 'FROM bookings b JOIN experiences e ON e.id = b.experience_id';

/** The columns of COLUMNS as a row of values: a page of a list is read raw and shaped here, since
 * better-sqlite3 building an object per row (25 named properties) cost twice the whole query. */
const RAW_COLUMNS = `b.id, b.org_id, b.booking_number, b.experience_id, b.customer_id, b.slot_start, b.slot_end, b.status,
  b.guest_name, b.guest_email, b.guest_phone, b.participants, b.unit_price, b.currency, b.source, b.metadata,
  b.cancellation_reason, b.cancelled_at, b.hold_expires_at, b.checkout_session_id, b.checkout_url, b.sequence,
  b.created_at, b.updated_at, e.name, b.checked_in_at, b.tickets, b.places, b.total_cents, b.locale`;
type RawBooking = [
  string, string, string, string, string, number, number, BookingRow['status'], string, string, string | null, number, number,
  string, BookingRow['source'], string, string | null, number | null, number | null, string | null, string | null, number,
  number, number, string, number | null, string | null, number | null, number | null, BookingRow['locale'],
];
function viewOf(r: RawBooking): BookingView {
  return {
    id: r[0], orgId: r[1], bookingNumber: r[2], experienceId: r[3], customerId: r[4], slotStart: r[5], slotEnd: r[6],
    status: r[7], guestName: r[8], guestEmail: r[9], guestPhone: r[10], participants: r[11], unitPrice: r[12],
    currency: r[13], source: r[14], metadata: r[15], cancellationReason: r[16], cancelledAt: r[17], holdExpiresAt: r[18],
    checkoutSessionId: r[19], checkoutUrl: r[20], sequence: r[21], createdAt: r[22], updatedAt: r[23], experienceName: r[24], checkedInAt: r[25],
    tickets: r[26], places: r[27], totalCents: r[28], locale: r[29],
  };
}

/** From this offset on, a page is read by a deferred join (listBookings). */
export const DEFERRED_JOIN_OFFSET = 1_000;

const STATUSES = new Set<string>(['CONFIRMED', 'PENDING', 'CANCELLED']);
export function statusWord(status: string): string {
  if (!STATUSES.has(status)) throw new Error(`Unknown booking status: ${status}`);
  return status;
}

export function bookingStore(db: Db) {
  const prepared = statementCache(db);
  const insert = db.prepare(`INSERT INTO bookings (id, org_id, booking_number, experience_id, customer_id,
    slot_start, slot_end, status, guest_name, guest_email, guest_phone, participants, unit_price, currency, source,
    metadata, cancellation_reason, cancelled_at, hold_expires_at, checkout_session_id, checkout_url, sequence,
    checked_in_at, tickets, places, total_cents, locale, created_at, updated_at)
    VALUES (@id, @orgId, @bookingNumber, @experienceId, @customerId, @slotStart, @slotEnd, @status, @guestName,
    @guestEmail, @guestPhone, @participants, @unitPrice, @currency, @source, @metadata, @cancellationReason,
    @cancelledAt, @holdExpiresAt, @checkoutSessionId, @checkoutUrl, @sequence, @checkedInAt, @tickets, @places,
    @totalCents, @locale, @createdAt, @updatedAt)`);
  const update = db.prepare(`UPDATE bookings SET customer_id = @customerId, slot_start = @slotStart,
    slot_end = @slotEnd, status = @status, guest_name = @guestName, guest_email = @guestEmail,
    guest_phone = @guestPhone, participants = @participants, metadata = @metadata,
    cancellation_reason = @cancellationReason, cancelled_at = @cancelledAt, hold_expires_at = @holdExpiresAt,
    checkout_session_id = @checkoutSessionId, checkout_url = @checkoutUrl, sequence = @sequence,
    checked_in_at = @checkedInAt, tickets = @tickets, places = @places, total_cents = @totalCents, locale = @locale,
    updated_at = @updatedAt WHERE id = @id`);
  const byId = db.prepare(`SELECT ${COLUMNS} ${FROM} WHERE b.org_id = ? AND b.id = ?`);
  const byNumber = db.prepare(`SELECT ${COLUMNS} ${FROM} WHERE b.org_id = ? AND b.booking_number = ?`);
  const numberTaken = db.prepare('SELECT 1 FROM bookings WHERE booking_number = ?');
  const anyInOrg = db.prepare('SELECT 1 FROM bookings WHERE org_id = ? LIMIT 1');
  const slotBooked = db.prepare('SELECT booked FROM slot_counts WHERE experience_id = ? AND slot_start = ?');
  const addBooked = db.prepare(`INSERT INTO slot_counts (experience_id, slot_start, booked) VALUES (?, ?, ?)
    ON CONFLICT (experience_id, slot_start) DO UPDATE SET booked = booked + excluded.booked`);
  // Not an upsert: SQLite checks `booked >= 0` on the row to insert before it sees the conflict,
  // so a negative delta through the INSERT above would always fail.
  const removeBooked = db.prepare('UPDATE slot_counts SET booked = booked - ? WHERE experience_id = ? AND slot_start = ?');
  // Raw rows ([slotStart, booked]): availability reads one per slot on every request.
  const slotRange = db
    .prepare(`SELECT slot_start, booked FROM slot_counts WHERE experience_id = ? AND slot_start >= ? AND slot_start < ?`)
    .raw(true);
  const forCustomer = db
    .prepare(`SELECT ${RAW_COLUMNS} ${FROM} WHERE b.customer_id = ? ORDER BY b.slot_start DESC, b.created_at DESC, b.id DESC LIMIT ?`)
    .raw(true);
  const customerTotals = db.prepare(`SELECT count(*) AS bookingCount,
    coalesce(sum(CASE WHEN status = 'CONFIRMED' THEN coalesce(total_cents, unit_price * participants) ELSE 0 END), 0) AS spentCents,
    min(created_at) AS firstAt, max(created_at) AS lastAt
    FROM bookings WHERE customer_id = ?`);
  const lapsedHolds = db.prepare(`SELECT ${COLUMNS} ${FROM}
    WHERE b.status = 'PENDING' AND b.hold_expires_at IS NOT NULL AND b.hold_expires_at <= ? LIMIT ?`);
  const bySession = db.prepare(`SELECT ${COLUMNS} ${FROM} WHERE b.checkout_session_id = ?`);
  const inWindow = db.prepare(`SELECT ${COLUMNS} ${FROM} WHERE b.org_id = ? AND b.status != 'CANCELLED'
    AND b.slot_start >= ? AND b.slot_start < ? ORDER BY b.slot_start, b.id`);
  const inWindowForExperience = db.prepare(`SELECT ${COLUMNS} ${FROM} WHERE b.org_id = ? AND b.experience_id = ?
    AND b.status != 'CANCELLED' AND b.slot_start >= ? AND b.slot_start < ? ORDER BY b.slot_start, b.id`);

  // Totals from the counters the triggers of migration 003 keep (one row per org, experience and
  // status): an unfiltered, status-only or experience-only total reads a few rows, never the bookings.
  const countAll = db.prepare('SELECT coalesce(sum(n), 0) FROM booking_counts WHERE org_id = ?').pluck();
  const countStatus = db.prepare('SELECT coalesce(sum(n), 0) FROM booking_counts WHERE org_id = ? AND status = ?').pluck();
  const countExperience = db.prepare('SELECT coalesce(sum(n), 0) FROM booking_counts WHERE org_id = ? AND experience_id = ?').pluck();
  const countExperienceStatus = db
    .prepare('SELECT coalesce(sum(n), 0) FROM booking_counts WHERE org_id = ? AND experience_id = ? AND status = ?')
    .pluck();

  /** The filter as SQL. `status` is one of three fixed words, written into the SQL itself so that
   * the partial index bookings_org_status_order (PENDING and CANCELLED only) can serve it. */
  function whereOf(orgId: string, f: BookingFilter): { sql: string; params: unknown[] } {
    // Which index reads the page: a customer's bookings through bookings_customer (they are few);
    // an experience's through bookings_experience_slot, unless a rare status narrows it more
    // (bookings_org_status_order); otherwise bookings_org_slot. The unary + keeps the planner, which
    // has no statistics, off the org-wide indexes where they would read far more rows.
    const rareStatus = f.status !== undefined && f.status !== 'CONFIRMED';
    const narrowed = f.customerId !== undefined || (f.experienceId !== undefined && !rareStatus);
    const clauses = [narrowed ? '+b.org_id = ?' : 'b.org_id = ?'];
    const params: unknown[] = [orgId];
    if (f.experienceId !== undefined) (clauses.push('b.experience_id = ?'), params.push(f.experienceId));
    if (f.customerId !== undefined) (clauses.push('b.customer_id = ?'), params.push(f.customerId));
    if (f.status !== undefined) {
      clauses.push(`b.status = '${statusWord(f.status)}'`);
      // The partial index's own condition, word for word: SQLite uses a partial index only when
      // the query's WHERE contains it (b.status = 'PENDING' alone does not prove it).
      if (f.status !== 'CONFIRMED') clauses.push(`b.status <> 'CONFIRMED'`);
    }
    if (f.startFrom !== undefined) (clauses.push('b.slot_start >= ?'), params.push(f.startFrom));
    if (f.startTo !== undefined) (clauses.push('b.slot_start <= ?'), params.push(f.startTo));
    if (f.q !== undefined) {
      const like = `%${f.q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
      clauses.push(`(b.booking_number = ? COLLATE NOCASE OR b.guest_email LIKE ? ESCAPE '\\'
        OR b.guest_name LIKE ? ESCAPE '\\')`);
      params.push(f.q, like, like);
    }
    return { sql: clauses.join(' AND '), params };
  }

  /** Counts the rows of a filter over an index range (date range, customer) or, for q, a scan. */
  function countWhere(orgId: string, f: BookingFilter): number {
    const { sql, params } = whereOf(orgId, f);
    return prepared(`SELECT count(*) FROM bookings b WHERE ${sql}`).pluck().get(...params) as number;
  }

  /** `pagination.total` of a list, as cheaply as the filter allows. */
  function totalOf(orgId: string, f: BookingFilter): number {
    const ranged = f.startFrom !== undefined || f.startTo !== undefined;
    if (f.q === undefined && f.customerId === undefined) {
      if (!ranged) {
        if (f.experienceId === undefined) return (f.status === undefined ? countAll.get(orgId) : countStatus.get(orgId, f.status)) as number;
        return (f.status === undefined
          ? countExperience.get(orgId, f.experienceId)
          : countExperienceStatus.get(orgId, f.experienceId, f.status)) as number;
      }
      // CONFIRMED over a date range: every booking of the range less the PENDING and CANCELLED
      // ones, three counts of index ranges instead of a status check on every row of the range.
      if (f.status === 'CONFIRMED' && f.experienceId === undefined) {
        return (
          countWhere(orgId, { ...f, status: undefined }) -
          countWhere(orgId, { ...f, status: 'PENDING' }) -
          countWhere(orgId, { ...f, status: 'CANCELLED' })
        );
      }
    }
    return countWhere(orgId, f);
  }

  return {
    /** Inserts a booking; migration 003's trigger counts it in the same statement. */
    insertBooking(row: BookingRow): void {
      insert.run(row);
    },
    updateBooking(row: BookingRow): void {
      update.run(row);
    },
    getBooking(orgId: string, id: string): BookingView | undefined {
      return byId.get(orgId, id) as BookingView | undefined;
    },
    getBookingByNumber(orgId: string, bookingNumber: string): BookingView | undefined {
      return byNumber.get(orgId, bookingNumber) as BookingView | undefined;
    },
    getBookingByCheckoutSession(sessionId: string): BookingView | undefined {
      return bySession.get(sessionId) as BookingView | undefined;
    },
    bookingNumberTaken(bookingNumber: string): boolean {
      return numberTaken.get(bookingNumber) !== undefined;
    },
    orgHasBookings(orgId: string): boolean {
      return anyInOrg.get(orgId) !== undefined;
    },
    /** Sorted by slot start, then creation, then id. */
    listBookings(orgId: string, filter: BookingFilter, page: Page): PageResult<BookingView> {
      const { sql, params } = whereOf(orgId, filter);
      const total = totalOf(orgId, filter);
      // A deep page skips its offset over the index alone (a deferred join: row ids first, then
      // the page's rows): joining every skipped row cost ~2 µs each (offset 500,000: 1 s at 1M).
      // The page is sorted again, at most `limit` rows; shallow pages keep the single read.
      const ORDER = 'ORDER BY b.slot_start, b.created_at, b.id';
      const text =
        page.offset >= DEFERRED_JOIN_OFFSET
          ? `SELECT ${RAW_COLUMNS} FROM (SELECT b.rowid AS r FROM bookings b WHERE ${sql} ${ORDER} LIMIT ? OFFSET ?) p
             JOIN bookings b ON b.rowid = p.r JOIN experiences e ON e.id = b.experience_id ${ORDER}`
          : `SELECT ${RAW_COLUMNS} ${FROM} WHERE ${sql} ${ORDER} LIMIT ? OFFSET ?`;
      const raw = prepared(text)
        .raw(true)
        .all(...params, page.limit, page.offset) as RawBooking[];
      return { rows: raw.map(viewOf), total };
    },
    listCustomerBookings(customerId: string, limit: number): BookingView[] {
      return (forCustomer.all(customerId, limit) as RawBooking[]).map(viewOf);
    },
    customerTotals(customerId: string): { bookingCount: number; spentCents: number; firstAt: number | null; lastAt: number | null } {
      return customerTotals.get(customerId) as { bookingCount: number; spentCents: number; firstAt: number | null; lastAt: number | null };
    },
    /** Bookings (not cancelled) whose slot starts in [from, to), for calendar feeds. */
    listActiveBookingsBetween(orgId: string, from: number, to: number, experienceId?: string): BookingView[] {
      return (experienceId === undefined
        ? inWindow.all(orgId, from, to)
        : inWindowForExperience.all(orgId, experienceId, from, to)) as BookingView[];
    },
    listLapsedHolds(now: number, limit: number): BookingView[] {
      return lapsedHolds.all(now, limit) as BookingView[];
    },
    /** Places taken in one slot (CONFIRMED + PENDING bookings). */
    bookedPlaces(experienceId: string, slotStart: number): number {
      return (slotBooked.get(experienceId, slotStart) as { booked: number } | undefined)?.booked ?? 0;
    },
    addBookedPlaces(experienceId: string, slotStart: number, delta: number): void {
      if (delta > 0) addBooked.run(experienceId, slotStart, delta);
      else if (delta < 0) removeBooked.run(-delta, experienceId, slotStart);
    },
    /** Places taken per slot start in [from, to). */
    bookedPlacesBetween(experienceId: string, from: number, to: number): Map<number, number> {
      const booked = new Map<number, number>();
      for (const [slotStart, places] of slotRange.all(experienceId, from, to) as [number, number][]) booked.set(slotStart, places);
      return booked;
    },
  };
}
