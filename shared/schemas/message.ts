import { z } from 'zod';
import { DisplayName, Instant, InstantInput } from './common.js';
import { BookingCancel, Locale, PublicBooking, TicketsInput } from './booking.js';

/**
 * The e-mails Outing sends: to a booking's guest, notices of a booking to the organization's notice
 * addresses (OPERATOR_NOTICE), a new user's invitation (USER_INVITE, about no booking), and a gift
 * voucher's code to its recipient or buyer (GIFT_VOUCHER, about no booking), and a waitlist entry's
 * guest's (WAITLIST_JOINED, WAITLIST_OFFER, about the entry, no booking).
 */
export const MESSAGE_KINDS = [
  'BOOKING_CONFIRMED', 'BOOKING_CHANGED', 'BOOKING_CANCELLED', 'BOOKING_REMINDER', 'OPERATOR_NOTICE', 'USER_INVITE', 'GIFT_VOUCHER',
  'WAITLIST_JOINED', 'WAITLIST_OFFER',
] as const;
export const MessageKind = z.enum(MESSAGE_KINDS);
export type MessageKind = z.infer<typeof MessageKind>;

/** PENDING: waiting for its (next) attempt; SENT: the SMTP server took it; FAILED: refused for good; SKIPPED: no SMTP configured. */
export const MESSAGE_STATUSES = ['PENDING', 'SENT', 'FAILED', 'SKIPPED'] as const;
export const MessageStatus = z.enum(MESSAGE_STATUSES);
export type MessageStatus = z.infer<typeof MessageStatus>;

export const Message = z.object({
  id: z.string(),
  bookingId: z.string(),
  kind: MessageKind,
  to: z.string().meta({ format: 'email' }),
  status: MessageStatus,
  attempts: z.int(),
  lastError: z.string().nullable(),
  nextAttemptAt: Instant.nullable(),
  sentAt: Instant.nullable(),
  createdAt: Instant,
});
export type Message = z.infer<typeof Message>;

/** A GIFT_VOUCHER e-mail (its code to the recipient or buyer) and how its sending went: a message of a voucher, not of a booking. */
export const GiftVoucherMessage = Message.omit({ bookingId: true }).extend({ giftVoucherId: z.string() });
export type GiftVoucherMessage = z.infer<typeof GiftVoucherMessage>;

/** The booking as its own guest sees it: the public shape and the phone they gave (shown nowhere else in public). */
export const ManagedGuestBooking = PublicBooking.extend({ guestPhone: z.string().nullable() });
export type ManagedGuestBooking = z.infer<typeof ManagedGuestBooking>;

/** What the guest needs on the day, from the experience: where to meet, its map link, what to bring or know. */
export const GuestInfo = z.object({
  meetingPoint: z.string().nullable(),
  meetingPointUrl: z.string().nullable().describe('An https link to the meeting point (a map)'),
  guestInstructions: z.string().nullable(),
});
export type GuestInfo = z.infer<typeof GuestInfo>;

/** What a guest holding a manage link sees and may do. */
export const ManagedBooking = z.object({
  booking: ManagedGuestBooking,
  /** The guest's language (the page speaks it) and the experience's zone (its times are read there). */
  locale: Locale,
  timezone: z.string(),
  canCancel: z.boolean(),
  canReschedule: z.boolean(),
  canChangeParty: z.boolean().describe('Whether the guest may change the participants or tickets (the rules of canReschedule, and no online payment open)'),
  canEditContact: z.boolean().describe('Whether the guest may change their name and phone: self-service on, the booking CONFIRMED or PENDING, before its start'),
  /** The last moment the guest may cancel or change the booking themselves. */
  cutoffAt: Instant,
  /** Why the guest cannot change the booking themselves, when they cannot; null when they can. */
  reason: z.enum(['SELF_SERVICE_OFF', 'PAST_CUTOFF', 'NOT_ACTIVE']).nullable(),
  organization: z.object({
    name: z.string(),
    email: z.string().meta({ format: 'email' }),
    phone: z.string().nullable(),
    brandColor: z.string().nullable().describe('#rrggbb: the page\'s accent'),
    logoUrl: z.string().nullable().describe('https URL of the logo the page shows'),
  }),
  guestInfo: GuestInfo,
});
export type ManagedBooking = z.infer<typeof ManagedBooking>;

export const ManageCancel = BookingCancel;
export type ManageCancel = z.infer<typeof ManageCancel>;
export const ManageReschedule = z.strictObject({ startTime: InstantInput });
export type ManageReschedule = z.infer<typeof ManageReschedule>;

/** A guest's own change of their party or their contact details (POST /public/v1/manage/update). */
export const ManageUpdate = z
  .strictObject({
    participants: z.int().min(1).max(10_000).describe('For a booking without tickets'),
    tickets: TicketsInput.describe('For a booking with tickets: the new whole list; categories the booking has keep its unit prices'),
    customerName: DisplayName(200),
    customerPhone: z.string().max(40).nullable().describe('null clears it'),
  })
  .partial()
  .superRefine((u, ctx) => {
    if (Object.keys(u).length === 0) ctx.addIssue({ code: 'custom', path: [], message: 'Send at least one field to change' });
    if (u.tickets !== undefined && u.participants !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['participants'], message: 'With tickets, the participants follow from them: send tickets alone' });
    }
  });
export type ManageUpdate = z.infer<typeof ManageUpdate>;
