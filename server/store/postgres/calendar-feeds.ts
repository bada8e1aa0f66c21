import type { Async } from '../index.js';
import { COLUMNS as SQLITE_COLUMNS, type CalendarFeedRow, type calendarFeedStore } from '../calendar-feeds.js';
import type { Page, PageResult } from '../statements.js';
import { quoteAliases, type PgDb } from './db.js';

/** SQLite's column list with its camelCase aliases quoted: PostgreSQL folds unquoted ones to lower case. */
const COLUMNS = quoteAliases(SQLITE_COLUMNS);

/** token_hash is BYTEA: node-postgres sends and reads a Buffer, compared byte for byte as SQLite compares a BLOB. */
export function calendarFeedStorePg(db: PgDb): Async<ReturnType<typeof calendarFeedStore>> {
  return {
    async insertCalendarFeed(row: CalendarFeedRow): Promise<void> {
      await db.run(
        `INSERT INTO calendar_feeds (id, org_id, name, experience_id, token_hash, created_at)
          VALUES ($1, $2, $3, $4, $5, $6)`,
        [row.id, row.orgId, row.name, row.experienceId, row.tokenHash, row.createdAt],
      );
    },
    async getCalendarFeedByTokenHash(hash: Buffer): Promise<CalendarFeedRow | undefined> {
      return await db.get<CalendarFeedRow>(`SELECT ${COLUMNS} FROM calendar_feeds WHERE token_hash = $1`, [hash]);
    },
    async getCalendarFeed(orgId: string, id: string): Promise<CalendarFeedRow | undefined> {
      return await db.get<CalendarFeedRow>(`SELECT ${COLUMNS} FROM calendar_feeds WHERE org_id = $1 AND id = $2`, [orgId, id]);
    },
    /** Oldest first, `id` breaking ties. */
    async listCalendarFeeds(orgId: string, page: Page): Promise<PageResult<CalendarFeedRow>> {
      const rows = await db.all<CalendarFeedRow>(
        `SELECT ${COLUMNS} FROM calendar_feeds WHERE org_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`,
        [orgId, page.limit, page.offset],
      );
      const total = (await db.get<{ n: number }>('SELECT count(*) AS n FROM calendar_feeds WHERE org_id = $1', [orgId]))!.n;
      return { rows, total };
    },
    /** False when the org had no such feed. */
    async deleteCalendarFeed(orgId: string, id: string): Promise<boolean> {
      return (await db.run('DELETE FROM calendar_feeds WHERE org_id = $1 AND id = $2', [orgId, id])) > 0;
    },
  };
}
