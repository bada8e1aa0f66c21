// The guest's side of a waitlist offer (§20): the offer's token, seeing the offer, booking its places
// or letting them go. Every change of the entry goes through the store's conditional moveEntry, so a
// guest who accepts while the sweeper lapses the same offer (or a second tab declines it) cannot both
// succeed: the loser reads the entry again and is answered what became of it.
import { createHash, randomBytes } from 'node:crypto';
import { Refusal } from '../domain/refusal.js';
import { SYSTEM, guestActor, type Actor } from '../domain/actor.js';
import type { GuestOfferView } from '../domain/waitlist-offer.js';
import { bookingTotalCents } from '../domain/bookings.js';
import { answersOf } from '../domain/booking-form.js';
import { storedTicketsOf, ticketsLine } from '../domain/tickets.js';
import type { BookingView } from '../store/bookings.js';
import type { ExperienceRow } from '../store/experiences.js';
import type { OrganizationRow } from '../store/organizations.js';
import type { WaitlistRow } from '../store/waitlist.js';
import type { Store } from '../store/index.js';
import { recordActivity } from './activity.js';
import { createBooking, pricedParts, type BookingParts } from './bookings.js';
import { openCheckout, onlinePaymentDue, type OnlinePayments } from './online-checkout.js';
import { cancelUnstartedHold } from './payments.js';
import { offerFreedPlaces } from './waitlist.js';
import type { BookingInput, Locale } from '../../shared/index.js';

/** A token is 32 random bytes in base64url (43 characters); anything else is no token at all. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Only a hash of an offer's token is kept (SHA-256, hex): the e-mail holds the token itself. */
export function waitlistTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * A new token for an OFFERED entry, minted when its offer e-mail is composed (each attempt its own,
 * the last one sent opens the entry); undefined once the entry is no longer OFFERED.
 */
export async function issueWaitlistToken(store: Store, entryId: string, now: number): Promise<string | undefined> {
  const token = randomBytes(32).toString('base64url');
  return (await store.waitlist.setOfferTokenHash(entryId, waitlistTokenHash(token), now)) ? token : undefined;
}

/** What the guest's offer page shows (domain/waitlist-offer.ts) over the store's rows. */
export type GuestOffer = GuestOfferView<WaitlistRow, BookingView, Pick<OrganizationRow, 'name' | 'email' | 'phone'>>;

/** What a guest's acceptance made: the offer, BOOKED, and its booking. */
export type AcceptedOffer = GuestOffer & { booking: BookingView };

/** The entry's party as a booking asks for it: its tickets (at today's prices), else its participants. */
export function partsOf(entry: WaitlistRow): BookingParts {
  const tickets = storedTicketsOf(entry.tickets);
  return tickets.length > 0
    ? { tickets: tickets.map((t) => ({ categoryId: t.categoryId, quantity: t.quantity })) }
    : { participants: entry.totalParticipants };
}

/**
 * "wl_… (2 places, Sunset walk, 2027-07-01T10:00:00.000Z)": an entry as the activity log names it (no
 * personal data in the summary: the log outlives an erasure of the guest).
 */
export function describeEntry(entry: WaitlistRow, experienceName: string): string {
  const tickets = storedTicketsOf(entry.tickets);
  const party = tickets.length > 0 ? ticketsLine(tickets) : `${entry.places} ${entry.places === 1 ? 'place' : 'places'}`;
  return `${entry.id} (${party}, ${experienceName}, ${new Date(entry.slotStart).toISOString()})`;
}

/**
 * What booking the entry's party costs now: its tickets at today's prices, else the experience's
 * price per participant. A party the experience no longer sells (a category gone) is priced as it
 * was asked for.
 */
export async function offerTotalCents(store: Store, org: OrganizationRow, exp: ExperienceRow, entry: WaitlistRow, now: number): Promise<number> {
  try {
    return (await pricedParts(store, org, exp, partsOf(entry), now, false)).lines.total;
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    const tickets = storedTicketsOf(entry.tickets);
    return tickets.length > 0 ? tickets.reduce((sum, t) => sum + t.quantity * t.unitPrice, 0) : exp.price * entry.totalParticipants;
  }
}

/** The entry a token names; a missing, malformed or unknown token is a 404, whatever it looks like. */
async function entryOfToken(store: Store, token: string | undefined): Promise<WaitlistRow> {
  const entry = token !== undefined && TOKEN.test(token) ? await store.waitlist.getEntryByTokenHash(waitlistTokenHash(token)) : undefined;
  if (!entry) throw new Refusal('NOT_FOUND', 'This offer link is not valid: check that it was copied whole from the e-mail');
  return entry;
}

