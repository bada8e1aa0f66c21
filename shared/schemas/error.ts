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
  'INVALID_STATUS_TRANSITION',
  'CHANGE_NOT_ALLOWED',
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

export const ErrorEnvelope = z.object({
  success: z.literal(false),
  error: z.object({
    code: ErrorCode,
    message: z.string(),
    details: z.array(ErrorDetail).optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
