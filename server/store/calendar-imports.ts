import type { Db } from './db.js';

export interface BusyInterval {
  start: number;
  end: number;
}

export function calendarImportStore(db: Db) {
  const busy = db.prepare(`SELECT start_at AS start, end_at AS "end" FROM busy_intervals
    WHERE org_id = ? AND (experience_id IS NULL OR experience_id = ?) AND start_at < ? AND end_at > ?
    ORDER BY start_at`);

  return {
    /** Busy time from imported calendars that overlaps [from, to) for one experience, by start. */
    busyIntervalsFor(orgId: string, experienceId: string, from: number, to: number): BusyInterval[] {
      return busy.all(orgId, experienceId, to, from) as BusyInterval[];
    },
  };
}
