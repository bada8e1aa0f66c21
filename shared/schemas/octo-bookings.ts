import { z } from 'zod';

/**
 * The booking requests and the booking object of the OCTO supplier API (`/octo/bookings`), as
 * resellers speak it. Unknown fields are stripped (resellers send more than a supplier reads).
 * `unitItems` is optional here on purpose: a reservation without it is refused as
 * UNPROCESSABLE_ENTITY by the booking rules, not as a malformed body.
 */

/** An RFC 4122 UUID (any version, the RFC's variant), in either case; stored lower-cased. */
export const OctoUuid = z
  .string()
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$/, { message: 'Expected an RFC 4122 UUID' })
  .transform((s) => s.toLowerCase());

/** A free text of the reseller's: at most `max` characters. */
const Text = (max: number) => z.string().max(max);
const OptionalText = (max: number) => Text(max).nullable().optional();

/** Minutes a hold lasts or is extended by: 1 to 1440 (a day). */
export const ExpirationMinutes = z.number().int().min(1).max(1440);

/** The guest as a reseller describes them; every field may be left out or null. */
export const OctoContactInput = z.object({
  fullName: OptionalText(200),
  firstName: OptionalText(200),
  lastName: OptionalText(200),
  emailAddress: OptionalText(254),
  phoneNumber: OptionalText(50),
  postalCode: OptionalText(50),
  country: OptionalText(100),
  notes: OptionalText(2000),
  locales: z.array(Text(35)).max(20).nullable().optional(),
});
export type OctoContactInput = z.infer<typeof OctoContactInput>;

/** One person of a booking: a unit (a price category, or `adult`) and, optionally, its own uuid and contact. */
export const OctoUnitItemInput = z.object({
  uuid: OctoUuid.nullable().optional(),
  unitId: z.string().min(1).max(100),
  resellerReference: OptionalText(200),
  contact: OctoContactInput.nullable().optional(),
});
export type OctoUnitItemInput = z.infer<typeof OctoUnitItemInput>;

const UnitItems = z.array(OctoUnitItemInput).max(1000);

/** `POST /octo/bookings`: a hold of places on one availability. */
export const OctoReserveBody = z.object({
  uuid: OctoUuid.nullable().optional(),
  productId: z.string().min(1).max(100),
  optionId: z.string().min(1).max(100),
  availabilityId: z.string().min(1).max(100),
  unitItems: UnitItems.nullable().optional(),
  expirationMinutes: ExpirationMinutes.nullable().optional(),
  resellerReference: OptionalText(200),
  notes: OptionalText(2000),
  contact: OctoContactInput.nullable().optional(),
  currency: z.string().max(10).nullable().optional(),
});
export type OctoReserveBody = z.infer<typeof OctoReserveBody>;

/** `POST /octo/bookings/{uuid}/extend`. */
export const OctoExtendBody = z.object({ expirationMinutes: ExpirationMinutes.nullable().optional() });
export type OctoExtendBody = z.infer<typeof OctoExtendBody>;

/** `POST /octo/bookings/{uuid}/confirm`: the contact is required. */
export const OctoConfirmBody = z.object({
  contact: OctoContactInput,
  resellerReference: OptionalText(200),
  emailReceipt: z.boolean().nullable().optional(),
  unitItems: UnitItems.nullable().optional(),
});
export type OctoConfirmBody = z.infer<typeof OctoConfirmBody>;

/** A field a reseller may send as `null` to mean "not sent". */
const AbsentWhenNull = <S extends z.ZodType<string>>(schema: S) => schema.nullable().optional().transform((v) => v ?? undefined);

/** `PATCH /octo/bookings/{uuid}`: any of these; a field left out keeps its value. */
export const OctoUpdateBody = z.object({
  resellerReference: OptionalText(200),
  productId: AbsentWhenNull(z.string().min(1).max(100)),
  optionId: AbsentWhenNull(z.string().min(1).max(100)),
  availabilityId: AbsentWhenNull(z.string().min(1).max(100)),
  expirationMinutes: ExpirationMinutes.nullable().optional(),
  notes: OptionalText(2000),
  emailReceipt: z.boolean().nullable().optional(),
  unitItems: UnitItems.nullable().optional(),
  contact: OctoContactInput.nullable().optional(),
});
export type OctoUpdateBody = z.infer<typeof OctoUpdateBody>;

