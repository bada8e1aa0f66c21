import type { Db } from './db.js';
import type { Page, PageResult } from './statements.js';

export interface CalendarImportRow {
  id: string;
  orgId: string;
  name: string;
  url: string;
  experienceId: string | null;
  etag: string | null;
  lastModified: string | null;
  lastSyncedAt: number | null;
  lastError: string | null;
  eventCount: number;
  nextSyncAt: number | null;
  expandedAt: number | null;
  expandedZone: string | null;
  syncNote: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A new good copy of an imported calendar, recorded with its busy intervals. */
export interface CalendarCopy {
  etag: string | null;
  lastModified: string | null;
  eventCount: number;
  syncNote: string | null;
  expandedZone: string;
  syncedAt: number;
  nextSyncAt: number;
}

export interface BusyInterval {
  start: number;
  end: number;
}

// Intervals are stored in pieces of at most a week, so a range query can start its index scan a
// week before the range instead of at the beginning of time.
export const MAX_PIECE_MS = 7 * 86_400_000;

export const COLUMNS = `id, org_id AS orgId, name, url, experience_id AS experienceId, etag, last_modified AS lastModified,
  last_synced_at AS lastSyncedAt, last_error AS lastError, event_count AS eventCount, next_sync_at AS nextSyncAt,
  expanded_at AS expandedAt, expanded_zone AS expandedZone, sync_note AS syncNote,
  created_at AS createdAt, updated_at AS updatedAt`;

export function calendarImportStore(db: Db) {
  const insert = db.prepare(`INSERT INTO calendar_imports (id, org_id, name, url, experience_id, etag, last_modified,
    last_synced_at, last_error, event_count, next_sync_at, expanded_at, expanded_zone, sync_note, created_at, updated_at)
    VALUES (@id, @orgId, @name, @url, @experienceId, @etag, @lastModified, @lastSyncedAt, @lastError, @eventCount,
    @nextSyncAt, @expandedAt, @expandedZone, @syncNote, @createdAt, @updatedAt)`);
  const byId = db.prepare(`SELECT ${COLUMNS} FROM calendar_imports WHERE id = ?`);
  const inOrg = db.prepare(`SELECT ${COLUMNS} FROM calendar_imports WHERE org_id = ? AND id = ?`);
  const list = db.prepare(`SELECT ${COLUMNS} FROM calendar_imports WHERE org_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?`);
  const count = db.prepare('SELECT count(*) AS n FROM calendar_imports WHERE org_id = ?');
  const remove = db.prepare('DELETE FROM calendar_imports WHERE org_id = ? AND id = ?');
  const removeIntervals = db.prepare('DELETE FROM busy_intervals WHERE import_id = ?');
  const removeOwnIntervals = db.prepare('DELETE FROM busy_intervals WHERE import_id = ? AND org_id = ?');
  const insertInterval = db.prepare(`INSERT INTO busy_intervals (import_id, org_id, experience_id, start_at, end_at)
    VALUES (?, ?, ?, ?, ?)`);
  const due = db.prepare(`SELECT id FROM calendar_imports WHERE next_sync_at IS NULL OR next_sync_at <= ?
    ORDER BY next_sync_at, id LIMIT ?`);
  const schedule = db.prepare(`UPDATE calendar_imports SET next_sync_at = ?
    WHERE id = ? AND (next_sync_at IS NULL OR next_sync_at <= ?)`);
  const copy = db.prepare(`UPDATE calendar_imports SET etag = @etag, last_modified = @lastModified,
    last_synced_at = @syncedAt, last_error = @syncNote, sync_note = @syncNote, event_count = @eventCount,
    expanded_at = @syncedAt, expanded_zone = @expandedZone, next_sync_at = @nextSyncAt, updated_at = @syncedAt
    WHERE id = @id`);
  const unchanged = db.prepare(`UPDATE calendar_imports SET last_synced_at = ?, last_error = sync_note,
    next_sync_at = ?, updated_at = ? WHERE id = ?`);
  const failure = db.prepare(`UPDATE calendar_imports SET last_error = ?, next_sync_at = ?, updated_at = ? WHERE id = ?`);
  const busy = db.prepare(`SELECT start_at AS start, end_at AS "end" FROM busy_intervals
    WHERE org_id = ? AND start_at >= ? AND start_at < ? AND end_at > ? AND (experience_id IS NULL OR experience_id = ?)
    ORDER BY start_at, end_at`);

  return {
    insertCalendarImport(row: CalendarImportRow): void {
      insert.run(row);
    },
    getCalendarImport(orgId: string, id: string): CalendarImportRow | undefined {
      return inOrg.get(orgId, id) as CalendarImportRow | undefined;
    },
    getCalendarImportById(id: string): CalendarImportRow | undefined {
      return byId.get(id) as CalendarImportRow | undefined;
    },
    /** Oldest first, `id` breaking ties. */
    listCalendarImports(orgId: string, page: Page): PageResult<CalendarImportRow> {
      return {
        rows: list.all(orgId, page.limit, page.offset) as CalendarImportRow[],
        total: (count.get(orgId) as { n: number }).n,
      };
    },
    /** Deletes the import and its busy intervals; false when there was none. */
    deleteCalendarImport(orgId: string, id: string): boolean {
      return db.transaction(() => {
        // Scoped to the organization too: another organization's import id removes nothing.
        removeOwnIntervals.run(id, orgId);
        return remove.run(orgId, id).changes > 0;
      })();
    },
    /** Ids of imports whose next sync is due, longest overdue first. */
    listDueCalendarImports(now: number, limit: number): string[] {
      return (due.all(now, limit) as { id: string }[]).map((r) => r.id);
    },
    /**
     * Claims an import that was due at `now` by moving its next sync to `nextSyncAt`, only if it is
     * still due (another process may have claimed it since it was listed); answers whether it did.
     */
    scheduleCalendarImport(id: string, now: number, nextSyncAt: number): boolean {
      return schedule.run(nextSyncAt, id, now).changes > 0;
    },
    /** Replaces all busy intervals of an import (call inside `transaction` with the copy's record). */
    replaceBusyIntervals(row: Pick<CalendarImportRow, 'id' | 'orgId' | 'experienceId'>, intervals: BusyInterval[]): void {
      removeIntervals.run(row.id);
      for (const { start, end } of intervals) {
        for (let from = start; from < end; from += MAX_PIECE_MS) {
          insertInterval.run(row.id, row.orgId, row.experienceId, from, Math.min(end, from + MAX_PIECE_MS));
        }
      }
    },
    recordCalendarImportCopy(id: string, c: CalendarCopy): void {
      copy.run({ id, ...c });
    },
    /** A 304: the last good copy stands. */
    recordCalendarImportUnchanged(id: string, syncedAt: number, nextSyncAt: number): void {
      unchanged.run(syncedAt, nextSyncAt, syncedAt, id);
    },
    /** A failed fetch or read: the last good copy and its intervals stay. */
    recordCalendarImportFailure(id: string, error: string, at: number, nextSyncAt: number): void {
      failure.run(error, nextSyncAt, at, id);
    },
    /**
     * Busy time from imported calendars that overlaps [from, to) for one experience: intervals of
     * imports that block it alone or every experience of the org. Sorted, overlapping ones merged.
     */
    busyIntervalsFor(orgId: string, experienceId: string, from: number, to: number): BusyInterval[] {
      const rows = busy.all(orgId, from - MAX_PIECE_MS, to, from, experienceId) as BusyInterval[];
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
