/**
 * Times, dates and money as the person reading them writes them (the browser's language), in the
 * zone and currency they belong to. One formatter per zone or currency: a busy day has hundreds.
 */
const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function memo<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let f = cache.get(key) as T | undefined;
  if (!f) cache.set(key, (f = make()));
  return f;
}

/** `09:30` / `9:30 AM`: the wall-clock time in `zone`. */
export function timeIn(instant: string, zone: string): string {
  return memo(`t${zone}`, () => new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZone: zone })).format(
    new Date(instant),
  );
}

/** The calendar date it is now in `zone`, `YYYY-MM-DD`. */
export function dateIn(zone: string, now = new Date()): string {
  return memo(`c${zone}`, () => new Intl.DateTimeFormat('en-CA', { timeZone: zone })).format(now);
}

/** `Monday, November 23, 2026`: a calendar date, in no zone at all. */
export function longDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return memo('d', () => new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeZone: 'UTC' })).format(new Date(Date.UTC(y, m - 1, d)));
}

/** `€40.00`: an amount in major units as the API writes it ("40.00"), in its currency. */
export function money(amount: string, currency: string): string {
  try {
    return memo(`m${currency}`, () => new Intl.NumberFormat(undefined, { style: 'currency', currency })).format(Number(amount));
  } catch {
    // A code Intl does not know still reads well enough.
    return `${amount} ${currency}`;
  }
}


/** `Tue, Dec 1, 2026, 10:00 AM`: an instant in `zone`, for a record's details. */
export function dateTimeIn(instant: string, zone: string): string {
  return memo(`dt${zone}`, () =>
    new Intl.DateTimeFormat(undefined, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: zone }),
  ).format(new Date(instant));
}

/** `Dec 1, 2026`: the calendar date of an instant in `zone`. */
export function shortDateIn(instant: string, zone: string): string {
  return memo(`sd${zone}`, () => new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', timeZone: zone })).format(new Date(instant));
}

export const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
