import type { Page, PageResult, Sql } from './sql.js';

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

/** The calendars an organization imports (iCal URLs fetched on a schedule) and the busy time read from them. */
export interface CalendarImportStore {
  insertCalendarImport(row: CalendarImportRow): Promise<void>;
  getCalendarImport(orgId: string, id: string): Promise<CalendarImportRow | undefined>;
  getCalendarImportById(id: string): Promise<CalendarImportRow | undefined>;
  /** Oldest first, `id` breaking ties. */
  listCalendarImports(orgId: string, page: Page): Promise<PageResult<CalendarImportRow>>;
  /** Deletes the import and its busy intervals; false when the org had no such import. */
  deleteCalendarImport(orgId: string, id: string): Promise<boolean>;
  /** Ids of imports whose next sync is due, longest overdue first (never scheduled before all). */
  listDueCalendarImports(now: number, limit: number): Promise<string[]>;
  /**
   * Claims an import that was due at `now` by moving its next sync to `nextSyncAt`, only if it is
   * still due (another process may have claimed it since it was listed); answers whether it did.
   */
  scheduleCalendarImport(id: string, now: number, nextSyncAt: number): Promise<boolean>;
  /**
   * Replaces all busy intervals of an import (call inside `transaction` with the copy's record).
   * Atomic on its own too: a failed insert leaves the old intervals.
   */
  replaceBusyIntervals(row: Pick<CalendarImportRow, 'id' | 'orgId' | 'experienceId'>, intervals: BusyInterval[]): Promise<void>;
  recordCalendarImportCopy(id: string, c: CalendarCopy): Promise<void>;
  /** A 304: the last good copy stands. */
  recordCalendarImportUnchanged(id: string, syncedAt: number, nextSyncAt: number): Promise<void>;
  /** A failed fetch or read: the last good copy and its intervals stay. */
  recordCalendarImportFailure(id: string, error: string, at: number, nextSyncAt: number): Promise<void>;
  /**
   * Busy time from imported calendars that overlaps [from, to) for one experience: intervals of
   * imports that block it alone or every experience of the org. Sorted, overlapping ones merged.
   */
  busyIntervalsFor(orgId: string, experienceId: string, from: number, to: number): Promise<BusyInterval[]>;
}

