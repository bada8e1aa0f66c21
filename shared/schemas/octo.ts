import { z } from 'zod';

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
