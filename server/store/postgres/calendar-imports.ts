import {
  COLUMNS as SQLITE_COLUMNS,
  MAX_PIECE_MS,
  type BusyInterval,
  type CalendarCopy,
  type CalendarImportRow,
  type calendarImportStore,
} from '../calendar-imports.js';
import type { Async } from '../index.js';
import type { Page, PageResult } from '../statements.js';
import type { PgDb } from './db.js';

/** SQLite's column list with its camelCase aliases quoted: PostgreSQL folds unquoted ones to lower case. */
const COLUMNS = SQLITE_COLUMNS.replace(/ AS (\w+)/g, ' AS "$1"');

/**
 * Interval pieces per INSERT. The pieces travel as two arrays (five parameters whatever their
 * number), so PostgreSQL's limit of 65,535 parameters is far off; the batch only bounds the size
 * of one statement.
 */
const PIECES_PER_INSERT = 10_000;

/** An interval cut into pieces of at most MAX_PIECE_MS, as SQLite stores them (a range query then starts a week early). */
function piecesOf(intervals: BusyInterval[]): { starts: number[]; ends: number[] } {
  const starts: number[] = [];
  const ends: number[] = [];
  for (const { start, end } of intervals) {
    for (let from = start; from < end; from += MAX_PIECE_MS) {
      starts.push(from);
      ends.push(Math.min(end, from + MAX_PIECE_MS));
    }
  }
  return { starts, ends };
}

