/** What the calendar knows: slots grouped by local date, and which months are fully loaded. */
import type { Availability, TimeSlotAvailability } from '../../shared/index.js';
import { addMonths, dateInZone, monthOf } from './dates.js';

export type Slot = TimeSlotAvailability;

export interface Calendar {
  timezone: string;
  /** Today in the experience's zone, as the server saw it on the first load. */
  today: string;
  byDate: Readonly<Record<string, readonly Slot[]>>;
  months: readonly string[];
}

/** Adds one availability answer to what is known; `previous` is null on a first or fresh load. */
export function mergeAvailability(previous: Calendar | null, answer: Availability): Calendar {
  const byDate: Record<string, Slot[]> = {};
  for (const [date, slots] of Object.entries(previous?.byDate ?? {})) byDate[date] = [...slots];
  for (const slot of answer.slots) (byDate[dateInZone(slot.startTime, answer.timezone)] ??= []).push(slot);
  const months = new Set(previous?.months);
  // A range always runs to a month's end and starts today or on a month's first day, so every
  // month it touches is known completely (days before today have nothing to book).
  for (let m = monthOf(answer.startDate); m <= monthOf(answer.endDate); m = addMonths(m, 1)) months.add(m);
  return {
    timezone: answer.timezone,
    today: previous?.today ?? answer.startDate,
    byDate,
    months: [...months],
  };
}

/**
 * Whether a guest may choose a time: one with a free place, or a full one of an experience that
 * takes a waitlist (`waitlist`), which the guest then joins (widget/waitlist/chunk.ts).
 */
export const isOpen = (slot: Slot, waitlist?: boolean): boolean => slot.available || (!!waitlist && slot.unavailableReason === 'FULL');

/** Whether a day has a time the guest may choose (isOpen). */
export function isBookable(calendar: Calendar | null, date: string, waitlist?: boolean): boolean {
  return !!calendar?.byDate[date]?.some((s) => isOpen(s, waitlist));
}

export function hasBookableDay(calendar: Calendar, month: string): boolean {
  return Object.keys(calendar.byDate).some((d) => monthOf(d) === month && isBookable(calendar, d));
}
