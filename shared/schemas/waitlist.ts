import { z } from 'zod';
import { EmailString, Instant, PageQuery } from './common.js';
import { BookingExperienceRef, BookingTimeSlotRef, DateOrInstant, Locale, PublicBooking, Ticket, bookingCreateFields, participantsOrTickets } from './booking.js';

/**
 * A waitlist entry's states. WAITING: in the slot's queue; OFFERED: its places are held for it until
 * `offerExpiresAt`; BOOKED, EXPIRED and CANCELLED are final.
 */
export const WAITLIST_STATUSES = ['WAITING', 'OFFERED', 'BOOKED', 'EXPIRED', 'CANCELLED'] as const;
export const WaitlistStatus = z.enum(WAITLIST_STATUSES);
export type WaitlistStatus = z.infer<typeof WaitlistStatus>;

/** A booking's own fields that a join takes, checked as a booking's. */
const joinFields = {
  experienceId: bookingCreateFields.experienceId,
  startTime: bookingCreateFields.startTime,
  participants: bookingCreateFields.participants,
  tickets: bookingCreateFields.tickets,
  answers: bookingCreateFields.answers,
  customerName: bookingCreateFields.customerName,
  customerEmail: bookingCreateFields.customerEmail,
  customerPhone: bookingCreateFields.customerPhone,
  locale: bookingCreateFields.locale,
};

/** `POST /v1/waitlist`: put a guest on a full slot's waitlist. */
export const WaitlistJoin = z.strictObject(joinFields).superRefine(participantsOrTickets);
export type WaitlistJoin = z.infer<typeof WaitlistJoin>;

/** `POST /public/v1/waitlist`: the same, from the widget, with the honeypot. */
export const PublicWaitlistJoin = z
  .strictObject({ ...joinFields, website: z.string().max(500).optional().describe('Honeypot: must be absent or empty') })
  .superRefine(participantsOrTickets);
export type PublicWaitlistJoin = z.infer<typeof PublicWaitlistJoin>;

export const WaitlistEntry = z.object({
  id: z.string(),
  status: WaitlistStatus,
  position: z.int().nullable().describe('1-based rank among the slot’s WAITING entries, oldest first; null unless WAITING'),
  experience: BookingExperienceRef,
  timeSlot: BookingTimeSlotRef,
  places: z.int().describe('The places the party takes (tickets that take no place are not counted)'),
  totalParticipants: z.int().describe('Every ticket, whether or not it takes a place'),
  tickets: z.array(Ticket).describe('[] for an experience without price categories'),
  guestName: z.string(),
  guestEmail: EmailString,
  guestPhone: z.string().nullable(),
  locale: Locale,
  offeredAt: Instant.nullable().describe('When places were offered; null before'),
  offerExpiresAt: Instant.nullable().describe('Until when the offer holds its places; null before an offer'),
  bookingId: z.string().nullable().describe('The booking the offer became; null until BOOKED'),
  createdAt: Instant,
});
export type WaitlistEntry = z.infer<typeof WaitlistEntry>;

export const WaitlistListQuery = z.strictObject({
  experienceId: z.string().min(1).max(100).optional(),
  status: WaitlistStatus.optional(),
  startDate: DateOrInstant.optional().describe("Date (org's time zone) or instant, inclusive, on the slot start"),
  endDate: DateOrInstant.optional().describe("Date (org's time zone) or instant, inclusive, on the slot start"),
  ...PageQuery,
});
export type WaitlistListQuery = z.infer<typeof WaitlistListQuery>;

/**
 * `GET /public/v1/waitlist/offer` (with `X-Waitlist-Token`): the entry, what booking it costs now (a BOOKED one: what its
 * booking costs), who to ask.
 */
export const WaitlistOffer = z.object({
  entry: WaitlistEntry,
  total: z.string().describe('What the booking costs now, a money string'),
  currency: z.string(),
  organization: z.object({ name: z.string(), email: EmailString, phone: z.string().nullable() }),
  booking: PublicBooking.optional().describe('Once the entry is BOOKED: the booking the offer became (its number, status and checkoutUrl while a payment is due)'),
});
export type WaitlistOffer = z.infer<typeof WaitlistOffer>;

/** `POST /public/v1/waitlist/offer/accept`: the offer and the booking it became. */
export const WaitlistAccepted = WaitlistOffer.extend({ booking: PublicBooking });
export type WaitlistAccepted = z.infer<typeof WaitlistAccepted>;
