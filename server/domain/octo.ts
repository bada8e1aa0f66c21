import { OCTO_CAPABILITY_IDS, OCTO_ERROR_FIELDS, type OctoCapabilityId, type OctoErrorCode } from '../../shared/schemas/octo.js';
import type { PriceCategory, PriceCategoryType } from '../../shared/index.js';
import type { Schedule } from './slots.js';

/**
 * Why an OCTO request cannot be done, in the OCTO standard's own codes (they are not `/v1`'s, so
 * this is not a `Refusal`): `http/octo.ts` alone turns it into an answer. `value` is what the
 * caller sent for the id at fault, echoed in the field its code names (`productId`, `uuid`, …).
 */
export class OctoRefusal extends Error {
  constructor(
    readonly code: OctoErrorCode,
    message: string,
    readonly value?: string,
  ) {
    super(message);
    this.name = 'OctoRefusal';
  }

  /** The field an answer names the value in, when the code has one. */
  get field(): string | undefined {
    return (OCTO_ERROR_FIELDS as Partial<Record<OctoErrorCode, string>>)[this.code];
  }
}

export const octoBadRequest = (message: string) => new OctoRefusal('BAD_REQUEST', message);
export const octoUnprocessable = (message: string) => new OctoRefusal('UNPROCESSABLE_ENTITY', message);

/**
 * The capabilities a request asks for in `Octo-Capabilities`: comma-separated ids, unknown ones
 * ignored, an empty header the same as none.
 */
export function requestedCapabilities(header: string | undefined): OctoCapabilityId[] {
  if (!header) return [];
  const asked = new Set(header.split(',').map((id) => id.trim().toLowerCase()));
  return OCTO_CAPABILITY_IDS.filter((id) => asked.has(id));
}

/** The one option every product has: Outing's experiences have no variants. */
export const OCTO_OPTION_ID = 'DEFAULT';
/** The unit of an experience without price categories: everyone pays its price. */
export const OCTO_ADULT_UNIT_ID = 'adult';
/** The longest range of local dates one availability request may cover. */
export const MAX_OCTO_RANGE_DAYS = 366;
/** How many availability ids one request may name. */
export const MAX_OCTO_AVAILABILITY_IDS = 100;

export type OctoAvailabilityStatus = 'AVAILABLE' | 'LIMITED' | 'SOLD_OUT' | 'CLOSED';

/** A product's unit: one of the experience's price categories, or `adult` at its price without them. */
export interface OctoUnitRule {
  id: string;
  name: string;
  type: PriceCategoryType;
  /** Integer cents per unit. */
  price: number;
  /** The places one unit takes: 0 for a category that occupies none (an infant on a lap). */
  paxCount: number;
  minAge: number;
  maxAge: number;
  /** The price category the unit stands for; null for `adult` of an experience without categories. */
  categoryId: string | null;
}

/** The units of an experience: its price categories in order, else one `adult` unit at its price. */
export function octoUnitsOf(categories: readonly PriceCategory[], price: number): OctoUnitRule[] {
  if (categories.length === 0) {
    return [{ id: OCTO_ADULT_UNIT_ID, name: 'Adult', type: 'ADULT', price, paxCount: 1, minAge: 0, maxAge: 99, categoryId: null }];
  }
  return categories.map((c) => ({
    id: c.id,
    name: c.name,
    type: c.type,
    price: c.price,
    paxCount: c.occupiesPlace ? 1 : 0,
    minAge: c.minAge ?? 0,
    maxAge: c.maxAge ?? 99,
    categoryId: c.id,
  }));
}

/**
 * The local start times a product's option lists: every time of the weekly plan and of the
 * exceptions dated `today` or later, as sorted distinct `HH:MM`.
 */
export function octoLocalStartTimes(schedule: Schedule | null, today: string): string[] {
  if (!schedule) return [];
  const times = new Set<string>();
  for (const list of Object.values(schedule.weekly)) for (const time of list ?? []) times.add(time.slice(0, 5));
  for (const exception of schedule.exceptions ?? []) {
    if (exception.date >= today) for (const time of exception.times) times.add(time.slice(0, 5));
  }
  return [...times].sort();
}

/** Which slots an availability request asks for: a range of local dates, or slot ids. */
export type OctoSelection = { kind: 'dates'; from: string; to: string } | { kind: 'ids'; ids: readonly string[] };

/**
 * Exactly one of `localDate`, `localDateStart` with `localDateEnd`, or `availabilityIds` (1–100):
 * none, two, half a range, an end before its start or more than 366 days are a `BAD_REQUEST`.
 * `daysBetween` counts the days from one local date to another.
 */
export function octoSelection(
  asked: { localDate?: string | undefined; localDateStart?: string | undefined; localDateEnd?: string | undefined; availabilityIds?: readonly string[] | undefined },
  daysBetween: (from: string, to: string) => number,
): OctoSelection {
  const ranged = asked.localDateStart !== undefined || asked.localDateEnd !== undefined;
  const given = [asked.localDate !== undefined, ranged, asked.availabilityIds !== undefined].filter(Boolean).length;
  if (given !== 1) throw octoBadRequest('Send exactly one of localDate, localDateStart with localDateEnd, or availabilityIds');
  if (asked.localDate !== undefined) return { kind: 'dates', from: asked.localDate, to: asked.localDate };
  if (asked.availabilityIds !== undefined) {
    const count = asked.availabilityIds.length;
    if (count < 1 || count > MAX_OCTO_AVAILABILITY_IDS) throw octoBadRequest(`availabilityIds takes 1 to ${MAX_OCTO_AVAILABILITY_IDS} ids`);
    return { kind: 'ids', ids: asked.availabilityIds };
  }
  return octoDateRange(asked.localDateStart, asked.localDateEnd, daysBetween);
}