/** `POST /octo/bookings/{uuid}/cancel`: `force` is accepted in any type and changes nothing. */
export const OctoCancelBody = z.object({
  reason: Text(500).nullable().optional(),
  force: z.unknown().optional(),
});
export type OctoCancelBody = z.infer<typeof OctoCancelBody>;

const LocalDateQuery = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'Expected a date YYYY-MM-DD' });

/** `GET /octo/bookings`: at least one of the references or dates (checked by the rules, with the range). */
export const OctoBookingListQuery = z.object({
  resellerReference: z.string().max(200).optional(),
  supplierReference: z.string().max(100).optional(),
  localDate: LocalDateQuery.optional(),
  localDateStart: LocalDateQuery.optional(),
  localDateEnd: LocalDateQuery.optional(),
  productId: z.string().max(100).optional(),
  optionId: z.string().max(100).optional(),
});
export type OctoBookingListQuery = z.infer<typeof OctoBookingListQuery>;

// ---------------------------------------------------------------------------------------------
// The booking object

export const OCTO_BOOKING_STATUSES = ['ON_HOLD', 'EXPIRED', 'CONFIRMED', 'CANCELLED'] as const;
export const OctoBookingStatus = z.enum(OCTO_BOOKING_STATUSES);
export type OctoBookingStatus = z.infer<typeof OctoBookingStatus>;

/** A price in the organization's currency, in cents (the `octo/pricing` capability). */
export const OctoPricing = z.object({
  original: z.number().int(),
  retail: z.number().int(),
  net: z.null(),
  currency: z.string(),
  currencyPrecision: z.literal(2),
  includedTaxes: z.array(z.never()),
});

export const OctoContact = z.object({
  fullName: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  emailAddress: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  postalCode: z.string().nullable(),
  country: z.string().nullable(),
  notes: z.string().nullable(),
  locales: z.array(z.string()),
});
export type OctoContact = z.infer<typeof OctoContact>;

const UtcInstant = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

export const OctoBookingAvailability = z.object({
  id: z.string(),
  localDateTimeStart: z.string(),
  localDateTimeEnd: z.string(),
  utcCutoffAt: UtcInstant,
  allDay: z.literal(false),
  available: z.boolean(),
  status: z.enum(['AVAILABLE', 'LIMITED', 'SOLD_OUT', 'CLOSED']),
  vacancies: z.number().int(),
  capacity: z.number().int(),
  maxUnits: z.number().int(),
  openingHours: z.array(z.never()),
});

export const OctoUnitItem = z.object({
  uuid: z.string(),
  resellerReference: z.string().nullable(),
  supplierReference: z.null(),
  unitId: z.string(),
  status: OctoBookingStatus,
  utcRedeemedAt: z.null(),
  contact: OctoContact,
  ticket: z.null(),
  pricing: OctoPricing.optional(),
});

export const OctoBooking = z.object({
  id: z.string(),
  uuid: z.string(),
  testMode: z.literal(false),
  resellerReference: z.string().nullable(),
  supplierReference: z.string(),
  status: OctoBookingStatus,
  utcCreatedAt: UtcInstant,
  utcUpdatedAt: UtcInstant,
  utcExpiresAt: UtcInstant.nullable(),
  utcRedeemedAt: UtcInstant.nullable(),
  utcConfirmedAt: UtcInstant.nullable(),
  productId: z.string(),
  optionId: z.string(),
  cancellable: z.boolean(),
  cancellation: z.object({ refund: z.literal('FULL'), reason: z.string().nullable(), utcCancelledAt: UtcInstant }).nullable(),
  freesale: z.literal(false),
  availabilityId: z.string(),
  availability: OctoBookingAvailability,
  contact: OctoContact,
  notes: z.string().nullable(),
  deliveryMethods: z.array(z.literal('VOUCHER')),
  voucher: z.object({
    redemptionMethod: z.literal('DIGITAL'),
    utcRedeemedAt: z.null(),
    deliveryOptions: z.array(z.object({ deliveryFormat: z.literal('QRCODE'), deliveryValue: z.string() })),
  }),
  unitItems: z.array(OctoUnitItem),
  pricing: OctoPricing.optional(),
});
export type OctoBooking = z.infer<typeof OctoBooking>;