/**
 * Ends an offer whose time is up: EXPIRED, its places given back to the slot and offered on, in one
 * transaction. False when another (the sweeper, another request) moved the entry first.
 */
async function lapseOffer(store: Store, entry: WaitlistRow, experienceName: string, now: number): Promise<boolean> {
  return await store.transaction(async () => {
    if (!(await store.waitlist.moveEntry(entry.id, ['OFFERED'], 'EXPIRED', { updatedAt: now }))) return false;
    await store.bookings.addBookedPlaces(entry.experienceId, entry.slotStart, -entry.places);
    await recordActivity(store, entry.orgId, SYSTEM, {
      action: 'waitlist.expire', targetType: 'waitlist_entry', targetId: entry.id, summary: `The offer lapsed for ${describeEntry(entry, experienceName)}`,
    }, now);
    await offerFreedPlaces(store, entry.orgId, entry.experienceId, entry.slotStart, now);
    return true;
  });
}

/** The entry of a token as it stands now: an offer past its time is made EXPIRED first (the token is being used). */
async function currentEntry(store: Store, token: string | undefined, now: number): Promise<{ entry: WaitlistRow; exp: ExperienceRow; org: OrganizationRow }> {
  let entry = await entryOfToken(store, token);
  const [org, exp] = await Promise.all([store.organizations.getOrganization(entry.orgId), store.experiences.getExperience(entry.orgId, entry.experienceId)]);
  if (!org || !exp) throw new Refusal('NOT_FOUND', 'This offer no longer exists');
  if (entry.status === 'OFFERED' && entry.offerExpiresAt !== null && entry.offerExpiresAt <= now) {
    await lapseOffer(store, entry, exp.name, now);
    entry = (await store.waitlist.getEntry(entry.orgId, entry.id)) ?? entry;
  }
  return { entry, exp, org };
}

/** Refuses a change of an entry that is no longer OFFERED, in the words of what became of it. */
function refuseUnlessOffered(entry: WaitlistRow): void {
  if (entry.status === 'OFFERED') return;
  if (entry.status === 'EXPIRED') throw new Refusal('OFFER_EXPIRED', 'This offer has expired: its places were offered to the next guest waiting');
  if (entry.status === 'BOOKED') throw new Refusal('INVALID_STATUS_TRANSITION', 'This offer was already accepted: the places are booked');
  if (entry.status === 'CANCELLED') throw new Refusal('INVALID_STATUS_TRANSITION', 'This waitlist entry was cancelled: there is no offer to answer');
  throw new Refusal('INVALID_STATUS_TRANSITION', 'No places are offered to this entry yet: it is still waiting');
}

async function offerView(store: Store, entry: WaitlistRow, exp: ExperienceRow, org: OrganizationRow, now: number): Promise<GuestOffer> {
  const booking = entry.bookingId === null ? undefined : await store.bookings.getBooking(entry.orgId, entry.bookingId);
  return {
    entry,
    experienceName: exp.name,
    totalCents: booking ? bookingTotalCents(booking) : await offerTotalCents(store, org, exp, entry, now),
    currency: org.currency,
    organization: { name: org.name, email: org.email, phone: org.phone },
    booking,
  };
}

/** `GET /public/v1/waitlist/offer`: the entry of the token whatever its status (an offer past its time becomes EXPIRED). */
export async function getOfferAsGuest(store: Store, token: string | undefined, now: number): Promise<GuestOffer> {
  const { entry, exp, org } = await currentEntry(store, token, now);
  return await offerView(store, entry, exp, org, now);
}

/** The entry moved meanwhile (the sweeper, another tab): read again and answer what it became. */
class MovedMeanwhile extends Error {}

/** How an accepted offer pays when online payment is due: the provider, and the page the guest returns to. */
export interface OfferPayment {
  online: OnlinePayments | undefined;
  /** The page the checkout leads back to (the manage page, with the offer's link). */
  returnPage: (token: string) => string;
}

/** The booking an accepted offer makes: the entry's party, guest, language and answers, as the widget books. */
function bookingInputOf(entry: WaitlistRow): BookingInput {
  return {
    experienceId: entry.experienceId,
    startTime: new Date(entry.slotStart).toISOString(),
    ...partsOf(entry),
    answers: answersOf(entry.answers).map((a) => ({ questionId: a.questionId, value: a.value })),
    customerName: entry.guestName,
    customerEmail: entry.guestEmail,
    ...(entry.guestPhone === null ? {} : { customerPhone: entry.guestPhone }),
    locale: entry.locale as Locale,
  };
}

