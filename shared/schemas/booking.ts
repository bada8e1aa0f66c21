import { z } from 'zod';
import { DisplayName, Email, EmailString, Instant, InstantInput, LocalDate, Locale, LOCALES, MoneyString, PageQuery, SearchTerm } from './common.js';

export { Locale, LOCALES };
import { PriceCategoryType } from './experience.js';
import { ManualPaymentMethod } from './payment.js';
import { Answer, AnswersInput, BookingExtra, BookingExtrasInput } from './booking-form.js';
import { CodeInput } from './promotions.js';

/** Booking states. The contract spells the state CANCELLED and the event BOOKING_CANCELED. */
export const BOOKING_STATUSES = ['CONFIRMED', 'PENDING', 'CANCELLED'] as const;
export const BookingStatus = z.enum(BOOKING_STATUSES);
export type BookingStatus = z.infer<typeof BookingStatus>;
/**
 * `DASHBOARD`: made by a user signed in to the dashboard; `API`: with a secret key; `WIDGET`: by the
 * guest; `OCTO`: by a reseller through the OCTO supplier API.
 */
export const BOOKING_SOURCES = ['API', 'WIDGET', 'DASHBOARD', 'OCTO'] as const;
export const BookingSource = z.enum(BOOKING_SOURCES);
export type BookingSource = z.infer<typeof BookingSource>;

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
  customerName: DisplayName(200),
  customerEmail: Email,
  customerPhone: z.string().max(40).nullable(),
};

/** How many tickets of one price category a booking asks for. */
export const TicketInput = z.strictObject({
  categoryId: z.string().min(1).max(100),
  quantity: z.int().min(1).max(10_000),
});
export type TicketInput = z.infer<typeof TicketInput>;

/** A booking's whole list of tickets: each category once. */
export const TicketsInput = z
  .array(TicketInput)
  .min(1)
  .max(10)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((t, i) => {
      if (seen.has(t.categoryId)) ctx.addIssue({ code: 'custom', path: [i, 'categoryId'], message: 'This category is listed twice' });
      seen.add(t.categoryId);
    });
  })
  .describe(
    "Required for an experience with price categories (one entry per category); refused for one without. All tickets together, those that take no place included, at most the experience's maxParticipants; the booking's total at most 999999.99",
  );

/** A ticket as the booking keeps it: the category's name, type and price as they were when booked. */
export const Ticket = z.object({
  categoryId: z.string(),
  name: z.string(),
  type: PriceCategoryType,
  quantity: z.int(),
  unitPrice: z.int().describe('Cents per ticket, as when booked'),
});
export type Ticket = z.infer<typeof Ticket>;

export const bookingCreateFields = {
  experienceId: z.string().min(1).max(100),
  startTime: InstantInput,
  participants: z
    .int()
    .min(1)
    .max(10_000)
    .optional()
    .describe(
      "Required without tickets; with tickets, optional and equal to the sum of their quantities. At most the experience's maxParticipants; the booking's total at most 999999.99",
    ),
  tickets: TicketsInput.optional(),
  answers: AnswersInput.optional(),
  extras: BookingExtrasInput.optional(),
  promoCode: CodeInput.optional().describe('A promo code (1–64 characters; case and surrounding spaces do not matter): 400 PROMO_CODE_INVALID with details.reason when it does not apply'),
  voucherCode: CodeInput.optional().describe('A gift voucher’s code: it pays up to its balance of the total; 400 VOUCHER_INVALID with details.reason when it cannot'),
  customerName: guestFields.customerName,
  customerEmail: guestFields.customerEmail,
  customerPhone: guestFields.customerPhone.optional(),
  locale: Locale.optional().describe('The language of the guest’s e-mails and manage page; without it, the organization’s defaultLocale. The widget sends its own language'),
  expectedTotal: MoneyString.optional().describe(
    'The total the guest was shown ("90.00"), after any discount and before any voucher. When the total computed now differs (a price changed meanwhile): 409 PRICE_CHANGED with the new total in details, and nothing is booked',
  ),
};

export function participantsOrTickets(b: { participants?: number | undefined; tickets?: TicketInput[] | undefined }, ctx: z.RefinementCtx) {
  if (b.participants === undefined && b.tickets === undefined) {
    ctx.addIssue({ code: 'custom', path: ['participants'], message: 'Send participants, or tickets for an experience with price categories' });
  }
}

/** The operator's note on a booking: never shown to the guest. */
export const InternalNote = z.string().max(2000).nullable().describe('The operator’s own note (≤ 2000); never shown to the guest, on the manage page or in guest e-mails');

