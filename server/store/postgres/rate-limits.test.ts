import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Async } from '../index.js';
import type { rateLimitStore } from '../rate-limits.js';
import { bothEngines, type BothEngines } from '../../test-helpers/engines.js';
import { testDatabaseUrl } from '../../test-helpers/postgres.js';
import { rateLimitStorePg } from './rate-limits.js';

type RateLimits = Async<ReturnType<typeof rateLimitStore>>;

const MINUTE = 60_000;
const T0 = Date.UTC(2027, 2, 1, 8, 0, 0);

describe.skipIf(!testDatabaseUrl())('PostgreSQL rate-limit store, held to SQLite’s', () => {
  let e: BothEngines;
  let pg: RateLimits;
  beforeEach(async () => {
    e = await bothEngines();
    pg = rateLimitStorePg(e.pgDb);
  });
  afterEach(async () => await e.close());

  /** The same call on both engines: both answer, and alike. */
  async function same<T>(call: (s: RateLimits) => Promise<T>): Promise<T> {
    const expected = await call(e.sqlite);
    expect(await call(pg)).toStrictEqual(expected);
    return expected;
  }

  async function windows(): Promise<unknown[]> {
    const sql = 'SELECT bucket, window_start AS "windowStart", hits FROM rate_limit_windows ORDER BY bucket, window_start';
    const lite = e.sqliteDb.prepare(sql).all();
    expect(await e.pgDb.all(sql)).toStrictEqual(lite);
    return lite;
  }

  it('opens a window at the first hit, counts hits in it, and opens the next once it has run a minute', async () => {
    expect(await same((s) => s.hitRateWindow('key_a', T0 + 123, MINUTE))).toEqual({ windowStart: T0 + 123, hits: 1 });
    expect(await same((s) => s.hitRateWindow('key_a', T0 + 30_000, MINUTE))).toEqual({ windowStart: T0 + 123, hits: 2 });
    // Callers count apart; a bucket is matched exactly (case and all).
    expect(await same((s) => s.hitRateWindow('KEY_A', T0 + 30_000, MINUTE))).toEqual({ windowStart: T0 + 30_000, hits: 1 });
    expect(await same((s) => s.hitRateWindow('public:r:203.0.113.9', T0 + 30_000, MINUTE))).toEqual({ windowStart: T0 + 30_000, hits: 1 });
    // The last millisecond of the window still counts in it; the next opens a new one.
    expect(await same((s) => s.hitRateWindow('key_a', T0 + 123 + MINUTE - 1, MINUTE))).toEqual({ windowStart: T0 + 123, hits: 3 });
    expect(await same((s) => s.hitRateWindow('key_a', T0 + 123 + MINUTE, MINUTE))).toEqual({ windowStart: T0 + 123 + MINUTE, hits: 1 });
    expect(await same((s) => s.hitRateWindow('key_a', T0 + 123 + MINUTE, MINUTE))).toEqual({ windowStart: T0 + 123 + MINUTE, hits: 2 });
    expect(await windows()).toHaveLength(4); // key_a twice, KEY_A, the address
  });

  it('lets a hit join the latest running window, even one opened by a clock slightly ahead', async () => {
    // Two processes opened windows a few milliseconds apart (they raced): later hits join the latest.
    await same((s) => s.hitRateWindow('key_a', T0 + 5, MINUTE));
    e.sqliteDb.prepare('INSERT INTO rate_limit_windows (bucket, window_start, hits) VALUES (?, ?, 1)').run('key_a', T0);
    await e.pgDb.run('INSERT INTO rate_limit_windows (bucket, window_start, hits) VALUES ($1, $2, 1)', ['key_a', T0]);
    expect(await same((s) => s.hitRateWindow('key_a', T0 + 10, MINUTE))).toEqual({ windowStart: T0 + 5, hits: 2 });
    // A hit stamped before the window opened (a clock behind) counts in it too.
    expect(await same((s) => s.hitRateWindow('key_a', T0 + 2, MINUTE))).toEqual({ windowStart: T0 + 5, hits: 3 });
    await windows();
  });

  it('counts well past any limit, and large instants alike', async () => {
    const far = 8_000_000_000_000; // year 2223: past 2^32, as every instant is
    for (let i = 1; i <= 50; i++) expect(await same((s) => s.hitRateWindow('busy', far + i, MINUTE))).toEqual({ windowStart: far + 1, hits: i });
  });

  it('prunes the windows that opened at or before an instant, and answers how many', async () => {
    for (const [bucket, at] of [['a', T0], ['b', T0 + 1_000], ['a', T0 + MINUTE], ['c', T0 + 2 * MINUTE]] as const) {
      await same((s) => s.hitRateWindow(bucket, at, MINUTE));
    }
    expect(await same((s) => s.pruneRateWindows(T0 - 1))).toBe(0);
    expect(await same((s) => s.pruneRateWindows(T0 + 1_000))).toBe(2);
    expect(await windows()).toEqual([
      { bucket: 'a', windowStart: T0 + MINUTE, hits: 1 },
      { bucket: 'c', windowStart: T0 + 2 * MINUTE, hits: 1 },
    ]);
    expect(await same((s) => s.pruneRateWindows(T0 + 10 * MINUTE))).toBe(2);
    expect(await windows()).toEqual([]);
  });
});
