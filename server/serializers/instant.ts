/**
 * Instants on the wire: UTC with milliseconds, exactly as `Date#toISOString` writes them.
 */
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const LAST_FAST_MS = Date.UTC(9999, 11, 31, 23, 59); // four-digit years only
const dayPrefixes = new Map<number, string>(); // epoch day → 'YYYY-MM-DDT'
const minuteSuffixes: string[] = []; // minute of the day → 'HH:MM:00.000Z'

/**
 * Epoch milliseconds to the contract's instant: UTC with milliseconds, exactly as
 * `Date#toISOString` writes it. Availability writes two per slot (hundreds per response), and
 * slots start on whole minutes: those are assembled from a cached date and a cached time of day,
 * several times faster than formatting a Date.
 */
export function iso(ms: number): string {
  if (ms % MINUTE_MS !== 0 || ms < 0 || ms > LAST_FAST_MS) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    if (dayPrefixes.size >= 20_000) dayPrefixes.clear(); // bounded: ~55 years of days
    dayPrefixes.set(day, prefix);
  }
  const minute = (ms - day * DAY_MS) / MINUTE_MS;
  return prefix + (minuteSuffixes[minute] ??= new Date(minute * MINUTE_MS).toISOString().slice(11));
}
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));
