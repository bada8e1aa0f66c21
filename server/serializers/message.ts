import type { MessageRow } from '../store/messages.js';
import type { ManagedBooking as ManagedView } from '../domain/self-service.js';
import type { BookingView } from '../store/bookings.js';
import type { OrganizationRow } from '../store/organizations.js';
import { serializePublicBooking } from './booking.js';
import { iso, isoOrNull } from './instant.js';
import type { ManagedBooking, Message } from '../../shared/index.js';

/** What every message record shows, whatever it is about. */
export function messageFields(row: MessageRow): Omit<Message, 'bookingId'> {
  return {
    id: row.id,
    kind: row.kind,
    to: row.to,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    nextAttemptAt: row.status === 'PENDING' ? isoOrNull(row.nextAttemptAt) : null,
    sentAt: isoOrNull(row.sentAt),
    createdAt: iso(row.createdAt),
  };
}

export function serializeMessage(row: MessageRow): Message {
  // Only a booking's messages are listed; an invite (no booking) never is.
  return { ...messageFields(row), bookingId: row.bookingId ?? '' };
}

/** What the manage page shows: the guest's own booking, what they may do, and whom to ask. */
export function serializeManagedBooking(m: ManagedView<BookingView, OrganizationRow>): ManagedBooking {
  return {
    // The guest's own phone, for them to check and change: on this shape alone, never on other public ones.
    booking: { ...serializePublicBooking(m.booking), guestPhone: m.booking.guestPhone },
    locale: m.booking.locale ?? 'en',
    timezone: m.timeZone,
    canCancel: m.rules.allowed,
    canReschedule: m.rules.allowed,
    canChangeParty: m.edits.party,
    canEditContact: m.edits.contact,
    cutoffAt: iso(m.rules.cutoffAt),
    reason: m.rules.reason,
    organization: {
      name: m.organization.name,
      email: m.organization.email,
      phone: m.organization.phone,
      brandColor: m.organization.brandColor,
      logoUrl: m.organization.logoUrl,
    },
    guestInfo: m.guestInfo,
  };
}
