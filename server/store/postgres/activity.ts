import type { Async } from '../index.js';
import type { Page, PageResult } from '../statements.js';
import type { ActivityFilter, ActivityRow, activityStore } from '../activity.js';
import { quoteAliases, type PgDb } from './db.js';
import { COLUMNS } from '../activity.js';

/** PostgreSQL folds unquoted aliases to lower case: quoting them keeps the SQLite module's column list the one source. */
const ENTRY = quoteAliases(COLUMNS);

/** A row of a list page: its total beside it; when the page is empty, the one row holds the total alone. */
type PageRow = Omit<ActivityRow, 'id'> & { id: string | null; seq: number | null; total: number };

/**
 * activity.ts over PostgreSQL. `seq` is an identity here (AUTOINCREMENT in SQLite): it grows in
 * the order the inserts run, so "newest first" is `seq DESC` in both engines.
 */
export function activityStorePg(db: PgDb): Async<ReturnType<typeof activityStore>> {
  return {
    async insertActivity(row: ActivityRow): Promise<void> {
      await db.run(
        `INSERT INTO activity (id, org_id, actor_type, actor_id, actor_name, action, target_type, target_id, summary, ip, created_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [row.id, row.orgId, row.actorType, row.actorId, row.actorName, row.action, row.targetType, row.targetId, row.summary, row.ip, row.createdAt],
      );
    },
    /**
     * Newest first; each filter is an index range of the org's entries. The total and the page come
     * from one statement, so from one snapshot: they agree even while other connections write, as
     * SQLite's two statements do (nothing runs between them there).
     */
    async listActivity(orgId: string, filter: ActivityFilter, page: Page): Promise<PageResult<ActivityRow>> {
      const clauses = ['org_id = $1'];
      const params: unknown[] = [orgId];
      if (filter.actorId !== undefined) (params.push(filter.actorId), clauses.push(`actor_id = $${params.length}`));
      if (filter.targetId !== undefined) (params.push(filter.targetId), clauses.push(`target_id = $${params.length}`));
      const where = clauses.join(' AND ');
      const found = await db.all<PageRow>(
        `SELECT p.*, t.total FROM (SELECT count(*) AS total FROM activity WHERE ${where}) t
          LEFT JOIN LATERAL (SELECT seq, ${ENTRY} FROM activity WHERE ${where}
            ORDER BY seq DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}) p ON true
          ORDER BY p.seq DESC`,
        [...params, page.limit, page.offset],
      );
      return {
        rows: found.filter((r) => r.id !== null).map(({ total: _total, seq: _seq, ...entry }) => entry as ActivityRow),
        total: found[0]?.total ?? 0,
      };
    },
    /** Entries are appended in time order: everything before the first young enough entry is older. */
    async deleteActivityBefore(before: number): Promise<number> {
      return await db.run(
        `DELETE FROM activity WHERE seq < coalesce(
          (SELECT seq FROM activity WHERE created_at >= $1 ORDER BY seq LIMIT 1), (SELECT max(seq) + 1 FROM activity))`,
        [before],
      );
    },
  };
}
