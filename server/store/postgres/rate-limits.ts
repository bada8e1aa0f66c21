import type { Async } from '../index.js';
import type { RateWindow, rateLimitStore } from '../rate-limits.js';
import type { PgDb } from './db.js';

/** One round trip per hit: the statement of store/rate-limits.ts, numbered. */
const HIT = `
  INSERT INTO rate_limit_windows (bucket, window_start, hits)
  VALUES ($1, COALESCE((SELECT MAX(window_start) FROM rate_limit_windows WHERE bucket = $1 AND window_start > $2), $3), 1)
  ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_windows.hits + 1
  RETURNING window_start AS "windowStart", hits`;

export function rateLimitStorePg(db: PgDb): Async<ReturnType<typeof rateLimitStore>> {
  return {
    async hitRateWindow(bucket: string, now: number, windowMs: number): Promise<RateWindow> {
      return (await db.get<RateWindow>(HIT, [bucket, now - windowMs, now]))!;
    },
    async pruneRateWindows(before: number): Promise<number> {
      return await db.run('DELETE FROM rate_limit_windows WHERE window_start <= $1', [before]);
    },
  };
}
