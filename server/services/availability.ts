import { Refusal, invalid, notFound } from '../domain/refusal.js';
import { maxPartySize, overlapsAny, remainingPlaces, slotCapacity } from '../domain/bookings.js';
import { scheduleZone, slotProblem, slotsBetween, type Schedule, type SlotRules } from '../domain/slots.js';
import { addDays, daysBetween, localTodayOf } from '../domain/time.js';
import type { ExperienceAvailability, SlotPlaces } from '../domain/availability.js';
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

/** Refuses a start that is not a bookable slot right now (409 SLOT_UNAVAILABLE); answers the slot's end. */
export async function assertBookableSlot(store: Store, exp: ExperienceRow, orgTimezone: string, start: number, now: number): Promise<number> {
  return await assertBookableSlotBeside(store, exp, orgTimezone, start, now, undefined);
}

/** Why a slot under way cannot be booked even by an operator who ignores the notice period. */
const ENDED = 'This time slot has already ended';

/** The longest an experience lasts (its schema's limit): a slot's calendar blocks can be read before its experience. */
export const LONGEST_SLOT_MS = 1440 * MINUTE_MS;

/** The calendar blocks a slot starting at `start` of this experience could meet, read with nothing else known. */
export function busyAround(store: Store, orgId: string, experienceId: string, start: number): Promise<readonly { start: number; end: number }[]> {
  return store.calendarImports.busyIntervalsFor(orgId, experienceId, start, start + LONGEST_SLOT_MS);
}

/**
 * `assertBookableSlot` with the calendar blocks already read by `busyAround` (read again if the
 * experience lasts longer than they cover).
 */
export async function assertBookableSlotBeside(
  store: Store,
  exp: ExperienceRow,
  orgTimezone: string,
  start: number,
  now: number,
  busy: readonly { start: number; end: number }[] | undefined,
  ignoreNotice = false,
): Promise<number> {
  if (exp.active !== 1) throw new Refusal('SLOT_UNAVAILABLE', 'This experience is not active');
  const problem = slotProblem(rulesOf(exp), zoneOf(exp, orgTimezone), start, now, ignoreNotice);
  if (problem) throw new Refusal('SLOT_UNAVAILABLE', ignoreNotice && problem === 'PAST' ? ENDED : PROBLEM_MESSAGES[problem]);
  const end = start + exp.duration * MINUTE_MS;
  const blocks = busy !== undefined && end - start <= LONGEST_SLOT_MS ? busy : await store.calendarImports.busyIntervalsFor(exp.orgId, exp.id, start, end);
  if (overlapsAny(start, end, blocks)) throw new Refusal('SLOT_UNAVAILABLE', 'This time slot is blocked by a calendar');
  return end;
}

export const DEFAULT_RANGE_DAYS = 30;

/** Busy intervals are sorted by start: stop at the first that begins after the slot ends. */
function isBlocked(busy: readonly { start: number; end: number }[], from: number, slot: { start: number; end: number }): boolean {
  for (let k = from; k < busy.length; k++) {
    const interval = busy[k];
    if (!interval || interval.start >= slot.end) return false;
    if (interval.end > slot.start) return true;
  }
  return false;
}
export const MAX_RANGE_DAYS = 92;

export interface AvailabilityRequest {
  startDate?: string;
  endDate?: string;
  participants?: number;
  /** An operator's view: also the slots inside the notice period and those under way. */
  ignoreNotice?: boolean;
}

/**
 * Bookable slots of an experience between two local dates, with places per slot. Places come from
 * the per-slot counters, so the cost depends on the range asked for, never on booking history.
 */
export async function availabilityOf(
  store: Store,
  exp: ExperienceRow,
  orgTimezone: string,
  req: AvailabilityRequest,
  now: number,
): Promise<ExperienceAvailability> {
  const zone = zoneOf(exp, orgTimezone);
  const startDate = req.startDate ?? localTodayOf(now, zone);
  const endDate = req.endDate ?? addDays(startDate, DEFAULT_RANGE_DAYS);
  const span = daysBetween(startDate, endDate);
  if (span < 0) throw invalid('endDate', 'endDate must not be before startDate');
  if (span > MAX_RANGE_DAYS) throw invalid('endDate', `At most ${MAX_RANGE_DAYS} days after startDate`);
  const participants = req.participants ?? 1;
  const maxParty = maxPartySize(exp);
  if (participants > maxParty) throw invalid('participants', `At most ${maxParty} participants per booking`);

  const result: ExperienceAvailability = {
    experienceId: exp.id,
    timezone: zone,
    startDate,
    endDate,
    slots: [],
    minNoticeMinutes: exp.minNoticeMinutes,
    ignoreNotice: req.ignoreNotice === true,
  };
  if (exp.active !== 1) return result;
  result.slots = await slotPlacesBetween(store, exp, zone, startDate, endDate, now, { participants, ignoreNotice: req.ignoreNotice === true });
  return result;
}

/**
 * The slots of the schedule between two local dates (no limit on the range: callers bound it) that
 * `slotsBetween` keeps, each with its places, its capacity and why it cannot take `participants`
 * (closed by the operator, blocked by a calendar, too full).
 */
export async function slotPlacesBetween(
  store: Store,
  exp: ExperienceRow,
  zone: string,
  startDate: string,
  endDate: string,
  now: number,
  options: { participants?: number; ignoreNotice?: boolean } = {},
): Promise<SlotPlaces[]> {
  const participants = options.participants ?? 1;
  const slots = slotsBetween(rulesOf(exp), zone, startDate, endDate, now, options.ignoreNotice === true);
  const first = slots[0];
  const last = slots[slots.length - 1];
  if (!first || !last) return [];

  const states = await store.slots.slotsBetween(exp.id, first.start, last.start + 1);
  const busy = await store.calendarImports.busyIntervalsFor(exp.orgId, exp.id, first.start, last.end);
  let b = 0;
  return slots.map((slot): SlotPlaces => {
    while (b < busy.length && (busy[b]?.end ?? 0) <= slot.start) b++;
    const blocked = isBlocked(busy, b, slot);
    const state = states.get(slot.start);
    const taken = state?.booked ?? 0;
    const capacity = slotCapacity(exp.maxParticipants, state);
    const remaining = remainingPlaces(capacity, taken);
    const reason = state?.closed ? 'CLOSED' : blocked ? 'BLOCKED' : remaining < participants ? 'FULL' : null;
    return { id: slot.id, start: slot.start, end: slot.end, capacity, booked: taken, remaining, unavailableReason: reason };
  });
}

/**
 * Availability as an API caller asks for it. `activeOnly` (the public API) treats an inactive
 * experience as absent; otherwise an inactive one answers with no slots.
 */
export async function availabilityFor(
  store: Store,
  orgId: string,
  query: AvailabilityRequest & { experienceId: string },
  now: number,
  options: { activeOnly?: boolean } = {},
): Promise<ExperienceAvailability> {
  const org = await store.organizations.getOrganization(orgId);
  const exp = await store.experiences.getExperience(orgId, query.experienceId);
  if (!org || !exp || (options.activeOnly && exp.active !== 1)) throw notFound('Experience');
  return await availabilityOf(store, exp, org.timezone, query, now);
}
