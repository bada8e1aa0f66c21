import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { Refusal } from '../domain/refusal.js';
import type { ErrorCode, ErrorDetails } from '../../shared/index.js';

/** The one place where a refusal's code becomes an HTTP status (the error table of the API reference). */
export const STATUS_OF: Record<ErrorCode, ContentfulStatusCode> = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  INVALID_TOKEN: 400,
  UNAUTHORIZED: 401,
  INVALID_API_KEY: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  SLOT_UNAVAILABLE: 409,
  CAPACITY_EXCEEDED: 409,
  CAPACITY_BELOW_BOOKED: 409,
  PRICE_CHANGED: 409,
  PROMO_CODE_INVALID: 400,
  VOUCHER_INVALID: 400,
  PAYMENTS_NOT_CONFIGURED: 409,
  ALREADY_ON_WAITLIST: 409,
  SLOT_HAS_PLACES: 409,
  OFFER_EXPIRED: 409,
  INVALID_STATUS_TRANSITION: 409,
  CHANGE_NOT_ALLOWED: 409,
  REFUND_EXCEEDS_PAID: 409,
  CONFLICT: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

export function errorBody(code: ErrorCode, message: string, details?: ErrorDetails) {
  return { success: false as const, error: details ? { code, message, details } : { code, message } };
}

/** The contract's error envelope for a refusal, with `Retry-After` when it names a wait. */
export function renderRefusal(c: Context, refusal: Refusal): Response {
  if (refusal.retryAfterSeconds !== undefined) c.header('Retry-After', String(refusal.retryAfterSeconds));
  return c.json(errorBody(refusal.code, refusal.message, refusal.details), STATUS_OF[refusal.code]);
}

export { Refusal };
