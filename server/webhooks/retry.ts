/**
 * When to try a failed delivery again (docs/webhooks.md): the next value of WEBHOOK_RETRY_SCHEDULE with
 * ±10% jitter, or the receiver's Retry-After when that is longer (at most 10 hours); after
 * 1 + schedule length attempts the delivery has failed for good. Pure: no clock, no randomness
 * of its own.
 */

export const MAX_RETRY_AFTER_SECONDS = 36_000;
const JITTER = 0.1;

/** Seconds asked for by a `Retry-After` header (delay-seconds or an HTTP date), capped; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, now: number): number | undefined {
  if (header === null || header === undefined) return undefined;
  const value = header.trim();
  let seconds: number;
  if (/^\d+$/.test(value)) seconds = Number(value);
  else {
    const at = Date.parse(value);
    if (Number.isNaN(at)) return undefined;
    seconds = Math.max(0, Math.ceil((at - now) / 1000));
  }
  return Math.min(seconds, MAX_RETRY_AFTER_SECONDS);
}

/**
 * Milliseconds to wait after the `attempts`-th failed attempt (1-based), or undefined when the
 * schedule is used up. `random` is a number in [0, 1) (Math.random in production).
 */
export function retryDelayMs(
  attempts: number,
  schedule: readonly number[],
  retryAfterSeconds: number | undefined,
  random: number,
): number | undefined {
  const base = schedule[attempts - 1];
  if (base === undefined) return undefined;
  const jittered = base * 1000 * (1 - JITTER + 2 * JITTER * random);
  const asked = retryAfterSeconds === undefined ? 0 : Math.min(retryAfterSeconds, MAX_RETRY_AFTER_SECONDS) * 1000;
  return Math.round(Math.max(jittered, asked));
}
