import type { JSX } from 'preact';
import type { TimeSlotAvailability } from '../../shared/index.js';
import { dateIn, dateTimeIn, longDate, money, plural, timeIn } from '../format.js';
import type { Booking } from '../../shared/index.js';
import { fromCents, paidOf, METHOD_WORDS, refundableCents, type ActionDialog } from '../state/bookings.js';
import type { Model } from '../state/model.js';
import { Confirm } from './Confirm.js';
import { Field, formOf, Select, TextArea } from './Field.js';
import { AnswerFields, ExtraFields, readAnswers, readExtras } from './booking-form-fields.js';

interface Props {
  m: Model;
  d: ActionDialog;
  booking: Booking;
  zone: string;
}

/** "Ana Lima's", or "The booking's" when a reseller gave no name. */
const whose = (b: Booking): string => (b.guestName ? `${b.guestName}'s` : 'The booking’s');

function CancelDialog({ m, d, booking }: Props): JSX.Element {
  const b = m.bookings;
  const places = b.placesOf(booking);
  const guests = booking.totalParticipants;
  return (
    <Confirm
      title={`Cancel booking ${booking.bookingNumber}?`}
      confirmLabel="Cancel booking"
      keepLabel="Keep booking"
      danger
      busy={d.form.busy}
      error={d.form.error}
      onClose={b.close}
      onConfirm={(e) => void b.cancel(formOf(e).value('reason'))}
    >
      <p>
        {guests === places
          ? `${whose(booking)} ${plural(places, 'place goes', 'places go')} back on sale.`
          : `${whose(booking)} booking is for ${plural(guests, 'guest', 'guests')}; its ${plural(places, 'place goes', 'places go')} back on sale.`}{' '}
        A cancelled booking cannot be booked again.
      </p>
      <TextArea name="reason" label="Reason" hint="Optional, up to 500 characters. Kept with the booking." rows={3} value={d.values?.['reason']} error={d.form.fields['reason']} />
    </Confirm>
  );
}

/** The slots offered, one group per local date. */
function byDate(slots: readonly TimeSlotAvailability[], zone: string): [string, TimeSlotAvailability[]][] {
  const days = new Map<string, TimeSlotAvailability[]>();
  for (const s of slots) {
    const day = dateIn(zone, new Date(s.startTime));
    days.set(day, [...(days.get(day) ?? []), s]);
  }
  return [...days];
}

function TimeDialog({ m, d, booking, zone }: Props): JSX.Element {
  const b = m.bookings;
  // Slots offer places: the booking needs as many as its guests who take one.
  const party = b.placesOf(booking);
  const error = d.form.fields['slot-choice'];
  const days = byDate(d.slots ?? [], zone);
  return (
    <Confirm
      title={`Change the time of ${booking.bookingNumber}`}
      confirmLabel="Change time"
      keepLabel="Keep the current time"
      busy={d.form.busy}
      error={d.form.error}
      onClose={b.close}
      onConfirm={(e) => void b.changeTime(formOf(e).value('startTime'))}
    >
      <p>
        Now {dateTimeIn(booking.timeSlot.startTime, zone)} ({zone} time). Times with room for {plural(party, 'place', 'places')}{' '}
        can be chosen.
      </p>
      <fieldset class={`bk-slots${error ? ' invalid' : ''}`} id="slot-choice" tabIndex={-1} aria-describedby={error ? 'slot-choice-error' : undefined}>
        <legend>New time, {zone} time</legend>
        {error ? (
          <p class="field-error" id="slot-choice-error">
            {error}
          </p>
        ) : null}
        {d.slots && !d.slots.length ? <p class="quiet">No times in these dates.</p> : null}
        {days.map(([day, slots]) => (
          <fieldset key={day} class="bk-slot-day">
            <legend>{longDate(day)}</legend>
            {slots.map((s) => {
              const current = s.startTime === booking.timeSlot.startTime;
              const room = s.unavailableReason !== 'BLOCKED' && s.unavailableReason !== 'CLOSED' && s.remaining >= party;
              const note = current ? 'current time' : s.unavailableReason === 'BLOCKED' ? 'blocked' : s.unavailableReason === 'CLOSED' ? 'closed' : room ? `${plural(s.remaining, 'place', 'places')} left` : s.remaining ? `only ${s.remaining} left` : 'full';
              return (
                <div key={s.id} class="bk-choice">
                  <input type="radio" id={`slot-${s.id}`} name="startTime" value={s.startTime} disabled={current || !room} />
                  <label for={`slot-${s.id}`}>
                    {timeIn(s.startTime, zone)} <span class="quiet">· {note}</span>
                  </label>
                </div>
              );
            })}
          </fieldset>
        ))}
      </fieldset>
      <p class="status-line" role="status">
        {d.loadingSlots ? 'Loading times…' : d.until ? `Times up to ${longDate(d.until)}.` : ''}
      </p>
      {d.until ? (
        <button type="button" onClick={b.moreTimes} aria-disabled={d.loadingSlots ? 'true' : undefined}>
          Show later times
        </button>
      ) : null}
    </Confirm>
  );
}

