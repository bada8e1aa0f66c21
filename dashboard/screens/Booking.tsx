import type { ComponentChildren, JSX } from 'preact';
import type { Activity, Message, Payment, Refund } from '../../shared/index.js';
import { BookingDialog } from '../components/booking-actions.js';
import { FormAlert, TextArea, formOf } from '../components/Field.js';
import { NewBooking } from './NewBooking.js';
import { StatusBadge } from '../components/booking-table.js';
import { ExtraLines, answerText } from '../components/booking-form-fields.js';
import { dateTimeIn, money, timeIn } from '../format.js';
import { pathTo } from '../router.js';
import type { Booking as BookingRecord } from '../../shared/index.js';
import { KIND_WORDS, paidOf, METHOD_WORDS, refundableCents, type ActionKind, type BookingsModel } from '../state/bookings.js';
import type { Model } from '../state/model.js';
import '../styles/bookings.css';
import { titleBooking } from './titles.js';
import { RetryAlert } from '../components/RetryAlert.js';
import { guestsText } from '../state/places.js';

const ACTIONS: [ActionKind, string][] = [
  ['time', 'Change time'],
  ['participants', 'Change participants'],
  ['extras', 'Change extras and answers'],
  ['payment', 'Record payment'],
  ['cancel', 'Cancel booking'],
];

const SOURCES: Record<BookingRecord['source'], string> = {
  WIDGET: 'Widget (booked by the guest)',
  DASHBOARD: 'Dashboard (booked by the team)',
  API: 'API',
  OCTO: 'Reseller (OCTO)',
};

/** The team's own note on the booking: shown and changed here, never shown to the guest. */
function InternalNote({ b, booking }: { b: BookingsModel; booking: BookingRecord }): JSX.Element {
  const form = b.noteForm.value;
  return (
    <section aria-labelledby="note-heading">
      <h2 id="note-heading">Internal note</h2>
      <form
        key={`${booking.id}-${booking.updatedAt}`}
        class="bk-note"
        noValidate
        aria-busy={form.busy ? 'true' : undefined}
        onSubmit={(e) => void b.saveNote(formOf(e).value('internalNote'))}
      >
        <FormAlert error={form.error} />
        <TextArea
          name="internalNote"
          label="Internal note"
          hint="For your team only: never shown to the guest or sent in e-mails. Up to 2000 characters."
          value={booking.internalNote ?? ''}
          error={form.fields['internalNote']}
          rows={3}
        />
        <button type="submit" aria-disabled={form.busy ? 'true' : undefined}>
          Save note
        </button>
      </form>
    </section>
  );
}

