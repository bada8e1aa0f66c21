import type { Db } from './db.js';
import type { Page, PageResult } from './statements.js';

export interface CalendarFeedRow {
  id: string;
  orgId: string;
  name: string;
  experienceId: string | null;
  tokenHash: Buffer;
  createdAt: number;
}

export const COLUMNS = 'id, org_id AS orgId, name, experience_id AS experienceId, token_hash AS tokenHash, created_at AS createdAt';

export function calendarFeedStore(db: Db) {
  const insert = db.prepare(`INSERT INTO calendar_feeds (id, org_id, name, experience_id, token_hash, created_at)
    VALUES (@id, @orgId, @name, @experienceId, @tokenHash, @createdAt)`);
  const byHash = db.prepare(`SELECT ${COLUMNS} FROM calendar_feeds WHERE token_hash = ?`);
  const byId = db.prepare(`SELECT ${COLUMNS} FROM calendar_feeds WHERE org_id = ? AND id = ?`);
  const list = db.prepare(`SELECT ${COLUMNS} FROM calendar_feeds WHERE org_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?`);
  const count = db.prepare('SELECT count(*) AS n FROM calendar_feeds WHERE org_id = ?');
  const remove = db.prepare('DELETE FROM calendar_feeds WHERE org_id = ? AND id = ?');

  return {
    insertCalendarFeed(row: CalendarFeedRow): void {
      insert.run(row);
    },
    getCalendarFeedByTokenHash(hash: Buffer): CalendarFeedRow | undefined {
      return byHash.get(hash) as CalendarFeedRow | undefined;
    },
    getCalendarFeed(orgId: string, id: string): CalendarFeedRow | undefined {
      return byId.get(orgId, id) as CalendarFeedRow | undefined;
    },
    /** Oldest first, `id` breaking ties. */
    listCalendarFeeds(orgId: string, page: Page): PageResult<CalendarFeedRow> {
      return {
        rows: list.all(orgId, page.limit, page.offset) as CalendarFeedRow[],
        total: (count.get(orgId) as { n: number }).n,
      };
    },
    /** False when the org had no such feed. */
    deleteCalendarFeed(orgId: string, id: string): boolean {
      return remove.run(orgId, id).changes > 0;
    },
  };
}
