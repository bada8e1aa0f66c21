/** Dates, times, money, durations and plurals through Intl, in the widget's locale. */
import type { Plural } from './messages.js';

/** A text with its `{0}`, `{1}`… replaced by `values`, in order (messages.ts). */
export const fill = (text: string, ...values: unknown[]): string => text.replace(/\{(\d)\}/g, (_, i: number) => String(values[i]));

export interface Formats {
  /** The form of `text` that `n` takes in this language, with `{0}` as `n`. */
  count(text: Plural, n: number): string;
  money(amount: number, currency: string): string;
  /** A slot's start as wall-clock time in the experience's zone, e.g. `09:30`. */
  time(instant: string, timeZone: string): string;
  /** `YYYY-MM-DD` as e.g. `Friday, 5 December 2026`. */
  longDate(date: string): string;
  /** `YYYY-MM` as e.g. `December 2026`. */
  month(month: string): string;
  /** Monday-first weekday names: [short, long]. */
  weekdays: [string, string][];
  /** Names a zone for people, e.g. `Lisbon (Western European Summer Time)`. */
  zone(instant: string, timeZone: string): string;
  duration(minutes: number): string;
}

// Dates are calendar values: formatting them at noon UTC in UTC cannot shift the day.
const atNoon = (date: string): Date => new Date(`${date}T12:00:00Z`);

export function createFormats(locale: string): Formats {
  // A formatter in the locale; calendar values are formatted in UTC (atNoon).
  const dates = (options: Intl.DateTimeFormatOptions, timeZone = 'UTC') => new Intl.DateTimeFormat(locale, { ...options, timeZone });
  const longDate = dates({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  const month = dates({ month: 'long', year: 'numeric' });
  const short = dates({ weekday: 'short' });
  const long = dates({ weekday: 'long' });
  const plural = new Intl.PluralRules(locale);
  const unit = (u: string, n: number): string =>
    new Intl.NumberFormat(locale, { style: 'unit', unit: u, unitDisplay: 'short' }).format(n);

  return {
    count: (text, n) => fill(typeof text === 'string' ? text : (text[plural.select(n)] ?? text.other), n),
    money: (amount, currency) => new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount),
    time: (instant, timeZone) =>
      dates({ hour: 'numeric', minute: '2-digit' }, timeZone).format(new Date(instant)),
    longDate: (date) => longDate.format(atNoon(date)),
    month: (m) => month.format(atNoon(`${m}-15`)),
    // 2024-01-01 was a Monday.
    weekdays: [0, 1, 2, 3, 4, 5, 6].map((i) => {
      const d = atNoon(`2024-01-0${i + 1}`);
      return [short.format(d), long.format(d)];
    }),
    zone: (instant, timeZone) => {
      const name = dates({ timeZoneName: 'long' }, timeZone)
        .formatToParts(new Date(instant))
        .find((p) => p.type === 'timeZoneName')?.value;
      const city = timeZone.split('/').pop()!.replace(/_/g, ' ');
      return name ? `${city} (${name})` : city;
    },
    duration: (minutes) => {
      const h = Math.floor(minutes / 60);
      const m = minutes % 60;
      return [h && unit('hour', h), m && unit('minute', m)].filter(Boolean).join(' ');
    },
  };
}
