/**
 * Calendar arithmetic on local dates written as `YYYY-MM-DD` and months as `YYYY-MM`.
 * Dates are wall-calendar values of the experience's time zone, so all arithmetic runs in UTC
 * where no day is ever 23 or 25 hours long.
 */

function toUtc(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

function fromUtc(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  const d = toUtc(date);
  d.setUTCDate(d.getUTCDate() + days);
  return fromUtc(d);
}

export function monthOf(date: string): string {
  return date.slice(0, 7);
}

export function firstDayOf(month: string): string {
  return `${month}-01`;
}

export function addMonths(month: string, months: number): string {
  const d = toUtc(firstDayOf(month));
  d.setUTCMonth(d.getUTCMonth() + months);
  return monthOf(fromUtc(d));
}

export function lastDayOf(month: string): string {
  return addDays(firstDayOf(addMonths(month, 1)), -1);
}

/** Position in a Monday-first week: Monday 0 … Sunday 6. */
export function weekdayIndex(date: string): number {
  return (toUtc(date).getUTCDay() + 6) % 7;
}

/** The day of the month, 1–31. */
export function dayOfMonth(date: string): number {
  return Number(date.slice(8, 10));
}

/** The month grid: weeks of seven cells, null for the days of neighbouring months. */
export function monthWeeks(month: string): (string | null)[][] {
  const first = firstDayOf(month);
  const last = lastDayOf(month);
  const cells: (string | null)[] = Array<null>(weekdayIndex(first)).fill(null);
  for (let d = first; d <= last; d = addDays(d, 1)) cells.push(d);
  while (cells.length % 7) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

// One formatter per zone: building Intl.DateTimeFormat is the slow part.
const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** The local date of an instant in a time zone, e.g. `2026-12-05`. */
export function dateInZone(instant: string | Date, timeZone: string): string {
  let f = zoneFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    zoneFormats.set(timeZone, f);
  }
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(instant))) parts[p.type] = p.value;
  return `${parts['year']}-${parts['month']}-${parts['day']}`;
}
