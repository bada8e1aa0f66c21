// Calendar and time-zone arithmetic for schedules. Zone rules come only from the runtime's Intl
// (the tz database bundled with ICU): never from fixed offsets, which are wrong half the year.
//
// Local dates are handled as "epoch days" (days since 1970-01-01) and local wall times as
// "wall ms" (the local date and time read as if it were UTC), so calendar arithmetic never needs a
// zone and the zone only enters when a wall time becomes an instant.

import { isTimeZone } from '../../shared/index.js';

export type LocalDate = string; // 'YYYY-MM-DD'
export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

// Offsets run from UTC−12 to UTC+14, so no transition can move a clock by more than 26 hours;
// probing this far around a day catches even the date-line jumps (Samoa skipped 2011-12-30).
const LARGEST_OFFSET_JUMP_MS = 26 * HOUR_MS;
// Caches are bounded so hostile input (random zones, far-flung dates) cannot grow memory forever.
const CACHE_LIMIT = 50_000;
// Intl accepts any capitalisation of a name ("america/new_york"), so names are not a closed set.
const ZONE_LIMIT = 2_000;

const WEEKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

// ---------------------------------------------------------------------------------------------
// Validation

/** True for a time-zone name the runtime's Intl knows: the contract's own check (shared/). */
export const isValidTimeZone = isTimeZone;

