import type { Db } from './db.js';
import { statementCache, type Page, type PageResult } from './statements.js';

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

export const COLUMNS = `id, org_id AS orgId, actor_type AS actorType, actor_id AS actorId, actor_name AS actorName, action,
  target_type AS targetType, target_id AS targetId, summary, ip, created_at AS createdAt`;

export function activityStore(db: Db) {
  const prepared = statementCache(db);
  const insert = db.prepare(`INSERT INTO activity (id, org_id, actor_type, actor_id, actor_name, action, target_type,
    target_id, summary, ip, created_at) VALUES (@id, @orgId, @actorType, @actorId, @actorName, @action, @targetType,
    @targetId, @summary, @ip, @createdAt)`);
  // Entries are appended in time order: everything before the first young enough entry is older.
  const deleteBefore = db.prepare(`DELETE FROM activity WHERE seq < coalesce(
    (SELECT seq FROM activity WHERE created_at >= ? ORDER BY seq LIMIT 1), (SELECT max(seq) + 1 FROM activity))`);

  return {
    insertActivity(row: ActivityRow): void {
      insert.run(row);
    },
    /** Newest first; each filter is an index range of the org's entries. */
    listActivity(orgId: string, filter: ActivityFilter, page: Page): PageResult<ActivityRow> {
      const clauses = ['org_id = ?'];
      const params: unknown[] = [orgId];
      if (filter.actorId !== undefined) (clauses.push('actor_id = ?'), params.push(filter.actorId));
      if (filter.targetId !== undefined) (clauses.push('target_id = ?'), params.push(filter.targetId));
      const where = clauses.join(' AND ');
      const total = (prepared(`SELECT count(*) AS n FROM activity WHERE ${where}`).get(...params) as { n: number }).n;
      const rows = prepared(`SELECT ${COLUMNS} FROM activity WHERE ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`).all(
        ...params,
        page.limit,
        page.offset,
      ) as ActivityRow[];
      return { rows, total };
    },
    deleteActivityBefore(before: number): number {
      return deleteBefore.run(before).changes;
    },
  };
}
