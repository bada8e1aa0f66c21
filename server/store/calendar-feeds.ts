import type { Page, PageResult, Sql } from './sql.js';

export interface CalendarFeedRow {
  id: string;
  orgId: string;
  name: string;
  experienceId: string | null;
  tokenHash: Buffer;
  createdAt: number;
}

/** The iCal feeds an organization publishes, each found by the hash of its secret token. */
export interface CalendarFeedStore {
  insertCalendarFeed(row: CalendarFeedRow): Promise<void>;
  /** By the exact bytes of the hash. */
  getCalendarFeedByTokenHash(hash: Buffer): Promise<CalendarFeedRow | undefined>;
  getCalendarFeed(orgId: string, id: string): Promise<CalendarFeedRow | undefined>;
  /** Oldest first, `id` breaking ties. */
  listCalendarFeeds(orgId: string, page: Page): Promise<PageResult<CalendarFeedRow>>;
  /** False when the org had no such feed. */
  deleteCalendarFeed(orgId: string, id: string): Promise<boolean>;
}

const COLUMNS = 'id, org_id AS "orgId", name, experience_id AS "experienceId", token_hash AS "tokenHash", created_at AS "createdAt"';

export function calendarFeedStore(sql: Sql): CalendarFeedStore {
  return {
    async insertCalendarFeed(row) {
      await sql.run('INSERT INTO calendar_feeds (id, org_id, name, experience_id, token_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
        row.id, row.orgId, row.name, row.experienceId, row.tokenHash, row.createdAt,
      ]);
    },
    getCalendarFeedByTokenHash: (hash) => sql.get<CalendarFeedRow>(`SELECT ${COLUMNS} FROM calendar_feeds WHERE token_hash = ?`, [hash]),
    getCalendarFeed: (orgId, id) => sql.get<CalendarFeedRow>(`SELECT ${COLUMNS} FROM calendar_feeds WHERE org_id = ? AND id = ?`, [orgId, id]),
    async listCalendarFeeds(orgId, page) {
      const rows = await sql.all<CalendarFeedRow>(
        `SELECT ${COLUMNS} FROM calendar_feeds WHERE org_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?`,
        [orgId, page.limit, page.offset],
      );
      const total = (await sql.get<{ n: number }>('SELECT count(*) AS n FROM calendar_feeds WHERE org_id = ?', [orgId]))!.n;
      return { rows, total };
    },
    async deleteCalendarFeed(orgId, id) {
      return (await sql.run('DELETE FROM calendar_feeds WHERE org_id = ? AND id = ?', [orgId, id])) > 0;
    },
  };
}