const COLUMNS = `id, org_id AS "orgId", name, url, experience_id AS "experienceId", etag, last_modified AS "lastModified",
  last_synced_at AS "lastSyncedAt", last_error AS "lastError", event_count AS "eventCount", next_sync_at AS "nextSyncAt",
  expanded_at AS "expandedAt", expanded_zone AS "expandedZone", sync_note AS "syncNote",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

/**
 * The most interval pieces one INSERT carries: five parameters each, far under SQLite's limit of
 * 32,766 parameters per statement (and PostgreSQL's 65,535).
 */
const MOST_PIECES_PER_INSERT = 1024;

/**
 * The sizes of the INSERTs that store `count` pieces: full ones, then the rest in powers of two.
 * Each distinct statement text is prepared and kept once per connection, so the sizes are few
 * (at most eleven texts) whatever the calendars hold.
 */
function insertSizes(count: number): number[] {
  const sizes: number[] = [];
  let left = count;
  for (let size = MOST_PIECES_PER_INSERT; size >= 1; size /= 2) {
    while (left >= size) {
      sizes.push(size);
      left -= size;
    }
  }
  return sizes;
}

const insertPieces = (n: number) =>
  `INSERT INTO busy_intervals (import_id, org_id, experience_id, start_at, end_at) VALUES ${Array<string>(n).fill('(?, ?, ?, ?, ?)').join(', ')}`;

export function calendarImportStore(sql: Sql): CalendarImportStore {
  return {
    async insertCalendarImport(row) {
      await sql.run(
        `INSERT INTO calendar_imports (id, org_id, name, url, experience_id, etag, last_modified, last_synced_at,
          last_error, event_count, next_sync_at, expanded_at, expanded_zone, sync_note, created_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [row.id, row.orgId, row.name, row.url, row.experienceId, row.etag, row.lastModified, row.lastSyncedAt,
          row.lastError, row.eventCount, row.nextSyncAt, row.expandedAt, row.expandedZone, row.syncNote,
          row.createdAt, row.updatedAt],
      );
    },
    getCalendarImport: (orgId, id) =>
      sql.get<CalendarImportRow>(`SELECT ${COLUMNS} FROM calendar_imports WHERE org_id = ? AND id = ?`, [orgId, id]),
    getCalendarImportById: (id) => sql.get<CalendarImportRow>(`SELECT ${COLUMNS} FROM calendar_imports WHERE id = ?`, [id]),
    async listCalendarImports(orgId, page) {
      const rows = await sql.all<CalendarImportRow>(
        `SELECT ${COLUMNS} FROM calendar_imports WHERE org_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?`,
        [orgId, page.limit, page.offset],
      );
      const total = (await sql.get<{ n: number }>('SELECT count(*) AS n FROM calendar_imports WHERE org_id = ?', [orgId]))!.n;
      return { rows, total };
    },
    // The intervals go by busy_intervals' ON DELETE CASCADE, in the same statement.
    deleteCalendarImport: async (orgId, id) => (await sql.run('DELETE FROM calendar_imports WHERE org_id = ? AND id = ?', [orgId, id])) > 0,
    async listDueCalendarImports(now, limit) {
      const rows = await sql.all<{ id: string }>(
        `SELECT id FROM calendar_imports WHERE next_sync_at IS NULL OR next_sync_at <= ?
          ORDER BY next_sync_at NULLS FIRST, id LIMIT ?`,
        [now, limit],
      );
      return rows.map((r) => r.id);
    },
    // Two processes claiming at once: on PostgreSQL the second UPDATE waits for the first's row
    // lock, then re-reads the row and finds it no longer due; SQLite writes one at a time.
    scheduleCalendarImport: async (id, now, nextSyncAt) =>
      (await sql.run('UPDATE calendar_imports SET next_sync_at = ? WHERE id = ? AND (next_sync_at IS NULL OR next_sync_at <= ?)', [
        nextSyncAt, id, now,
      ])) > 0,
    async replaceBusyIntervals(row, intervals) {
      // Intervals are stored in pieces of at most a week (see MAX_PIECE_MS).
      const pieces: unknown[] = [];
      for (const { start, end } of intervals) {
        for (let from = start; from < end; from += MAX_PIECE_MS) pieces.push(row.id, row.orgId, row.experienceId, from, Math.min(end, from + MAX_PIECE_MS));
      }
      await sql.transaction(async () => {
        await sql.run('DELETE FROM busy_intervals WHERE import_id = ?', [row.id]);
        let at = 0;
        for (const size of insertSizes(pieces.length / 5)) {
          await sql.run(insertPieces(size), pieces.slice(at, at + size * 5));
          at += size * 5;
        }
      });
    },
    async recordCalendarImportCopy(id, c) {
      await sql.run(
        `UPDATE calendar_imports SET etag = ?, last_modified = ?, last_synced_at = ?, last_error = ?, sync_note = ?,
          event_count = ?, expanded_at = ?, expanded_zone = ?, next_sync_at = ?, updated_at = ? WHERE id = ?`,
        [c.etag, c.lastModified, c.syncedAt, c.syncNote, c.syncNote, c.eventCount, c.syncedAt, c.expandedZone, c.nextSyncAt, c.syncedAt, id],
      );
    },
    async recordCalendarImportUnchanged(id, syncedAt, nextSyncAt) {
      await sql.run('UPDATE calendar_imports SET last_synced_at = ?, last_error = sync_note, next_sync_at = ?, updated_at = ? WHERE id = ?', [
        syncedAt, nextSyncAt, syncedAt, id,
      ]);
    },
    async recordCalendarImportFailure(id, error, at, nextSyncAt) {
      await sql.run('UPDATE calendar_imports SET last_error = ?, next_sync_at = ?, updated_at = ? WHERE id = ?', [error, nextSyncAt, at, id]);
    },
    async busyIntervalsFor(orgId, experienceId, from, to) {
      // A piece overlapping `from` started at most MAX_PIECE_MS before it: the index scan starts there.
      const rows = await sql.all<BusyInterval>(
        `SELECT start_at AS start, end_at AS "end" FROM busy_intervals
          WHERE org_id = ? AND start_at >= ? AND start_at < ? AND end_at > ? AND (experience_id IS NULL OR experience_id = ?)
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
