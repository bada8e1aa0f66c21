import { likePattern } from './dialect.js';
import type { Page, PageResult, Sql } from './sql.js';
import type { Locale } from '../../shared/index.js';

export interface BookingRow {
  id: string;
  orgId: string;
  bookingNumber: string;
  experienceId: string;
  /** Null for a reseller's guest given without an e-mail address (OCTO). */
  customerId: string | null;
  slotStart: number;
  slotEnd: number;
  status: 'CONFIRMED' | 'PENDING' | 'CANCELLED';
  /** Null only for an OCTO booking whose reseller gave none (migration 021). */
  guestName: string | null;
  guestEmail: string | null;
  guestPhone: string | null;
  participants: number;
  unitPrice: number;
  currency: string;
  source: 'API' | 'WIDGET' | 'DASHBOARD' | 'OCTO';
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
  locale: Locale | null;
  /** The operator's note (migration 012); never shown to the guest. */
  internalNote: string | null;
  /** JSON arrays of the answers and extras as booked (migration 017); null: none. */
  answers: string | null;
  extras: string | null;
  /**
   * The promo code it took (migration 018): the code's id (null without one, or once the code is
   * deleted) to free its use on cancellation, and the booking's own copy of the rule. Set at creation only.
   */
  promoCodeId: string | null;
  discountCode: string | null;
  discountType: 'PERCENT' | 'AMOUNT' | null;
  discountValue: number | null;
  /** The gift voucher that paid part of it, its mask and the cents it paid; null without one. Set at creation only. */
  voucherId: string | null;
  voucherMask: string | null;
  voucherCents: number | null;
  createdAt: number;
  updatedAt: number;
}

/** A booking with its experience's name, which the record shows as `experience.title`. */
export interface BookingView extends BookingRow {
  experienceName: string;
  /** Cents of its SUCCEEDED refunds (migration 015), kept by the refunds store alone. */
  amountRefunded: number;
  /** Cents of its SUCCEEDED payments, a voucher's included (migration 018), kept by the payments store alone. */
  amountPaid: number;
  /** The reseller's side of an OCTO booking (octo_bookings, migration 021); null for any other. */
  octo: { uuid: string; resellerReference: string | null; apiKeyId: string } | null;
}

export interface BookingFilter {
  experienceId?: string;
  customerId?: string;
  status?: BookingRow['status'];
  source?: BookingRow['source'];
  startFrom?: number; // slot start ≥
  startTo?: number; // slot start ≤
  q?: string;
}

/** A list's order: by slot start (then creation) or by creation; `-` reverses every key, the id last. */
export type BookingOrder = 'startTime' | '-startTime' | 'createdAt' | '-createdAt';

export interface CustomerTotals {
  bookingCount: number;
  spentCents: number;
  firstAt: number | null;
  lastAt: number | null;
}

/** Bookings, and the places they hold per slot (`slot_counts`). */
export interface BookingStore {
  /** Inserts a booking; migration 003's trigger counts it in the same statement. */
  insertBooking(row: BookingRow): Promise<void>;
  /** Rewrites what a booking may change: never its org, number, experience, price, currency, source or creation. */
  updateBooking(row: BookingRow): Promise<void>;
  /**
   * `updateBooking`, if the stored booking is still at `sequence` (no change was saved since it was
   * read); answers whether it was. For changes made beside other writers (a shared transaction).
   */
  updateBookingAt(row: BookingRow, sequence: number): Promise<boolean>;
  getBooking(orgId: string, id: string): Promise<BookingView | undefined>;
  /** By number, exactly (numbers are upper case). */
  getBookingByNumber(orgId: string, bookingNumber: string): Promise<BookingView | undefined>;
  /** The first booking made with this checkout session, should there be several. */
  getBookingByCheckoutSession(sessionId: string): Promise<BookingView | undefined>;
  bookingNumberTaken(bookingNumber: string): Promise<boolean>;
  orgHasBookings(orgId: string): Promise<boolean>;
  /**
   * Sorted by `order` (default slot start, then creation, then id; see ORDERS). The page and its
   * total are read as one statement, so from one state of the table.
   */
  listBookings(orgId: string, filter: BookingFilter, page: Page, order?: BookingOrder): Promise<PageResult<BookingView>>;
  /** A customer's bookings, latest slot first. */
  listCustomerBookings(customerId: string, limit: number): Promise<BookingView[]>;
  customerTotals(customerId: string): Promise<CustomerTotals>;
  /** Bookings (not cancelled) whose slot starts in [from, to), for calendar feeds; in slot order, then id. */
  listActiveBookingsBetween(orgId: string, from: number, to: number, experienceId?: string): Promise<BookingView[]>;
  /** PENDING bookings whose hold ran out by `now`, soonest expiry first. */
  listLapsedHolds(now: number, limit: number): Promise<BookingView[]>;
  /** Places taken in one slot (CONFIRMED + PENDING bookings). */
  bookedPlaces(experienceId: string, slotStart: number): Promise<number>;
  /** Moves a slot's count of places; a count cannot go below zero (CHECK). */
  addBookedPlaces(experienceId: string, slotStart: number, delta: number): Promise<void>;
  /** Places taken per slot start in [from, to), in slot order. */
  bookedPlacesBetween(experienceId: string, from: number, to: number): Promise<Map<number, number>>;
  /**
   * Takes `places` (> 0) in a slot if it is open and they fit under its capacity (its override,
   * else `capacity`: the experience's) with those already taken; answers
   * whether they were taken. One statement: the check and the write cannot be split by another
   * writer, and bookings of one slot take turns on its counter row while those of other slots do not.
   */
  takePlaces(experienceId: string, slotStart: number, places: number, capacity: number): Promise<boolean>;
}

