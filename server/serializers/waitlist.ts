import type { WaitlistRow } from '../store/waitlist.js';
import { ticketsOf } from '../domain/tickets.js';
import { serializeTimeSlot } from './booking.js';
import { iso, isoOrNull } from './instant.js';
import type { MessageRow } from '../store/messages.js';
import { messageFields } from './message.js';
import type { Locale, WaitlistEntry, WaitlistMessage } from '../../shared/index.js';

/**
 * A waitlist entry's record. `position` is the entry's rank among its slot's WAITING entries (the
 * store's `waitingPosition`), given only for a WAITING entry; null otherwise.
 */
export function serializeWaitlistEntry(row: WaitlistRow, experienceName: string, position: number | null): WaitlistEntry {
  return {
    id: row.id,
    status: row.status,
    position: row.status === 'WAITING' ? position : null,
    experience: { id: row.experienceId, title: experienceName },
    timeSlot: serializeTimeSlot(row),
    places: row.places,
    totalParticipants: row.totalParticipants,
    tickets: ticketsOf(row.tickets === '[]' ? null : row.tickets),
    guestName: row.guestName,
    guestEmail: row.guestEmail,
    guestPhone: row.guestPhone,
    locale: row.locale as Locale,
    offeredAt: isoOrNull(row.offeredAt),
    offerExpiresAt: isoOrNull(row.offerExpiresAt),
    bookingId: row.bookingId,
    createdAt: iso(row.createdAt),
  };
}

/** A waitlist entry's e-mail (WAITLIST_JOINED, WAITLIST_OFFER) and how its sending went. */
export function serializeWaitlistMessage(row: MessageRow): WaitlistMessage {
  return { ...messageFields(row), waitlistEntryId: row.waitlistEntryId ?? '' };
}
