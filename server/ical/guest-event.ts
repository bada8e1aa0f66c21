// A guest's own copy of their booking as an iCalendar file: the `booking.ics` of the confirmation
// e-mail and `GET /public/v1/manage/calendar.ics`. It is the bookings feed's event for the booking
// (the same UID and SEQUENCE, so a later copy replaces the earlier one in the guest's calendar),
// titled and described for the guest rather than for the operator.
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { bookingEvent, cleanText } from './feed.js';
import type { BookingView } from '../store/bookings.js';

export interface GuestEvent {
  /** The experience's name. */
  summary: string;
  /** The meeting point; no LOCATION when null. */
  location: string | null;
  /** Plain text; line breaks are kept (escaped as \n). */
  description: string;
  url?: string | null;
}

/** The whole file: one VCALENDAR with one VEVENT, CRLF line ends, folded at 75 octets. */
export function guestBookingIcs(booking: BookingView, host: string, event: GuestEvent): string {
  const calendar = ical({
    prodId: { company: 'Outing', product: 'Outing booking', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
  });
  const location = event.location === null ? '' : cleanText(event.location).replace(/\n+/g, ', ').trim();
  calendar.createEvent({
    ...bookingEvent(booking, host),
    summary: cleanText(event.summary).replace(/\n+/g, ' '),
    description: cleanText(event.description),
    ...(location === '' ? {} : { location }),
    url: event.url ?? null,
    // The feed leaves cancelled bookings out; a guest's copy says so, and the calendar drops it.
    ...(booking.status === 'CANCELLED' ? { status: ICalEventStatus.CANCELLED } : {}),
  });
  // RFC 5545 ends every content line, the last one too, with CRLF.
  return `${calendar.toString()}\r\n`;
}
