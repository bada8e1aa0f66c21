import { newId } from '../domain/ids.js';
import { invalid } from '../domain/refusal.js';
import { bookingChanges, serializeBookingEvent, serializeNewEvent, type Changes, type PaidBooking } from '../serializers/event.js';
import type { BookingView } from '../store/bookings.js';
import type { EventRow } from '../store/events.js';
import type { PaymentRow } from '../store/payments.js';
import type { RefundRow } from '../store/refunds.js';
import type { Store } from '../store/index.js';
import type { Page, PageResult } from '../store/sql.js';
import type { EventData, EventKind, WebhookEvent } from '../../shared/index.js';

/**
 * Records an event and queues its deliveries. Call it inside the transaction of the change that
 * fires it: then a crash can delay the event but never lose it.
 */
export async function recordEvent(store: Store, orgId: string, event: EventKind, data: EventData, now: number): Promise<WebhookEvent> {
  const body = serializeNewEvent(newId('event'), event, data, now);
  await store.events.insertEvent({
    id: body.id,
    orgId,
    type: event,
    bookingId: data.booking.id,
    payload: JSON.stringify(body),
    createdAt: now,
  });
  await store.webhooks.enqueueDeliveries(orgId, body.id, event, now);
  return body;
}

/**
 * Records an event about a booking. Events are stored as the JSON their webhooks deliver, so this is
 * the one service that calls a serializer (serializers/event.ts), and other services hand it rows.
 */
export async function recordBookingEvent(
  store: Store,
  orgId: string,
  event: EventKind,
  booking: BookingView,
  now: number,
  extra: { changes?: Changes; payment?: PaymentRow; refund?: RefundRow } = {},
): Promise<WebhookEvent> {
  return await recordEvent(store, orgId, event, serializeBookingEvent(booking, extra), now);
}

export type { Changes };

/** What changed between two versions of a booking (with what was paid of each), in the names its BOOKING_UPDATED event carries. */
export const changesBetween = (before: PaidBooking, after: PaidBooking): Changes => bookingChanges(before, after);

/** The org's events, oldest first; `after` (an event id of the org) reads only later ones. */
export async function listEvents(
  store: Store,
  orgId: string,
  filter: { after?: string; type?: EventKind },
  page: Page,
): Promise<PageResult<EventRow>> {
  let afterSeq: number | undefined;
  if (filter.after !== undefined) {
    afterSeq = await store.events.eventPosition(orgId, filter.after);
    if (afterSeq === undefined) throw invalid('after', `No event ${filter.after} in this organization`);
  }
  return await store.events.listEvents(orgId, { afterSeq, type: filter.type }, page);
}
