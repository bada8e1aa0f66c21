/**
 * The booking model: signals that components read, and the actions that change them.
 * Components never fetch; every call to Outing starts here (STYLE: state in signals with actions).
 */
import type { OutingApi } from '../api.js';
import type { Locale } from '../../shared/index.js';
import { createBookingActions } from './booking-actions.js';
import type { BookedDetail } from './booking-actions.js';
import { createCalendarActions, go } from './calendar-actions.js';
import { createPaymentActions } from './payment-actions.js';
import { batch } from './signals.js';
import { createBookingState, emptyContact } from './state.js';

export type { BookedDetail } from './booking-actions.js';
export type { Payment, Problem, Step, Trouble } from './state.js';

export interface ModelOptions {
  api: OutingApi;
  /** A pinned experience (`data-experience`): no list step. */
  experienceId?: string;
  onBooked?: (detail: BookedDetail) => void;
  /** The language the guest reads, sent with the booking for its e-mails (asked when booking: it may fall back to English). */
  lang?: () => Locale;
  /** The clock, for tests. */
  now?: () => Date;
}

export type BookingModel = ReturnType<typeof createBookingModel>;

export function createBookingModel({ api, experienceId, onBooked, lang, now = () => new Date() }: ModelOptions) {
  const s = createBookingState(experienceId, now);
  const calendar = createCalendarActions(s, api);
  const booking = createBookingActions(s, api, calendar.refreshAfterSlotTaken, onBooked, lang);
  const payment = createPaymentActions(s, api, calendar.loadExperience, booking.show);

  function back(): void {
    const steps = s.steps.value;
    const i = steps.indexOf(s.step.value);
    batch(() => {
      s.trouble.value = null;
      if (i > 0) go(s, steps[i - 1]!);
    });
    // Back to a list never loaded: the guest came back from paying and booked again.
    if (steps[i - 1] === 'experiences' && !s.experiences.value) void calendar.start();
  }

  /**
   * A new booking with fresh availability: from the first step, or of the same experience after
   * a payment that did not go through.
   */
  function restart(): void {
    const same = !!s.experience.value && (!!experienceId || !!s.payment.value);
    batch(() => {
      s.booking.value = null;
      s.payment.value = null;
      s.trouble.value = null;
      s.slot.value = null;
      s.date.value = null;
      s.contact.value = emptyContact;
      s.fieldProblems.value = {};
      s.form.value = {};
      s.participants.value = 1;
      s.quantities.value = {};
      if (same) s.calendar.value = null;
      go(s, same ? 'calendar' : s.firstStep);
    });
    void (same ? calendar.loadFirstMonths() : s.experiences.value || calendar.start());
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

  return { ...s, ...calendar, ...booking, ...payment, api, back, restart, takeFocusRequest, dispose };
}