export function calendarImportStorePg(db: PgDb): Async<ReturnType<typeof calendarImportStore>> {
  return {
    async insertCalendarImport(row: CalendarImportRow): Promise<void> {
      await db.run(
        `INSERT INTO calendar_imports (id, org_id, name, url, experience_id, etag, last_modified, last_synced_at,
          last_error, event_count, next_sync_at, expanded_at, expanded_zone, sync_note, created_at, updated_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
        [row.id, row.orgId, row.name, row.url, row.experienceId, row.etag, row.lastModified, row.lastSyncedAt,
          row.lastError, row.eventCount, row.nextSyncAt, row.expandedAt, row.expandedZone, row.syncNote,
          row.createdAt, row.updatedAt],
      );
    },
    async getCalendarImport(orgId: string, id: string): Promise<CalendarImportRow | undefined> {
      return await db.get<CalendarImportRow>(`SELECT ${COLUMNS} FROM calendar_imports WHERE org_id = $1 AND id = $2`, [orgId, id]);
    },
    async getCalendarImportById(id: string): Promise<CalendarImportRow | undefined> {
      return await db.get<CalendarImportRow>(`SELECT ${COLUMNS} FROM calendar_imports WHERE id = $1`, [id]);
    },
    /** Oldest first, `id` breaking ties. */
    async listCalendarImports(orgId: string, page: Page): Promise<PageResult<CalendarImportRow>> {
      const rows = await db.all<CalendarImportRow>(
        `SELECT ${COLUMNS} FROM calendar_imports WHERE org_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`,
        [orgId, page.limit, page.offset],
      );
      const total = (await db.get<{ n: number }>('SELECT count(*) AS n FROM calendar_imports WHERE org_id = $1', [orgId]))!.n;
      return { rows, total };
    },
    /**
     * Deletes the import and its busy intervals; false when there was none. The intervals go by
     * busy_intervals' ON DELETE CASCADE, in the same statement. (SQLite's version first deletes the
     * intervals by import id alone, so an id of another organization's import loses its intervals
     * there although the import stays and false is answered; here they stay too.)
     */
    async deleteCalendarImport(orgId: string, id: string): Promise<boolean> {
      return (await db.run('DELETE FROM calendar_imports WHERE org_id = $1 AND id = $2', [orgId, id])) > 0;
    },
    /** Ids of imports whose next sync is due, longest overdue first (never synced, NULL, before all as in SQLite). */
    async listDueCalendarImports(now: number, limit: number): Promise<string[]> {
      const rows = await db.all<{ id: string }>(
        `SELECT id FROM calendar_imports WHERE next_sync_at IS NULL OR next_sync_at <= $1
          ORDER BY next_sync_at NULLS FIRST, id LIMIT $2`,
        [now, limit],
      );
      return rows.map((r) => r.id);
    },
    /**
     * Claims an import that was due at `now` by moving its next sync to `nextSyncAt`, only if it is
     * still due; answers whether it did. Two processes claiming at once: the second UPDATE waits for
     * the first's row lock, then re-reads the row and finds it no longer due (READ COMMITTED).
     */
    async scheduleCalendarImport(id: string, now: number, nextSyncAt: number): Promise<boolean> {
      return (
        (await db.run('UPDATE calendar_imports SET next_sync_at = $1 WHERE id = $2 AND (next_sync_at IS NULL OR next_sync_at <= $3)', [
          nextSyncAt,
          id,
          now,
        ])) > 0
      );
    },
    /**
     * Replaces all busy intervals of an import (call inside `transaction` with the copy's record).
     * Atomic on its own too: a savepoint when nested, so a failed insert leaves the old intervals.
     */
    async replaceBusyIntervals(row: Pick<CalendarImportRow, 'id' | 'orgId' | 'experienceId'>, intervals: BusyInterval[]): Promise<void> {
      const { starts, ends } = piecesOf(intervals);
      await db.transaction(async () => {
        await db.run('DELETE FROM busy_intervals WHERE import_id = $1', [row.id]);
        for (let i = 0; i < starts.length; i += PIECES_PER_INSERT) {
          await db.run(
            `INSERT INTO busy_intervals (import_id, org_id, experience_id, start_at, end_at)
              SELECT $1::text, $2::text, $3::text, p.start_at, p.end_at FROM unnest($4::bigint[], $5::bigint[]) AS p(start_at, end_at)`,
            [row.id, row.orgId, row.experienceId, starts.slice(i, i + PIECES_PER_INSERT), ends.slice(i, i + PIECES_PER_INSERT)],
          );
        }
      });
    },
    async recordCalendarImportCopy(id: string, c: CalendarCopy): Promise<void> {
      await db.run(
        `UPDATE calendar_imports SET etag = $2, last_modified = $3, last_synced_at = $4, last_error = $5, sync_note = $5,
          event_count = $6, expanded_at = $4, expanded_zone = $7, next_sync_at = $8, updated_at = $4
          WHERE id = $1`,
        [id, c.etag, c.lastModified, c.syncedAt, c.syncNote, c.eventCount, c.expandedZone, c.nextSyncAt],
      );
    },
    /** A 304: the last good copy stands. */
    async recordCalendarImportUnchanged(id: string, syncedAt: number, nextSyncAt: number): Promise<void> {
      await db.run(
        `UPDATE calendar_imports SET last_synced_at = $2, last_error = sync_note, next_sync_at = $3, updated_at = $2
          WHERE id = $1`,
        [id, syncedAt, nextSyncAt],
      );
    },
    /** A failed fetch or read: the last good copy and its intervals stay. */
    async recordCalendarImportFailure(id: string, error: string, at: number, nextSyncAt: number): Promise<void> {
      await db.run('UPDATE calendar_imports SET last_error = $2, next_sync_at = $3, updated_at = $4 WHERE id = $1', [id, error, nextSyncAt, at]);
    },
    /**
     * Busy time from imported calendars that overlaps [from, to) for one experience: intervals of
     * imports that block it alone or every experience of the org. Sorted, overlapping ones merged.
     */
    async busyIntervalsFor(orgId: string, experienceId: string, from: number, to: number): Promise<BusyInterval[]> {
      const rows = await db.all<BusyInterval>(
        `SELECT start_at AS start, end_at AS "end" FROM busy_intervals
          WHERE org_id = $1 AND start_at >= $2 AND start_at < $3 AND end_at > $4 AND (experience_id IS NULL OR experience_id = $5)
          ORDER BY start_at, end_at`,
        [orgId, from - MAX_PIECE_MS, to, from, experienceId],
      );
      const merged: BusyInterval[] = [];
      for (const r of rows) {
        const last = merged[merged.length - 1];
        if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
        else merged.push({ start: r.start, end: r.end });
      }
      return merged;
    },
  };
}
