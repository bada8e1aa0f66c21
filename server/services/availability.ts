import { invalid } from '../domain/refusal.js';
import { maxPartySize, remainingPlaces } from '../domain/bookings.js';
import { slotsBetween } from '../domain/slots.js';
import { addDays, daysBetween, localTodayOf } from '../domain/time.js';
import { iso } from '../serialize.js';
import type { ExperienceRow } from '../store/experiences.js';
import type { Store } from '../store/index.js';
import { rulesOf, zoneOf } from './slots.js';
import type { Availability, TimeSlotAvailability } from '../../shared/index.js';

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
}

/**
 * Bookable slots of an experience between two local dates, with places per slot. Places come from
 * the per-slot counters, so the cost depends on the range asked for, never on booking history.
 */
export function availabilityOf(
  store: Store,
  exp: ExperienceRow,
  orgTimezone: string,
  req: AvailabilityRequest,
  now: number,
): Availability {
  const zone = zoneOf(exp, orgTimezone);
  const startDate = req.startDate ?? localTodayOf(now, zone);
  const endDate = req.endDate ?? addDays(startDate, DEFAULT_RANGE_DAYS);
  const span = daysBetween(startDate, endDate);
  if (span < 0) throw invalid('endDate', 'endDate must not be before startDate');
  if (span > MAX_RANGE_DAYS) throw invalid('endDate', `At most ${MAX_RANGE_DAYS} days after startDate`);
  const participants = req.participants ?? 1;
  const maxParty = maxPartySize(exp);
  if (participants > maxParty) throw invalid('participants', `At most ${maxParty} participants per booking`);

  const result: Availability = { experienceId: exp.id, timezone: zone, startDate, endDate, slots: [] };
  if (exp.active !== 1) return result;
  const slots = slotsBetween(rulesOf(exp), zone, startDate, endDate, now);
  const first = slots[0];
  const last = slots[slots.length - 1];
  if (!first || !last) return result;

  const booked = store.bookedPlacesBetween(exp.id, first.start, last.start + 1);
  const busy = store.busyIntervalsFor(exp.orgId, exp.id, first.start, last.end);
  let b = 0;
  result.slots = slots.map((slot): TimeSlotAvailability => {
    while (b < busy.length && (busy[b]?.end ?? 0) <= slot.start) b++;
    const blocked = isBlocked(busy, b, slot);
    const taken = booked.get(slot.start) ?? 0;
    const remaining = remainingPlaces(exp.maxParticipants, taken);
    const reason = blocked ? 'BLOCKED' : remaining < participants ? 'FULL' : null;
    return {
      id: slot.id,
      startTime: iso(slot.start),
      endTime: iso(slot.end),
      capacity: exp.maxParticipants,
      booked: taken,
      remaining,
      available: reason === null,
      unavailableReason: reason,
    };
  });
  return result;
}
