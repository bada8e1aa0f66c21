import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ErrorEnvelope } from '../index.js';

describe('error envelope', () => {
  it('lists exactly the codes of the contract’s error table', () => {
    expect([...ERROR_CODES].sort()).toEqual(
      [
        'VALIDATION_ERROR', 'INVALID_JSON', 'INVALID_TOKEN', 'UNAUTHORIZED', 'INVALID_API_KEY', 'INVALID_CREDENTIALS', 'FORBIDDEN', 'NOT_FOUND', 'SLOT_UNAVAILABLE',
        'CAPACITY_EXCEEDED', 'CAPACITY_BELOW_BOOKED', 'PRICE_CHANGED', 'PROMO_CODE_INVALID', 'VOUCHER_INVALID', 'PAYMENTS_NOT_CONFIGURED', 'ALREADY_ON_WAITLIST', 'SLOT_HAS_PLACES', 'OFFER_EXPIRED', 'INVALID_STATUS_TRANSITION', 'CHANGE_NOT_ALLOWED', 'REFUND_EXCEEDS_PAID', 'CONFLICT', 'IDEMPOTENCY_KEY_IN_USE', 'PAYLOAD_TOO_LARGE',
        'UNSUPPORTED_MEDIA_TYPE', 'IDEMPOTENCY_KEY_REUSED', 'RATE_LIMITED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE',
      ].sort(),
    );
  });

  it('parses the contract’s shape and refuses others', () => {
    expect(ErrorEnvelope.safeParse({ success: false, error: { code: 'NOT_FOUND', message: 'x' } }).success).toBe(true);
    expect(
      ErrorEnvelope.safeParse({ success: false, error: { code: 'VALIDATION_ERROR', message: 'x', details: [{ path: 'a', message: 'b' }] } }).success,
    ).toBe(true);
    expect(ErrorEnvelope.safeParse({ success: false, error: { code: 'TEAPOT', message: 'x' } }).success).toBe(false);
    expect(ErrorEnvelope.safeParse({ success: true, error: { code: 'NOT_FOUND', message: 'x' } }).success).toBe(false);
  });

  it('takes details as a list of fields, or as PRICE_CHANGED’s object with the total now', () => {
    const price = { success: false, error: { code: 'PRICE_CHANGED', message: 'x', details: { total: '99.99' } } };
    expect(ErrorEnvelope.parse(price).error.details).toEqual({ total: '99.99' });
    expect(ErrorEnvelope.safeParse({ ...price, error: { ...price.error, details: { total: 99.99 } } }).success).toBe(false);
    expect(ErrorEnvelope.safeParse({ ...price, error: { ...price.error, details: 'changed' } }).success).toBe(false);
  });
});
