/**
 * "Add to calendar" from a booking the page already holds: a Google Calendar link and an iCalendar
 * file (RFC 5545). The manage page downloads the server's file (GET /public/v1/manage/calendar.ics);
 * the widget builds its own from the booking it was given, since it holds no manage token.
 */

export interface CalendarBooking {
  bookingNumber: string;
  experience: string;
  startTime: string;
  endTime: string;
  meetingPoint: string | null;
  /** Notes for the event's description beyond the booking number (the guest instructions). */
  notes?: string | null;
}

/** `20261202T090000Z`: an instant in UTC as both Google and iCalendar write it. */
export function utcStamp(instant: string | number | Date): string {
  return new Date(instant).toISOString().replace(/[-:]|\.\d+/g, '');
}

/** Google Calendar's "create event" page, filled in. */
export function googleCalendarUrl(b: CalendarBooking): string {
  const q = encodeURIComponent;
  return (
    `https://calendar.google.com/calendar/render?action=TEMPLATE&text=${q(b.experience)}` +
    `&dates=${utcStamp(b.startTime)}/${utcStamp(b.endTime)}` +
    (b.meetingPoint ? `&location=${q(b.meetingPoint)}` : '') +
    `&details=${q(b.bookingNumber)}`
  );
}

/** TEXT as RFC 5545 §3.3.11 escapes it; other control characters dropped. */
const text = (value: string): string =>
  value
    .replace(/\r\n?/g, '\n')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0009\u000B-\u001F\u007F]/g, '')
    .replace(/[\\;,]/g, '\\$&')
    .replace(/\n/g, '\\n');

/** A content line folded at 75 octets (§3.1), never inside a UTF-8 sequence. */
function fold(line: string): string {
  const encoder = new TextEncoder();
  let out = '';
  let width = 0;
  for (const ch of line) {
    const size = encoder.encode(ch).length;
    if (width + size > 75) {
      out += '\r\n ';
      width = 1;
    }
    out += ch;
    width += size;
  }
  return out;
}

/** One VEVENT in a VCALENDAR; `uid` names the event for later copies. */
export function icsFile(b: CalendarBooking, uid: string, now = new Date()): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Outing//Outing widget//EN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${text(uid)}`,
    `DTSTAMP:${utcStamp(now)}`,
    `DTSTART:${utcStamp(b.startTime)}`,
    `DTEND:${utcStamp(b.endTime)}`,
    `SUMMARY:${text(b.experience)}`,
    ...(b.meetingPoint ? [`LOCATION:${text(b.meetingPoint)}`] : []),
    `DESCRIPTION:${text([b.bookingNumber, ...(b.notes ? ['', b.notes] : [])].join('\n'))}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
