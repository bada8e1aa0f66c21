// Time zones of imported calendars. A TZID is read, in order, as: an IANA name the runtime knows
// (zone rules then come from Intl, never from fixed offsets); a Windows zone name as Outlook and
// Exchange write them ("GMT Standard Time"), mapped with the CLDR table in windows-iana; the
// calendar's own VTIMEZONE of that name (custom zones); an IANA name behind a vendor prefix
// ("/mozilla.org/20050126_1/Europe/Berlin"). Anything else is an unknown zone.
import ICAL from 'ical.js';
import { WINDOWS_TO_IANA_MAP, findIana } from 'windows-iana';
import { DAY_MS, isValidTimeZone, wallTimeToInstant, zoneOffsetMs } from '../domain/time.js';

/** A local date and time as written in the calendar (month 1–12). */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export type Zone =
  | { kind: 'utc' }
  | { kind: 'iana'; name: string }
  | { kind: 'vtimezone'; name: string; tz: ICAL.Timezone };

export const UTC: Zone = { kind: 'utc' };

/** Wall time read as if it were UTC, in ms: calendar arithmetic without a zone. */
export function wallMs(w: WallTime): number {
  // setUTCFullYear keeps years 0–99 literal, which Date.UTC would move to 19xx.
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second, 0);
  return d.getTime();
}

export function wallOfMs(ms: number): WallTime {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

/** Days since 1970-01-01 of a wall time's date. */
export function epochDayOfWall(w: WallTime): number {
  return Math.floor(wallMs({ ...w, hour: 0, minute: 0, second: 0 }) / DAY_MS);
}

/**
 * Wall time in a zone → instant (ms). In a spring-forward gap the time moves forward by the gap;
 * an ambiguous fall-back time takes the earlier instant (the same rule as schedules).
 */
export function instantOf(w: WallTime, zone: Zone): number {
  switch (zone.kind) {
    case 'utc':
      return wallMs(w);
    case 'iana': {
      const day = epochDayOfWall(w);
      return wallTimeToInstant(day, w.hour * 60 + w.minute, zone.name) + w.second * 1000;
    }
    case 'vtimezone': {
      const t = new ICAL.Time({ ...w, isDate: false }, zone.tz);
      return t.toUnixTime() * 1000;
    }
  }
}

/** Instant → wall time in a zone (used to read a UTC UNTIL in the series' own zone). */
export function wallAt(instant: number, zone: Zone): WallTime {
  switch (zone.kind) {
    case 'utc':
      return wallOfMs(instant);
    case 'iana':
      return wallOfMs(instant + zoneOffsetMs(instant, zone.name));
    case 'vtimezone': {
      const utc = ICAL.Time.fromJSDate(new Date(instant), true);
      const local = utc.convertToZone(zone.tz);
      return { year: local.year, month: local.month, day: local.day, hour: local.hour, minute: local.minute, second: local.second };
    }
  }
}

/** Instant of local midnight starting a day (epoch day) in an IANA zone. */
export function startOfDay(epochDay: number, zoneName: string): number {
  return wallTimeToInstant(epochDay, 0, zoneName);
}

// Windows names compared without regard to case, as Exchange is not consistent about it.
let windowsNames: Map<string, string> | undefined;
function windowsZone(name: string): string | undefined {
  const exact = findIana(name)[0];
  if (exact !== undefined) return exact;
  windowsNames ??= new Map(Object.keys(WINDOWS_TO_IANA_MAP).map((k) => [k.toLowerCase(), k]));
  const key = windowsNames.get(name.toLowerCase());
  return key === undefined ? undefined : findIana(key)[0];
}

function vendorPrefixed(name: string): string | undefined {
  const parts = name.split('/').filter((p) => p.length > 0);
  for (const take of [3, 2]) {
    if (parts.length <= take) continue;
    const candidate = parts.slice(-take).join('/');
    if (isValidTimeZone(candidate)) return candidate;
  }
  return undefined;
}

/** Resolves the TZIDs of one calendar, with that calendar's VTIMEZONE components at hand. */
export class ZoneResolver {
  private readonly cache = new Map<string, Zone | null>();

  constructor(private readonly vtimezones: ReadonlyMap<string, ICAL.Component>) {}

  resolve(tzid: string): Zone | null {
    const name = tzid.trim().replace(/^"(.*)"$/, '$1');
    if (this.cache.has(name)) return this.cache.get(name) ?? null;
    const zone = this.lookup(name);
    this.cache.set(name, zone);
    return zone;
  }

  private lookup(name: string): Zone | null {
    if (name === '') return null;
    if (/^(z|utc|gmt|etc\/utc|etc\/gmt)$/i.test(name)) return UTC;
    if (isValidTimeZone(name)) return { kind: 'iana', name };
    const windows = windowsZone(name);
    if (windows !== undefined && isValidTimeZone(windows)) return { kind: 'iana', name: windows };
    const component = this.vtimezones.get(name);
    if (component !== undefined) {
      try {
        const tz = new ICAL.Timezone(component);
        // A definition without any STANDARD/DAYLIGHT part would read every time as UTC.
        if (component.getAllSubcomponents().length > 0) {
          tz.utcOffset(new ICAL.Time({ year: 2026, month: 1, day: 1, hour: 0, minute: 0, second: 0, isDate: false }, tz));
          return { kind: 'vtimezone', name, tz };
        }
      } catch {
        // an unreadable VTIMEZONE: fall through to the prefix heuristic
      }
    }
    const prefixed = vendorPrefixed(name);
    return prefixed === undefined ? null : { kind: 'iana', name: prefixed };
  }
}
