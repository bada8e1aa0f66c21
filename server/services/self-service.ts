// What a guest does through the manage link of their e-mails: see the booking, cancel it, or move
// it to another time, within the organization's rules (docs/guest-emails.md).
import { timingSafeEqual } from 'node:crypto';
import { Refusal, invalid, notFound } from '../domain/refusal.js';
import { guestActor } from '../domain/actor.js';
import { checkoutOpen, guestEditsOf, selfServiceOf, startsAfterCutoff, type ManagedBooking as ManagedView } from '../domain/self-service.js';
import { placesOf } from '../domain/bookings.js';
import type { ExperienceAvailability } from '../domain/availability.js';
import type { BookingView } from '../store/bookings.js';
import type { OrganizationRow } from '../store/organizations.js';
import type { ExperienceRow } from '../store/experiences.js';
import type { Store } from '../store/index.js';
import { availabilityFor, zoneOf } from './availability.js';
import { cancelBooking, updateBooking } from './bookings.js';
import { manageTokenHash } from './messages.js';
import type { ManageUpdate } from '../../shared/index.js';

export type ManagedBooking = ManagedView<BookingView, OrganizationRow>;

/** 32 random bytes in base64url: 43 characters. Anything else is no token of ours. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The booking a manage token opens; an unknown, malformed or dead token is 404 like any other. */
async function bookingOfToken(store: Store, token: string | undefined): Promise<BookingView> {
  if (token === undefined || !TOKEN.test(token)) throw notFound('Booking');
  const hash = manageTokenHash(token);
  const found = await store.messages.findManageToken(hash);
  // The row was found by its hash; comparing again in constant time costs nothing and says so.
  if (!found || !timingSafeEqual(Buffer.from(found.tokenHash), Buffer.from(hash))) throw notFound('Booking');
  const booking = await store.bookings.getBooking(found.orgId, found.bookingId);
  if (!booking) throw notFound('Booking');
  return booking;
}

/** What the guest needs on the day, as the experience says it now. */
export function guestInfoOf(exp: ExperienceRow): ManagedBooking['guestInfo'] {
  return { meetingPoint: exp.meetingPoint ?? null, meetingPointUrl: exp.meetingPointUrl ?? null, guestInstructions: exp.guestInstructions ?? null };
}

async function managed(store: Store, booking: BookingView, now: number): Promise<ManagedBooking> {
  const organization = await store.organizations.getOrganization(booking.orgId);
  const exp = await store.experiences.getExperience(booking.orgId, booking.experienceId);
  if (!organization || !exp) throw notFound('Booking');
  return {
    booking,
    organization,
    timeZone: zoneOf(exp, organization.timezone),
    rules: selfServiceOf(booking, organization, now),
    edits: guestEditsOf(booking, organization, now),
    guestInfo: guestInfoOf(exp),
  };
}

export async function getManagedBooking(store: Store, token: string | undefined, now: number): Promise<ManagedBooking> {
  return await managed(store, await bookingOfToken(store, token), now);
}

const WHY_NOT = {
  SELF_SERVICE_OFF: 'This organization does not let guests change bookings online; please contact them',
  PAST_CUTOFF: 'It is too late to change this booking online; please contact the organization',
  NOT_ACTIVE: 'This booking is cancelled or has already started, so it cannot be changed',
} as const;

function assertAllowed(m: ManagedBooking): void {
  if (m.rules.reason !== null) {
    throw new Refusal('CHANGE_NOT_ALLOWED', `${WHY_NOT[m.rules.reason]} (the online cutoff was ${new Date(m.rules.cutoffAt).toISOString()})`);
  }
}

export async function cancelAsGuest(store: Store, token: string | undefined, reason: string | undefined, now: number, ip: string | null): Promise<ManagedBooking> {
  return await store.transaction(async () => {
    const m = await getManagedBooking(store, token, now);
    assertAllowed(m);
    const booking = await cancelBooking(store, m.booking.orgId, m.booking.id, reason, now, guestActor(m.booking.guestName, ip));
    return await managed(store, booking, now);
  });
}

export async function rescheduleAsGuest(store: Store, token: string | undefined, startTime: string, now: number, ip: string | null): Promise<ManagedBooking> {
  return await store.transaction(async () => {
    const m = await getManagedBooking(store, token, now);
    assertAllowed(m);
    const start = Date.parse(startTime);
    if (start === m.booking.slotStart) throw invalid('startTime', 'The booking already starts at this time');
    // The new time must leave the guest the same freedom: a move into the cutoff is the operator's to make.
    if (!startsAfterCutoff(start, m.organization, now)) {
      throw new Refusal('CHANGE_NOT_ALLOWED', `Online, a booking can only move to a time more than ${m.organization.cancellationCutoffHours} hours ahead; please contact the organization`);
    }
    const booking = await updateBooking(store, m.booking.orgId, m.booking.id, { startTime }, now, guestActor(m.booking.guestName, ip));
    return await managed(store, booking, now);
  });
}

/**
 * A guest's own change of their party (participants or tickets) or of their name and phone. The
 * change itself is the operator's PATCH (updateBooking): the same checks of places, party limits and
 * prices, the same event, guest e-mail and activity entry, with the guest as the actor. What the
 * guest may touch is decided first: the party under the rules of a new time and never while an
 * online payment is open, the name and phone until the start.
 */
export async function updateAsGuest(store: Store, token: string | undefined, change: ManageUpdate, now: number, ip: string | null): Promise<ManagedBooking> {
  return await store.transaction(async () => {
    const m = await getManagedBooking(store, token, now);
    const party = change.participants !== undefined || change.tickets !== undefined;
    const contact = change.customerName !== undefined || change.customerPhone !== undefined;
    if (party && !m.edits.party) {
      if (m.rules.reason === null && checkoutOpen(m.booking)) {
        throw new Refusal('CHANGE_NOT_ALLOWED', 'This booking is waiting for its online payment: its party cannot change until it is paid');
      }
      assertAllowed(m);
    }
    if (contact && !m.edits.contact) {
      throw new Refusal(
        'CHANGE_NOT_ALLOWED',
        m.rules.reason === 'SELF_SERVICE_OFF' ? WHY_NOT.SELF_SERVICE_OFF : 'This booking is cancelled or has already started, so its details cannot be changed',
      );
    }
    const booking = await updateBooking(
      store,
      m.booking.orgId,
      m.booking.id,
      { participants: change.participants, tickets: change.tickets, customerName: change.customerName, customerPhone: change.customerPhone },
      now,
      guestActor(m.booking.guestName, ip),
      // A smaller party lowers its per-person extras with it: the guest changes the party only.
      { growOnlyWhereBookable: true, lowerPersonExtras: true },
    );
    return await managed(store, booking, now);
  });
}

/**
 * The times a guest may move their booking to: the experience's availability counted for the
 * booking's places, with the slots inside the cutoff marked unavailable (they are not offered).
 */
export async function availabilityForGuest(
  store: Store,
  token: string | undefined,
  range: { startDate?: string | undefined; endDate?: string | undefined },
  now: number,
): Promise<ExperienceAvailability> {
  const m = await getManagedBooking(store, token, now);
  const places = placesOf(m.booking);
  const answer = await availabilityFor(store, m.booking.orgId, { experienceId: m.booking.experienceId, startDate: range.startDate, endDate: range.endDate, participants: places }, now, { activeOnly: true });
  const ownSlot = m.booking.slotStart;
  return {
    ...answer,
    slots: answer.slots.filter((slot) => slot.start !== ownSlot && startsAfterCutoff(slot.start, m.organization, now)),
  };
}
