import { z } from 'zod';
import { Email, EmailString, Instant, InstantInput, LocalDate, NonBlank, PageQuery, SearchTerm } from './common.js';

/** Booking states. The contract spells the state CANCELLED and the event BOOKING_CANCELED. */
export const BOOKING_STATUSES = ['CONFIRMED', 'PENDING', 'CANCELLED'] as const;
export const BookingStatus = z.enum(BOOKING_STATUSES);
export type BookingStatus = z.infer<typeof BookingStatus>;
export const BOOKING_SOURCES = ['API', 'WIDGET'] as const;

/**
 * Keys that name parts of every JavaScript object. JSON.parse makes `__proto__` an own key, but
 * zod's record skips it (so that it cannot replace the result's prototype): without this check it
 * would vanish and the request still succeed. The three are refused by name instead.
 */
const RESERVED_METADATA_KEYS = ['__proto__', 'constructor', 'prototype'];

export const Metadata = z.preprocess(
  (value, ctx) => {
    if (value !== null && typeof value === 'object') {
      for (const key of RESERVED_METADATA_KEYS) {
        if (Object.hasOwn(value, key)) ctx.issues.push({ code: 'custom', path: [key], message: `"${key}" is a reserved key`, input: value });
      }
    }
    return value;
  },
  z
    .record(z.string().min(1).max(40), z.string().max(500))
    .refine((m) => Object.keys(m).length <= 20, { message: 'At most 20 metadata keys' })
    .describe('Up to 20 string values; keys ≤ 40 chars, values ≤ 500 chars'),
);
export type Metadata = z.infer<typeof Metadata>;

const guestFields = {
  customerName: NonBlank(200),
  customerEmail: Email,
  customerPhone: z.string().max(40).nullable(),
};

export const BookingCreate = z.strictObject({
  experienceId: z.string().min(1).max(100),
  startTime: InstantInput,
  participants: z.int().min(1).max(10_000),
  customerName: guestFields.customerName,
  customerEmail: guestFields.customerEmail,
  customerPhone: guestFields.customerPhone.optional(),
  metadata: Metadata.optional(),
});
export type BookingCreate = z.infer<typeof BookingCreate>;

/** `/public/v1` bookings: no metadata, plus the `website` honeypot that must stay empty. */
export const PublicBookingCreate = BookingCreate.omit({ metadata: true }).extend({
  website: z.string().max(500).optional().describe('Honeypot: must be absent or empty'),
});
export type PublicBookingCreate = z.infer<typeof PublicBookingCreate>;

/** Record field names accepted as aliases of the request names in PATCH. */
export const BOOKING_PATCH_ALIASES = {
  participants: 'totalParticipants',
  customerName: 'guestName',
  customerEmail: 'guestEmail',
  customerPhone: 'guestPhone',
} as const;

export const BookingPatch = z
  .strictObject({
    status: BookingStatus,
    startTime: InstantInput,
    participants: z.int().min(1).max(10_000),
    totalParticipants: z.int().min(1).max(10_000),
    customerName: guestFields.customerName,
    guestName: guestFields.customerName,
    customerEmail: guestFields.customerEmail,
    guestEmail: guestFields.customerEmail,
    customerPhone: guestFields.customerPhone,
    guestPhone: guestFields.customerPhone,
    metadata: Metadata,
    checkedIn: z.boolean().describe('true checks the guest in now (kept if already checked in); false undoes it. CONFIRMED bookings only.'),
  })
  .partial()
  .superRefine((p, ctx) => {
    if (Object.keys(p).length === 0) ctx.addIssue({ code: 'custom', path: [], message: 'Send at least one field to change' });
    for (const [name, alias] of Object.entries(BOOKING_PATCH_ALIASES)) {
      if (name in p && alias in p) {
        ctx.addIssue({ code: 'custom', path: [alias], message: `Send either ${name} or ${alias}, not both` });
      }
    }
  });
export type BookingPatch = z.infer<typeof BookingPatch>;

export const BookingCancel = z.strictObject({ reason: z.string().max(500).optional() });

export const BookingExperienceRef = z.object({ id: z.string(), title: z.string() });
export const BookingTimeSlotRef = z.object({ id: z.string(), startTime: Instant, endTime: Instant });

export const Booking = z.object({
  id: z.string(),
  bookingNumber: z.string(),
  status: BookingStatus,
  experience: BookingExperienceRef,
  timeSlot: BookingTimeSlotRef,
  customerId: z.string(),
  guestName: z.string(),
  guestEmail: EmailString,
  guestPhone: z.string().nullable(),
  totalParticipants: z.int(),
  unitPrice: z.int().describe('Cents, the experience price when booked'),
  total: z.string().describe('unitPrice × participants in major units, two decimals'),
  currency: z.string(),
  source: z.enum(BOOKING_SOURCES),
  metadata: z.record(z.string(), z.string()),
  cancellationReason: z.string().nullable(),
  cancelledAt: Instant.nullable(),
  holdExpiresAt: Instant.nullable(),
  checkedInAt: Instant.nullable().describe('When the guest was checked in, or null'),
  createdAt: Instant,
  updatedAt: Instant,
});
export type Booking = z.infer<typeof Booking>;

const DateOrInstant = z.union([LocalDate, InstantInput]);

export const BookingListQuery = z.strictObject({
  experienceId: z.string().min(1).max(100).optional(),
  customerId: z.string().min(1).max(100).optional(),
  status: BookingStatus.optional(),
  startDate: DateOrInstant.optional().describe("Date (org's time zone) or instant, inclusive, on the slot start"),
  endDate: DateOrInstant.optional().describe("Date (org's time zone) or instant, inclusive, on the slot start"),
  q: SearchTerm.optional().describe('Booking number, guest e-mail or name (case-insensitive)'),
  ...PageQuery,
});

/** What `POST /public/v1/bookings` answers: nothing the guest did not send, nothing about others. */
export const PublicBooking = z.object({
  bookingNumber: z.string(),
  status: BookingStatus,
  experience: BookingExperienceRef,
  timeSlot: BookingTimeSlotRef,
  totalParticipants: z.int(),
  total: z.string(),
  currency: z.string(),
  guestName: z.string(),
  guestEmail: EmailString,
  checkoutUrl: z.string().nullable(),
  holdExpiresAt: Instant.nullable(),
});
export type PublicBooking = z.infer<typeof PublicBooking>;

/** What anyone with the booking number may see through `/public/v1`: no personal data. */
export const PublicBookingStatus = PublicBooking.omit({ guestName: true, guestEmail: true });
export type PublicBookingStatus = z.infer<typeof PublicBookingStatus>;