/** A payment taken when an operator makes the booking (`POST /v1/bookings`): recorded SUCCEEDED with it. */
export const BookingPaymentInput = z
  .strictObject({
    method: ManualPaymentMethod,
    amount: MoneyString.optional().describe('Default: the booking’s total. More than 0.00 and at most the total'),
    reference: z.string().min(1).max(200).optional().describe('Your own reference: receipt number, transfer id…'),
  })
  .describe('Money taken with the booking: a SUCCEEDED payment (provider `manual`) recorded in the same transaction; PAYMENT_SUCCEEDED follows BOOKING_CREATED');
export type BookingPaymentInput = z.infer<typeof BookingPaymentInput>;

/** What only an operator's booking takes (`/v1`): none of it exists on `/public/v1`. */
const operatorBookingFields = {
  metadata: Metadata.optional(),
  ignoreNotice: z
    .boolean()
    .optional()
    .describe('Default false. true: the start may lie inside the notice period, or be under way until the slot ends (a walk-in); every other check stays'),
  payment: BookingPaymentInput.optional(),
  sendConfirmation: z.boolean().optional().describe('Default true. false: no confirmation e-mail to the guest; later e-mails (changes, reminders) go as usual'),
  internalNote: InternalNote.optional(),
};

export const BookingCreate = z.strictObject({ ...bookingCreateFields, ...operatorBookingFields }).superRefine(participantsOrTickets);
export type BookingCreate = z.infer<typeof BookingCreate>;
/** A booking as the services take it: the operator's fields may be absent (the widget's bookings have none). */
export type BookingInput = z.input<typeof BookingCreate>;

/** `/public/v1` bookings: no metadata, plus the `website` honeypot that must stay empty. */
export const PublicBookingCreate = z
  .strictObject({
    ...bookingCreateFields,
    website: z.string().max(500).optional().describe('Honeypot: must be absent or empty'),
  })
  .superRefine(participantsOrTickets);
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
    tickets: TicketsInput.describe('The new whole list; categories the booking has keep its unit prices, new ones take today’s'),
    answers: AnswersInput.describe('The new whole list, checked against the experience’s current questions (required ones included)'),
    extras: BookingExtrasInput.describe('The new whole list; extras the booking has keep its name and unit price, new ones take today’s'),
    customerName: guestFields.customerName,
    guestName: guestFields.customerName,
    customerEmail: guestFields.customerEmail,
    guestEmail: guestFields.customerEmail,
    customerPhone: guestFields.customerPhone,
    guestPhone: guestFields.customerPhone,
    metadata: Metadata,
    locale: Locale,
    checkedIn: z
      .boolean()
      .describe('true checks the guest in now (kept if already checked in); false undoes it. CONFIRMED bookings only. A new startTime clears checkedInAt.'),
    internalNote: InternalNote,
  })
  .partial()
  .superRefine((p, ctx) => {
    if (Object.keys(p).length === 0) ctx.addIssue({ code: 'custom', path: [], message: 'Send at least one field to change' });
    if (p.tickets !== undefined && (p.participants !== undefined || p.totalParticipants !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['participants'], message: 'With tickets, the participants follow from them: send tickets alone' });
    }
    for (const [name, alias] of Object.entries(BOOKING_PATCH_ALIASES)) {
      if (name in p && alias in p) {
        ctx.addIssue({ code: 'custom', path: [alias], message: `Send either ${name} or ${alias}, not both` });
      }
    }
  });
export type BookingPatch = z.infer<typeof BookingPatch>;

export const BookingCancel = z.strictObject({ reason: z.string().max(500).optional() });

/** The promo code a booking took and what it took off (the booking keeps its own copy of the rule). */
export const BookingDiscount = z.object({ code: z.string(), amount: z.string().describe('Major units, two decimals') });
/** What a gift voucher paid of a booking: its code masked (GV-••••-••••- and its last four). */
export const BookingVoucher = z.object({ code: z.string().describe('Masked: GV-••••-••••- and the last four characters'), amount: z.string() });

export const BookingExperienceRef = z.object({ id: z.string(), title: z.string() });
export const BookingTimeSlotRef = z.object({ id: z.string(), startTime: Instant, endTime: Instant });

/** A reseller's side of a booking made through OCTO. */
export const BookingOcto = z.object({
  uuid: z.string().describe('The booking’s OCTO uuid'),
  resellerReference: z.string().nullable(),
  apiKeyId: z.string().describe('The secret key the reseller booked with'),
});
export type BookingOcto = z.infer<typeof BookingOcto>;