/**
 * A booking's columns as a row of values: lists are read as arrays and shaped here, since building
 * an object per row (30 named properties) cost SQLite twice the whole query.
 */
const COLUMNS = `b.id, b.org_id, b.booking_number, b.experience_id, b.customer_id, b.slot_start, b.slot_end, b.status,
  b.guest_name, b.guest_email, b.guest_phone, b.participants, b.unit_price, b.currency, b.source, b.metadata,
  b.cancellation_reason, b.cancelled_at, b.hold_expires_at, b.checkout_session_id, b.checkout_url, b.sequence,
  b.created_at, b.updated_at, e.name, b.checked_in_at, b.tickets, b.places, b.total_cents, b.locale,
  b.internal_note, b.amount_refunded, b.answers, b.extras, b.promo_code_id, b.discount_code, b.discount_type, b.discount_value,
  b.voucher_id, b.voucher_mask, b.voucher_cents, b.amount_paid`;
type RawBooking = [
  string, string, string, string, string, number, number, BookingRow['status'], string, string, string | null, number, number,
  string, BookingRow['source'], string, string | null, number | null, number | null, string | null, string | null, number,
  number, number, string, number | null, string | null, number | null, number | null, BookingRow['locale'],
  string | null, number, string | null, string | null, string | null, string | null, BookingRow['discountType'], number | null,
  string | null, string | null, number | null, number,
];
function viewOf(r: RawBooking): BookingView {
  return {
    id: r[0], orgId: r[1], bookingNumber: r[2], experienceId: r[3], customerId: r[4], slotStart: r[5], slotEnd: r[6],
    status: r[7], guestName: r[8], guestEmail: r[9], guestPhone: r[10], participants: r[11], unitPrice: r[12],
    currency: r[13], source: r[14], metadata: r[15], cancellationReason: r[16], cancelledAt: r[17], holdExpiresAt: r[18],
    checkoutSessionId: r[19], checkoutUrl: r[20], sequence: r[21], createdAt: r[22], updatedAt: r[23], experienceName: r[24], checkedInAt: r[25],
    tickets: r[26], places: r[27], totalCents: r[28], locale: r[29], internalNote: r[30],
    amountRefunded: Number(r[31]), answers: r[32], extras: r[33], promoCodeId: r[34], discountCode: r[35], discountType: r[36],
    discountValue: r[37], voucherId: r[38], voucherMask: r[39], voucherCents: r[40] === null ? null : Number(r[40]), amountPaid: Number(r[41]),
    octo: null, // see withOcto
  };
}
const FROM = 'FROM bookings b JOIN experiences e ON e.id = b.experience_id';
// The columns read, counted from their list: the total comes right after them.
const COLUMN_COUNT = COLUMNS.split(',').length;

