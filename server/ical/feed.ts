// The private bookings feed (docs/ical.md): one VEVENT per CONFIRMED or PENDING booking, all times in
// UTC. The text depends only on the bookings (DTSTAMP is the booking's last change, not the time
// of the request), so an unchanged feed has an unchanged ETag and calendar apps get their 304.
import { createHash } from 'node:crypto';
import ical, { ICalCalendarMethod, ICalEventStatus, type ICalEventData } from 'ical-generator';
import { formatMoney } from '../domain/money.js';
import { bookingTotalCents } from '../domain/bookings.js';
import { ticketsLine, ticketsOf } from '../domain/tickets.js';
import { bookingExtrasOf, extrasLine } from '../domain/booking-form.js';
import type { BookingView } from '../store/bookings.js';

/** Calendar apps are told to refresh every 15 minutes (REFRESH-INTERVAL and X-PUBLISHED-TTL). */
const REFRESH_SECONDS = 15 * 60;

export interface FeedInput {
  calendarName: string;
  /** Host of PUBLIC_URL: UIDs are `{bookingId}@{host}`. */
  host: string;
  bookings: readonly BookingView[];
}

/** Control characters have no place in iCalendar TEXT; line breaks become one LF (escaped as \n). */
export function cleanText(value: string): string {
  return value.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '');
}

/** RFC 5545 §3.3.11 TEXT escaping, for properties ical-generator writes verbatim (the calendar name). */
export function escapeText(value: string): string {
  return cleanText(value).replace(/[\\;,]/g, (ch) => `\\${ch}`).replace(/\n/g, '\\n');
}

export function bookingSummary(b: BookingView): string {
  const guests = b.participants === 1 ? '1 guest' : `${b.participants} guests`;
  return cleanText(`${b.experienceName} · ${guests} · ${b.guestName}`);
}

export function bookingDescription(b: BookingView): string {
  const extras = bookingExtrasOf(b.extras);
  const lines = [
    `Booking ${b.bookingNumber}${b.status === 'PENDING' ? ' (pending payment)' : ''}`,
    `E-mail: ${b.guestEmail}`,
    ...(b.guestPhone ? [`Phone: ${b.guestPhone}`] : []),
    `Participants: ${b.participants}`,
    ...(b.tickets === null ? [] : [`Tickets: ${ticketsLine(ticketsOf(b.tickets))}`]),
    // Extras, never answers: a feed's URL travels further than the dashboard does.
    ...(extras.length === 0 ? [] : [`Extras: ${extrasLine(extras)}`]),
    `Total: ${formatMoney(bookingTotalCents(b))} ${b.currency}`,
  ];
  return cleanText(lines.join('\n'));
}

/**
 * One booking as the feed's VEVENT. The UID and SEQUENCE are the booking's identity in every
 * calendar that holds it, so anything else that hands out this event (the guest's `booking.ics`)
 * takes it from here and a later copy replaces the earlier one instead of adding a second.
 */
export function bookingEvent(b: BookingView, host: string): ICalEventData {
  return {
    id: `${b.id}@${host}`,
    sequence: b.sequence,
    stamp: new Date(b.updatedAt),
    created: new Date(b.createdAt),
    lastModified: new Date(b.updatedAt),
    start: new Date(b.slotStart),
    end: new Date(b.slotEnd),
    timezone: null,
    summary: bookingSummary(b),
    description: bookingDescription(b),
    status: b.status === 'CONFIRMED' ? ICalEventStatus.CONFIRMED : ICalEventStatus.TENTATIVE,
  };
}

/** The feed's text, CRLF line ends, lines folded at 75 octets (ical-generator) and escaped. */
export function renderBookingsFeed(input: FeedInput): string {
  const name = escapeText(input.calendarName);
  const calendar = ical({
    prodId: { company: 'Outing', product: 'Outing bookings feed', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    name,
    ttl: REFRESH_SECONDS,
  });
  for (const b of input.bookings) {
    if (b.status === 'CANCELLED') continue;
    calendar.createEvent(bookingEvent(b, input.host));
  }
  // RFC 5545 ends every content line, the last one too, with CRLF.
  return `${calendar.toString()}\r\n`;
}

/** A strong validator of the feed's exact bytes. */
export function feedEtag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}
