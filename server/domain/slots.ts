// Time slots from an experience's schedule: pure, deterministic, and cheap enough to run on every
// availability request (the endpoint's budget is ~10–20 µs for a month of slots).
import {
  DAY_MS,
  MINUTE_MS,
  epochDayAt,
  epochDayOf,
  fixedOffsetOfDay,
  minutesOfLocalTime,
  wallTimeToInstant,
  weekdayOfEpochDay,
} from './time.js';
import type { LocalDate, Weekday } from './time.js';

export type { Weekday } from './time.js';

export interface Schedule {
  timezone?: string | null; // absent/null → the org's zone
  weekly: Partial<Record<Weekday, string[]>>;
  startDate?: string | null; // inclusive local dates
  endDate?: string | null;
  exceptions?: { date: string; times: string[] }[]; // replaces that date's times; [] = closed
}

export interface SlotRules {
  experienceId: string;
  duration: number; // minutes
  schedule: Schedule | null;
  minNoticeMinutes: number;
  maxAdvanceDays: number;
}

export interface Slot {
  id: string;
  start: number; // epoch ms
  end: number;
}

export type SlotProblem = 'NOT_A_SLOT' | 'PAST' | 'TOO_SOON' | 'TOO_FAR';

// A wall time moves forward by at most the length of a gap, and the longest gap on record is one
// whole day (Samoa, 2011-12-30), so a slot belongs to the local date of its start or the day before.
const LONGEST_GAP_DAYS = 1;

// Date's range (±8.64e15 ms), less the days probed around a start: beyond it Intl throws.
const LATEST_INSTANT = 8.64e15 - 4 * DAY_MS;

const WEEKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** The zone a schedule's times are read in: its own, else the org's (following later changes). */
export function scheduleZone(schedule: Schedule | null, orgZone: string): string {
  return schedule?.timezone || orgZone;
}

/**
 * Every slot whose LOCAL date is in [from, to] (inclusive), sorted by start, de-duplicated by
 * instant, keeping only bookable ones: start >= now + minNotice AND local date <= localToday +
 * maxAdvanceDays. (Slots already started are therefore left out.)
 */
/**
 * The slots between two local dates that may still be booked. `ignoreNotice` (an operator's walk-in)
 * keeps those inside the notice period and those under way, until they end.
 */
export function slotsBetween(rules: SlotRules, zone: string, from: LocalDate, to: LocalDate, now: number, ignoreNotice = false): Slot[] {
  if (!rules.schedule) return [];
  const plan = planOf(rules.schedule);
  const today = epochDayAt(now, zone);
  // Days further back than the longest gap cannot hold a slot that has yet to start.
  const first = Math.max(epochDayOf(from), today - LONGEST_GAP_DAYS - 1);
  const last = Math.min(epochDayOf(to), today + rules.maxAdvanceDays);
  const earliest = ignoreNotice ? now - rules.duration * MINUTE_MS + 1 : now + rules.minNoticeMinutes * MINUTE_MS;

  const starts: number[] = [];
  let inOrder = true;
  for (let day = first; day <= last; day++) {
    const times = timesOn(plan, day);
    if (times === undefined) continue;
    const fixedOffset = fixedOffsetOfDay(day, zone);
    for (const minutes of times) {
      // Most days keep one offset throughout, so the instant is plain arithmetic; only days near a
      // transition pay for the exact gap/overlap resolution.
      const start =
        fixedOffset === null ? wallTimeToInstant(day, minutes, zone) : day * DAY_MS + minutes * MINUTE_MS - fixedOffset;
      if (start < earliest) continue;
      // Times after a gap can come out earlier than gap times moved past them.
      if (starts.length > 0 && start <= (starts[starts.length - 1] as number)) inOrder = false;
      starts.push(start);
    }
  }

  const prefix = slotIdPrefix(rules.experienceId);
  const length = rules.duration * MINUTE_MS;
  return (inOrder ? starts : sortedUnique(starts)).map((start) => ({
    id: prefix + startCode(start),
    start,
    end: start + length,
  }));
}

/**
 * Why a given start instant is not bookable, or null if it is a bookable slot of the schedule.
 * With `ignoreNotice` a slot stays bookable inside the notice period and while under way; it is
 * PAST once it has ended.
 */
export function slotProblem(rules: SlotRules, zone: string, startMs: number, now: number, ignoreNotice = false): null | SlotProblem {
  if (!rules.schedule || !Number.isSafeInteger(startMs) || Math.abs(startMs) > LATEST_INSTANT) return 'NOT_A_SLOT';
  const day = scheduledDayOf(planOf(rules.schedule), zone, startMs);
  if (day === null) return 'NOT_A_SLOT';
  if (ignoreNotice ? startMs + rules.duration * MINUTE_MS <= now : startMs < now) return 'PAST';
  if (!ignoreNotice && startMs < now + rules.minNoticeMinutes * MINUTE_MS) return 'TOO_SOON';
  if (day > epochDayAt(now, zone) + rules.maxAdvanceDays) return 'TOO_FAR';
  return null;
}

/** 'ts_' + 11 characters naming the experience + the start; the same inputs always give the same id. */
export function slotId(experienceId: string, startMs: number): string {
  return slotIdPrefix(experienceId) + startCode(startMs);
}

