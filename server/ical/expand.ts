// Busy intervals of one event over the booking horizon: its first instance, RDATEs and RRULE
// instances, less its EXDATEs and the instances its overrides (RECURRENCE-ID) replace. Rules are
// walked in wall-clock time (so a weekly 09:00 stays 09:00 across a DST change) and each instance
// is then read in the event's zone. Work is bounded: a per-calendar budget of rule steps and
// intervals, a per-series cap, and a fast-forward over the past for rules with no COUNT.
import ICAL from 'ical.js';
import { EventProblem, type CalendarEvent, type EventTime } from './vevents.js';
import { epochDayOfWall, instantOf, startOfDay, wallAt, wallMs, wallOfMs, type WallTime, type Zone } from './zones.js';

const DAY_MS = 86_400_000;
export const MAX_INSTANCES_PER_SERIES = 5_000;
/** Rule steps for one series (a COUNT rule cannot be fast-forwarded over the past). */
const MAX_STEPS_PER_SERIES = 200_000;

export interface Interval {
  start: number;
  end: number;
}

export interface ExpandOptions {
  /** IANA zone of floating times and all-day dates: the blocked experience's (or the org's). */
  zone: string;
  from: number;
  to: number;
  budget: Budget;
}

/** What one calendar may cost to expand; notes say where a limit cut expansion short. */
export class Budget {
  notes: string[] = [];
  constructor(
    public steps: number,
    public intervals: number,
  ) {}
  note(message: string): void {
    if (this.notes.length < 5 && !this.notes.includes(message)) this.notes.push(message);
  }
}

const PERIOD_MS: Partial<Record<string, number>> = {
  SECONDLY: 1_000,
  MINUTELY: 60_000,
  HOURLY: 3_600_000,
  DAILY: DAY_MS,
  WEEKLY: 7 * DAY_MS,
};

const floating = () => ICAL.Timezone.localTimezone;
const icalTime = (w: WallTime, isDate: boolean) => new ICAL.Time({ ...w, isDate }, floating());
const wallOfTime = (t: ICAL.Time): WallTime => ({ year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second });

/** The rule with UNTIL read in the series' own wall clock, so it can be compared with floating instances. */
function withLocalUntil(rule: ICAL.Recur, allDay: boolean, seriesZone: Zone): ICAL.Recur {
  const r = rule.clone();
  const u = r.until;
  if (!u) return r;
  const fields = wallOfTime(u);
  if (allDay) r.until = icalTime({ ...fields, hour: 0, minute: 0, second: 0 }, true);
  else if (u.isDate) r.until = icalTime({ ...fields, hour: 23, minute: 59, second: 59 }, false);
  else if (u.zone === ICAL.Timezone.utcTimezone) r.until = icalTime(wallAt(wallMs(fields), seriesZone), false);
  else r.until = icalTime(fields, false);
  return r;
}

/**
 * Wall times of a rule's instances up to `limitWall`. A rule without COUNT and with a fixed period
 * starts from the last whole period before `skipToWall`: a daily rule from 1998 does not walk
 * through ten thousand past days on every sync.
 */
function* ruleInstances(rule: ICAL.Recur, start: WallTime, allDay: boolean, skipToWall: number, limitWall: number, opts: ExpandOptions) {
  const period = PERIOD_MS[rule.freq];
  let first = start;
  if (period !== undefined && rule.count === null && rule.interval >= 1) {
    const step = period * rule.interval;
    const k = Math.floor((skipToWall - wallMs(start)) / step);
    if (k > 0) first = wallOfMs(wallMs(start) + k * step);
  }
  let iterator: ICAL.RecurIterator;
  try {
    iterator = rule.iterator(icalTime(first, allDay));
  } catch {
    throw new EventProblem('its recurrence rule cannot be expanded');
  }
  for (let steps = 0; ; steps++) {
    if (steps >= MAX_STEPS_PER_SERIES) {
      opts.budget.note('a recurring event needs too many steps to reach the booking horizon; it is left out from there');
      return;
    }
    if (opts.budget.steps <= 0) {
      opts.budget.note('the calendar has more recurring instances than are read; later ones are left out');
      return;
    }
    opts.budget.steps--;
    let next: ICAL.Time | null | undefined;
    try {
      next = iterator.next();
    } catch {
      throw new EventProblem('its recurrence rule cannot be expanded');
    }
    if (!next) return;
    const wall = wallOfTime(next);
    if (wallMs(wall) > limitWall) return;
    yield wall;
  }
}

interface Series {
  /** Start wall times of instances (in the series' zone), before exclusions; RDATE periods carry their own interval. */
  instances: Iterable<{ wall: WallTime; period?: Interval }>;
  intervalOf(wall: WallTime): Interval;
  excluded(wall: WallTime): boolean;
}

