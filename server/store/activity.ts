import type { Page, PageResult, Sql } from './sql.js';

export interface ActivityRow {
  id: string;
  orgId: string;
  actorType: 'user' | 'key' | 'guest' | 'system' | 'cli';
  actorId: string | null;
  actorName: string;
  action: string;
  targetType: string;
  targetId: string;
  summary: string;
  ip: string | null;
  createdAt: number;
}

export interface ActivityFilter {
  actorId?: string;
  targetId?: string;
}

/**
 * The activity log: who did what to which booking, experience or setting. Entries are kept in the
 * order they were written (`seq`, growing with each insert), which is also the order of time.
 */
export interface ActivityStore {
  insertActivity(row: ActivityRow): Promise<void>;
  /** Newest written first; each filter is an index range of the org's entries. */
  listActivity(orgId: string, filter: ActivityFilter, page: Page): Promise<PageResult<ActivityRow>>;
  /**
   * Deletes, across organizations, every entry written before the first one made at or after
   * `before` (all of them when none is that young); answers how many went.
   */
  deleteActivityBefore(before: number): Promise<number>;
}

const COLUMNS = `id, org_id AS "orgId", actor_type AS "actorType", actor_id AS "actorId", actor_name AS "actorName", action,
  target_type AS "targetType", target_id AS "targetId", summary, ip, created_at AS "createdAt"`;

/** A row of a list page: its total beside it; when the page is empty, the one row holds the total alone. */
type PageRow = Omit<ActivityRow, 'id'> & { id: string | null; seq: number | null; total: number };

export function activityStore(sql: Sql): ActivityStore {
  return {
    async insertActivity(row) {
      await sql.run(
        `INSERT INTO activity (id, org_id, actor_type, actor_id, actor_name, action, target_type, target_id, summary, ip, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [row.id, row.orgId, row.actorType, row.actorId, row.actorName, row.action, row.targetType, row.targetId, row.summary, row.ip, row.createdAt],
      );
    },
    async listActivity(orgId, filter, page) {
      const clauses = ['org_id = ?'];
      const params: unknown[] = [orgId];
      if (filter.actorId !== undefined) (clauses.push('actor_id = ?'), params.push(filter.actorId));
      if (filter.targetId !== undefined) (clauses.push('target_id = ?'), params.push(filter.targetId));
      const where = clauses.join(' AND ');
      // The total and the page in one statement, so from one snapshot: they agree even while
      // another connection (or, on SQLite, another request's transaction) writes in between.
      const found = await sql.all<PageRow>(
        `SELECT p.*, t.total FROM (SELECT count(*) AS total FROM activity WHERE ${where}) t
          LEFT JOIN (SELECT seq, ${COLUMNS} FROM activity WHERE ${where} ORDER BY seq DESC LIMIT ? OFFSET ?) p ON true
          ORDER BY p.seq DESC`,
        [...params, ...params, page.limit, page.offset],
      );
      return {
        rows: found.filter((r) => r.id !== null).map(({ total: _total, seq: _seq, ...entry }) => entry as ActivityRow),
        total: found[0]?.total ?? 0,
      };
    },
    // Entries are appended in time order: everything before the first young enough entry is older.
    deleteActivityBefore: (before) =>
      sql.run(
        `DELETE FROM activity WHERE seq < coalesce(
          (SELECT seq FROM activity WHERE created_at >= ? ORDER BY seq LIMIT 1), (SELECT max(seq) + 1 FROM activity))`,
        [before],
      ),
  };
}
