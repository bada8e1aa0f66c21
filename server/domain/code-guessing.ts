// The guessing limit of the public API: an address whose promo or voucher codes were refused ten
// times within ten minutes may not try codes again until the oldest of those failures is ten minutes
// old. Counted in the database (store/code-failures.ts: every process sees the same count); always
// on, whatever the other public limits say. Applied by server/http/code-guessing.ts.

export const CODE_GUESS_LIMIT = 10;
export const CODE_GUESS_WINDOW_MS = 10 * 60_000;

/** The refusals that count as a guess. */
export const CODE_REFUSALS: ReadonlySet<string> = new Set(['PROMO_CODE_INVALID', 'VOUCHER_INVALID']);

/**
 * Seconds until an address may try codes again, from the times of its failures inside the window
 * (oldest first), or null while it may: with LIMIT or more, until enough of them are a window old
 * to leave fewer than LIMIT.
 */
export function codeGuessingWait(times: readonly number[], now: number): number | null {
  if (times.length < CODE_GUESS_LIMIT) return null;
  const lapses = times[times.length - CODE_GUESS_LIMIT]! + CODE_GUESS_WINDOW_MS;
  return Math.max(1, Math.ceil((lapses - now) / 1000));
}
