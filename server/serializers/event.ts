import type { BookingRow, BookingView } from '../store/bookings.js';
import { serializeBooking, serializeTimeSlot } from './booking.js';
import { serializeEventPayment } from './payment.js';
import { serializeEventRefund } from './refund.js';
import { iso, isoOrNull } from './instant.js';
import { formatMoney } from '../domain/money.js';
import { ticketsOf } from '../domain/tickets.js';
import { answersOf, bookingExtrasOf, bookingFigures } from '../domain/booking-form.js';
import type { EventRow } from '../store/events.js';
import type { PaymentRow } from '../store/payments.js';
import type { RefundRow } from '../store/refunds.js';
import type { EventData, EventKind, WebhookEvent } from '../../shared/index.js';

export type Changes = Record<string, { from: unknown; to: unknown }>;

/**
 * The `data` of an event about a booking: the record, with its experience and slot beside it.
 * Events are stored as the JSON they are delivered as (so `/v1/events` replays exactly what was
 * sent): the event log is the one service that calls a serializer.
 */
export function serializeBookingEventData(
  booking: BookingView,
  extra: { changes?: Changes; payment?: EventData['payment']; refund?: EventData['refund'] } = {},
): EventData {
  const { experience, timeSlot, ...record } = serializeBooking(booking);
  return { booking: record, experience, timeSlot, ...extra };
}

/** The data of an event about a booking, from the rows the event log is handed. */
export function serializeBookingEvent(booking: BookingView, extra: { changes?: Changes; payment?: PaymentRow; refund?: RefundRow } = {}): EventData {
  const { payment, refund, ...rest } = extra;
  return serializeBookingEventData(booking, {
    ...rest,
    ...(payment ? { payment: serializeEventPayment(payment) } : {}),
    ...(refund ? { refund: serializeEventRefund(refund) } : {}),
  });
}

/** An event's body, as its webhooks deliver it and `/v1/events` replays it. */
export const serializeNewEvent = (id: string, event: EventKind, data: EventData, now: number): WebhookEvent => ({ id, event, timestamp: iso(now), data });

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A version of a booking with the cents its SUCCEEDED payments came to: what its `amountDue` is made from. */
export type PaidBooking = BookingRow & { amountPaid: number };

/** A booking's money as its record shows it, for `changes`. */
function moneyOf(b: PaidBooking) {
  const f = bookingFigures(b);
  return {
    subtotal: formatMoney(f.subtotal),
    discount: f.discount && { code: f.discount.code, amount: formatMoney(f.discount.cents) },
    total: formatMoney(f.total),
    amountDue: formatMoney(f.due),
  };
}

/** What changed between two versions of a booking, in the record's names (`changes` of BOOKING_UPDATED). */
export function bookingChanges(before: PaidBooking, after: PaidBooking): Changes {
  const changes: Changes = {};
  const note = (field: string, from: unknown, to: unknown) => {
    if (!sameJson(from, to)) changes[field] = { from, to };
  };
  note('status', before.status, after.status);
  note('timeSlot', serializeTimeSlot(before), serializeTimeSlot(after));
  note('tickets', ticketsOf(before.tickets), ticketsOf(after.tickets));
  note('totalParticipants', before.participants, after.participants);
  note('answers', answersOf(before.answers), answersOf(after.answers));
  note('extras', bookingExtrasOf(before.extras), bookingExtrasOf(after.extras));
  const [from, to] = [moneyOf(before), moneyOf(after)];
  note('subtotal', from.subtotal, to.subtotal);
  note('discount', from.discount, to.discount);
  note('total', from.total, to.total);
  note('amountDue', from.amountDue, to.amountDue);
  note('guestName', before.guestName, after.guestName);
  note('guestEmail', before.guestEmail, after.guestEmail);
  note('guestPhone', before.guestPhone, after.guestPhone);
  note('customerId', before.customerId, after.customerId);
  note('metadata', JSON.parse(before.metadata), JSON.parse(after.metadata));
  note('checkedInAt', isoOrNull(before.checkedInAt), isoOrNull(after.checkedInAt));
  note('locale', before.locale ?? 'en', after.locale ?? 'en');
  note('internalNote', before.internalNote, after.internalNote);
  return changes;
}

/** A stored event is kept as the very body its webhooks carry. */
export const serializeEvent = (row: EventRow): WebhookEvent => JSON.parse(row.payload) as WebhookEvent;
