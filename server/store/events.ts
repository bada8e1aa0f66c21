import type { Page, PageResult, Sql } from './sql.js';

export interface EventRow {
  id: string;
  orgId: string;
  type: string;
  bookingId: string | null;
  payload: string; // the whole webhook body as JSON
  createdAt: number;
}

/**
 * The outbox's events, each with a position (`seq`) in its org's stream. GET /v1/events?after= reads
 * `seq > ?`, so a position must never be handed out to an event that becomes visible after a later
 * one: a reader that has seen the later one would skip it for good.
 */
export interface EventStore {
  /** Records an event; in the transaction of the change that fires it, or else in one of its own. */
  insertEvent(row: EventRow): Promise<void>;
  getEvent(id: string): Promise<EventRow | undefined>;
  /** The position of an event in its org's stream, or undefined when it is not the org's. */
  eventPosition(orgId: string, id: string): Promise<number | undefined>;
  /** Oldest first (by position), after `afterSeq` when given. */
  listEvents(orgId: string, filter: { afterSeq?: number; type?: string }, page: Page): Promise<PageResult<EventRow>>;
  /** A booking's events, oldest first. */
  listBookingEvents(bookingId: string): Promise<EventRow[]>;
  replaceEventPayload(id: string, payload: string): Promise<void>;
  /** Retention: events (and, by cascade, their deliveries) older than the cut-off. */
  deleteEventsBefore(cutoff: number): Promise<number>;
}

const COLUMNS = 'id, org_id AS "orgId", type, booking_id AS "bookingId", payload, created_at AS "createdAt"';

export const INSERT_EVENT = 'INSERT INTO events (id, org_id, type, booking_id, payload, created_at) VALUES (?, ?, ?, ?, ?, ?)';
export const eventValues = (row: EventRow): unknown[] => [row.id, row.orgId, row.type, row.bookingId, row.payload, row.createdAt];

export function eventStore(sql: Sql): EventStore {
  return {
    async insertEvent(row) {
      // Positions in commit order: the event is written after the dialect's ordered-writes lock,
      // which its transaction holds until it commits (a transaction of its own when called outside
      // one). Both statements are sent together.
      const lock = sql.dialect.orderedWritesLock();
      if (lock === '') await sql.run(INSERT_EVENT, eventValues(row));
      else await sql.transaction(async () => void (await Promise.all([sql.run(lock), sql.run(INSERT_EVENT, eventValues(row))])));
    },
    getEvent: (id) => sql.get<EventRow>(`SELECT ${COLUMNS} FROM events WHERE id = ?`, [id]),
    eventPosition: async (orgId, id) => (await sql.get<{ seq: number }>('SELECT seq FROM events WHERE org_id = ? AND id = ?', [orgId, id]))?.seq,
    async listEvents(orgId, filter, page) {
      let where = 'org_id = ?';
      const params: unknown[] = [orgId];
      if (filter.afterSeq !== undefined) (where += ' AND seq > ?', params.push(filter.afterSeq));
      if (filter.type !== undefined) (where += ' AND type = ?', params.push(filter.type));
      // The total and the page in one statement, so from one state of the table. The LEFT JOIN
      // answers one row (the total, no event) for an empty page.
      const listed = await sql.all<EventRow & { total: number; seq: number | null }>(
        `WITH page AS (SELECT seq, ${COLUMNS} FROM events WHERE ${where} ORDER BY seq LIMIT ? OFFSET ?)
         SELECT t.total, page.* FROM (SELECT count(*) AS total FROM events WHERE ${where}) t LEFT JOIN page ON 1 = 1 ORDER BY page.seq`,
        [...params, page.limit, page.offset, ...params],
      );
      const rows = listed
        .filter((r) => r.seq !== null)
        .map((r): EventRow => ({ id: r.id, orgId: r.orgId, type: r.type, bookingId: r.bookingId, payload: r.payload, createdAt: r.createdAt }));
      return { rows, total: listed[0]!.total };
    },
    listBookingEvents: (bookingId) => sql.all<EventRow>(`SELECT ${COLUMNS} FROM events WHERE booking_id = ? ORDER BY seq`, [bookingId]),
    replaceEventPayload: async (id, payload) => void (await sql.run('UPDATE events SET payload = ? WHERE id = ?', [payload, id])),
    deleteEventsBefore: (cutoff) => sql.run('DELETE FROM events WHERE created_at < ?', [cutoff]),
  };
}
