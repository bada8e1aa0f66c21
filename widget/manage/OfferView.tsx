/**
 * @jsxRuntime classic
 * @jsx h
 * @jsxFrag Fragment
 */
import { Fragment, h } from 'preact';
import type { WaitlistOffer } from '../../shared/index.js';
import { dateInZone } from '../state/dates.js';
import type { Language, ManageModel } from './model.js';
import { offerCatalogs, type OfferMessages } from './offer-messages.js';
import { Contact } from './Contact.js';

/** The offer's texts in the page's language. */
export const offerTexts = (lang: Language): OfferMessages => offerCatalogs[lang.code];

/** The zone the guest's browser is in: the offer names no zone of its own, so times are read where the guest is. */
const browserZone = (): string => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
};

/**
 * A waitlist offer (the manage page opened by an offer e-mail's link): the experience, time, places,
 * total and expiry, with "Book these places" and "No thanks" while it stands; once booked the booking's
 * number; otherwise why there is nothing to answer, and whom to ask.
 */
export function OfferView({ model, offer, lang }: { model: ManageModel; offer: WaitlistOffer; lang: Language }) {
  const { m, fmt } = lang;
  const o = offerTexts(lang);
  const { entry, organization } = offer;
  const zone = browserZone();
  const start = entry.timeSlot.startTime;
  const at = (instant: string) => `${fmt.longDate(dateInZone(instant, zone))}, ${fmt.time(instant, zone)}`;
  const notice = model.offerNotice.value;
  const busy = model.busy.value;
  const booking = offer.booking;
  const rows: [string, string][] = [
    ...(booking ? [[o.bookingNumber, booking.bookingNumber] as [string, string]] : []),
    [m.experience, entry.experience.title],
    [m.date, fmt.longDate(dateInZone(start, zone))],
    [m.time, `${fmt.time(start, zone)} · ${fmt.zone(start, zone)}`],
    entry.tickets.length
      ? [m.tickets, entry.tickets.map((c) => `${c.quantity} × ${c.name}`).join(', ')]
      : [o.places, String(entry.totalParticipants)],
    [m.total, fmt.money(Number(offer.total), offer.currency)],
  ];
  const why = o.why[entry.status];
  const payment = booking?.status === 'PENDING' ? booking.checkoutUrl : null;
  return (
    <>
      {notice && (
        <p id="notice" class="notice" tabIndex={-1}>
          {notice === 'booked' ? o.booked : o.declined}
        </p>
      )}
      {entry.status === 'OFFERED' && entry.offerExpiresAt && <p class="hint">{o.heldUntil(`${at(entry.offerExpiresAt)} · ${fmt.zone(entry.offerExpiresAt, zone)}`)}</p>}
      <dl class="summary">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {why && !(entry.status === 'CANCELLED' && notice === 'declined') && <p class="why">{why}</p>}
      {payment && (
        <>
          <p>{o.awaitingPayment}</p>
          <p class="actions">
            <a class="button primary" href={payment}>
              {o.pay}
            </a>
          </p>
        </>
      )}
      {entry.status === 'OFFERED' && model.offerStep.value === 'view' && (
        <p class="actions">
          <button type="button" id="book-button" class="primary" disabled={busy} onClick={() => void model.acceptOffer()}>
            {o.book}
          </button>
          <button type="button" id="decline-button" disabled={busy} onClick={model.askDecline}>
            {o.decline}
          </button>
        </p>
      )}
      {entry.status === 'OFFERED' && model.offerStep.value === 'decline' && (
        <section class="step" aria-labelledby="manage-step">
          <h2 id="manage-step" tabIndex={-1}>
            {o.declineTitle}
          </h2>
          <p>{o.declineText}</p>
          <p class="actions">
            <button type="button" class="primary danger" disabled={busy} onClick={() => void model.declineOffer()}>
              {o.yesDecline}
            </button>
            <button type="button" onClick={model.keepOffer}>
              {o.keepOffer}
            </button>
          </p>
        </section>
      )}
      <Contact organization={organization} m={m} />
    </>
  );
}
