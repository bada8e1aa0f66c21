import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  daysBetween,
  isValidLocalDate,
  isValidLocalTime,
  isValidTimeZone,
  localDateOf,
  localTodayOf,
  startOfLocalDay,
  weekdayOf,
  zoneOffsetMs,
  zonedTimeToInstant,
} from './time.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const at = (iso: string): number => Date.parse(iso);

// An oracle independent of time.ts: formatToParts (time.ts parses format()) read field by field.
function oracleWall(instant: number, zone: string): { date: string; minutes: number; offset: number } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const field = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  const [y, m, d] = [field('year'), field('month'), field('day')];
  const wall = Date.UTC(y, m - 1, d, field('hour'), field('minute'), field('second'));
  const date = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  return { date, minutes: field('hour') * 60 + field('minute'), offset: wall - Math.floor(instant / 1000) * 1000 };
}

const ZONES = ['Europe/Lisbon', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata', 'Pacific/Chatham'] as const;
const instantIn2026to2028 = fc.integer({ min: at('2026-01-01T00:00:00Z'), max: at('2028-12-31T23:59:59Z') });

describe('isValidTimeZone', () => {
  it('accepts IANA zones and the aliases the runtime knows', () => {
    for (const zone of ['Europe/Lisbon', 'America/New_York', 'Asia/Kolkata', 'Asia/Calcutta', 'UTC', 'Pacific/Chatham']) {
      expect(isValidTimeZone(zone)).toBe(true);
    }
  });

  it('rejects the empty string, garbage, padded names and bare offsets', () => {
    for (const zone of ['', 'garbage', 'Mars/Olympus_Mons', ' Europe/Lisbon', 'Europe/Lisbon ', '+05:30', 'Z']) {
      expect(isValidTimeZone(zone)).toBe(false);
    }
  });

  it('gives the same answer when asked again (cached)', () => {
    expect(isValidTimeZone('Nowhere/Atlantis')).toBe(false);
    expect(isValidTimeZone('Nowhere/Atlantis')).toBe(false);
    expect(isValidTimeZone('Australia/Sydney')).toBe(true);
    expect(isValidTimeZone('Australia/Sydney')).toBe(true);
  });
});

describe('isValidLocalDate', () => {
  it('accepts real calendar dates, including leap days', () => {
    for (const d of ['2026-01-01', '2026-12-31', '2028-02-29', '2000-02-29', '2026-04-30']) {
      expect(isValidLocalDate(d)).toBe(true);
    }
  });

  it('rejects impossible or badly written dates', () => {
    for (const d of ['2027-02-29', '1900-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', '2026-1-01', '20260101', '2026-01-01T00:00', '']) {
      expect(isValidLocalDate(d)).toBe(false);
    }
  });
});

describe('isValidLocalTime', () => {
  it('accepts HH:MM from 00:00 to 23:59', () => {
    for (const t of ['00:00', '09:05', '12:30', '23:59']) expect(isValidLocalTime(t)).toBe(true);
  });

  it('rejects anything else', () => {
    for (const t of ['24:00', '9:00', '12:60', '12:5', 'ab:cd', '12:00:00', '12.00', ' 12:00', '']) {
      expect(isValidLocalTime(t)).toBe(false);
    }
  });
});

describe('calendar arithmetic', () => {
  it('adds days across month, year and leap-day boundaries', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-02-28', 1)).toBe('2027-03-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-06-15', 0)).toBe('2026-06-15');
  });

  it('counts the days from a to b', () => {
    expect(daysBetween('2026-01-01', '2026-12-31')).toBe(364);
    expect(daysBetween('2028-01-01', '2029-01-01')).toBe(366);
    expect(daysBetween('2026-03-10', '2026-03-01')).toBe(-9);
  });

  it('names the weekday of a date', () => {
    expect(weekdayOf('2026-01-01')).toBe('thu');
    expect(weekdayOf('2026-03-08')).toBe('sun');
    expect(weekdayOf('2028-02-29')).toBe('tue');
    expect(weekdayOf('1969-12-29')).toBe('mon');
  });

  it('agrees with the UTC calendar of Date for any date', () => {
    fc.assert(
      fc.property(fc.integer({ min: -200_000, max: 200_000 }), fc.integer({ min: -800, max: 800 }), (day, n) => {
        const d = new Date(day * DAY).toISOString().slice(0, 10);
        const later = new Date((day + n) * DAY);
        expect(addDays(d, n)).toBe(later.toISOString().slice(0, 10));
        expect(daysBetween(d, addDays(d, n))).toBe(n);
        expect(weekdayOf(d)).toBe(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'][new Date(day * DAY).getUTCDay()]);
        expect(isValidLocalDate(d)).toBe(true);
      }),
    );
  });
});

describe('zone offsets and local dates', () => {
  it('knows offsets without DST and with 45-minute offsets', () => {
    expect(zoneOffsetMs(at('2026-01-15T12:00:00Z'), 'Asia/Kolkata')).toBe(5.5 * HOUR);
    expect(zoneOffsetMs(at('2026-07-15T12:00:00Z'), 'Asia/Kolkata')).toBe(5.5 * HOUR);
    expect(zoneOffsetMs(at('2026-01-15T12:00:00Z'), 'Pacific/Chatham')).toBe(13.75 * HOUR);
    expect(zoneOffsetMs(at('2026-07-15T12:00:00Z'), 'Pacific/Chatham')).toBe(12.75 * HOUR);
    expect(zoneOffsetMs(at('2026-01-15T12:00:00Z'), 'America/New_York')).toBe(-5 * HOUR);
    expect(zoneOffsetMs(at('2026-07-15T12:00:00Z'), 'America/New_York')).toBe(-4 * HOUR);
  });

  it('changes offset at the exact instant of a transition', () => {
    const change = at('2026-03-08T07:00:00Z'); // New York springs forward at 02:00 EST
    expect(zoneOffsetMs(change - 1, 'America/New_York')).toBe(-5 * HOUR);
    expect(zoneOffsetMs(change, 'America/New_York')).toBe(-4 * HOUR);
  });

  it('reads the local date in the zone, not in UTC', () => {
    expect(localDateOf(at('2026-06-01T18:29:59Z'), 'Asia/Kolkata')).toBe('2026-06-01');
    expect(localDateOf(at('2026-06-01T18:30:00Z'), 'Asia/Kolkata')).toBe('2026-06-02');
    expect(localDateOf(at('2026-01-01T03:00:00Z'), 'America/New_York')).toBe('2025-12-31');
    expect(localTodayOf(at('2026-04-04T11:15:00Z'), 'Pacific/Chatham')).toBe('2026-04-05');
  });

  it('agrees with an independent Intl reading at any instant, in every zone', () => {
    fc.assert(
      fc.property(instantIn2026to2028, fc.constantFrom(...ZONES), (instant, zone) => {
        const oracle = oracleWall(instant, zone);
        expect(zoneOffsetMs(instant, zone)).toBe(oracle.offset);
        expect(localDateOf(instant, zone)).toBe(oracle.date);
      }),
      { numRuns: 500 },
    );
  });
});

describe('zonedTimeToInstant', () => {
  it('reads an ordinary local time with the offset of the day', () => {
    expect(zonedTimeToInstant('2026-06-01', '09:00', 'Asia/Kolkata')).toBe(at('2026-06-01T03:30:00Z'));
    expect(zonedTimeToInstant('2026-01-10', '09:00', 'Europe/Lisbon')).toBe(at('2026-01-10T09:00:00Z'));
    expect(zonedTimeToInstant('2026-07-10', '09:00', 'Europe/Lisbon')).toBe(at('2026-07-10T08:00:00Z'));
    expect(zonedTimeToInstant('2026-01-10', '00:30', 'Pacific/Chatham')).toBe(at('2026-01-09T10:45:00Z'));
  });

  // Offsets and transition instants checked against Intl (ICU tz 2025c) before being written here.
  it('moves a time in the spring-forward gap forward by the gap', () => {
    // New York: 02:00 EST → 03:00 EDT; 02:30 becomes 03:30 EDT.
    expect(zonedTimeToInstant('2026-03-08', '02:30', 'America/New_York')).toBe(at('2026-03-08T07:30:00Z'));
    // Lisbon: 01:00 WET → 02:00 WEST; 01:30 becomes 02:30 WEST.
    expect(zonedTimeToInstant('2026-03-29', '01:30', 'Europe/Lisbon')).toBe(at('2026-03-29T01:30:00Z'));
    // Sydney: 02:00 AEST → 03:00 AEDT; 02:30 becomes 03:30 AEDT.
    expect(zonedTimeToInstant('2026-10-04', '02:30', 'Australia/Sydney')).toBe(at('2026-10-03T16:30:00Z'));
    // Chatham: 02:45 +12:45 → 03:45 +13:45; 03:00 becomes 04:00 +13:45.
    expect(zonedTimeToInstant('2026-09-27', '03:00', 'Pacific/Chatham')).toBe(at('2026-09-26T14:15:00Z'));
  });

  it('takes the earlier instant for an ambiguous fall-back time', () => {
    // New York: 02:00 EDT → 01:00 EST; 01:30 EDT is 05:30Z, 01:30 EST would be 06:30Z.
    expect(zonedTimeToInstant('2026-11-01', '01:30', 'America/New_York')).toBe(at('2026-11-01T05:30:00Z'));
    // Lisbon: 02:00 WEST → 01:00 WET; 01:30 WEST is 00:30Z.
    expect(zonedTimeToInstant('2026-10-25', '01:30', 'Europe/Lisbon')).toBe(at('2026-10-25T00:30:00Z'));
    // Sydney: 03:00 AEDT → 02:00 AEST; 02:30 AEDT is 15:30Z the day before.
    expect(zonedTimeToInstant('2026-04-05', '02:30', 'Australia/Sydney')).toBe(at('2026-04-04T15:30:00Z'));
    // Chatham: 03:45 +13:45 → 02:45 +12:45; 03:00 +13:45 is 13:15Z the day before.
    expect(zonedTimeToInstant('2026-04-05', '03:00', 'Pacific/Chatham')).toBe(at('2026-04-04T13:15:00Z'));
  });

  it('reads times just outside a gap or an overlap normally', () => {
    expect(zonedTimeToInstant('2026-03-08', '01:59', 'America/New_York')).toBe(at('2026-03-08T06:59:00Z'));
    expect(zonedTimeToInstant('2026-03-08', '03:00', 'America/New_York')).toBe(at('2026-03-08T07:00:00Z'));
    expect(zonedTimeToInstant('2026-11-01', '02:00', 'America/New_York')).toBe(at('2026-11-01T07:00:00Z'));
    expect(zonedTimeToInstant('2026-11-01', '00:59', 'America/New_York')).toBe(at('2026-11-01T04:59:00Z'));
  });

  it('moves times across a whole skipped day forward by a day', () => {
    // Samoa crossed the date line in 2011: 2011-12-30 never happened in Apia.
    expect(zonedTimeToInstant('2011-12-30', '10:00', 'Pacific/Apia')).toBe(at('2011-12-30T20:00:00Z'));
    expect(localDateOf(at('2011-12-30T20:00:00Z'), 'Pacific/Apia')).toBe('2011-12-31');
  });

  it('refuses malformed dates, times and zones', () => {
    expect(() => zonedTimeToInstant('2026-02-30', '09:00', 'UTC')).toThrow(RangeError);
    expect(() => zonedTimeToInstant('2026-02-10', '24:00', 'UTC')).toThrow(RangeError);
    expect(() => zonedTimeToInstant('2026-02-10', '09:00', 'Not/A_Zone')).toThrow(RangeError);
  });

  it('gives back the same local time for any existing wall time, in every zone', () => {
    fc.assert(
      fc.property(instantIn2026to2028, fc.constantFrom(...ZONES), (instant, zone) => {
        const wall = oracleWall(instant, zone);
        const hhmm = `${String(Math.floor(wall.minutes / 60)).padStart(2, '0')}:${String(wall.minutes % 60).padStart(2, '0')}`;
        const result = zonedTimeToInstant(wall.date, hhmm, zone);
        const back = oracleWall(result, zone);
        expect([back.date, back.minutes]).toEqual([wall.date, wall.minutes]);
        // Earliest: the instant we started from (floored to its minute) is never before the result.
        expect(result).toBeLessThanOrEqual(instant - (instant % MINUTE));
      }),
      { numRuns: 500 },
    );
  });
});

describe('startOfLocalDay', () => {
  it('is local midnight on an ordinary day', () => {
    expect(startOfLocalDay('2026-06-01', 'Asia/Kolkata')).toBe(at('2026-05-31T18:30:00Z'));
    expect(startOfLocalDay('2026-03-08', 'America/New_York')).toBe(at('2026-03-08T05:00:00Z'));
  });

  it('is the first existing time when midnight falls in a gap', () => {
    // Santiago springs forward at 00:00 → 01:00 (-04 → -03).
    expect(startOfLocalDay('2026-09-06', 'America/Santiago')).toBe(at('2026-09-06T04:00:00Z'));
  });

  it('is the first of two midnights when the clocks fall back onto it', () => {
    // Havana falls back at 01:00 CDT → 00:00 CST, so its midnight happens twice.
    expect(startOfLocalDay('2026-11-01', 'America/Havana')).toBe(at('2026-11-01T04:00:00Z'));
  });
});
