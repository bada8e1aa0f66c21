import { z } from 'zod';

/** Every error code of the API (the error table of the API reference, /docs). */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'INVALID_JSON',
  'INVALID_TOKEN',
  'UNAUTHORIZED',
  'INVALID_API_KEY',
  'INVALID_CREDENTIALS',
  'FORBIDDEN',
  'NOT_FOUND',
  'SLOT_UNAVAILABLE',
  'CAPACITY_EXCEEDED',
  'CAPACITY_BELOW_BOOKED',
  'PRICE_CHANGED',
  'PROMO_CODE_INVALID',
  'VOUCHER_INVALID',
  'PAYMENTS_NOT_CONFIGURED',
  'ALREADY_ON_WAITLIST',
  'SLOT_HAS_PLACES',
  'OFFER_EXPIRED',
  'INVALID_STATUS_TRANSITION',
  'CHANGE_NOT_ALLOWED',
  'REFUND_EXCEEDS_PAID',
  'CONFLICT',
  'IDEMPOTENCY_KEY_IN_USE',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'IDEMPOTENCY_KEY_REUSED',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
] as const;
export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorDetail = z.object({ path: z.string(), message: z.string() });
export type ErrorDetail = z.infer<typeof ErrorDetail>;

/** `details` of `PRICE_CHANGED`: the total the booking would have now, a money string. */
export const PriceChangedDetails = z.object({ total: z.string().describe('The total the booking costs now, e.g. "99.99"') });
export type PriceChangedDetails = z.infer<typeof PriceChangedDetails>;

/** `details` of `PROMO_CODE_INVALID` and `VOUCHER_INVALID`: why the code was refused. */
export const CodeRefusedDetails = z.object({
  reason: z.string().describe('PROMO_CODE_INVALID: NOT_FOUND, INACTIVE, NOT_YET_VALID, EXPIRED, NOT_FOR_EXPERIENCE or USED_UP; VOUCHER_INVALID: NOT_FOUND, DISABLED, EXPIRED, USED or CURRENCY'),
});
export type CodeRefusedDetails = z.infer<typeof CodeRefusedDetails>;

/**
 * An error's `details`: a list of fields at fault on `VALIDATION_ERROR` and `CAPACITY_EXCEEDED`,
 * an object on `PRICE_CHANGED` (`{total}`), `PROMO_CODE_INVALID` and `VOUCHER_INVALID` (`{reason}`).
 */
export const ErrorDetails = z
  .union([z.array(ErrorDetail), PriceChangedDetails, CodeRefusedDetails])
  .describe('A list of fields on VALIDATION_ERROR and CAPACITY_EXCEEDED; an object on PRICE_CHANGED ({total}), PROMO_CODE_INVALID and VOUCHER_INVALID ({reason})');
export type ErrorDetails = z.infer<typeof ErrorDetails>;

export const ErrorEnvelope = z.object({
  success: z.literal(false),
  error: z.object({
    code: ErrorCode,
    message: z.string(),
    details: ErrorDetails.optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
