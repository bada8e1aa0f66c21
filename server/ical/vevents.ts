// One VEVENT of an imported calendar read into plain data: its times checked and their zones
// resolved, its rules and exceptions listed. A problem with one event throws EventProblem, and
// the caller skips that event alone.
import ICAL from 'ical.js';
import type { WallTime, Zone, ZoneResolver } from './zones.js';

export class EventProblem extends Error {}

/** A DATE or DATE-TIME value; `zone` null = floating (a time with no zone) or a date. */
export interface EventTime {
  wall: WallTime;
  date: boolean;
  zone: Zone | null;
}

export type Period = { start: EventTime; end: EventTime } | { start: EventTime; duration: ICAL.Duration };

export interface CalendarEvent {
  uid: string | null;
  /** Set on an override of one instance of a recurring event. */
  recurrenceId: EventTime | null;
  /** TRANSP:TRANSPARENT or STATUS:CANCELLED: shown in the calendar but never busy. */
  free: boolean;
  start: EventTime;
  end: EventTime | null;
  duration: ICAL.Duration | null;
  rules: ICAL.Recur[];
  rdates: (EventTime | Period)[];
  exdates: EventTime[];
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(Z)?)?$/;
// ical.js turns a bare DATE written without VALUE=DATE into "2026-03-02T::".
const BARE_DATE = /^(\d{4})-(\d{2})-(\d{2})T::$/;

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** A raw jCal date or date-time string, checked field by field (ical.js would roll 2026-13-45 over). */
export function readTimeValue(raw: unknown, tzid: string | null, zones: ZoneResolver, what: string): EventTime {
  const text = typeof raw === 'string' ? raw : '';
  const bare = BARE_DATE.exec(text);
  const m = bare ? [bare[0], bare[1], bare[2], bare[3]] : DATE_TIME.exec(text);
  if (!m) throw new EventProblem(`${what} is not a valid date or time`);
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = m[4] === undefined;
  const [hour, minute, second] = date ? [0, 0, 0] : [Number(m[4]), Number(m[5]), Number(m[6])];
  const valid =
    year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) && hour < 24 && minute < 60 && second <= 60;
  if (!valid) throw new EventProblem(`${what} is not a valid date or time`);
  const wall = { year, month, day, hour, minute, second: Math.min(second, 59) };
  if (date) return { wall, date, zone: null };
  if (m[7] === 'Z') return { wall, date, zone: { kind: 'utc' } };
  if (tzid === null) return { wall, date, zone: null };
  const zone = zones.resolve(tzid);
  if (zone === null) throw new EventProblem(`unknown time zone "${tzid.slice(0, 80)}"`);
  return { wall, date, zone };
}

function tzidOf(prop: ICAL.Property): string | null {
  const tzid = prop.getParameter('tzid');
  return typeof tzid === 'string' && tzid.trim() !== '' ? tzid : Array.isArray(tzid) && typeof tzid[0] === 'string' ? tzid[0] : null;
}

function rawValues(prop: ICAL.Property): unknown[] {
  return (prop.toJSON() as unknown[]).slice(3);
}

function readTime(prop: ICAL.Property, zones: ZoneResolver, what: string): EventTime {
  return readTimeValue(rawValues(prop)[0], tzidOf(prop), zones, what);
}

function readTimes(props: ICAL.Property[], zones: ZoneResolver, what: string): EventTime[] {
  return props.flatMap((p) => rawValues(p).map((v) => readTimeValue(v, tzidOf(p), zones, what)));
}

function readRdates(props: ICAL.Property[], zones: ZoneResolver): (EventTime | Period)[] {
  const out: (EventTime | Period)[] = [];
  for (const prop of props) {
    const tzid = tzidOf(prop);
    for (const raw of rawValues(prop)) {
      if (!Array.isArray(raw)) {
        out.push(readTimeValue(raw, tzid, zones, 'RDATE'));
        continue;
      }
      const start = readTimeValue(raw[0], tzid, zones, 'RDATE');
      const second = raw[1];
      if (typeof second === 'string' && /^[+-]?P/.test(second)) {
        out.push({ start, duration: ICAL.Duration.fromString(second) });
      } else {
        out.push({ start, end: readTimeValue(second, tzid, zones, 'RDATE') });
      }
    }
  }
  return out;
}

const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Refuses rules that ical.js would search for a very long time inside one step (no step budget
 * can interrupt that): sub-hourly rules narrowed to certain days, and rules whose month days
 * exist in none of their months (February 30th).
 */
function checkRule(rule: ICAL.Recur): ICAL.Recur {
  const parts = rule.parts;
  if (rule.freq === 'SECONDLY') throw new EventProblem('rules repeating every second are not supported');
  if (rule.freq === 'MINUTELY' && (parts.BYMONTH || parts.BYMONTHDAY || parts.BYYEARDAY || parts.BYWEEKNO || parts.BYSETPOS)) {
    throw new EventProblem('rules repeating by the minute on certain days are not supported');
  }
  const months = parts.BYMONTH?.length ? parts.BYMONTH : [1, 3];
  const longest = Math.max(...months.map((m) => MONTH_DAYS[m - 1] ?? 0));
  if (parts.BYMONTHDAY?.length && parts.BYMONTHDAY.every((d) => Math.abs(d) > longest)) {
    throw new EventProblem('its recurrence rule never occurs');
  }
  return rule;
}

function text(component: ICAL.Component, name: string): string {
  const value = component.getFirstPropertyValue(name);
  return typeof value === 'string' ? value.trim().toUpperCase() : '';
}

/** Reads one parsed VEVENT; throws EventProblem saying what is wrong with it. */
export function readEvent(vevent: ICAL.Component, zones: ZoneResolver): CalendarEvent {
  const startProp = vevent.getFirstProperty('dtstart');
  if (!startProp) throw new EventProblem('DTSTART is missing');
  const start = readTime(startProp, zones, 'DTSTART');
  const endProp = vevent.getFirstProperty('dtend');
  const durationValue = vevent.getFirstPropertyValue('duration');
  const recurrenceProp = vevent.getFirstProperty('recurrence-id');
  const uid = vevent.getFirstPropertyValue('uid');
  return {
    uid: typeof uid === 'string' && uid !== '' ? uid : null,
    recurrenceId: recurrenceProp ? readTime(recurrenceProp, zones, 'RECURRENCE-ID') : null,
    free: text(vevent, 'transp') === 'TRANSPARENT' || text(vevent, 'status') === 'CANCELLED',
    start,
    end: endProp ? readTime(endProp, zones, 'DTEND') : null,
    duration: durationValue instanceof ICAL.Duration ? durationValue : null,
    rules: vevent
      .getAllProperties('rrule')
      .map((p) => p.getFirstValue())
      .filter((r): r is ICAL.Recur => r instanceof ICAL.Recur)
      .map(checkRule),
    rdates: readRdates(vevent.getAllProperties('rdate'), zones),
    exdates: readTimes(vevent.getAllProperties('exdate'), zones, 'EXDATE'),
  };
}
