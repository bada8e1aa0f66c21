// What a guest may do with their own booking through its manage link (docs/guest-emails.md).
import type { BookingStatus } from '../../shared/index.js';

export type SelfServiceBlock = 'SELF_SERVICE_OFF' | 'PAST_CUTOFF' | 'NOT_ACTIVE';

export interface SelfService {
  /** Cancelling and changing the time follow the same rule. */
  allowed: boolean;
  /** Why not, when not; null when allowed. */
  reason: SelfServiceBlock | null;
  /** The last instant a guest may act: the start minus the organization's cutoff. */
  cutoffAt: number;
}

/** A guest's booking as its manage link opens it; `Booking` and `Organization` are the store's rows. */
export interface ManagedBooking<Booking, Organization> {
  booking: Booking;
  organization: Organization;
  /** The experience's zone: the guest reads its times there. */
  timeZone: string;
  rules: SelfService;
  /** The experience's meeting point, its link and the guest instructions (null when not set). */
  guestInfo: { meetingPoint: string | null; meetingPointUrl: string | null; guestInstructions: string | null };
  /** What else the guest may change themselves: their party, and their name and phone. */
  edits: GuestEdits;
}

export interface GuestEdits {
  /** The participants or tickets: the rules of a new time, and no online payment open. */
  party: boolean;
  /** The name and phone: self-service on, the booking on, before its start (the cutoff does not apply). */
  contact: boolean;
}

const HOUR = 3_600_000;

/**
 * A guest may cancel or move a booking that is still on (CONFIRMED, or PENDING while its payment is
 * open) while the organization allows self-service and the cutoff has not passed.
 */
export function selfServiceOf(
  booking: { status: BookingStatus; slotStart: number },
  org: { guestSelfService: number | boolean; cancellationCutoffHours: number },
  now: number,
): SelfService {
  const cutoffAt = booking.slotStart - org.cancellationCutoffHours * HOUR;
  const reason: SelfServiceBlock | null =
    booking.status === 'CANCELLED' || now >= booking.slotStart
      ? 'NOT_ACTIVE'
      : !org.guestSelfService
        ? 'SELF_SERVICE_OFF'
        : now >= cutoffAt
          ? 'PAST_CUTOFF'
          : null;
  return { allowed: reason === null, reason, cutoffAt };
}

/** Whether a guest may move their booking to a slot starting at `start`: not inside the cutoff either. */
export function startsAfterCutoff(start: number, org: { cancellationCutoffHours: number }, now: number): boolean {
  return start - org.cancellationCutoffHours * HOUR > now;
}

/**
 * A booking still waiting for its online payment: a PENDING one holding its places for a checkout.
 * Its party stays as it is while that checkout is open, since the checkout charges that party.
 */
export function checkoutOpen(booking: { status: BookingStatus; holdExpiresAt: number | null; checkoutSessionId: string | null }): boolean {
  return booking.status === 'PENDING' && (booking.holdExpiresAt !== null || booking.checkoutSessionId !== null);
}

/** What a guest may change besides the time (see GuestEdits). */
export function guestEditsOf(
  booking: { status: BookingStatus; slotStart: number; holdExpiresAt: number | null; checkoutSessionId: string | null },
  org: { guestSelfService: number | boolean; cancellationCutoffHours: number },
  now: number,
): GuestEdits {
  const on = booking.status !== 'CANCELLED' && now < booking.slotStart && Boolean(org.guestSelfService);
  return { party: selfServiceOf(booking, org, now).allowed && !checkoutOpen(booking), contact: on };
}
