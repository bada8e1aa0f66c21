/** Fixed one-minute windows per caller: cheap, and exact enough for fairness and abuse control. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

const WINDOW_MS = 60_000;

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  hit(id: string, limit: number): RateDecision {
    const now = this.now();
    let w = this.windows.get(id);
    if (!w || now - w.start >= WINDOW_MS) {
      if (this.windows.size > 50_000) this.sweep(now);
      w = { start: now, count: 0 };
      this.windows.set(id, w);
    }
    w.count += 1;
    const resetSeconds = Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000));
    return { allowed: w.count <= limit, limit, remaining: Math.max(0, limit - w.count), resetSeconds };
  }

  private sweep(now: number): void {
    for (const [id, w] of this.windows) if (now - w.start >= WINDOW_MS) this.windows.delete(id);
  }
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
