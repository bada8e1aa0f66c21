import type { Async } from '../index.js';
import { COLUMNS as SQLITE_COLUMNS, type EventRow, type eventStore } from '../events.js';
import type { Page, PageResult } from '../sql.js';
import { quoteAliases, type PgDb } from './db.js';

/** SQLite's column list with its camelCase aliases quoted: PostgreSQL folds unquoted ones to lower case. */
const COLUMNS = quoteAliases(SQLITE_COLUMNS);

/**
 * The outbox's events. `seq` is an identity column: unlike SQLite's single writer, two PostgreSQL
 * transactions could take seq 7 and 8 and commit 8 first, and a reader paging with `seq > 6` would
 * skip 7 for good. Every insert therefore runs under the global write lock (in the caller's
 * transaction, or in one of its own: every transaction takes the lock before its first statement,
 * see db.ts), so seqs are handed out in commit order. A failed insert still uses up its seq (a gap SQLite's
 * AUTOINCREMENT would not leave): positions keep their order, not their exact values.
 */
export function eventStorePg(db: PgDb): Async<ReturnType<typeof eventStore>> {
  return {
    async insertEvent(row: EventRow): Promise<void> {
      await db.locked(async () => {
        await db.run(
          `INSERT INTO events (id, org_id, type, booking_id, payload, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
          [row.id, row.orgId, row.type, row.bookingId, row.payload, row.createdAt],
        );
      });
    },
    async getEvent(id: string): Promise<EventRow | undefined> {
      return await db.get<EventRow>(`SELECT ${COLUMNS} FROM events WHERE id = $1`, [id]);
    },
    async eventPosition(orgId: string, id: string): Promise<number | undefined> {
      return (await db.get<{ seq: number }>('SELECT seq FROM events WHERE org_id = $1 AND id = $2', [orgId, id]))?.seq;
    },
    async listEvents(orgId: string, filter: { afterSeq?: number; type?: string }, page: Page): Promise<PageResult<EventRow>> {
      const params: unknown[] = [orgId];
      let where = 'org_id = $1';
      if (filter.afterSeq !== undefined) where += ` AND seq > $${params.push(filter.afterSeq)}`;
      if (filter.type !== undefined) where += ` AND type = $${params.push(filter.type)}`;
      const n = params.length;
      const [count, rows] = await Promise.all([
        db.get<{ n: number }>(`SELECT count(*) AS n FROM events WHERE ${where}`, params),
        db.all<EventRow>(`SELECT ${COLUMNS} FROM events WHERE ${where} ORDER BY seq LIMIT $${n + 1} OFFSET $${n + 2}`, [
          ...params,
          page.limit,
          page.offset,
        ]),
      ]);
      return { rows, total: count!.n };
    },
    async listBookingEvents(bookingId: string): Promise<EventRow[]> {
      return await db.all<EventRow>(`SELECT ${COLUMNS} FROM events WHERE booking_id = $1 ORDER BY seq`, [bookingId]);
    },
    async replaceEventPayload(id: string, payload: string): Promise<void> {
      await db.run('UPDATE events SET payload = $1 WHERE id = $2', [payload, id]);
    },
    async deleteEventsBefore(cutoff: number): Promise<number> {
      return await db.run('DELETE FROM events WHERE created_at < $1', [cutoff]);
    },
  };
}