function timedSeries(event: CalendarEvent, exclusions: EventTime[], opts: ExpandOptions, useRules: boolean): Series {
  const seriesZone: Zone = event.start.zone ?? { kind: 'iana', name: opts.zone };
  const zoneOf = (t: EventTime) => t.zone ?? seriesZone;
  const firstInstant = instantOf(event.start.wall, seriesZone);
  let exactMs = 0;
  let nominalDays = 0;
  if (event.end) {
    const endWall = event.end.date ? { ...event.end.wall, hour: 0, minute: 0, second: 0 } : event.end.wall;
    exactMs = instantOf(endWall, zoneOf(event.end)) - firstInstant;
    if (exactMs < 0) throw new EventProblem('DTEND is before DTSTART');
  } else if (event.duration) {
    if (event.duration.isNegative) throw new EventProblem('DURATION is negative');
    nominalDays = event.duration.weeks * 7 + event.duration.days;
    exactMs = (event.duration.hours * 3600 + event.duration.minutes * 60 + event.duration.seconds) * 1000;
  }
  const lengthBound = exactMs + nominalDays * DAY_MS + 2 * DAY_MS;

  const exInstants = new Set<number>();
  const exDays = new Set<number>();
  for (const ex of [...event.exdates, ...exclusions]) {
    if (ex.date) exDays.add(epochDayOfWall(ex.wall));
    else exInstants.add(instantOf(ex.wall, zoneOf(ex)));
  }

  const intervalOf = (wall: WallTime): Interval => {
    const start = instantOf(wall, seriesZone);
    const base = nominalDays > 0 ? instantOf(wallOfMs(wallMs(wall) + nominalDays * DAY_MS), seriesZone) : start;
    return { start, end: base + exactMs };
  };

  function* instances(): Generator<{ wall: WallTime; period?: Interval }> {
    yield { wall: event.start.wall };
    for (const rdate of event.rdates) {
      if ('date' in rdate) {
        const wall = rdate.date ? { ...rdate.wall, hour: event.start.wall.hour, minute: event.start.wall.minute, second: event.start.wall.second } : rdate.wall;
        const zone = rdate.date ? seriesZone : zoneOf(rdate);
        yield { wall: wallAt(instantOf(wall, zone), seriesZone) };
      } else {
        const start = instantOf(rdate.start.wall, zoneOf(rdate.start));
        const end = 'end' in rdate ? instantOf(rdate.end.wall, zoneOf(rdate.end)) : start + rdate.duration.toSeconds() * 1000;
        yield { wall: wallAt(start, seriesZone), period: { start, end } };
      }
    }
    if (!useRules) return;
    const skipTo = wallMs(wallAt(opts.from, seriesZone)) - lengthBound;
    const limit = wallMs(wallAt(opts.to, seriesZone)) + DAY_MS;
    for (const rule of event.rules) {
      for (const wall of ruleInstances(withLocalUntil(rule, false, seriesZone), event.start.wall, false, skipTo, limit, opts)) {
        yield { wall };
      }
    }
  }

  return {
    instances: instances(),
    intervalOf,
    excluded: (wall) => exDays.has(epochDayOfWall(wall)) || exInstants.has(instantOf(wall, seriesZone)),
  };
}

function allDaySeries(event: CalendarEvent, exclusions: EventTime[], opts: ExpandOptions, useRules: boolean): Series {
  const firstDay = epochDayOfWall(event.start.wall);
  let days = 1;
  if (event.end) {
    days = epochDayOfWall(event.end.wall) - firstDay;
    if (days < 0) throw new EventProblem('DTEND is before DTSTART');
  } else if (event.duration) {
    if (event.duration.isNegative) throw new EventProblem('DURATION is negative');
    days = Math.ceil(event.duration.toSeconds() / 86_400);
  }
  days = Math.max(1, days); // DTEND equal to DTSTART: read as that one day
  const exDays = new Set([...event.exdates, ...exclusions].map((ex) => epochDayOfWall(ex.wall)));
  const dayZone: Zone = { kind: 'iana', name: opts.zone };

  function* instances(): Generator<{ wall: WallTime }> {
    yield { wall: event.start.wall };
    for (const rdate of event.rdates) yield { wall: 'date' in rdate ? rdate.wall : rdate.start.wall };
    if (!useRules) return;
    const skipTo = wallMs(wallAt(opts.from, dayZone)) - (days + 2) * DAY_MS;
    const limit = wallMs(wallAt(opts.to, dayZone)) + DAY_MS;
    for (const rule of event.rules) {
      for (const wall of ruleInstances(withLocalUntil(rule, true, dayZone), event.start.wall, true, skipTo, limit, opts)) {
        yield { wall };
      }
    }
  }

  return {
    instances: instances(),
    intervalOf: (wall) => {
      const day = epochDayOfWall(wall);
      return { start: startOfDay(day, opts.zone), end: startOfDay(day + days, opts.zone) };
    },
    excluded: (wall) => exDays.has(epochDayOfWall(wall)),
  };
}

/**
 * The busy intervals of one event within [opts.from, opts.to). `exclusions` are the RECURRENCE-IDs
 * of its overrides; an override itself is expanded with `useRules` false.
 */
export function expandEvent(event: CalendarEvent, exclusions: EventTime[], opts: ExpandOptions, useRules: boolean): Interval[] {
  if (event.free) return [];
  const series = event.start.date ? allDaySeries(event, exclusions, opts, useRules) : timedSeries(event, exclusions, opts, useRules);
  const out: Interval[] = [];
  const seen = new Set<number>();
  for (const { wall, period } of series.instances) {
    const key = wallMs(wall);
    if (seen.has(key) || series.excluded(wall)) continue;
    seen.add(key);
    const interval = period ?? series.intervalOf(wall);
    if (interval.end <= interval.start) continue; // no length: takes no time
    if (interval.end <= opts.from || interval.start >= opts.to) continue;
    if (out.length >= MAX_INSTANCES_PER_SERIES) {
      opts.budget.note(`a recurring event has more than ${MAX_INSTANCES_PER_SERIES} instances in the next two years; later ones are left out`);
      break;
    }
    if (opts.budget.intervals <= 0) {
      opts.budget.note('the calendar has more busy times than are kept; later ones are left out');
      break;
    }
    opts.budget.intervals--;
    out.push(interval);
  }
  return out;
}