/** A booking with tickets changes a quantity per price category instead of one number. */
function TicketsDialog({ m, d, booking }: Props): JSX.Element {
  const b = m.bookings;
  const choices = d.choices;
  return (
    <Confirm
      title={`Change participants of ${booking.bookingNumber}`}
      confirmLabel="Change participants"
      busy={d.form.busy || !choices}
      error={d.form.error}
      onClose={b.close}
      onConfirm={(e) => {
        const form = formOf(e);
        void b.changeTickets(Object.fromEntries((choices ?? []).map((c) => [c.categoryId, form.value(`qty-${c.categoryId}`)])));
      }}
    >
      <p>
        Now {booking.tickets.map((t) => `${t.quantity} × ${t.name}`).join(', ')}. More places need room in the time slot; the booking keeps
        its own prices, and categories it does not have yet are at today's. 0 removes a category.
      </p>
      {choices ? (
        choices.map((c) => (
          <Field
            key={c.categoryId}
            name={`qty-${c.categoryId}`}
            type="number"
            label={`${c.name}, ${money(fromCents(c.unitPrice), booking.currency)}`}
            min={0}
            step={1}
            inputMode="numeric"
            value={d.values?.[c.categoryId] ?? c.quantity}
            error={d.form.fields[`qty-${c.categoryId}`]}
          />
        ))
      ) : (
        <p role="status">Loading the categories…</p>
      )}
    </Confirm>
  );
}

function ParticipantsDialog(props: Props): JSX.Element {
  const { m, d, booking } = props;
  const b = m.bookings;
  if (booking.tickets.length) return <TicketsDialog {...props} />;
  return (
    <Confirm
      title={`Change participants of ${booking.bookingNumber}`}
      confirmLabel="Change participants"
      busy={d.form.busy}
      error={d.form.error}
      onClose={b.close}
      onConfirm={(e) => void b.changeParticipants(formOf(e).value('participants'))}
    >
      <p>
        Now {plural(booking.totalParticipants, 'participant', 'participants')}. More participants need free places in the time slot; fewer are always accepted. The total follows
        the booking's own price.
      </p>
      <Field
        name="participants"
        type="number"
        label="Participants"
        min={1}
        step={1}
        inputMode="numeric"
        value={d.values?.['participants'] ?? booking.totalParticipants}
        error={d.form.fields['participants']}
      />
    </Confirm>
  );
}

/**
 * The booking's answers and extras, against the experience's questions and active extras of today:
 * the answers start from the booking's, the quantities from its extras. An extra no longer offered
 * cannot be booked again, so changing the extras leaves it out.
 */
function ExtrasDialog({ m, d, booking }: Props): JSX.Element {
  const b = m.bookings;
  const x = d.experience;
  const offered = x ? x.extras.filter((e) => e.active) : [];
  const gone = booking.extras.filter((e) => !offered.some((o) => o.id === e.extraId));
  const quantities = Object.fromEntries(booking.extras.map((e) => [e.extraId, e.quantity]));
  return (
    <Confirm
      title={`Change extras and answers of ${booking.bookingNumber}`}
      confirmLabel="Save extras and answers"
      busy={d.form.busy || x === undefined}
      error={d.form.error}
      onClose={b.close}
      onConfirm={(e) => {
        if (!x) return;
        const form = formOf(e);
        const fields: Record<string, string> = {};
        const answers = readAnswers(form, x.questions, fields);
        const extras = readExtras(form, offered, booking.totalParticipants, fields);
        void b.changeForm(answers, extras, fields);
      }}
    >
      {x === undefined ? <p role="status">Loading the questions and extras…</p> : null}
      {x && !x.questions.length && !offered.length ? <p>{x.name} asks no questions and offers no extras. Add them in the experience’s editor.</p> : null}
      {x ? (
        <>
          <p>
            The total follows the extras: those the booking has keep their price, new ones are at today’s. Per-person extras go up to the party (
            {plural(booking.totalParticipants, 'participant', 'participants')}).
          </p>
          {gone.length ? <p class="quiet">No longer offered: {gone.map((g) => `${g.quantity} × ${g.name}`).join(', ')}. Saving a change of extras leaves it out.</p> : null}
          <ExtraFields extras={offered} quantities={quantities} party={booking.totalParticipants} currency={booking.currency} fields={d.form.fields} />
          <AnswerFields questions={x.questions} answers={booking.answers} fields={d.form.fields} />
        </>
      ) : null}
    </Confirm>
  );
}

/** How money taken by hand came in; Stripe's payments record themselves. */
export const METHOD_OPTIONS = (['CASH', 'CARD', 'BANK_TRANSFER', 'OTHER'] as const).map((k) => [k, METHOD_WORDS[k]] as const);