const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD (2027-02-29 is not one). */
export function isValidLocalDate(d: string): boolean {
  const m = LOCAL_DATE.exec(d);
  if (!m) return false;
  const month = Number(m[2]);
  const day = Number(m[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(Number(m[1]), month);
}

/** True for a wall-clock time written HH:MM, 00:00–23:59. */
export function isValidLocalTime(t: string): boolean {
  return minutesOfLocalTime(t) !== null;
}

/** Minutes after local midnight of an 'HH:MM' time, or null when it is not one. */
export function minutesOfLocalTime(t: string): number | null {
  // By character codes rather than a regex: schedules are parsed on every availability request.
  if (t.length !== 5 || t.charCodeAt(2) !== 58 /* : */) return null;
  const h1 = digitAt(t, 0);
  const h2 = digitAt(t, 1);
  const m1 = digitAt(t, 3);
  const m2 = digitAt(t, 4);
  const hours = h1 * 10 + h2;
  const minutes = m1 * 10 + m2;
  return hours < 24 && minutes < 60 ? hours * 60 + minutes : null; // NaN fails both tests
}

function digitAt(text: string, i: number): number {
  const d = text.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : Number.NaN;
}

// ---------------------------------------------------------------------------------------------
// Calendar arithmetic (proleptic Gregorian, no zone involved)

function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function daysInMonth(y: number, month: number): number {
  return month === 2 ? (isLeapYear(y) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

// Howard Hinnant's days-from-civil: exact for every year, unlike Date.UTC which maps 0–99 to 19xx.
// https://howardhinnant.github.io/date_algorithms.html#days_from_civil
function daysFromCivil(y: number, month: number, day: number): number {
  const yy = month <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function civilFromDays(n: number): [year: number, month: number, day: number] {
  const z = n + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [era * 400 + yoe + (month <= 2 ? 1 : 0), month, day];
}

/** Days since 1970-01-01 of a local date; NaN when it is not a YYYY-MM-DD string. */
export function epochDayOf(d: LocalDate): number {
  const m = LOCAL_DATE.exec(d);
  return m ? daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3])) : Number.NaN;
}

export function localDateOfEpochDay(n: number): LocalDate {
  const [y, month, day] = civilFromDays(n);
  return `${String(y).padStart(4, '0')}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
}

export function addDays(d: LocalDate, n: number): LocalDate {
  return localDateOfEpochDay(epochDayOf(d) + n);
}

/** b − a in whole days. */
export function daysBetween(a: LocalDate, b: LocalDate): number {
  return epochDayOf(b) - epochDayOf(a);
}

export function weekdayOfEpochDay(n: number): Weekday {
  // 1970-01-01 was a Thursday, index 3 counting from Monday.
  return WEEKDAYS[(((n + 3) % 7) + 7) % 7] as Weekday;
}

export function weekdayOf(d: LocalDate): Weekday {
  return weekdayOfEpochDay(epochDayOf(d));
}

// ---------------------------------------------------------------------------------------------
// Zones

interface ZoneInfo {
  format: Intl.DateTimeFormat;
  /** epoch day → the offset in force through that whole local day, or NaN when it changes. */
  dayOffsets: Map<number, number>;
  /** Wall ms → instant, for wall times on days whose offset changes (the exact, slow path). */
  resolved: Map<number, number>;
  /** The offset last read from Intl: a good first guess of the local day of the next instant. */
  lastOffset: number;
}

const zones = new Map<string, ZoneInfo>();

// Throws RangeError for a zone Intl does not know, which is what callers of the public API get.
function zoneInfo(zone: string): ZoneInfo {
  let info = zones.get(zone);
  if (info === undefined) {
    const format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    info = remember(zones, zone, { format, dayOffsets: new Map(), resolved: new Map(), lastOffset: 0 }, ZONE_LIMIT);
  }
  return info;
}

// One Intl call. format() is ~3× cheaper than formatToParts(); with en-US, numeric fields and
// h23 it reads "3/8/2026 AD, 03:00:00", so taking the digit runs in order is enough (the era
// only matters before year 1).
function intlOffsetMs(info: ZoneInfo, instant: number): number {
  const text = info.format.format(instant);
  const fields = [0, 0, 0, 0, 0, 0];
  let field = 0;
  let inNumber = false;
  for (let i = 0; i < text.length && field < 6; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c >= 0 && c <= 9) {
      fields[field] = (fields[field] as number) * 10 + c;
      inNumber = true;
    } else if (inNumber) {
      field++;
      inNumber = false;
    }
  }
  const [month, day, yearOfEra, hour, minute, second] = fields as [number, number, number, number, number, number];
  const year = text.includes('BC') ? 1 - yearOfEra : yearOfEra;
  const wall = daysFromCivil(year, month, day) * DAY_MS + hour * HOUR_MS + minute * MINUTE_MS + second * 1000;
  return wall - (instant - mod(instant, 1000));
}

function mod(a: number, b: number): number {
  return ((a % b) + b) % b;
}

function remember<K, V>(map: Map<K, V>, key: K, value: V, limit = CACHE_LIMIT): V {
  if (map.size >= limit) map.clear();
  map.set(key, value);
  return value;
}

// The offset in force through the whole of local day `day`, or NaN when it changes that day or
// close enough to it to matter. Probes span the day plus the largest possible jump either side,
// so a fixed offset here means every wall time of the day maps to exactly one instant.
// Probes are at most 26 hours apart: it assumes no zone changes its offset and back again within
// that time, which holds for the tz database.
function offsetThroughDay(info: ZoneInfo, day: number): number {
  const cached = info.dayOffsets.get(day);
  if (cached !== undefined) return cached;
  const dayStart = day * DAY_MS;
  const offset = intlOffsetMs(info, dayStart + 12 * HOUR_MS);
  const probes = [
    dayStart - offset - LARGEST_OFFSET_JUMP_MS,
    dayStart - offset,
    dayStart + DAY_MS - offset,
    dayStart + DAY_MS - offset + LARGEST_OFFSET_JUMP_MS,
  ];
  const constant = probes.every((p) => intlOffsetMs(info, p) === offset);
  return remember(info.dayOffsets, day, constant ? offset : Number.NaN);
}

/** Epoch day → the fixed offset of that local day in `zone`, or null on a day near a transition. */
export function fixedOffsetOfDay(day: number, zone: string): number | null {
  const offset = offsetThroughDay(zoneInfo(zone), day);
  return Number.isNaN(offset) ? null : offset;
}

/** Local time minus UTC, in ms, at an instant. */
export function zoneOffsetMs(instantMs: number, zone: string): number {
  const info = zoneInfo(zone);
  // A day known to keep one offset answers without Intl. A day not seen yet is probed once
  // (offsetThroughDay keeps the answer): "now" and the start of the slot being booked fall on the
  // same few days request after request.
  const day = Math.floor((instantMs + info.lastOffset) / DAY_MS);
  const fixed = offsetThroughDay(info, day);
  if (!Number.isNaN(fixed)) {
    const dayStart = day * DAY_MS - fixed;
    const inSpan = instantMs >= dayStart - LARGEST_OFFSET_JUMP_MS && instantMs < dayStart + DAY_MS + LARGEST_OFFSET_JUMP_MS;
    if (inSpan) return fixed;
  }
  info.lastOffset = intlOffsetMs(info, instantMs);
  return info.lastOffset;
}

/** Epoch day of the local date at an instant. */
export function epochDayAt(instantMs: number, zone: string): number {
  return Math.floor((instantMs + zoneOffsetMs(instantMs, zone)) / DAY_MS);
}

export function localDateOf(instantMs: number, zone: string): LocalDate {
  return localDateOfEpochDay(epochDayAt(instantMs, zone));
}

export function localTodayOf(nowMs: number, zone: string): LocalDate {
  return localDateOf(nowMs, zone);
}

/**
 * A wall time (local date as epoch day, minutes after midnight) → instant. In a spring-forward
 * gap the time moves forward by the gap; an ambiguous (fall-back) time takes the earlier instant.
 */
export function wallTimeToInstant(day: number, minutes: number, zone: string): number {
  const info = zoneInfo(zone);
  const wall = day * DAY_MS + minutes * MINUTE_MS;
  const fixed = offsetThroughDay(info, day);
  if (!Number.isNaN(fixed)) return wall - fixed;
  const known = info.resolved.get(wall);
  return known ?? remember(info.resolved, wall, resolveNearTransition(info, wall));
}

// Temporal's "compatible" disambiguation: try the offsets in force a day either side of the wall
// time; one that reproduces the wall time gives an instant. Two → ambiguous, take the earlier.
// None → the time is in a gap: reading it with the offset from before the gap moves it forward by
// exactly the gap's length. https://tc39.es/proposal-temporal/#sec-temporal-getpossibleepochnanoseconds
function resolveNearTransition(info: ZoneInfo, wall: number): number {
  const before = intlOffsetMs(info, wall - DAY_MS);
  const after = intlOffsetMs(info, wall + DAY_MS);
  const candidates = [wall - before, wall - after].filter(
    (instant) => intlOffsetMs(info, instant) === wall - instant,
  );
  return candidates.length > 0 ? Math.min(...candidates) : wall - before;
}

/**
 * Local wall time → instant. A time in a spring-forward gap moves forward by the gap (02:30 in a
 * 1-hour gap → 03:30 local); an ambiguous time (fall-back) takes the EARLIER instant.
 * Throws RangeError for a malformed date or time or an unknown zone.
 */
export function zonedTimeToInstant(d: LocalDate, hhmm: string, zone: string): number {
  const minutes = minutesOfLocalTime(hhmm);
  if (!isValidLocalDate(d) || minutes === null) throw new RangeError(`Not a local date and time: ${d} ${hhmm}`);
  return wallTimeToInstant(epochDayOf(d), minutes, zone);
}

/** Instant of local 00:00, or of the first time that exists when midnight falls in a gap. */
export function startOfLocalDay(d: LocalDate, zone: string): number {
  return zonedTimeToInstant(d, '00:00', zone);
}
