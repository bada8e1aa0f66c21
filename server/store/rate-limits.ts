import type { Sql } from './sql.js';

/** A caller's window after one more hit: when it opened and how many hits it holds. */
export interface RateWindow {
  windowStart: number;
  hits: number;
}

/**
 * Fixed windows per caller in the database, for limits that several processes share. A window
 * opens at a caller's first hit and runs `windowMs`; one statement counts a hit and answers the
 * window's count.
 */
export interface RateLimitStore {
  /** Counts one hit of `bucket` at `now` in its running window (opening one if none runs). */
  hitRateWindow(bucket: string, now: number, windowMs: number): Promise<RateWindow>;
  /** Deletes the windows that opened at or before `before` (expired ones); answers how many. */
  pruneRateWindows(before: number): Promise<number>;
}

/**
 * Windows that already opened for `bucket` at or after `now - windowMs` are still running; the
 * latest of them takes the hit (processes whose clocks differ by a little may each have opened
 * one), else a window opens at `now`. One round trip per hit.
 */
const HIT_RATE_WINDOW = `
  INSERT INTO rate_limit_windows (bucket, window_start, hits)
  VALUES (?, COALESCE((SELECT MAX(window_start) FROM rate_limit_windows WHERE bucket = ? AND window_start > ?), ?), 1)
  ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_windows.hits + 1
  RETURNING window_start AS "windowStart", hits`;

export function rateLimitStore(sql: Sql): RateLimitStore {
  return {
    async hitRateWindow(bucket, now, windowMs) {
      const window = await sql.get<RateWindow>(HIT_RATE_WINDOW, [bucket, bucket, now - windowMs, now]);
      return window!; // an INSERT … RETURNING always answers its row
    },
    pruneRateWindows: (before) => sql.run('DELETE FROM rate_limit_windows WHERE window_start <= ?', [before]),
  };
}