function Row({ term, children }: { term: string; children: ComponentChildren }): JSX.Element {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Details({ booking: b, places, paid, zone }: { booking: BookingRecord; places: number; paid: string | null; zone: string }): JSX.Element {
  const meta = Object.entries(b.metadata);
  const due = paid === null ? 0 : Math.round(Number(b.total) * 100) - Math.round(Number(paid) * 100);
  // A code changed the figures: each one is shown, down to what is still owed.
  const coded = b.discount !== null || b.voucher !== null;
  return (
    <dl class="bk-details">
      <Row term="Status">
        <StatusBadge status={b.status} />
        {b.holdExpiresAt ? ` · held until ${dateTimeIn(b.holdExpiresAt, zone)}` : ''}
      </Row>
      <Row term="Experience">{b.experience.title}</Row>
      <Row term="Time">
        <time dateTime={b.timeSlot.startTime}>{dateTimeIn(b.timeSlot.startTime, zone)}</time>–{timeIn(b.timeSlot.endTime, zone)}{' '}
        <span class="bk-zone">{zone} time</span>
      </Row>
      <Row term="Guest">
        {b.guestName}
        <br />
        <a href={`mailto:${b.guestEmail}`}>{b.guestEmail}</a>
        {b.guestPhone ? (
          <>
            <br />
            <a href={`tel:${b.guestPhone}`}>{b.guestPhone}</a>
          </>
        ) : null}
      </Row>
      <Row term="Guests">{guestsText(b.totalParticipants, places)}</Row>
      {coded ? <Row term="Subtotal">{money(b.subtotal, b.currency)}</Row> : null}
      {b.discount ? (
        <Row term="Discount">
          −{money(b.discount.amount, b.currency)} <span class="quiet">(code {b.discount.code})</span>
        </Row>
      ) : null}
      <Row term="Total">
        {money(b.total, b.currency)}
        {b.unitPrice !== null && !b.extras.length && !b.discount ? <span class="quiet"> ({b.totalParticipants} × {money((b.unitPrice / 100).toFixed(2), b.currency)})</span> : null}
      </Row>
      {b.voucher ? (
        <Row term="Gift voucher">
          −{money(b.voucher.amount, b.currency)} <span class="quiet">({b.voucher.code})</span>
        </Row>
      ) : null}
      <Row term="Paid">
        {paid === null ? '…' : money(paid, b.currency)}
        {due > 0 && b.status !== 'CANCELLED' && !coded ? <span class="owed"> · {money((due / 100).toFixed(2), b.currency)} still due</span> : null}
      </Row>
      {coded ? <Row term="Amount due">{money(b.amountDue, b.currency)}</Row> : null}
      <Row term="Refunded">{money(b.amountRefunded, b.currency)}</Row>
      <Row term="Source">{SOURCES[b.source]}</Row>
      <Row term="Checked in">{b.checkedInAt ? dateTimeIn(b.checkedInAt, zone) : 'Not yet'}</Row>
      <Row term="Booked">{dateTimeIn(b.createdAt, zone)}</Row>
      {b.cancelledAt ? (
        <Row term="Cancelled">
          {dateTimeIn(b.cancelledAt, zone)}
          {b.cancellationReason ? `: ${b.cancellationReason}` : ' (no reason given)'}
        </Row>
      ) : null}
      {/* Metadata is what an integration stored with the booking: nothing to say when it stored none. */}
      {meta.length ? (
        <Row term="Metadata">
          <dl class="bk-metadata">
            {meta.map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
        </Row>
      ) : null}
    </dl>
  );
}

/** One line of money on a booking: a payment or a refund, as its table shows it. */
interface MoneyLine {
  id: string;
  createdAt: string;
  amount: string;
  currency: string;
  status: ComponentChildren;
  method: string;
  /** The last column: a payment's reference, a refund's reason. */
  note: string | null;
}

/** Payments and refunds share one table: date, amount, status, method and a last column of their own. */
function MoneyLines(props: { id: string; title: string; lines: MoneyLine[] | null; zone: string; noteHeading: string; empty: string }): JSX.Element {
  const { id, title, lines, zone, noteHeading, empty } = props;
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{title}</h2>
      {lines === null ? (
        <p class="quiet">Loading…</p>
      ) : lines.length ? (
        <div class="table-wrap">
          <table class="bk-records" aria-labelledby={`${id}-heading`}>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col" class="num">
                  Amount
                </th>
                <th scope="col">Status</th>
                <th scope="col">Method</th>
                <th scope="col">{noteHeading}</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((l) => (
                <tr key={l.id}>
                  <td data-label="Date">{dateTimeIn(l.createdAt, zone)}</td>
                  <td data-label="Amount" class="num">
                    {money(l.amount, l.currency)}
                  </td>
                  <td data-label="Status">{l.status}</td>
                  <td data-label="Method">{l.method}</td>
                  <td data-label={noteHeading}>{l.note ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p class="quiet">{empty}</p>
      )}
    </section>
  );
}

function Payments({ payments, zone }: { payments: Payment[] | null; zone: string }): JSX.Element {
  const lines = payments?.map((p) => ({
    ...p,
    status: (
      <>
        {p.status === 'SUCCEEDED' ? 'Received' : `Failed${p.failureReason ? `: ${p.failureReason}` : ''}`}
        {p.refundRequired ? <strong class="owed"> · refund due</strong> : null}
      </>
    ),
    method: p.provider === 'manual' ? `${METHOD_WORDS[p.method]}, recorded by hand` : METHOD_WORDS[p.method],
    note: p.reference,
  }));
  return (
    <MoneyLines id="payments" title="Payments" lines={lines ?? null} zone={zone} noteHeading="Reference"
      empty="No payments yet. When the guest pays at the desk or by transfer, use “Record payment”." />
  );
}

const REFUND_STATUS_WORDS: Record<Refund['status'], string> = { SUCCEEDED: 'Refunded', PENDING: 'Waiting for Stripe', FAILED: 'Failed' };

function Refunds({ refunds, zone }: { refunds: Refund[] | null; zone: string }): JSX.Element {
  const lines = refunds?.map((r) => ({ ...r, status: REFUND_STATUS_WORDS[r.status], method: METHOD_WORDS[r.method], note: r.reason }));
  return (
    <MoneyLines id="refunds" title="Refunds" lines={lines ?? null} zone={zone} noteHeading="Reason"
      empty="No refunds. “Refund” gives money back, through Stripe or by hand." />
  );
}

/** A guest e-mail's status in words, with when it went or will be tried again. */
function mailStatus(x: Message, zone: string): string {
  switch (x.status) {
    case 'SENT':
      return 'Sent';
    case 'FAILED':
      return 'Failed';
    case 'SKIPPED':
      // The server's reason when it is another than the usual one (the demo's made-up guests).
      return `Not sent — ${x.lastError && !x.lastError.includes('SMTP_URL') ? x.lastError : 'no mail server is configured'}`;
    default:
      return x.attempts && x.nextAttemptAt ? `Waiting, will retry at ${dateTimeIn(x.nextAttemptAt, zone)}` : 'Waiting';
  }
}

// A message still being tried goes out by itself (a resend would only add a copy); a cancelled
// booking's confirmation is no longer true, and a live booking's cancellation never was.
const resendable = (x: Message, booking: BookingRecord): boolean =>
  x.status !== 'PENDING' && (x.kind === 'BOOKING_CANCELLED') === (booking.status === 'CANCELLED');

function Messages({ b, booking, zone }: { b: BookingsModel; booking: BookingRecord; zone: string }): JSX.Element {
  const { messages, messagesError } = b.page.value;
  const { busy, notice, error } = b.mail.value;
  return (
    <section aria-labelledby="messages-heading">
      <h2 id="messages-heading">Messages</h2>
      <p class="bk-notice" role="status">
        {notice ? <span class="notice">{notice}</span> : null}
      </p>
      {error ? (
        <p class="alert" role="alert" id="messages-alert" tabIndex={-1}>
          {error}
        </p>
      ) : null}
      <RetryAlert error={messagesError} onRetry={() => b.retry()} />
      {messages === null ? (
        messagesError ? null : <p class="quiet">Loading…</p>
      ) : messages.length ? (
        <>
          <p class="quiet">E-mails to the guest, oldest first; times in {zone} time.</p>
          <div class="table-wrap">
            <table class="bk-records bk-mail" aria-labelledby="messages-heading">
              <thead>
                <tr>
                  <th scope="col">E-mail</th>
                  <th scope="col">To</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">
                    Attempts
                  </th>
                  <th scope="col">Sent</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {messages.map((x) => (
                  <tr key={x.id}>
                    <td data-label="E-mail" id={`mail-${x.id}`}>
                      {KIND_WORDS[x.kind]}
                    </td>
                    <td data-label="To">
                      <span class="bk-any">{x.to}</span>
                    </td>
                    <td data-label="Status">
                      <span>
                        {mailStatus(x, zone)}
                        {x.lastError && x.status !== 'SKIPPED' ? <span class="quiet bk-any"> · last error: {x.lastError}</span> : null}
                      </span>
                    </td>
                    <td data-label="Attempts" class="num">
                      {x.attempts}
                    </td>
                    <td data-label="Sent">{x.sentAt ? <time dateTime={x.sentAt}>{dateTimeIn(x.sentAt, zone)}</time> : 'Not yet'}</td>
                    <td data-label="">
                      {resendable(x, booking) ? (
                        <button type="button" aria-describedby={`mail-${x.id}`} aria-disabled={busy === x.id ? 'true' : undefined} onClick={() => void b.resend(x)}>
                          {busy === x.id ? 'Resending…' : 'Resend'}
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : (
        <p class="quiet">No e-mails yet: guests get one when a booking is confirmed, changed or cancelled.</p>
      )}
    </section>
  );
}

function ActivityLog({ activity, owner, zone }: { activity: Activity[] | null; owner: boolean; zone: string }): JSX.Element {
  return (
    <section aria-labelledby="activity-heading">
      <h2 id="activity-heading">Activity</h2>
      {!owner ? (
        <p class="quiet">The activity log is shown to owners of the organization.</p>
      ) : activity === null ? (
        <p class="quiet">Loading…</p>
      ) : activity.length ? (
        <ul class="bk-activity">
          {activity.map((a) => (
            <li key={a.id}>
              <time dateTime={a.createdAt}>{dateTimeIn(a.createdAt, zone)}</time> <span>{a.summary}</span>{' '}
              <span class="quiet">by {a.actor.name}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p class="quiet">Nothing recorded yet.</p>
      )}
    </section>
  );
}

export function Booking({ m }: { m: Model }): JSX.Element {
  if (m.router.location.value.id === 'new') return <NewBooking m={m} />;
  const b = m.bookings;
  const { booking, payments, refunds, activity, loading, error } = b.page.value;
  // "Refund" is offered, whatever the booking's status, while some of what was paid is left to give back.
  const refundable = payments !== null && refunds !== null && refundableCents(payments, refunds) > 0;
  const refundButton = refundable ? (
    <button type="button" id="open-refund" onClick={() => b.open('refund')}>
      Refund
    </button>
  ) : null;
  const zone = booking ? b.zones.zoneOf(booking.experience.id) : 'UTC';
  const tickets = booking?.tickets ?? [];
  return (
    <main id="main" class="bk-booking">
      <p class="bk-back">
        <a href={pathTo('bookings')}>All bookings</a>
      </p>
      <h1 id="heading" tabIndex={-1}>
        {titleBooking(m)}
      </h1>
      {loading && !booking ? <p role="status">Loading the booking…</p> : null}
      <RetryAlert error={error} onRetry={() => b.retry()} />
      {booking ? (
        <>
          <p class="bk-notice" id="booking-notice" role="status" tabIndex={-1}>
            {b.notice.value ? <span class="notice">{b.notice.value}</span> : null}
          </p>
          {booking.status === 'CANCELLED' ? (
            <>
              <p class="quiet">This booking is cancelled: its time, participants and payments can no longer change.</p>
              {refundButton ? <div class="actions-row">{refundButton}</div> : null}
            </>
          ) : (
            <div class="actions-row">
              {ACTIONS.map(([kind, label]) => (
                <button key={kind} type="button" id={`open-${kind}`} class={kind === 'cancel' ? 'bk-danger-outline' : undefined} onClick={() => b.open(kind)}>
                  {label}
                </button>
              ))}
              {refundButton}
            </div>
          )}
          <section aria-labelledby="details-heading">
            <h2 id="details-heading">Details</h2>
            <Details booking={booking} places={b.placesOf(booking)} paid={payments ? paidOf(payments) : null} zone={zone} />
          </section>
          {tickets.length ? (
            <section aria-labelledby="tickets-heading">
              <h2 id="tickets-heading">Tickets</h2>
              <ul class="bk-tickets">
                {tickets.map((t) => (
                  <li key={t.categoryId}>
                    {t.quantity} × {t.name}, {money((t.unitPrice / 100).toFixed(2), booking.currency)} each
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {booking.extras.length ? (
            <section aria-labelledby="extras-heading">
              <h2 id="extras-heading">Extras</h2>
              <ExtraLines extras={booking.extras} currency={booking.currency} />
            </section>
          ) : null}
          {booking.answers.length ? (
            <section aria-labelledby="answers-heading">
              <h2 id="answers-heading">Answers</h2>
              <ul class="bk-tickets bk-any">
                {booking.answers.map((a) => (
                  <li key={a.questionId}>
                    {a.label}: {answerText(a)}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <InternalNote b={b} booking={booking} />
          <Payments payments={payments} zone={zone} />
          <Refunds refunds={refunds} zone={zone} />
          <Messages b={b} booking={booking} zone={zone} />
          <ActivityLog activity={activity} owner={b.isOwner()} zone={zone} />
          <BookingDialog m={m} booking={booking} zone={zone} />
        </>
      ) : null}
    </main>
  );
}
