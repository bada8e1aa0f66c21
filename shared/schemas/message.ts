import { z } from 'zod';
import { Instant, InstantInput } from './common.js';
import { BookingCancel, Locale, PublicBooking } from './booking.js';

/**
 * The e-mails Outing sends: to a booking's guest, notices of a booking to the organization's notice
 * addresses (OPERATOR_NOTICE), and a new user's invitation (USER_INVITE, about no booking).
 */
export const MESSAGE_KINDS = ['BOOKING_CONFIRMED', 'BOOKING_CHANGED', 'BOOKING_CANCELLED', 'BOOKING_REMINDER', 'OPERATOR_NOTICE', 'USER_INVITE'] as const;
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

/** What a guest holding a manage link sees and may do. */
export const ManagedBooking = z.object({
  booking: PublicBooking,
  /** The guest's language (the page speaks it) and the experience's zone (its times are read there). */
  locale: Locale,
  timezone: z.string(),
  canCancel: z.boolean(),
  canReschedule: z.boolean(),
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
});
export type ManagedBooking = z.infer<typeof ManagedBooking>;

export const ManageCancel = BookingCancel;
export type ManageCancel = z.infer<typeof ManageCancel>;
export const ManageReschedule = z.strictObject({ startTime: InstantInput });
export type ManageReschedule = z.infer<typeof ManageReschedule>;
