import { Refusal, invalid } from './refusal.js';
import { formatMoney } from './money.js';
import { MAX_AMOUNT_CENTS, type BookingStatus } from '../../shared/index.js';

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

/** A departure's capacity: the one the operator set on it, else the experience's maxParticipants. */
export const slotCapacity = (maxParticipants: number, slot: { capacityOverride: number | null } | undefined): number =>
  slot?.capacityOverride ?? maxParticipants;

/** Refuses new places in a departure the operator closed (its bookings stay, and may shrink or cancel). */
export function assertSlotOpen(slot: { closed: boolean } | undefined): void {
  if (slot?.closed) throw new Refusal('SLOT_UNAVAILABLE', 'This departure is closed: it takes no new bookings or places');
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

/**
 * Refuses a party of more people than the experience takes at all: every ticket counts, including
 * those that take no place (infants on a lap), so free tickets cannot grow a booking without end.
 * Held against the experience's `maxParticipants`, and only where a party is made or grows.
 */
export function assertParticipantsWithin(maxParticipants: number, participants: number, path: 'participants' | 'tickets'): void {
  if (participants > maxParticipants) {
    throw invalid(
      path,
      path === 'tickets'
        ? `At most ${maxParticipants} tickets per booking, those that take no place included (this experience's maxParticipants)`
        : `At most ${maxParticipants} participants per booking (this experience's maxParticipants)`,
    );
  }
}

/** Refuses a booking total above `MAX_AMOUNT_CENTS` (999,999.99), the largest one charge can be. */
export function assertTotalWithin(totalCents: number, currency: string, path: 'participants' | 'tickets' | 'extras'): void {
  if (totalCents > MAX_AMOUNT_CENTS) {
    throw invalid(path, `A booking may total at most ${formatMoney(MAX_AMOUNT_CENTS)} ${currency}; this one would be ${formatMoney(totalCents)} ${currency}`);
  }
}

export function overlapsAny(start: number, end: number, intervals: readonly { start: number; end: number }[]): boolean {
  return intervals.some((i) => i.start < end && i.end > start);
}

/** What a booking costs, in cents: its tickets' total, or its own unit price (as when booked) times its party. */
export const bookingTotalCents = (b: { unitPrice: number; participants: number; totalCents: number | null }): number =>
  b.totalCents ?? b.unitPrice * b.participants;

/** Places a booking occupies in its slot: its tickets' places, or its participants. */
export const placesOf = (b: { participants: number; places: number | null }): number => b.places ?? b.participants;
