import { z } from 'zod';
import { isCalendarDate } from './common.js';

/**
 * The OCTO supplier API (`/octo`): the shapes a reseller's system sends and receives. OCTO is an
 * open standard of its own, so these are its field names and its error codes, not `/v1`'s.
 */

/** The error codes of the OCTO standard that Outing answers (each with HTTP 400). */
export const OCTO_ERROR_CODES = [
  'UNAUTHORIZED',
  'FORBIDDEN',
  'INVALID_PRODUCT_ID',
  'INVALID_OPTION_ID',
  'INVALID_UNIT_ID',
  'INVALID_AVAILABILITY_ID',
  'INVALID_BOOKING_UUID',
  'BAD_REQUEST',
  'UNPROCESSABLE_ENTITY',
] as const;
export const OctoErrorCode = z.enum(OCTO_ERROR_CODES);
export type OctoErrorCode = z.infer<typeof OctoErrorCode>;

/** The error field that names the value at fault, per code that has one. */
export const OCTO_ERROR_FIELDS = {
  INVALID_PRODUCT_ID: 'productId',
  INVALID_OPTION_ID: 'optionId',
  INVALID_UNIT_ID: 'unitId',
  INVALID_AVAILABILITY_ID: 'availabilityId',
  INVALID_BOOKING_UUID: 'uuid',
} as const satisfies Partial<Record<OctoErrorCode, string>>;

/** An OCTO error: `{error, errorMessage}` plus, for an unknown id, the field naming the value sent. */
export const OctoError = z
  .object({
    error: z.string(),
    errorMessage: z.string(),
    productId: z.string().optional(),
    optionId: z.string().optional(),
    unitId: z.string().optional(),
    availabilityId: z.string().optional(),
    uuid: z.string().optional(),
  })
  .meta({ id: 'OctoError' });
export type OctoError = z.infer<typeof OctoError>;

/** The capabilities Outing offers; a request turns them on with the `Octo-Capabilities` header. */
export const OCTO_PRICING = 'octo/pricing';
export const OCTO_CAPABILITY_IDS = [OCTO_PRICING] as const;
export type OctoCapabilityId = (typeof OCTO_CAPABILITY_IDS)[number];

export const OctoCapability = z
  .object({
    id: z.string(),
    revision: z.number().int(),
    required: z.boolean(),
    dependencies: z.array(z.string()),
    docs: z.string().nullable(),
  })
  .meta({ id: 'OctoCapability' });
export type OctoCapability = z.infer<typeof OctoCapability>;

const LocalDateInput = z
  .string()
  .refine(isCalendarDate, { message: 'Expected a date as YYYY-MM-DD' })
  .meta({ description: 'A local date in the product’s time zone, YYYY-MM-DD', format: 'date' });

/** An optional request field: `null` reads as absent, as many resellers send it. */
const optional = <S extends z.ZodType>(schema: S) => schema.nullish().transform((v) => v ?? undefined);

/** A unit and how many of it: what places a request is about. */
export const OctoUnitQuantity = z
  .object({
    id: z.string().describe('A unit id of the product'),
    quantity: z.int().min(0).max(1000),
  })
  .meta({ id: 'OctoUnitQuantity' });

const availabilityFields = {
  productId: z.string().describe('The product (an experience id)'),
  optionId: z.string().describe('Always `DEFAULT`'),
  units: optional(z.array(OctoUnitQuantity).max(100)).describe('When given, `available` also says whether these units fit'),
  currency: optional(z.string()).describe('The organization’s currency (the only one)'),
  localDateStart: optional(LocalDateInput),
  localDateEnd: optional(LocalDateInput),
};

/** `POST /octo/availability/calendar`: one entry per local date from `localDateStart` to `localDateEnd`. */
export const OctoCalendarRequest = z.object(availabilityFields).meta({ id: 'OctoCalendarRequest' });
export type OctoCalendarRequest = z.output<typeof OctoCalendarRequest>;

/** `POST /octo/availability`: exactly one of `localDate`, `localDateStart` + `localDateEnd`, `availabilityIds`. */
export const OctoAvailabilityRequest = z
  .object({
    ...availabilityFields,
    localDate: optional(LocalDateInput),
    availabilityIds: optional(z.array(z.string()).max(1000)).describe('1 to 100 availability ids'),
  })
  .meta({ id: 'OctoAvailabilityRequest' });
export type OctoAvailabilityRequest = z.output<typeof OctoAvailabilityRequest>;

/** An amount in the organization's currency, with the `octo/pricing` capability. */
export const OctoPricing = z
  .object({
    original: z.int().describe('Integer minor units (cents)'),
    retail: z.int(),
    net: z.int().nullable(),
    currency: z.string(),
    currencyPrecision: z.int(),
    includedTaxes: z.array(z.object({ name: z.string(), retail: z.int(), original: z.int(), net: z.int().nullable() })),
  })
  .meta({ id: 'OctoPricing' });
export type OctoPricing = z.infer<typeof OctoPricing>;