function PaymentDialog({ m, d, booking }: Props): JSX.Element {
  const b = m.bookings;
  const paid = paidOf(b.page.value.payments ?? []);
  const due = Math.round(Number(booking.total) * 100) - Math.round(Number(paid) * 100);
  const v = d.values ?? {};
  const failed = v['status'] === 'FAILED';
  return (
    <Confirm
      title={`Record a payment for ${booking.bookingNumber}`}
      confirmLabel="Record payment"
      busy={d.form.busy}
      error={d.form.error}
      onClose={b.close}
      onConfirm={(e) => {
        const f = formOf(e);
        void b.recordPayment({
          amount: f.value('amount'),
          status: f.value('status'),
          method: f.value('method'),
          reference: f.value('reference'),
          failureReason: f.value('failureReason'),
        });
      }}
    >
      <p>
        For money taken outside Outing: at the desk, by card terminal or by transfer. Total {money(booking.total, booking.currency)}, paid so far{' '}
        {money(paid, booking.currency)}.
      </p>
      <AmountField currency={booking.currency} value={v['amount'] ?? fromCents(due > 0 ? due : Math.round(Number(booking.total) * 100))} error={d.form.fields['amount']} />
      <Select
        name="status"
        label="Payment status"
        options={[
          ['SUCCEEDED', 'Received'],
          ['FAILED', 'Failed'],
        ]}
        value={v['status'] ?? 'SUCCEEDED'}
        error={d.form.fields['status']}
        onChange={b.setPaymentStatus}
      />
      <Select name="method" label="Payment method" options={METHOD_OPTIONS} value={v['method'] ?? 'CASH'} error={d.form.fields['method']} />
      <Field name="reference" type="text" label="Reference" hint="Optional: how it was paid, a receipt number or a transfer id" required={false} value={v['reference']} error={d.form.fields['reference']} />
      {failed ? (
        <Field name="failureReason" type="text" label="Failure reason" hint="Optional: what the card terminal or the bank said" required={false} value={v['failureReason']} error={d.form.fields['failureReason']} />
      ) : null}
    </Confirm>
  );
}

/** An amount of money typed in major units, as Record payment and Refund take it. */
function AmountField(p: { currency: string; value: string; error: string | undefined }): JSX.Element {
  return <Field name="amount" type="text" inputMode="decimal" label={`Amount (${p.currency})`} hint="For example 25.00" value={p.value} error={p.error} />;
}

function RefundDialog({ m, d, booking }: Props): JSX.Element {
  const b = m.bookings;
  const payments = b.page.value.payments ?? [];
  const left = refundableCents(payments, b.page.value.refunds ?? []);
  // Stripe's payments go back through Stripe unless the operator chooses otherwise (the server's default too).
  const viaStripe = payments.some((p) => p.status === 'SUCCEEDED' && p.provider === 'stripe');
  const v = d.values ?? {};
  return (
    <Confirm
      title={`Refund on ${booking.bookingNumber}`}
      confirmLabel="Refund"
      busy={d.form.busy}
      error={d.form.error}
      onClose={b.close}
      onConfirm={(e) => {
        const f = formOf(e);
        void b.recordRefund({ amount: f.value('amount'), method: f.value('method'), reason: f.value('reason') });
      }}
    >
      <p>
        Paid {money(paidOf(payments, true), booking.currency)}
        {booking.voucher ? ` (and ${money(booking.voucher.amount, booking.currency)} by gift voucher, which goes back to the voucher if the booking is cancelled)` : ''}, left to refund {money(fromCents(Math.max(left, 0)), booking.currency)}. The booking itself does
        not change; cancel it separately if the guest is not coming.
      </p>
      <AmountField currency={booking.currency} value={v['amount'] ?? fromCents(Math.max(left, 0))} error={d.form.fields['amount']} />
      <Select
        name="method"
        label="Method"
        hint={viaStripe ? 'Stripe gives the money back to the card the guest paid with.' : undefined}
        // The default first: STRIPE for a booking paid through Stripe, else OTHER.
        options={(viaStripe ? (['STRIPE', 'CASH', 'CARD', 'BANK_TRANSFER', 'OTHER'] as const) : (['OTHER', 'CASH', 'CARD', 'BANK_TRANSFER'] as const)).map(
          (k) => [k, METHOD_WORDS[k]] as const,
        )}
        value={v['method'] ?? (viaStripe ? 'STRIPE' : 'OTHER')}
        error={d.form.fields['method']}
      />
      <TextArea name="reason" label="Reason" hint="Optional, up to 500 characters. Kept with the refund." rows={3} value={v['reason']} error={d.form.fields['reason']} />
    </Confirm>
  );
}

const DIALOGS = { cancel: CancelDialog, time: TimeDialog, participants: ParticipantsDialog, extras: ExtrasDialog, payment: PaymentDialog, refund: RefundDialog };

/** The open action's dialog, if any. */
export function BookingDialog({ m, booking, zone }: { m: Model; booking: Booking; zone: string }): JSX.Element | null {
  const d = m.bookings.dialog.value;
  if (!d) return null;
  const Dialog = DIALOGS[d.kind];
  return <Dialog m={m} d={d} booking={booking} zone={zone} />;
}
