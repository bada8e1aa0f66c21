import { z } from 'zod';

/** Identifier prefixes of the API. Ids are opaque: a prefix and random base62. */
export const ID_PREFIXES = {
  organization: 'org',
  experience: 'exp',
  booking: 'bk',
  customer: 'cus',
  timeSlot: 'ts',
  apiKey: 'key',
  webhookEndpoint: 'whe',
  event: 'evt',
  calendarFeed: 'feed',
  calendarImport: 'cal',
  payment: 'pay',
  delivery: 'dlv',
  activity: 'act',
  user: 'usr',
  setupToken: 'stp',
  session: 'ses',
  priceCategory: 'pc',
  message: 'msg',
  refund: 're',
  question: 'q',
  extra: 'ex',
  promoCode: 'promo',
  giftVoucher: 'gv',
  giftVoucherPurchase: 'gvp',
  waitlistEntry: 'wl',
} as const;
export type IdKind = keyof typeof ID_PREFIXES;

/** Shape of an id of one kind; a path id of another shape is answered 404. */
export function idPattern(kind: IdKind): RegExp {
  return new RegExp(`^${ID_PREFIXES[kind]}_[A-Za-z0-9]{1,64}$`);
}

const knownZones = new Map<string, boolean>();

/** True for a time-zone name the runtime's Intl knows (IANA names and their aliases); remembered. */
export function isTimeZone(zone: string): boolean {
  const known = knownZones.get(zone);
  if (known !== undefined) return known;
  let valid = zone.length > 0 && zone.length <= 64;
  if (valid) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
    } catch {
      valid = false;
    }
  }
  if (knownZones.size >= 2_000) knownZones.clear();
  knownZones.set(zone, valid);
  return valid;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
export function isCalendarDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // Years outside 1900–9998 are refused: nothing is booked there, and a day after 9999-12-31 has
  // no ISO 8601 spelling for the date arithmetic that reads a range.
  if (y < 1900 || y > 9998) return false;
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** An instant in a request: ISO 8601 with `Z` or an offset. One without a zone is refused. */
export const InstantInput = z.iso.datetime({ offset: true }).describe('ISO 8601 instant with Z or an offset');
/** An instant in a response: UTC with milliseconds. */
export const Instant = z
  .string()
  .meta({ description: 'UTC instant with milliseconds, e.g. 2026-12-01T09:00:00.000Z', format: 'date-time' });
export const LocalDate = z
  .string()
  .refine(isCalendarDate, { message: 'Expected a date as YYYY-MM-DD (years 1900–9998)' })
  .meta({ description: 'Calendar date YYYY-MM-DD', format: 'date' });
/** A date in a response: already checked when it was stored, so only its format is documented. */
export const DateString = z.string().meta({ description: 'Calendar date YYYY-MM-DD', format: 'date' });
export const LocalTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'Expected a time as HH:MM (00:00–23:59)' })
  .describe('Local wall-clock time HH:MM');
/** `europe/lisbon` is stored as `Europe/Lisbon`; aliases (`Asia/Kolkata`) are kept as written. */
export function canonicalZoneCase(zone: string): string {
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  return resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone;
}

export const TimeZone = z
  .string()
  .refine(isTimeZone, { message: 'Expected an IANA time zone such as Europe/Lisbon' })
  .transform(canonicalZoneCase)
  .describe('IANA time zone');
export const Email = z.email({ message: 'Expected an e-mail address' }).max(254);
/** An e-mail address in a response (an erased customer's is a placeholder at `erased.invalid`). */
export const EmailString = z.string().meta({ format: 'email' });
/**
 * The largest amount one booking may total, and so the largest price, in minor units (cents):
 * 999,999.99 in the organization's currency. It is Stripe's largest charge (eight digits of minor
 * units), so every booking can be paid online, and far inside what the money columns and
 * JavaScript's numbers hold exactly.
 */
export const MAX_AMOUNT_CENTS = 99_999_999;

/** Money in major units with two fraction digits, as a string ("90.00"). */
export const MoneyString = z
  .string()
  .regex(/^\d{1,12}\.\d{2}$/, { message: 'Expected an amount with two decimals, e.g. "90.00"' })
  .describe('Amount in major units with two decimals');
export const Currency = z.string().describe('ISO 4217 currency code');
export const NonBlank = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => s.trim().length > 0, { message: 'Must not be empty' });

/**
 * The bidirectional embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069). In a
 * name they reorder what follows them wherever the name is shown (an e-mail, the dashboard, a
 * manifest), so that "Ana\u202Eelif.exe" reads as something it is not; no real name needs them.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;
export const hasBidiControl = (text: string): boolean => BIDI_CONTROLS.test(text);
const BIDI_CONTROL_MESSAGE = 'Must not contain bidirectional control characters (U+202A–U+202E, U+2066–U+2069)';

/**
 * A name people read: a guest's, an experience's, a price category's, an organization's or a user's.
 * Not blank, at most `max` characters, and without bidirectional controls.
 */
export const DisplayName = (max: number) =>
  NonBlank(max)
    .refine((s) => !hasBidiControl(s), { message: BIDI_CONTROL_MESSAGE })
    .describe(`1–${max} characters; bidirectional control characters (U+202A–U+202E, U+2066–U+2069) are refused`);

/**
 * A search term of a list's query. Control characters (a NUL, a tab…) are refused: no name,
 * e-mail or booking number holds one, and the database would not match them as the caller meant
 * (a NUL ends the term for SQLite's LIKE, so `q=%00` matched every row).
 */
export const SearchTerm = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^\u0000-\u001f\u007f]*$/, { message: 'Must not contain control characters' });

/** A non-negative integer given as a query string. */
export function queryInt(min: number, max: number) {
  return z
    .string()
    .regex(/^\d{1,9}$/, { message: `Expected an integer from ${min} to ${max}` })
    .transform(Number)
    .pipe(z.int().min(min).max(max));
}

export const Pagination = z.object({
  total: z.int(),
  limit: z.int(),
  offset: z.int(),
  hasMore: z.boolean(),
});
export type Pagination = z.infer<typeof Pagination>;

export const PageQuery = {
  limit: queryInt(1, 100).default(20).describe('Page size, 1–100'),
  offset: queryInt(0, 1_000_000_000).default(0).describe('Records to skip'),
};

export const Deleted = z.object({ id: z.string(), deleted: z.literal(true) });

/** The pipe to a boolean lets the OpenAPI document show the parameter as the boolean it becomes. */
export const QueryBoolean = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true')
  .pipe(z.boolean());

/** The languages guests read Outing's messages and pages in. */
export const LOCALES = ['en', 'pt', 'es', 'fr', 'de', 'it', 'nl'] as const;
export const Locale = z.enum(LOCALES).describe('The language of the guest’s e-mails and pages');
export type Locale = z.infer<typeof Locale>;

