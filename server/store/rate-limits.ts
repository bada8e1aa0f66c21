import type { Db } from './db.js';

/** A caller's window after one more hit: when it opened and how many hits it holds. */
export interface RateWindow {
  windowStart: number;
  hits: number;
}

/**
 * Windows that already opened for `bucket` at or after `now - windowMs` are still running; the
 * latest of them takes the hit, else a window opens at `now`.
 */
const HIT_RATE_WINDOW_SQL = `
  INSERT INTO rate_limit_windows (bucket, window_start, hits)
  VALUES (?, COALESCE((SELECT MAX(window_start) FROM rate_limit_windows WHERE bucket = ? AND window_start > ?), ?), 1)
  ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_windows.hits + 1
  RETURNING window_start AS windowStart, hits`;

/**
 * Fixed windows per caller in the database, for limits that several processes share. A window
 * opens at a caller's first hit and runs `windowMs`; one statement counts a hit and answers the
 * window's count.
 */
export function rateLimitStore(db: Db) {
  const hit = db.prepare(HIT_RATE_WINDOW_SQL);
  const prune = db.prepare('DELETE FROM rate_limit_windows WHERE window_start <= ?');
  return {
    /** Counts one hit of `bucket` at `now` in its running window (opening one if none runs). */
    hitRateWindow(bucket: string, now: number, windowMs: number): RateWindow {
      return hit.get(bucket, bucket, now - windowMs, now) as RateWindow;
    },
    /** Deletes the windows that opened at or before `before` (expired ones); answers how many. */
    pruneRateWindows(before: number): number {
      return prune.run(before).changes;
    },
  };
}