/** Whether `startMs` is a start of the schedule, past or future, however far ahead. */
export function isScheduledStart(rules: SlotRules, zone: string, startMs: number): boolean {
  if (!rules.schedule || !Number.isSafeInteger(startMs) || Math.abs(startMs) > LATEST_INSTANT) return false;
  return scheduledDayOf(planOf(rules.schedule), zone, startMs) !== null;
}

/**
 * The parts of a slot id: the 14 characters naming its experience (compare with `slotIdPrefixOf`)
 * and its start; null for text no slot id can be. The experience cannot be read back from its
 * hash: the caller finds it among the organization's and checks `slotId` gives the id again.
 */
export function parseSlotId(id: string): { prefix: string; start: number } | null {
  const prefix = id.slice(0, 14);
  const code = id.slice(14);
  if (!/^ts_[0-9a-z]{11}$/.test(prefix)) return null;
  let start: number;
  if (/^[0-9]{1,16}$/.test(code)) start = Number(code) * MINUTE_MS;
  else if (/^[MN][0-9a-z]{1,11}$/.test(code)) start = (code[0] === 'N' ? -1 : 1) * parseInt(code.slice(1), 36);
  else return null;
  return Number.isSafeInteger(start) && Math.abs(start) <= LATEST_INSTANT ? { prefix, start } : null;
}

/** The part of every slot id of an experience that names it. */
export function slotIdPrefixOf(experienceId: string): string {
  return slotIdPrefix(experienceId);
}

// ---------------------------------------------------------------------------------------------

/** A schedule with its times parsed once per call: minutes after midnight, sorted, unique. */
interface Plan {
  weekly: Partial<Record<Weekday, readonly number[]>>;
  exceptions: Map<number, readonly number[]>;
  firstDay: number;
  lastDay: number;
}

function planOf(schedule: Schedule): Plan {
  const weekly: Partial<Record<Weekday, readonly number[]>> = {};
  for (const weekday of WEEKDAYS) {
    const times = schedule.weekly[weekday];
    if (times !== undefined && times.length > 0) weekly[weekday] = minutesOfTimes(times);
  }
  // A later exception for the same date wins, as a later key does in a JSON object.
  const exceptions = new Map<number, readonly number[]>();
  for (const exception of schedule.exceptions ?? []) {
    exceptions.set(epochDayOf(exception.date), minutesOfTimes(exception.times));
  }
  return {
    weekly,
    exceptions,
    firstDay: schedule.startDate ? epochDayOf(schedule.startDate) : -Infinity,
    lastDay: schedule.endDate ? epochDayOf(schedule.endDate) : Infinity,
  };
}

// Malformed times are skipped rather than thrown: the edge validates schedules, and one stored
// before a rule tightened should not take availability down.
function minutesOfTimes(times: readonly string[]): number[] {
  const minutes: number[] = [];
  for (const time of times) {
    const m = minutesOfLocalTime(time);
    if (m !== null) minutes.push(m);
  }
  return sortedUnique(minutes);
}

/** The local times of a day in minutes, or undefined when the schedule has none that day. */
function timesOn(plan: Plan, day: number): readonly number[] | undefined {
  // Exceptions win over everything, including the start and end dates.
  const exception = plan.exceptions.get(day);
  if (exception !== undefined) return exception.length > 0 ? exception : undefined;
  if (day < plan.firstDay || day > plan.lastDay) return undefined;
  return plan.weekly[weekdayOfEpochDay(day)];
}

/** The local date (epoch day) whose scheduled time lands on `startMs`, or null if none does. */
function scheduledDayOf(plan: Plan, zone: string, startMs: number): number | null {
  const actual = epochDayAt(startMs, zone);
  // The earliest matching day wins, as it does when slotsBetween merges equal instants.
  for (let day = actual - LONGEST_GAP_DAYS; day <= actual + 1; day++) {
    const times = timesOn(plan, day);
    if (times?.some((minutes) => wallTimeToInstant(day, minutes, zone) === startMs)) return day;
  }
  return null;
}

function sortedUnique(values: number[]): number[] {
  if (values.every((v, i) => i === 0 || v > (values[i - 1] as number))) return values; // the usual case
  values.sort((a, b) => a - b);
  return values.filter((v, i) => i === 0 || v !== values[i - 1]);
}

function slotIdPrefix(experienceId: string): string {
  return 'ts_' + hash53(experienceId).toString(36).padStart(11, '0');
}

// Starts on whole minutes (every zone in use today) are written as decimal minutes, which V8
// turns into text fastest (base 36 was 3× slower per id); anything else is written in ms behind
// a letter marker, so codes stay unambiguous.
function startCode(startMs: number): string {
  const minutes = startMs / MINUTE_MS;
  if (Number.isInteger(minutes) && minutes >= 0) return String(minutes);
  return (startMs < 0 ? 'N' : 'M') + Math.abs(Math.trunc(startMs)).toString(36);
}

// cyrb53 (public domain): a fast 53-bit string hash, deterministic across processes and versions.
// https://github.com/bryc/code/blob/master/jshash/experimental/cyrb53.js
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
