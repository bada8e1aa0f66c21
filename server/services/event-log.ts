import { newId } from '../domain/ids.js';
import { iso, serializeBooking } from '../serialize.js';
import type { BookingView } from '../store/bookings.js';
import type { Store } from '../store/index.js';
import type { EventData, EventKind, WebhookEvent } from '../../shared/index.js';

export type Changes = Record<string, { from: unknown; to: unknown }>;

/** The `data` of an event about a booking (SPEC §8): the record, with experience and slot beside it. */
export function eventData(booking: BookingView, extra: { changes?: Changes; payment?: EventData['payment'] } = {}): EventData {
  const { experience, timeSlot, ...record } = serializeBooking(booking);
  return { booking: record, experience, timeSlot, ...extra };
}

/**
 * Records an event and queues its deliveries. Call it inside the transaction of the change that
 * fires it: then a crash can delay the event but never lose it.
 */
export function recordEvent(store: Store, orgId: string, event: EventKind, data: EventData, now: number): WebhookEvent {
  const body: WebhookEvent = { id: newId('event'), event, timestamp: iso(now), data };
  store.insertEvent({
    id: body.id,
    orgId,
    type: event,
    bookingId: data.booking.id,
    payload: JSON.stringify(body),
    createdAt: now,
  });
  store.enqueueDeliveries(orgId, body.id, event, now);
  return body;
}
