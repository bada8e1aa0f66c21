/**
 * The guest back from the payment page (docs/payments.md): what became of the booking. Stripe's
 * signed callback confirms it, often a few seconds after the guest is back, so a paid booking
 * still PENDING is asked about again for a while.
 */
import type { PublicBooking, PublicBookingStatus } from '../../shared/index.js';
import type { OutingApi } from '../api.js';
import { go } from './calendar-actions.js';
import { problemOf } from './requests.js';
import { batch } from './signals.js';
import type { BookingState } from './state.js';

// About 30 s in all: the callback normally lands in seconds; past that, the guest may ask again.
const EVERY_MS = 2_000;
const TRIES = 15;

export function createPaymentActions(
  s: BookingState,
  api: OutingApi,
  loadExperience: (id: string) => Promise<void>,
  show: (b: PublicBooking | PublicBookingStatus) => void,
) {
  let bookingNumber = '';
  let paid = false;

  /** Asks until the booking is settled, or TRIES answers say its payment is still being confirmed. */
  async function checkPayment(): Promise<void> {
    // Booking again or unmounting ends the asking.
    const gone = () => !s.payment.value || s.session.disposed;
    s.session.focusId = 'heading';
    batch(() => {
      s.trouble.value = null;
      s.payment.value = 'wait';
    });
    for (let tries = 1; ; tries++) {
      let b: PublicBookingStatus;
      try {
        b = await api.getBooking(bookingNumber);
      } catch (e) {
        if (gone()) return;
        const problem = problemOf(e);
        if (problem === 'notFound') s.payment.value = 'gone';
        else s.trouble.value = { problem, retry: () => void checkPayment() };
        return;
      }
      // The experience gives the zone its times show in, and the way to book it again.
      if (!gone() && !s.experience.value) await loadExperience(b.experience.id);
      if (gone()) return;
      if (b.status === 'CONFIRMED') return show(b);
      s.booking.value = b;
      if (b.status === 'CANCELLED' || !paid) s.payment.value = 'fail';
      else if (tries === TRIES) s.payment.value = 'slow';
      else {
        await new Promise((wake) => setTimeout(wake, EVERY_MS));
        continue;
      }
      return;
    }
  }

  /** Starts on the done step: `afterPaying` when Stripe said success, false when the guest gave up. */
  function resume(number: string, afterPaying: boolean): void {
    bookingNumber = number;
    paid = afterPaying;
    // One render: the done step already saying the payment is being confirmed.
    batch(() => {
      go(s, 'done');
      void checkPayment();
    });
  }

  return { resume, checkPayment };
}
