import { Refusal } from './refusal.js';
import type { BookingStatus } from '../../shared/index.js';

/** The status moves of PATCH /v1/bookings/{id}; every other change of status is refused. */
const ALLOWED_MOVES: Record<BookingStatus, readonly BookingStatus[]> = {
  PENDING: ['CONFIRMED', 'CANCELLED'],
  CONFIRMED: ['CANCELLED'],
  CANCELLED: [],
};

export function assertStatusMove(from: BookingStatus, to: BookingStatus): void {
  if (from === to) return;
  if (!ALLOWED_MOVES[from].includes(to)) {
    throw new Refusal('INVALID_STATUS_TRANSITION', `A ${from} booking cannot become ${to}`);
  }
}

/** Whether a booking in this state holds places in its slot. */
export const holdsPlaces = (status: BookingStatus): boolean => status !== 'CANCELLED';

export function remainingPlaces(capacity: number, booked: number): number {
  return Math.max(0, capacity - booked);
}

/** Refuses a party larger than the places left, telling how many remain in `details`. */
export function assertPlacesFor(places: number, capacity: number, booked: number, path: 'participants' | 'tickets' = 'participants'): void {
  const remaining = remainingPlaces(capacity, booked);
  if (places > remaining) {
    throw new Refusal('CAPACITY_EXCEEDED',
      remaining === 0 ? 'This time slot is full' : `Only ${remaining} place${remaining === 1 ? '' : 's'} left in this time slot`,
      [{ path, message: `${remaining} remaining` }],
    );
  }
}

/** The largest party one booking may have: unset follows the capacity. */
export const maxPartySize = (e: { maxPerBooking: number | null; maxParticipants: number }): number =>
  e.maxPerBooking ?? e.maxParticipants;

export function overlapsAny(start: number, end: number, intervals: readonly { start: number; end: number }[]): boolean {
  return intervals.some((i) => i.start < end && i.end > start);
}

/** What a booking costs, in cents: its tickets' total, or its own unit price (as when booked) times its party. */
export const bookingTotalCents = (b: { unitPrice: number; participants: number; totalCents: number | null }): number =>
  b.totalCents ?? b.unitPrice * b.participants;

/** Places a booking occupies in its slot: its tickets' places, or its participants. */
export const placesOf = (b: { participants: number; places: number | null }): number => b.places ?? b.participants;