/**
 * `POST /public/v1/waitlist/offer/accept`: in one transaction the entry becomes BOOKED, its held places
 * go back to the slot and the booking takes them again under the same lock (nobody can slip in
 * between); a refused booking leaves the offer as it was. With online payment due the booking is a
 * PENDING hold and its checkout is opened once that is committed; a checkout that cannot be opened
 * puts everything back: the hold cancelled, the entry OFFERED with its places again.
 */
export async function acceptOffer(store: Store, token: string | undefined, now: number, ip: string | null, payment: OfferPayment): Promise<AcceptedOffer> {
  for (let tries = 1; ; tries++) {
    const { entry, exp, org } = await currentEntry(store, token, now);
    refuseUnlessOffered(entry);
    const actor = guestActor(entry.guestName, ip);
    const online = onlinePaymentDue(org, exp, payment.online) ? payment.online : undefined;
    let booking: BookingView;
    try {
      booking = await store.transaction(async () => {
        if (!(await store.waitlist.moveEntry(entry.id, ['OFFERED'], 'BOOKED', { updatedAt: now }))) throw new MovedMeanwhile();
        await store.bookings.addBookedPlaces(entry.experienceId, entry.slotStart, -entry.places);
        const made = await createBooking(store, entry.orgId, bookingInputOf(entry), {
          source: 'WIDGET', actor, ...(online ? { holdExpiresAt: now + online.holdMinutes * 60_000 } : {}),
        }, now);
        await store.waitlist.moveEntry(entry.id, ['BOOKED'], 'BOOKED', { bookingId: made.id, updatedAt: now });
        await recordActivity(store, entry.orgId, actor, {
          action: 'waitlist.accept', targetType: 'waitlist_entry', targetId: entry.id,
          summary: `Accepted the offer of ${describeEntry(entry, exp.name)}: ${made.bookingNumber}`,
        }, now);
        return made;
      });
    } catch (err) {
      if (!(err instanceof MovedMeanwhile)) throw err;
      if (tries < 3) continue;
      throw new Refusal('CONFLICT', 'This offer changed meanwhile; please try again');
    }
    if (online && booking.status === 'PENDING') {
      booking = await openCheckout(store, online, booking, payment.returnPage(token ?? ''), now, async () => await reopenOffer(store, entry, booking, now));
    }
    const booked = { ...entry, status: 'BOOKED' as const, bookingId: booking.id, updatedAt: now };
    return { ...(await offerView(store, booked, exp, org, now)), booking };
  }
}

/** A checkout that could not be opened: the hold cancelled and the offer standing again, its places held for it. */
async function reopenOffer(store: Store, entry: WaitlistRow, held: BookingView, now: number): Promise<void> {
  await store.transaction(async () => {
    // The offer takes its places back before the hold gives its own up, so nothing is free in between to offer on.
    if (await store.waitlist.moveEntry(entry.id, ['BOOKED'], 'OFFERED', { bookingId: null, updatedAt: now })) {
      await store.bookings.addBookedPlaces(entry.experienceId, entry.slotStart, entry.places);
    }
    await cancelUnstartedHold(store, held, now);
  });
}

/**
 * `POST /public/v1/waitlist/offer/decline`: the entry CANCELLED and its places offered on to the next
 * guest waiting, in one transaction.
 */
export async function declineOffer(store: Store, token: string | undefined, now: number, ip: string | null): Promise<GuestOffer> {
  for (let tries = 1; ; tries++) {
    const { entry, exp, org } = await currentEntry(store, token, now);
    refuseUnlessOffered(entry);
    const actor: Actor = guestActor(entry.guestName, ip);
    const declined = await store.transaction(async () => {
      if (!(await store.waitlist.moveEntry(entry.id, ['OFFERED'], 'CANCELLED', { updatedAt: now }))) return false;
      await store.bookings.addBookedPlaces(entry.experienceId, entry.slotStart, -entry.places);
      await recordActivity(store, entry.orgId, actor, {
        action: 'waitlist.decline', targetType: 'waitlist_entry', targetId: entry.id, summary: `Declined the offer of ${describeEntry(entry, exp.name)}`,
      }, now);
      await offerFreedPlaces(store, entry.orgId, entry.experienceId, entry.slotStart, now);
      return true;
    });
    if (declined) return await offerView(store, { ...entry, status: 'CANCELLED', updatedAt: now }, exp, org, now);
    if (tries >= 3) throw new Refusal('CONFLICT', 'This offer changed meanwhile; please try again');
  }
}