export const Booking = z.object({
  id: z.string(),
  bookingNumber: z.string(),
  status: BookingStatus,
  experience: BookingExperienceRef,
  timeSlot: BookingTimeSlotRef,
  customerId: z.string().nullable().describe('null for a reseller’s guest given without an e-mail address'),
  guestName: z.string().nullable().describe('null only for an OCTO booking whose reseller gave no name'),
  guestEmail: EmailString.nullable().describe('null only for an OCTO booking whose reseller gave no e-mail address'),
  guestPhone: z.string().nullable(),
  totalParticipants: z.int().describe('Every ticket, whether or not it occupies a place'),
  tickets: z.array(Ticket).describe('[] for a booking without price categories'),
  answers: z.array(Answer).describe('Its answers, in the experience’s question order; [] when none'),
  extras: z.array(BookingExtra).describe('Its extras, in the experience’s order; [] when none'),
  unitPrice: z.int().nullable().describe('Cents, the experience price when booked; null for a booking with tickets'),
  subtotal: z.string().describe('Its tickets or participants plus its extras, in major units, two decimals'),
  discount: BookingDiscount.nullable().describe('What its promo code took off; null without one'),
  voucher: BookingVoucher.nullable().describe('What a gift voucher paid; null without one, or when nothing was redeemed'),
  total: z.string().describe('subtotal − discount, in major units, two decimals'),
  amountDue: z.string().describe('total − its SUCCEEDED payments, at least "0.00"; "0.00" once CANCELLED'),
  currency: z.string(),
  amountRefunded: z.string().describe('The sum of its SUCCEEDED refunds, in major units, two decimals ("0.00" when none)'),
  source: BookingSource,
  octo: BookingOcto.nullable().describe('The reseller’s side of an OCTO booking; null for any other'),
  metadata: z.record(z.string(), z.string()),
  locale: Locale,
  cancellationReason: z.string().nullable(),
  cancelledAt: Instant.nullable(),
  holdExpiresAt: Instant.nullable(),
  checkedInAt: Instant.nullable().describe('When the guest was checked in, or null'),
  internalNote: z.string().nullable().describe('The operator’s own note; never shown to the guest'),
  createdAt: Instant,
  updatedAt: Instant,
});
export type Booking = z.infer<typeof Booking>;

export const DateOrInstant = z.union([LocalDate, InstantInput]);

/** The orders of `GET /v1/bookings`: a leading `-` reverses every key, the id tie-break included. */
export const BOOKING_SORTS = ['startTime', '-startTime', 'createdAt', '-createdAt'] as const;
export const BookingSort = z.enum(BOOKING_SORTS);
export type BookingSort = z.infer<typeof BookingSort>;

export const BookingListQuery = z.strictObject({
  experienceId: z.string().min(1).max(100).optional(),
  customerId: z.string().min(1).max(100).optional(),
  status: BookingStatus.optional(),
  source: BookingSource.optional().describe('Only bookings made through this channel'),
  startDate: DateOrInstant.optional().describe("Date (org's time zone) or instant, inclusive, on the slot start"),
  endDate: DateOrInstant.optional().describe("Date (org's time zone) or instant, inclusive, on the slot start"),
  q: SearchTerm.optional().describe('Booking number, guest e-mail or name (case-insensitive)'),
  sort: BookingSort.optional().describe(
    '`startTime` (default): slot start, then creation, then id; `createdAt`: creation, then id; a leading `-` reverses every key',
  ),
  ...PageQuery,
});

/** What `POST /public/v1/bookings` answers: nothing the guest did not send, nothing about others. */
export const PublicBooking = z.object({
  bookingNumber: z.string(),
  status: BookingStatus,
  experience: BookingExperienceRef,
  timeSlot: BookingTimeSlotRef,
  totalParticipants: z.int(),
  tickets: z.array(Ticket),
  answers: z.array(Answer),
  extras: z.array(BookingExtra),
  subtotal: z.string(),
  discount: BookingDiscount.nullable(),
  voucher: BookingVoucher.nullable(),
  total: z.string(),
  amountDue: z.string(),
  currency: z.string(),
  guestName: z.string().nullable().describe('null only for a reseller’s booking given without a name'),
  guestEmail: EmailString.nullable().describe('null only for a reseller’s booking given without an e-mail address'),
  checkoutUrl: z.string().nullable(),
  holdExpiresAt: Instant.nullable(),
});
export type PublicBooking = z.infer<typeof PublicBooking>;

/** What anyone with the booking number may see through `/public/v1`: no personal data. */
export const PublicBookingStatus = PublicBooking.omit({ guestName: true, guestEmail: true });
export type PublicBookingStatus = z.infer<typeof PublicBookingStatus>;
