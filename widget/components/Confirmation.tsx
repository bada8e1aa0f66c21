import { Summary } from './Summary.js';
import type { Props } from './widget.js';

// Only a web address may become the payment link: a javascript: URL from a tampered answer must not.
function safeUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    return /^https?:$/.test(new URL(url).protocol) ? url : null;
  } catch {
    return null;
  }
}

/** The booking number as text, or, when online payment is due (SPEC §11), the way to pay. */
export function Confirmation({ w }: Props) {
  const { model, t, fmt } = w;
  const booking = model.booking.value;
  if (!booking) return null;
  const total = fmt.money(Number(booking.total), booking.currency);
  const checkout = safeUrl(booking.checkoutUrl);
  const summary = (
    <Summary
      w={w}
      experience={booking.experience.title}
      startTime={booking.timeSlot.startTime}
      participants={booking.totalParticipants}
      total={total}
    />
  );
  if (checkout) {
    return (
      <>
        {summary}
        <p class="total">
          {t.amountDue}: <strong>{total}</strong>
        </p>
        <a class="button primary" href={checkout}>
          {t.continueToPayment}
        </a>
      </>
    );
  }
  return (
    <>
      <p class="number">
        {t.bookingNumber}: <strong>{booking.bookingNumber}</strong>
      </p>
      {summary}
      <p>{t.bookedFor(booking.guestName, booking.guestEmail)}</p>
      <button type="button" onClick={model.restart}>
        {t.bookAnother}
      </button>
    </>
  );
}
