import type { Store } from '../store/index.js';

/** Fixed one-minute windows per caller: cheap, and exact enough for fairness and abuse control. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/**
 * Counts a caller's requests against a per-minute limit. A window opens at a caller's first hit
 * and runs one minute; every hit in it counts, refused ones too.
 */
export interface RateLimiter {
  /** Counts one request of `id` and answers whether it is within `limit` this window. */
  hit(id: string, limit: number): Promise<RateDecision>;
}

const WINDOW_MS = 60_000;

function decide(windowStart: number, hits: number, limit: number, now: number): RateDecision {
  // Another process's clock may run a little ahead: never announce more than one window.
  const resetSeconds = Math.min(WINDOW_MS / 1000, Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000)));
  return { allowed: hits <= limit, limit, remaining: Math.max(0, limit - hits), resetSeconds };
}

/** The windows in this process's memory: exact when one process serves the database (SQLite). */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  hit(id: string, limit: number): Promise<RateDecision> {
    return Promise.resolve(this.hitNow(id, limit));
  }

  /** `hit`, answered at once. */
  hitNow(id: string, limit: number): RateDecision {
    const now = this.now();
    let w = this.windows.get(id);
    if (!w || now - w.start >= WINDOW_MS) {
      if (this.windows.size > 50_000) this.sweep(now);
      w = { start: now, count: 0 };
      this.windows.set(id, w);
    }
    w.count += 1;
    return decide(w.start, w.count, limit, now);
  }

  private sweep(now: number): void {
    for (const [id, w] of this.windows) if (now - w.start >= WINDOW_MS) this.windows.delete(id);
  }
}

/**
 * The windows in the database, shared by every process serving it (PostgreSQL): one statement, one
 * round trip per hit. Once a minute a hit also deletes long-expired windows, without waiting for it.
 * Two processes opening a caller's window in the same instant may each open one; later hits join
 * the latest, so the earlier one's hit or two go uncounted: a limit is exact up to that.
 */
export class StoreRateLimiter implements RateLimiter {
  private nextPruneAt = 0;
  private pruning: Promise<void> | undefined;

  constructor(
    private readonly store: Pick<Store, 'rateLimits'>,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(id: string, limit: number): Promise<RateDecision> {
    const now = this.now();
    if (now >= this.nextPruneAt && this.pruning === undefined) {
      this.nextPruneAt = now + WINDOW_MS;
      // Two windows back: a process whose clock runs behind may still count in the last one.
      this.pruning = this.store
        .rateLimits.pruneRateWindows(now - 2 * WINDOW_MS)
        .then(
          () => undefined,
          () => undefined, // tried again a minute later; a few stale rows cost nothing meanwhile
        )
        .finally(() => (this.pruning = undefined));
    }
    const w = await this.store.rateLimits.hitRateWindow(id, now, WINDOW_MS);
    return decide(w.windowStart, w.hits, limit, now);
  }
}

/** The limiter for `store`: in memory for SQLite (one process per file), in the database for PostgreSQL. */
export function rateLimiterFor(store: Store, now: () => number = Date.now): RateLimiter {
  return store.engine === 'postgres' ? new StoreRateLimiter(store, now) : new MemoryRateLimiter(now);
}

/** The IETF RateLimit fields, draft-ietf-httpapi-ratelimit-headers-10. */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Policy': `"default";q=${d.limit};w=60`,
    RateLimit: `"default";r=${d.remaining};t=${d.resetSeconds}`,
  };
  if (!d.allowed) headers['Retry-After'] = String(d.resetSeconds);
  return headers;
}
