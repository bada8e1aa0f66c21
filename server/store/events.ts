import type { Db } from './sqlite/db.js';
import { statementCache, type Page, type PageResult } from './statements.js';

export interface EventRow {
  id: string;
  orgId: string;
  type: string;
  bookingId: string | null;
  payload: string; // the whole webhook body as JSON
  createdAt: number;
}

export const COLUMNS = 'id, org_id AS orgId, type, booking_id AS bookingId, payload, created_at AS createdAt';

export function eventStore(db: Db) {
  const prepared = statementCache(db);
  const insert = db.prepare(`INSERT INTO events (id, org_id, type, booking_id, payload, created_at)
    VALUES (@id, @orgId, @type, @bookingId, @payload, @createdAt)`);
  const seqOf = db.prepare('SELECT seq FROM events WHERE org_id = ? AND id = ?');
  const byId = db.prepare(`SELECT ${COLUMNS} FROM events WHERE id = ?`);
  const forBooking = db.prepare(`SELECT ${COLUMNS} FROM events WHERE booking_id = ? ORDER BY seq`);
  const setPayload = db.prepare('UPDATE events SET payload = ? WHERE id = ?');
  const deleteBefore = db.prepare('DELETE FROM events WHERE created_at < ?');

  return {
    insertEvent(row: EventRow): void {
      insert.run(row);
    },
    getEvent(id: string): EventRow | undefined {
      return byId.get(id) as EventRow | undefined;
    },
    /** The position of an event in its org's stream, or undefined when it is not the org's. */
    eventPosition(orgId: string, id: string): number | undefined {
      return (seqOf.get(orgId, id) as { seq: number } | undefined)?.seq;
    },
    /** Oldest first. */
    listEvents(orgId: string, filter: { afterSeq?: number; type?: string }, page: Page): PageResult<EventRow> {
      let where = 'org_id = ?';
      const params: unknown[] = [orgId];
      if (filter.afterSeq !== undefined) (where += ' AND seq > ?', params.push(filter.afterSeq));
      if (filter.type !== undefined) (where += ' AND type = ?', params.push(filter.type));
      const total = (prepared(`SELECT count(*) AS n FROM events WHERE ${where}`).get(...params) as { n: number }).n;
      const rows = prepared(`SELECT ${COLUMNS} FROM events WHERE ${where} ORDER BY seq LIMIT ? OFFSET ?`).all(
        ...params,
        page.limit,
        page.offset,
      ) as EventRow[];
      return { rows, total };
    },
    listBookingEvents(bookingId: string): EventRow[] {
      return forBooking.all(bookingId) as EventRow[];
    },
    replaceEventPayload(id: string, payload: string): void {
      setPayload.run(payload, id);
    },
    /** Retention: events (and, by cascade, their deliveries) older than the cut-off. */
    deleteEventsBefore(cutoff: number): number {
      return deleteBefore.run(cutoff).changes;
    },
  };
}