/** The columns a booking is inserted into, each with the field of BookingRow it holds. */
const INSERTED: readonly (readonly [string, keyof BookingRow])[] = [
  ['id', 'id'], ['org_id', 'orgId'], ['booking_number', 'bookingNumber'], ['experience_id', 'experienceId'],
  ['customer_id', 'customerId'], ['slot_start', 'slotStart'], ['slot_end', 'slotEnd'], ['status', 'status'],
  ['guest_name', 'guestName'], ['guest_email', 'guestEmail'], ['guest_phone', 'guestPhone'], ['participants', 'participants'],
  ['unit_price', 'unitPrice'], ['currency', 'currency'], ['source', 'source'], ['metadata', 'metadata'],
  ['cancellation_reason', 'cancellationReason'], ['cancelled_at', 'cancelledAt'], ['hold_expires_at', 'holdExpiresAt'],
  ['checkout_session_id', 'checkoutSessionId'], ['checkout_url', 'checkoutUrl'], ['sequence', 'sequence'],
  ['checked_in_at', 'checkedInAt'], ['tickets', 'tickets'], ['places', 'places'], ['total_cents', 'totalCents'],
  ['locale', 'locale'], ['internal_note', 'internalNote'], ['answers', 'answers'], ['extras', 'extras'],
  ['promo_code_id', 'promoCodeId'], ['discount_code', 'discountCode'], ['discount_type', 'discountType'], ['discount_value', 'discountValue'],
  ['voucher_id', 'voucherId'], ['voucher_mask', 'voucherMask'], ['voucher_cents', 'voucherCents'],
  ['created_at', 'createdAt'], ['updated_at', 'updatedAt'],
];
/** What updateBooking may change. */
const UPDATED: readonly (readonly [string, keyof BookingRow])[] = [
  ['customer_id', 'customerId'], ['slot_start', 'slotStart'], ['slot_end', 'slotEnd'], ['status', 'status'],
  ['guest_name', 'guestName'], ['guest_email', 'guestEmail'], ['guest_phone', 'guestPhone'], ['participants', 'participants'],
  ['metadata', 'metadata'], ['cancellation_reason', 'cancellationReason'], ['cancelled_at', 'cancelledAt'],
  ['hold_expires_at', 'holdExpiresAt'], ['checkout_session_id', 'checkoutSessionId'], ['checkout_url', 'checkoutUrl'],
  ['sequence', 'sequence'], ['checked_in_at', 'checkedInAt'], ['tickets', 'tickets'], ['places', 'places'],
  ['total_cents', 'totalCents'], ['locale', 'locale'], ['internal_note', 'internalNote'], ['answers', 'answers'],
  ['extras', 'extras'], ['updated_at', 'updatedAt'],
];
export const INSERT_BOOKING = `INSERT INTO bookings (${INSERTED.map(([column]) => column).join(', ')})
  VALUES (${INSERTED.map(() => '?').join(', ')})`;
const UPDATE = `UPDATE bookings SET ${UPDATED.map(([column]) => `${column} = ?`).join(', ')} WHERE id = ?`;

/** The values of `fields` in `row`, in order. */
const valuesOf = (row: BookingRow, fields: readonly (readonly [string, keyof BookingRow])[]): unknown[] => fields.map(([, field]) => row[field]);
/** A booking's values in the order of INSERT_BOOKING's placeholders. */
export const insertedValues = (row: BookingRow): unknown[] => valuesOf(row, INSERTED);

/** From this offset on, a page is read by a deferred join (listBookings). */
export const DEFERRED_JOIN_OFFSET = 1_000;

/**
 * The list orders, every tie broken by id, so that a page holds the same rows however the engine
 * reads them. Slot order reads bookings_org_slot forwards or backwards; creation order reads
 * bookings_org_created (org_id, created_at, …), with a small sort of the ties of one instant by id.
 */
const ORDERS: Record<BookingOrder, string> = {
  startTime: 'ORDER BY b.slot_start, b.created_at, b.id',
  '-startTime': 'ORDER BY b.slot_start DESC, b.created_at DESC, b.id DESC',
  createdAt: 'ORDER BY b.created_at, b.id',
  '-createdAt': 'ORDER BY b.created_at DESC, b.id DESC',
};

const STATUSES = new Set<string>(['CONFIRMED', 'PENDING', 'CANCELLED']);
export function statusWord(status: string): string {
  if (!STATUSES.has(status)) throw new Error(`Unknown booking status: ${status}`);
  return status;
}

