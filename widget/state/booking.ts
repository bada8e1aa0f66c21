/**
 * The booking model: signals that components read, and the actions that change them.
 * Components never fetch; every call to Outing starts here (STYLE: state in signals with actions).
 */
import type { OutingApi } from '../api.js';
import { createBookingActions } from './booking-actions.js';
import type { BookedDetail } from './booking-actions.js';
import { createCalendarActions, go } from './calendar-actions.js';
import { batch } from './signals.js';
import { createBookingState, emptyContact } from './state.js';

export type { BookedDetail } from './booking-actions.js';
export type { Problem, Step, Trouble } from './state.js';

export interface ModelOptions {
  api: OutingApi;
  /** A pinned experience (`data-experience`): no list step. */
  experienceId?: string;
  onBooked?: (detail: BookedDetail) => void;
  /** The clock, for tests. */
  now?: () => Date;
}

export type BookingModel = ReturnType<typeof createBookingModel>;

export function createBookingModel({ api, experienceId, onBooked, now = () => new Date() }: ModelOptions) {
  const s = createBookingState(experienceId, now);
  const calendar = createCalendarActions(s, api);
  const booking = createBookingActions(s, api, calendar.refreshAfterSlotTaken, onBooked);

  function back(): void {
    const i = s.steps.indexOf(s.step.value);
    batch(() => {
      s.trouble.value = null;
      s.slotTaken.value = false;
      if (i > 0) go(s, s.steps[i - 1]!);
    });
  }

  /** A new booking from the first step, with fresh availability. */
  function restart(): void {
    batch(() => {
      s.booking.value = null;
      s.slot.value = null;
      s.date.value = null;
      s.contact.value = emptyContact;
      s.fieldProblems.value = {};
      s.participants.value = 1;
      go(s, s.firstStep);
      if (experienceId) s.calendar.value = null;
    });
    if (experienceId) void calendar.loadFirstMonths();
  }

  /** The element id to focus after this render, once. */
  function takeFocusRequest(): string | null {
    const id = s.session.focusId;
    s.session.focusId = null;
    return id;
  }

  function dispose(): void {
    s.session.disposed = true;
  }

  return { ...s, ...calendar, ...booking, back, restart, takeFocusRequest, dispose };
}