/** `localDateStart` with `localDateEnd`: both, in order, at most 366 days. */
export function octoDateRange(
  start: string | undefined,
  end: string | undefined,
  daysBetween: (from: string, to: string) => number,
): { kind: 'dates'; from: string; to: string } {
  if (start === undefined || end === undefined) throw octoBadRequest('localDateStart and localDateEnd go together');
  const span = daysBetween(start, end);
  if (span < 0) throw octoBadRequest('localDateEnd must not be before localDateStart');
  if (span + 1 > MAX_OCTO_RANGE_DAYS) throw octoBadRequest(`At most ${MAX_OCTO_RANGE_DAYS} days from localDateStart to localDateEnd`);
  return { kind: 'dates', from: start, to: end };
}

/**
 * The places the asked units take, refusing an id that is not one of the product's units
 * (`INVALID_UNIT_ID`). Quantities are whole and ≥ 0 (the schema checks).
 */
export function placesOfUnits(asked: readonly { id: string; quantity: number }[], units: readonly OctoUnitRule[]): number {
  let places = 0;
  for (const item of asked) {
    const unit = units.find((u) => u.id === item.id);
    if (!unit) throw new OctoRefusal('INVALID_UNIT_ID', `The product has no unit ${item.id}`, item.id);
    places += unit.paxCount * item.quantity;
  }
  return places;
}

/** A slot with its places, as the OCTO rules read it (instants in epoch ms). */
export interface OctoSlotState {
  start: number;
  capacity: number;
  remaining: number;
  /** Closed by the operator or blocked by a calendar. */
  shut: boolean;
}

/** When a reseller can last book a slot: its start less the notice period. */
export const octoCutoffAt = (start: number, minNoticeMinutes: number): number => start - minNoticeMinutes * 60_000;

/**
 * A slot's status: `CLOSED` once its cutoff has come, or when shut; else `SOLD_OUT` without
 * places, `LIMITED` under half its capacity, `AVAILABLE`.
 */
export function octoStatus(slot: OctoSlotState, minNoticeMinutes: number, now: number): OctoAvailabilityStatus {
  if (slot.shut || now >= octoCutoffAt(slot.start, minNoticeMinutes)) return 'CLOSED';
  if (slot.remaining <= 0) return 'SOLD_OUT';
  if (slot.remaining < slot.capacity / 2) return 'LIMITED';
  return 'AVAILABLE';
}

/** Whether a reseller can book the slot: AVAILABLE or LIMITED, with places for the asked units when given. */
export function octoAvailable(status: OctoAvailabilityStatus, remaining: number, placesAsked: number | undefined): boolean {
  if (status !== 'AVAILABLE' && status !== 'LIMITED') return false;
  return placesAsked === undefined || remaining >= placesAsked;
}

/** One local date of the calendar: the day's best slot that is not CLOSED, or none. */
export interface OctoCalendarDay<S extends OctoSlotState> {
  localDate: string;
  /** The slot with the most places among those not CLOSED; null when every slot is (or there is none). */
  best: S | null;
  /** How many slots the day has, CLOSED ones included. */
  slots: number;
}

/**
 * The calendar's days from `from` to `to`: each slot counted on its local date, the best of a
 * day being the one with most places among those not CLOSED (the earliest on a tie).
 */
export function octoCalendarDays<S extends OctoSlotState>(
  slots: readonly S[],
  dates: readonly string[],
  localDateOf: (slot: S) => string,
  statusOf: (slot: S) => OctoAvailabilityStatus,
): OctoCalendarDay<S>[] {
  const days = new Map(dates.map((localDate) => [localDate, { localDate, best: null as S | null, slots: 0 }]));
  for (const slot of slots) {
    const day = days.get(localDateOf(slot));
    if (!day) continue;
    day.slots++;
    if (statusOf(slot) === 'CLOSED') continue;
    if (day.best === null || slot.remaining > day.best.remaining) day.best = slot;
  }
  return [...days.values()];
}

/** What the OCTO rules and answers read of an experience. */
export interface OctoExperience {
  id: string;
  name: string;
  maxParticipants: number;
  maxPerBooking: number | null;
  minNoticeMinutes: number;
}

/** A product: an active experience with a schedule, and what OCTO shows of it. */
export interface OctoProductFacts<E extends OctoExperience = OctoExperience> {
  experience: E;
  /** The schedule's time zone, in which local dates and times are read. */
  zone: string;
  units: OctoUnitRule[];
  localStartTimes: string[];
}

/** A slot as OCTO shows it: its places, its cutoff, its status and whether the asked units fit. */
export interface OctoSlot extends OctoSlotState {
  id: string;
  end: number;
  cutoffAt: number;
  status: OctoAvailabilityStatus;
  available: boolean;
}

/** One local date of the calendar: its best slot's figures, or CLOSED with none. */
export interface OctoCalendarDate {
  localDate: string;
  status: OctoAvailabilityStatus;
  available: boolean;
  vacancies: number;
  capacity: number;
}
