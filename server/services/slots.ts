import { Refusal } from '../domain/refusal.js';
import { overlapsAny } from '../domain/bookings.js';
import { scheduleZone, slotProblem, type Schedule, type SlotRules } from '../domain/slots.js';
import type { ExperienceRow } from '../store/experiences.js';
import type { Store } from '../store/index.js';

const MINUTE_MS = 60_000;

/** The slot rules of an experience, parsed once per stored version. */
const rulesCache = new WeakMap<ExperienceRow, SlotRules>();
const parsedSchedules = new Map<string, Schedule>();

export function rulesOf(exp: ExperienceRow): SlotRules {
  let rules = rulesCache.get(exp);
  if (!rules) {
    let schedule: Schedule | null = null;
    if (exp.schedule !== null) {
      schedule = parsedSchedules.get(exp.schedule) ?? (JSON.parse(exp.schedule) as Schedule);
      if (parsedSchedules.size > 1000) parsedSchedules.clear();
      parsedSchedules.set(exp.schedule, schedule);
    }
    rules = {
      experienceId: exp.id,
      duration: exp.duration,
      schedule,
      minNoticeMinutes: exp.minNoticeMinutes,
      maxAdvanceDays: exp.maxAdvanceDays,
    };
    rulesCache.set(exp, rules);
  }
  return rules;
}

export function zoneOf(exp: ExperienceRow, orgTimezone: string): string {
  return scheduleZone(rulesOf(exp).schedule, orgTimezone);
}

const PROBLEM_MESSAGES = {
  NOT_A_SLOT: 'The start time is not a time slot of this experience',
  PAST: 'This time slot has already started',
  TOO_SOON: 'This time slot is inside the notice period and can no longer be booked',
  TOO_FAR: 'This time slot is beyond the booking window',
} as const;

/** Refuses a start that is not a bookable slot right now (SPEC §2 SLOT_UNAVAILABLE). */
export function assertBookableSlot(store: Store, exp: ExperienceRow, orgTimezone: string, start: number, now: number): number {
  if (exp.active !== 1) throw new Refusal('SLOT_UNAVAILABLE', 'This experience is not active');
  const problem = slotProblem(rulesOf(exp), zoneOf(exp, orgTimezone), start, now);
  if (problem) throw new Refusal('SLOT_UNAVAILABLE', PROBLEM_MESSAGES[problem]);
  const end = start + exp.duration * MINUTE_MS;
  if (overlapsAny(start, end, store.busyIntervalsFor(exp.orgId, exp.id, start, end))) {
    throw new Refusal('SLOT_UNAVAILABLE', 'This time slot is blocked by a calendar');
  }
  return end;
}
