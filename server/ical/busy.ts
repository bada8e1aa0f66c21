// An imported calendar's text → the busy intervals it holds over the booking horizon. Pure and
// synchronous: the server runs it in a worker thread (isolated.ts) so that no calendar, however
// large or hostile, can hold up requests.
import ICAL from 'ical.js';
import { splitCalendar } from './calendar-text.js';
import { EventProblem, readEvent, type CalendarEvent, type EventTime } from './vevents.js';
import { Budget, expandEvent, type Interval } from './expand.js';
import { ZoneResolver } from './zones.js';

export const LIMITS = {
  /** VEVENTs read from one calendar. */
  events: 50_000,
  /** Recurrence-rule steps for one calendar (about 10 µs each). */
  steps: 1_000_000,
  /** Busy intervals kept for one calendar. */
  intervals: 100_000,
};

export interface BusyContext {
  /** IANA zone in which floating times and all-day dates are read. */
  zone: string;
  /** The horizon: only busy time overlapping [from, to) is kept. */
  from: number;
  to: number;
}

export interface BusyTimes {
  /** Sorted by start, overlapping and touching intervals merged. */
  intervals: Interval[];
  /** VEVENT components in the calendar, read or not. */
  eventCount: number;
  /** Events left out because they could not be read, and the first few reasons. */
  skipped: number;
  problems: string[];
  /** Limits that cut expansion short. */
  notes: string[];
}

function uidIn(block: string): string | null {
  const m = /^UID[;:](?:[^:\r\n]*:)?(.*)$/im.exec(block);
  return m?.[1]?.trim().slice(0, 100) || null;
}

/**
 * A problem's text as `lastError` keeps it: it quotes the calendar (a UID, a TZID, the parser's
 * words), whose control characters are shown as U+FFFD. A NUL could not be stored by PostgreSQL at
 * all, which would fail the whole sync where SQLite keeps it.
 */
const storable = (text: string): string => text.replace(/[\u0000-\u001f\u007f]/g, '\uFFFD');

function reasonOf(err: unknown): string {
  if (err instanceof EventProblem) return err.message;
  const message = err instanceof Error ? err.message : String(err);
  return `it could not be parsed (${message.replace(/\s+/g, ' ').slice(0, 120)})`;
}

export function mergeIntervals(intervals: Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Interval[] = [];
  for (const next of sorted) {
    const last = out[out.length - 1];
    if (last && next.start <= last.end) last.end = Math.max(last.end, next.end);
    else out.push({ ...next });
  }
  return out;
}

/** Throws CalendarFormatError when the text is not a whole iCalendar file. */
export function readBusyTimes(text: string, ctx: BusyContext): BusyTimes {
  const blocks = splitCalendar(text);
  const vtimezones = new Map<string, ICAL.Component>();
  for (const block of blocks.timezones) {
    try {
      const component = new ICAL.Component(ICAL.parse(block));
      const tzid = component.getFirstPropertyValue('tzid');
      if (typeof tzid === 'string') vtimezones.set(tzid.trim(), component);
    } catch {
      // an unreadable VTIMEZONE: events that use it are skipped as having an unknown zone
    }
  }
  const zones = new ZoneResolver(vtimezones);
  const budget = new Budget(LIMITS.steps, LIMITS.intervals);
  const result: BusyTimes = { intervals: [], eventCount: blocks.events.length + blocks.malformedEvents, skipped: 0, problems: [], notes: budget.notes };
  const skip = (uid: string | null, reason: string) => {
    result.skipped++;
    if (result.problems.length < 3) result.problems.push(storable(`${uid === null ? 'an event' : `event "${uid}"`}: ${reason}`));
  };
  for (let i = 0; i < blocks.malformedEvents; i++) skip(null, 'its BEGIN and END lines do not match');

  const events: CalendarEvent[] = [];
  for (const [index, block] of blocks.events.entries()) {
    if (index >= LIMITS.events) {
      budget.note(`only the first ${LIMITS.events} events are read`);
      break;
    }
    try {
      events.push(readEvent(new ICAL.Component(ICAL.parse(block)), zones));
    } catch (err) {
      skip(uidIn(block), reasonOf(err));
    }
  }

  // Overrides (RECURRENCE-ID) replace one instance of the series with the same UID.
  const replaced = new Map<string, EventTime[]>();
  for (const e of events) {
    if (e.recurrenceId && e.uid !== null) replaced.set(e.uid, [...(replaced.get(e.uid) ?? []), e.recurrenceId]);
  }
  const opts = { ...ctx, budget };
  const intervals: Interval[] = [];
  for (const e of events) {
    try {
      const exclusions = e.recurrenceId || e.uid === null ? [] : (replaced.get(e.uid) ?? []);
      for (const interval of expandEvent(e, exclusions, opts, e.recurrenceId === null)) intervals.push(interval);
    } catch (err) {
      skip(e.uid, reasonOf(err));
    }
  }
  result.intervals = mergeIntervals(intervals);
  return result;
}
