/**
 * @jsxRuntime classic
 * @jsx h
 * @jsxFrag Fragment
 */
import { Fragment, h } from 'preact';
import { chunk } from '../chunks.js';
import type { FormsChunk } from '../forms.js';
import { Summary } from './Summary.js';
import type { Props } from './widget.js';

// Only a web address may become the payment link: a javascript: URL from a tampered answer must not.
const safeUrl = (url: string | null): string | null => (url && /^https?:\/\//i.test(url) ? url : null);

/**
 * The end of a booking, and the way back from the payment page (docs/payments.md): the booking
 * number as text once CONFIRMED; the way to pay while online payment is due; while the payment is
 * being confirmed, what is being paid for; a payment that did not go through, with the way back to
 * it while the places are still held; and a new booking after a failure or for an unknown one.
 */
export function Confirmation({ w }: Props) {
  const { model, t, fmt } = w;
  const booking = model.booking.value;
  // null on the done step.
  const payment = model.payment.value;
  const confirmed = booking?.status === 'CONFIRMED';
  const checkout = booking?.status === 'PENDING' && payment !== 'wait' && payment !== 'slow' && safeUrl(booking.checkoutUrl);
  return (
    <>
      {confirmed && (
        <p class="number">
          {t.bookingNumber}: <strong>{booking.bookingNumber}</strong>
        </p>
      )}
      {booking && (
        <Summary
          w={w}
          experience={booking.experience.title}
          startTime={booking.timeSlot.startTime}
          participants={booking.tickets?.length ? undefined : booking.totalParticipants}
          tickets={booking.tickets}
          total={fmt.money(Number(booking.total), booking.currency)}
        />
      )}
      {/* Who it is booked for, the money, the meeting point and "Add to calendar" come in a chunk of their own, asked for once confirmed. */}
      {confirmed && chunk<FormsChunk>(w, 'forms')?.confirmation(h, booking, w)}
      {booking?.status === 'CANCELLED' && <p>{t.notKept}</p>}
      {payment === 'slow' && (
        <>
          <p role="alert">{t.stillConfirming}</p>
          <button type="button" class="primary" onClick={model.checkPayment}>
            {t.checkAgain}
          </button>
        </>
      )}
      {checkout && (
        <a class="button primary" href={checkout}>
          {payment ? t.returnToPayment : t.continueToPayment}
        </a>
      )}
      {(confirmed || payment === 'fail' || payment === 'gone') && (
        <button type="button" onClick={model.restart}>
          {confirmed ? t.bookAnother : t.bookAgain}
        </button>
      )}
    </>
  );
}