export function bookingStore(sql: Sql): BookingStore {
  const d = sql.dialect;
  /**
   * Fills in the reseller's side of the OCTO bookings among `views` (octo_bookings, migration 021)
   * with one lookup by primary key, made only when there are some: the statements that read
   * bookings, and so their plans, stay as they were for everyone else.
   */
  async function withOcto(views: BookingView[]): Promise<BookingView[]> {
    const ids = views.filter((v) => v.source === 'OCTO').map((v) => v.id);
    if (ids.length === 0) return views;
    const rows = await sql.values<[string, string, string, string | null]>(
      `SELECT booking_id, uuid, api_key_id, reseller_reference FROM octo_bookings WHERE booking_id IN (${ids.map(() => '?').join(', ')})`,
      ids,
    );
    const byId = new Map(rows.map(([id, uuid, apiKeyId, resellerReference]) => [id, { uuid, apiKeyId, resellerReference }]));
    for (const v of views) if (v.source === 'OCTO') v.octo = byId.get(v.id) ?? null;
    return views;
  }
  const one = async (where: string, params: unknown[]): Promise<BookingView | undefined> => {
    const [row] = await sql.values<RawBooking>(`SELECT ${COLUMNS} ${FROM} WHERE ${where}`, params);
    return row && (await withOcto([viewOf(row)]))[0];
  };
  const many = async (text: string, params: unknown[]): Promise<BookingView[]> => withOcto((await sql.values<RawBooking>(text, params)).map(viewOf));

  /** The filter as SQL, its values pushed on `params`. `status` is one of three fixed words, written into
   * the SQL itself so that the partial index bookings_org_status_order (PENDING and CANCELLED only) can serve it. */
  function whereOf(orgId: string, f: BookingFilter, params: unknown[]): string {
    // Which index reads the page: a customer's bookings through bookings_customer (they are few);
    // an experience's through bookings_experience_slot, unless a rare status narrows it more
    // (bookings_org_status_order); otherwise bookings_org_slot. SQLite has no statistics: noIndex
    // keeps its planner off the org-wide indexes where they would read far more rows.
    const rareStatus = f.status !== undefined && f.status !== 'CONFIRMED';
    const narrowed = f.customerId !== undefined || (f.experienceId !== undefined && !rareStatus);
    const clauses = [`${narrowed ? d.noIndex('b.org_id') : 'b.org_id'} = ?`];
    params.push(orgId);
    if (f.experienceId !== undefined) (clauses.push('b.experience_id = ?'), params.push(f.experienceId));
    if (f.customerId !== undefined) (clauses.push('b.customer_id = ?'), params.push(f.customerId));
    if (f.source !== undefined) (clauses.push('b.source = ?'), params.push(f.source));
    if (f.status !== undefined) {
      clauses.push(`b.status = '${statusWord(f.status)}'`);
      // bookings_org_status_order's own condition (see Dialect.partialIndexCondition).
      const restated = d.partialIndexCondition(`b.status <> 'CONFIRMED'`);
      if (f.status !== 'CONFIRMED' && restated !== '') clauses.push(restated);
    }
    if (f.startFrom !== undefined) (clauses.push('b.slot_start >= ?'), params.push(f.startFrom));
    if (f.startTo !== undefined) (clauses.push('b.slot_start <= ?'), params.push(f.startTo));
    if (f.q !== undefined) {
      const like = likePattern(f.q);
      clauses.push(`(${d.equalsIgnoringCase('b.booking_number')} OR ${d.likeIgnoringCase('b.guest_email')}
        OR ${d.likeIgnoringCase('b.guest_name')})`);
      params.push(f.q, like, like);
    }
    return clauses.join(' AND ');
  }

  /** Counts the rows of a filter over an index range (date range, customer) or, for q, a scan. */
  const countOf = (orgId: string, f: BookingFilter, params: unknown[]): string =>
    `SELECT count(*) FROM bookings b WHERE ${whereOf(orgId, f, params)}`;

  /** `pagination.total` of a list as a scalar query, as cheaply as the filter allows. */
  function totalOf(orgId: string, f: BookingFilter, params: unknown[]): string {
    const ranged = f.startFrom !== undefined || f.startTo !== undefined;
    // booking_counts has no source: a list by source counts its rows.
    if (f.q === undefined && f.customerId === undefined && f.source === undefined) {
      if (!ranged) {
        // The counters migration 003's triggers keep (one row per org, experience and status): an
        // unfiltered, status-only or experience-only total reads a few rows, never the bookings.
        const clauses = ['org_id = ?'];
        params.push(orgId);
        if (f.experienceId !== undefined) (clauses.push('experience_id = ?'), params.push(f.experienceId));
        if (f.status !== undefined) (clauses.push('status = ?'), params.push(f.status));
        return `SELECT CAST(coalesce(sum(n), 0) AS BIGINT) FROM booking_counts WHERE ${clauses.join(' AND ')}`;
      }
      // CONFIRMED over a date range: every booking of the range less the PENDING and CANCELLED
      // ones, three counts of index ranges instead of a status check on every row of the range.
      if (f.status === 'CONFIRMED' && f.experienceId === undefined) {
        const all = countOf(orgId, { ...f, status: undefined }, params);
        const pending = countOf(orgId, { ...f, status: 'PENDING' }, params);
        const cancelled = countOf(orgId, { ...f, status: 'CANCELLED' }, params);
        return `SELECT (${all}) - (${pending}) - (${cancelled})`;
      }
    }
    return countOf(orgId, f, params);
  }

  /** The page's rows. A deep page skips its offset over the index alone (a deferred join: ids first,
   * then the page's rows): joining every skipped row cost ~2 µs each (offset 500,000: 1 s at 1M). */
  function pageOf(orgId: string, f: BookingFilter, page: Page, order: BookingOrder, params: unknown[], extra: string): string {
    const where = whereOf(orgId, f, params);
    const orderBy = ORDERS[order];
    params.push(page.limit, page.offset);
    // The page is sorted again after the join: at most `limit` rows. Only in slot order: the ids
    // of a page in creation order are not in bookings_org_created, so the skip would not stay in
    // the index there (SQLite would rather sort the organization's bookings), and that page is read
    // in index order directly.
    const deferred = page.offset >= DEFERRED_JOIN_OFFSET && (order === 'startTime' || order === '-startTime');
    return deferred
      ? `SELECT ${COLUMNS}, ${extra} FROM (SELECT b.id AS pid FROM bookings b WHERE ${where} ${orderBy} LIMIT ? OFFSET ?) p
         JOIN bookings b ON b.id = p.pid JOIN experiences e ON e.id = b.experience_id ${orderBy}`
      : `SELECT ${COLUMNS}, ${extra} ${FROM} WHERE ${where} ${orderBy} LIMIT ? OFFSET ?`;
  }

  return {
    async insertBooking(row) {
      await sql.run(INSERT_BOOKING, insertedValues(row));
    },
    async updateBooking(row) {
      await sql.run(UPDATE, [...valuesOf(row, UPDATED), row.id]);
    },
    updateBookingAt: async (row, sequence) => (await sql.run(`${UPDATE} AND sequence = ?`, [...valuesOf(row, UPDATED), row.id, sequence])) === 1,
    getBooking: (orgId, id) => one('b.org_id = ? AND b.id = ?', [orgId, id]),
    getBookingByNumber: (orgId, bookingNumber) => one('b.org_id = ? AND b.booking_number = ?', [orgId, bookingNumber]),
    // Ids sort by creation: the first made.
    getBookingByCheckoutSession: (sessionId) => one('b.checkout_session_id = ? ORDER BY b.id LIMIT 1', [sessionId]),
    bookingNumberTaken: async (bookingNumber) => (await sql.get('SELECT 1 AS one FROM bookings WHERE booking_number = ?', [bookingNumber])) !== undefined,
    orgHasBookings: async (orgId) => (await sql.get('SELECT 1 AS one FROM bookings WHERE org_id = ? LIMIT 1', [orgId])) !== undefined,
    async listBookings(orgId, filter, page, order = 'startTime') {
      // The total rides on every row of the page as an uncorrelated subquery, which both engines
      // compute once: one statement, so one state of the table for both, and no sort after it.
      const read = async (): Promise<PageResult<BookingView> | undefined> => {
        const params: unknown[] = [];
        const total = totalOf(orgId, filter, params);
        const listed = await sql.values<unknown[]>(pageOf(orgId, filter, page, order, params, `(${total}) AS total`), params);
        return listed.length === 0 ? undefined : { rows: await withOcto(listed.map((r) => viewOf(r as RawBooking))), total: listed[0]![COLUMN_COUNT] as number };
      };
      for (;;) {
        const found = await read();
        if (found) return found;
        // An empty page: the total alone, unless rows came in meanwhile and the page would now have some.
        const params: unknown[] = [];
        const [[n]] = (await sql.values<[number]>(totalOf(orgId, filter, params), params)) as [[number]];
        if (n <= page.offset) return { rows: [], total: n };
      }
    },
    listCustomerBookings: (customerId, limit) =>
      many(`SELECT ${COLUMNS} ${FROM} WHERE b.customer_id = ? ORDER BY b.slot_start DESC, b.created_at DESC, b.id DESC LIMIT ?`, [customerId, limit]),
    async customerTotals(customerId) {
      const totals = await sql.get<CustomerTotals>(
        `SELECT count(*) AS "bookingCount",
          CAST(coalesce(sum(CASE WHEN status = 'CONFIRMED' THEN coalesce(total_cents, unit_price * participants) ELSE 0 END), 0) AS BIGINT) AS "spentCents",
          min(created_at) AS "firstAt", max(created_at) AS "lastAt"
          FROM bookings WHERE customer_id = ?`,
        [customerId],
      );
      return totals!; // an aggregate without GROUP BY answers one row
    },
    listActiveBookingsBetween(orgId, from, to, experienceId) {
      const window = `b.status != 'CANCELLED' AND b.slot_start >= ? AND b.slot_start < ?`;
      return experienceId === undefined
        ? many(`SELECT ${COLUMNS} ${FROM} WHERE b.org_id = ? AND ${window} ORDER BY b.slot_start, b.id`, [orgId, from, to])
        : many(`SELECT ${COLUMNS} ${FROM} WHERE b.org_id = ? AND b.experience_id = ? AND ${window} ORDER BY b.slot_start, b.id`, [
            orgId, experienceId, from, to,
          ]);
    },
    listLapsedHolds: (now, limit) =>
      // Read through bookings_holds, in expiry order; ids (which sort by creation) break ties.
      many(`SELECT ${COLUMNS} ${FROM} WHERE b.status = 'PENDING' AND b.hold_expires_at IS NOT NULL AND b.hold_expires_at <= ?
        ORDER BY b.hold_expires_at, b.id LIMIT ?`, [now, limit]),
    async bookedPlaces(experienceId, slotStart) {
      const row = await sql.get<{ booked: number }>('SELECT booked FROM slot_counts WHERE experience_id = ? AND slot_start = ?', [experienceId, slotStart]);
      return row?.booked ?? 0;
    },
    async addBookedPlaces(experienceId, slotStart, delta) {
      if (delta > 0) {
        // `slot_counts.booked`: a bare `booked` is ambiguous in PostgreSQL's DO UPDATE.
        await sql.run(
          `INSERT INTO slot_counts (experience_id, slot_start, booked) VALUES (?, ?, ?)
            ON CONFLICT (experience_id, slot_start) DO UPDATE SET booked = slot_counts.booked + excluded.booked`,
          [experienceId, slotStart, delta],
        );
      } else if (delta < 0) {
        // Not an upsert: SQLite checks `booked >= 0` on the row to insert before it sees the
        // conflict, so a negative delta through the INSERT above would always fail. Below zero,
        // CHECK (booked >= 0) refuses it; no row, nothing changes.
        await sql.run('UPDATE slot_counts SET booked = booked - ? WHERE experience_id = ? AND slot_start = ?', [-delta, experienceId, slotStart]);
      }
    },
    async takePlaces(experienceId, slotStart, places, capacity) {
      // The SELECT's WHERE refuses a first booking larger than the slot (and lets SQLite parse the
      // upsert of a SELECT); the DO UPDATE's WHERE a booking that does not fit beside the others,
      // under the departure's own capacity when it has one, and any booking of a closed departure
      // (migration 013: read under the row's lock, so never overtaken by a change of them).
      // No row back: nothing was taken.
      const row = await sql.get<{ booked: number }>(
        `INSERT INTO slot_counts (experience_id, slot_start, booked)
          SELECT ?, CAST(? AS BIGINT), CAST(? AS INTEGER) WHERE CAST(? AS INTEGER) <= CAST(? AS INTEGER)
          ON CONFLICT (experience_id, slot_start) DO UPDATE SET booked = slot_counts.booked + excluded.booked
          WHERE slot_counts.closed = 0 AND slot_counts.booked + excluded.booked <= coalesce(slot_counts.capacity_override, ?)
          RETURNING booked`,
        [experienceId, slotStart, places, places, capacity, capacity],
      );
      return row !== undefined;
    },
    async bookedPlacesBetween(experienceId, from, to) {
      // Raw rows ([slotStart, booked]): availability reads one per slot on every request.
      const rows = await sql.values<[number, number]>(
        'SELECT slot_start, booked FROM slot_counts WHERE experience_id = ? AND slot_start >= ? AND slot_start < ? ORDER BY slot_start',
        [experienceId, from, to],
      );
      return new Map(rows);
    },
  };
}
