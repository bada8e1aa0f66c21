import { bookingTotalCents } from '../domain/bookings.js';
import { formatMoney } from '../domain/money.js';
import { slotId } from '../domain/slots.js';
import { MINUTE_MS, zoneOffsetMs } from '../domain/time.js';
import type { ManifestBookingRow } from '../store/manifest.js';
import type { Manifest as DayManifest } from '../domain/manifest.js';
import { iso, isoOrNull } from './instant.js';
import { ticketsLine, ticketsOf } from '../domain/tickets.js';
import { answersLine, answersOf, bookingExtrasOf, extrasLine } from '../domain/booking-form.js';
import type { Manifest, ManifestBooking } from '../../shared/index.js';

type ManifestModel = DayManifest<ManifestBookingRow>;

export function serializeManifestBooking(b: ManifestBookingRow): ManifestBooking {
  return {
    id: b.id,
    bookingNumber: b.bookingNumber,
    status: b.status,
    guestName: b.guestName,
    guestEmail: b.guestEmail,
    guestPhone: b.guestPhone,
    totalParticipants: b.participants,
    tickets: ticketsOf(b.tickets),
    extras: bookingExtrasOf(b.extras),
    answers: answersOf(b.answers),
    total: formatMoney(bookingTotalCents(b)),
    paid: formatMoney(b.paidCents),
    currency: b.currency,
    checkedInAt: isoOrNull(b.checkedInAt),
    metadata: JSON.parse(b.metadata) as Record<string, string>,
    internalNote: b.internalNote,
  };
}

export function serializeManifest(m: ManifestModel): Manifest {
  return {
    date: m.date,
    timezone: m.timezone,
    slots: m.slots.map((s) => ({
      experience: { id: s.experience.id, title: s.experience.name },
      timeSlot: { id: slotId(s.experience.id, s.start), startTime: iso(s.start), endTime: iso(s.end) },
      capacity: s.capacity,
      booked: s.booked,
      remaining: Math.max(0, s.capacity - s.booked),
      closed: s.closed,
      note: s.note,
      waitlist: { waiting: s.waitlist.waiting, offered: s.waitlist.offered },
      bookings: s.bookings.map(serializeManifestBooking),
    })),
  };
}

export const MANIFEST_CSV_HEADER = [
  'start', 'experience', 'bookingNumber', 'status', 'guestName', 'guestEmail', 'guestPhone', 'participants', 'tickets',
  'total', 'paid', 'currency', 'checkedIn', 'note', 'extras', 'answers',
] as const;

/** Local HH:MM of an instant in a zone. */
function localTime(instant: number, zone: string): string {
  const minutes = Math.floor((instant + zoneOffsetMs(instant, zone)) / MINUTE_MS);
  const ofDay = ((minutes % 1440) + 1440) % 1440;
  const hh = Math.floor(ofDay / 60);
  const mm = ofDay % 60;
  return `${hh < 10 ? '0' : ''}${hh}:${mm < 10 ? '0' : ''}${mm}`;
}

/** The manifest as rows of cells, the header first: one row per booking, empty slots left out. */
export function manifestCsvRows(m: ManifestModel): string[][] {
  const rows: string[][] = [[...MANIFEST_CSV_HEADER]];
  for (const slot of m.slots) {
    const start = localTime(slot.start, slot.experience.zone);
    for (const b of slot.bookings) {
      rows.push([
        start,
        slot.experience.name,
        b.bookingNumber,
        b.status,
        // A reseller's booking may come without a name or an address: empty cells.
        b.guestName ?? '',
        b.guestEmail ?? '',
        b.guestPhone ?? '',
        String(b.participants),
        ticketsLine(ticketsOf(b.tickets), ' ', '; '),
        formatMoney(bookingTotalCents(b)),
        formatMoney(b.paidCents),
        b.currency,
        b.checkedInAt === null ? 'no' : 'yes',
        b.internalNote ?? '',
        extrasLine(bookingExtrasOf(b.extras), '; '),
        answersLine(answersOf(b.answers)),
      ]);
    }
  }
  return rows;
}

/** `manifest-YYYY-MM-DD.csv`: the date is a checked calendar date, so nothing in it needs escaping. */
export const manifestCsvFilename = (m: ManifestModel): string => `manifest-${m.date}.csv`;
