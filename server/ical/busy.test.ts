import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readBusyTimes, type BusyContext } from './busy.js';
import { CalendarFormatError } from './calendar-text.js';
import { MAX_INSTANCES_PER_SERIES } from './expand.js';

const DAY = 86_400_000;
const NOW = Date.parse('2027-03-01T00:00:00Z');
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const context = (zone: string): BusyContext => ({ zone, from: NOW - DAY, to: NOW + 731 * DAY });
const iso = (ms: number) => new Date(ms).toISOString();
/** The calendar with only the events of one UID (so that merging with others does not hide them). */
const only = (text: string, uid: string) =>
  text.replace(/BEGIN:VEVENT\r?\n[\s\S]*?END:VEVENT\r?\n/g, (block) => (block.includes(`UID:${uid}`) ? block : ''));
const spans = (intervals: { start: number; end: number }[]) => intervals.map((i) => `${iso(i.start)}/${iso(i.end)}`);

describe('reading an imported calendar', () => {
  it('reads UTC, zoned, vendor-prefixed, floating, DURATION and all-day events, and skips free, cancelled and past ones', () => {
    const busy = readBusyTimes(fixture('google-basic.ics'), context('Europe/Lisbon'));
    expect(busy.eventCount).toBe(10);
    expect(busy.skipped).toBe(0);
    expect(spans(busy.intervals)).toEqual([
      '2027-03-10T14:00:00.000Z/2027-03-10T15:30:00.000Z', // UTC
      '2027-03-12T15:00:00.000Z/2027-03-12T16:00:00.000Z', // floating, Lisbon winter time
      '2027-03-13T09:00:00.000Z/2027-03-13T09:45:00.000Z', // DURATION:PT45M
      '2027-03-20T00:00:00.000Z/2027-03-21T00:00:00.000Z', // all-day, one Lisbon day
      '2027-03-27T00:00:00.000Z/2027-03-29T23:00:00.000Z', // three Lisbon days; the third is 23 h long
      '2027-06-15T09:00:00.000Z/2027-06-15T11:00:00.000Z', // Europe/Lisbon summer time
      '2027-06-16T08:00:00.000Z/2027-06-16T09:00:00.000Z', // /mozilla.org/…/Europe/Berlin
    ]);
  });

  it('reads floating times and all-day dates in the zone it is given', () => {
    const busy = readBusyTimes(fixture('google-basic.ics'), context('America/New_York'));
    const found = spans(busy.intervals);
    expect(found).toContain('2027-03-12T20:00:00.000Z/2027-03-12T21:00:00.000Z'); // 15:00 EST
    expect(found).toContain('2027-03-20T04:00:00.000Z/2027-03-21T04:00:00.000Z'); // a New York day (EDT)
  });

  it('expands a weekly series across a DST change, with EXDATE and RECURRENCE-ID overrides', () => {
    const busy = readBusyTimes(fixture('recurring-dst.ics'), context('Europe/Lisbon'));
    const weekly = spans(busy.intervals).filter((s) => /T(08|09|13):00:00\.000Z\/.*T(09|10|14):30/.test(s) && s < '2027-05');
    expect(weekly).toEqual([
      '2027-03-15T09:00:00.000Z/2027-03-15T10:30:00.000Z', // 09:00 WET
      // 22 March: cancelled by its override
      '2027-03-29T08:00:00.000Z/2027-03-29T09:30:00.000Z', // 09:00 WEST, after the last Sunday of March
      // 5 April: EXDATE given in UTC
      '2027-04-12T13:00:00.000Z/2027-04-12T14:30:00.000Z', // moved to 14:00 by its override
      '2027-04-19T08:00:00.000Z/2027-04-19T09:30:00.000Z', // last one before UNTIL
    ]);
  });

  it('expands an endless rule from long ago over the whole horizon, in its own zone', () => {
    const ctx = context('Europe/Lisbon');
    const busy = readBusyTimes(only(fixture('recurring-dst.ics'), 'standup-since-1998@example.com'), ctx);
    const newYork = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    const standups = busy.intervals.filter((i) => i.end - i.start === 15 * 60_000);
    for (const s of standups) expect(newYork.format(s.start)).toMatch(/^(Mon|Tue|Wed|Thu|Fri) 08:00$/);
    let weekdays = 0;
    for (let day = Date.parse('2027-02-28T00:00:00Z'); day < ctx.to; day += DAY) {
      const weekday = new Date(day).getUTCDay();
      if (weekday >= 1 && weekday <= 5 && day + 12 * 3_600_000 < ctx.to) weekdays++;
    }
    expect(standups).toHaveLength(weekdays);
    expect(spans(standups)[0]).toBe('2027-03-01T13:00:00.000Z/2027-03-01T13:15:00.000Z'); // EST
    expect(spans(standups)).toContain('2027-03-15T12:00:00.000Z/2027-03-15T12:15:00.000Z'); // EDT
  });

  it('expands a yearly all-day event since 1990 into whole local days', () => {
    const busy = readBusyTimes(only(fixture('recurring-dst.ics'), 'birthday@example.com'), context('Europe/Lisbon'));
    expect(spans(busy.intervals)).toEqual([
      '2027-04-01T23:00:00.000Z/2027-04-02T23:00:00.000Z',
      '2028-04-01T23:00:00.000Z/2028-04-02T23:00:00.000Z',
    ]);
  });

  it('reads Windows zone names (Outlook) and custom VTIMEZONEs', () => {
    const busy = readBusyTimes(fixture('outlook.ics'), context('Europe/Lisbon'));
    expect(busy.skipped).toBe(0);
    expect(spans(busy.intervals)).toEqual([
      '2027-03-10T14:00:00.000Z/2027-03-10T15:00:00.000Z', // Eastern Standard Time, before US DST
      '2027-03-17T13:00:00.000Z/2027-03-17T14:00:00.000Z', // …and after it
      '2027-06-01T12:00:00.000Z/2027-06-01T13:00:00.000Z', // W. Europe Standard Time (CEST)
      '2027-06-02T05:00:00.000Z/2027-06-02T06:00:00.000Z', // Customized Time Zone, +05:30 from its VTIMEZONE
      '2027-07-05T08:30:00.000Z/2027-07-05T10:00:00.000Z', // GMT Standard Time (BST)
      '2027-07-06T23:00:00.000Z/2027-07-07T23:00:00.000Z', // all-day in Lisbon summer time
    ]);
  });

  it('skips each broken event with a reason and keeps the good ones', () => {
    const busy = readBusyTimes(fixture('broken.ics'), context('Europe/Lisbon'));
    expect(busy.eventCount).toBe(11);
    expect(busy.skipped).toBe(9);
    expect(spans(busy.intervals)).toEqual([
      '2027-03-10T10:00:00.000Z/2027-03-10T11:00:00.000Z',
      '2027-03-15T00:00:00.000Z/2027-03-16T00:00:00.000Z',
    ]);
    expect(busy.problems[0]).toMatch(/BEGIN and END/);
    expect(busy.problems[1]).toBe('event "impossible-date@example.com": DTSTART is not a valid date or time');
    expect(busy.problems[2]).toBe('event "no-start@example.com": DTSTART is missing');
  });

  it('names an unknown time zone', () => {
    const text = fixture('broken.ics').replace(/BEGIN:VEVENT\r\nUID:(?!unknown-zone)[\s\S]*?END:VEVENT\r\n/g, '');
    const busy = readBusyTimes(text, context('Europe/Lisbon'));
    expect(busy.problems).toEqual(['event "unknown-zone@example.com": unknown time zone "Mars/Olympus_Mons"']);
  });

  it('caps endless rules instead of running away', () => {
    const busy = readBusyTimes(fixture('unbounded.ics'), context('Europe/Lisbon'));
    expect(busy.notes.join(' ')).toMatch(new RegExp(`more than ${MAX_INSTANCES_PER_SERIES} instances`));
    expect(busy.intervals.length).toBeGreaterThan(MAX_INSTANCES_PER_SERIES);
    expect(busy.intervals.length).toBeLessThanOrEqual(3 * MAX_INSTANCES_PER_SERIES);
  });

  it('expands a monthly rule on the 31st only in months that have one', () => {
    const busy = readBusyTimes(only(fixture('unbounded.ics'), 'monthly-forever@example.com'), context('Europe/Lisbon'));
    const days = busy.intervals.map((i) => iso(i.start).slice(0, 10));
    expect(days.slice(0, 4)).toEqual(['2027-03-31', '2027-05-31', '2027-07-31', '2027-08-31']);
    expect(days).toHaveLength(14);
  });

  it('refuses text that is not iCalendar, and a truncated calendar', () => {
    expect(() => readBusyTimes(fixture('not-a-calendar.html'), context('UTC'))).toThrow(CalendarFormatError);
    expect(() => readBusyTimes('', context('UTC'))).toThrow(CalendarFormatError);
    expect(() => readBusyTimes(fixture('truncated.ics'), context('UTC'))).toThrow(/truncated/);
  });

  it('reads RDATEs, date EXDATEs, floating RECURRENCE-IDs, COUNT, and events with no length', () => {
    const text = [
      'BEGIN:VCALENDAR',
      'BEGIN:VEVENT', 'UID:r', 'DTSTART;TZID=Europe/Lisbon:20270301T090000', 'DTEND;TZID=Europe/Lisbon:20270301T100000',
      'RRULE:FREQ=DAILY;COUNT=5', 'EXDATE;VALUE=DATE:20270302', 'RDATE;TZID=Europe/Lisbon:20270310T090000',
      'RDATE;VALUE=PERIOD:20270311T120000Z/PT2H', 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:r', 'RECURRENCE-ID:20270303T090000', 'DTSTART;TZID=Europe/Lisbon:20270303T180000',
      'DTEND;TZID=Europe/Lisbon:20270303T190000', 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:no-length', 'DTSTART:20270312T100000Z', 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:same-day', 'DTSTART;VALUE=DATE:20270313', 'DTEND;VALUE=DATE:20270313', 'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const busy = readBusyTimes(text, context('Europe/Lisbon'));
    expect(busy.skipped).toBe(0);
    expect(spans(busy.intervals)).toEqual([
      '2027-03-01T09:00:00.000Z/2027-03-01T10:00:00.000Z',
      '2027-03-03T18:00:00.000Z/2027-03-03T19:00:00.000Z', // the 3rd, moved by its override
      '2027-03-04T09:00:00.000Z/2027-03-04T10:00:00.000Z',
      '2027-03-05T09:00:00.000Z/2027-03-05T10:00:00.000Z',
      '2027-03-10T09:00:00.000Z/2027-03-10T10:00:00.000Z', // RDATE
      '2027-03-11T12:00:00.000Z/2027-03-11T14:00:00.000Z', // RDATE period
      '2027-03-13T00:00:00.000Z/2027-03-14T00:00:00.000Z', // DTEND equal to DTSTART: that one day
    ]);
  });

  it('merges overlapping busy times', () => {
    const text = ['BEGIN:VCALENDAR', 'BEGIN:VEVENT', 'UID:a', 'DTSTART:20270310T100000Z', 'DTEND:20270310T120000Z', 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:b', 'DTSTART:20270310T110000Z', 'DTEND:20270310T130000Z', 'END:VEVENT', 'END:VCALENDAR'].join('\r\n');
    expect(spans(readBusyTimes(text, context('UTC')).intervals)).toEqual(['2027-03-10T10:00:00.000Z/2027-03-10T13:00:00.000Z']);
  });
});
