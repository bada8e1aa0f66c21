import type { BookingView } from '../store/bookings.js';
import { serializeBooking } from './booking.js';
import type { EventRow } from '../store/events.js';
import type { EventData, WebhookEvent } from '../../shared/index.js';

export type Changes = Record<string, { from: unknown; to: unknown }>;

/**
 * The `data` of an event about a booking: the record, with its experience and slot beside it.
 * Events are stored as the JSON they are delivered as (so `/v1/events` replays exactly what was
 * sent): the event log is the one service that calls a serializer.
 */
export function serializeBookingEventData(
  booking: BookingView,
  extra: { changes?: Changes; payment?: EventData['payment'] } = {},
): EventData {
  const { experience, timeSlot, ...record } = serializeBooking(booking);
  return { booking: record, experience, timeSlot, ...extra };
}

/** A stored event is kept as the very body its webhooks carry. */
export const serializeEvent = (row: EventRow): WebhookEvent => JSON.parse(row.payload) as WebhookEvent;