export const OctoUnitPricing = OctoPricing.extend({ unitId: z.string() }).meta({ id: 'OctoUnitPricing' });
export type OctoUnitPricing = z.infer<typeof OctoUnitPricing>;

export const OctoSupplier = z
  .object({
    id: z.string(),
    name: z.string(),
    endpoint: z.string(),
    contact: z.object({
      website: z.string().nullable(),
      email: z.string().nullable(),
      telephone: z.string().nullable(),
      address: z.string().nullable(),
    }),
  })
  .meta({ id: 'OctoSupplier' });
export type OctoSupplier = z.infer<typeof OctoSupplier>;

export const OCTO_UNIT_TYPES = ['ADULT', 'YOUTH', 'CHILD', 'INFANT', 'FAMILY', 'SENIOR', 'STUDENT', 'MILITARY', 'OTHER'] as const;

export const OctoUnit = z
  .object({
    id: z.string(),
    internalName: z.string(),
    reference: z.string().nullable(),
    type: z.enum(OCTO_UNIT_TYPES),
    requiredContactFields: z.array(z.string()),
    restrictions: z.object({
      minAge: z.int(),
      maxAge: z.int(),
      idRequired: z.boolean(),
      minQuantity: z.int().nullable(),
      maxQuantity: z.int().nullable(),
      paxCount: z.int(),
      accompaniedBy: z.array(z.string()),
    }),
    pricingFrom: z.array(OctoPricing).optional().describe('With `octo/pricing`'),
  })
  .meta({ id: 'OctoUnit' });
export type OctoUnit = z.infer<typeof OctoUnit>;

export const OctoOption = z
  .object({
    id: z.literal('DEFAULT'),
    default: z.boolean(),
    internalName: z.string(),
    reference: z.string().nullable(),
    availabilityLocalStartTimes: z.array(z.string()),
    cancellationCutoff: z.string(),
    cancellationCutoffAmount: z.int(),
    cancellationCutoffUnit: z.literal('hour'),
    requiredContactFields: z.array(z.string()),
    restrictions: z.object({ minUnits: z.int(), maxUnits: z.int().nullable() }),
    units: z.array(OctoUnit),
  })
  .meta({ id: 'OctoOption' });
export type OctoOption = z.infer<typeof OctoOption>;

export const OctoProduct = z
  .object({
    id: z.string(),
    internalName: z.string(),
    reference: z.string().nullable(),
    locale: z.string(),
    timeZone: z.string(),
    allowFreesale: z.boolean(),
    instantConfirmation: z.boolean(),
    instantDelivery: z.boolean(),
    availabilityRequired: z.boolean(),
    availabilityType: z.literal('START_TIME'),
    deliveryFormats: z.array(z.string()),
    deliveryMethods: z.array(z.string()),
    redemptionMethod: z.string(),
    options: z.array(OctoOption),
    defaultCurrency: z.string().optional().describe('With `octo/pricing`'),
    availableCurrencies: z.array(z.string()).optional().describe('With `octo/pricing`'),
    pricingPer: z.literal('UNIT').optional().describe('With `octo/pricing`'),
  })
  .meta({ id: 'OctoProduct' });
export type OctoProduct = z.infer<typeof OctoProduct>;

export const OCTO_AVAILABILITY_STATUSES = ['AVAILABLE', 'LIMITED', 'SOLD_OUT', 'CLOSED'] as const;
const OctoAvailabilityStatus = z.enum(OCTO_AVAILABILITY_STATUSES);

const LocalDateTime = z
  .string()
  .meta({ description: 'Local date and time with the offset then in force, e.g. 2027-07-01T10:00:00+01:00' });
const UtcDateTime = z.string().meta({ description: 'UTC, whole seconds, e.g. 2027-07-01T08:30:00Z' });

export const OctoAvailability = z
  .object({
    id: z.string(),
    localDateTimeStart: LocalDateTime,
    localDateTimeEnd: LocalDateTime,
    utcCutoffAt: UtcDateTime,
    allDay: z.boolean(),
    available: z.boolean(),
    status: OctoAvailabilityStatus,
    vacancies: z.int(),
    capacity: z.int(),
    maxUnits: z.int(),
    openingHours: z.array(z.object({ from: z.string(), to: z.string() })),
    unitPricing: z.array(OctoUnitPricing).optional().describe('With `octo/pricing`'),
  })
  .meta({ id: 'OctoAvailability' });
export type OctoAvailability = z.infer<typeof OctoAvailability>;

export const OctoCalendarEntry = z
  .object({
    localDate: z.string(),
    available: z.boolean(),
    status: OctoAvailabilityStatus,
    vacancies: z.int(),
    capacity: z.int(),
    openingHours: z.array(z.object({ from: z.string(), to: z.string() })),
    unitPricingFrom: z.array(OctoUnitPricing).optional().describe('With `octo/pricing`'),
  })
  .meta({ id: 'OctoCalendarEntry' });
export type OctoCalendarEntry = z.infer<typeof OctoCalendarEntry>;
