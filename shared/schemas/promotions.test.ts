import { describe, expect, it } from 'vitest';
import { GIFT_VOUCHER_CODE, GiftVoucherPatch, PromoCodeCreate, maskVoucherCode } from './promotions.js';

const percent = { code: 'hotel-15', discountType: 'PERCENT', discountValue: 15 };

describe('promotion shapes', () => {
  it('takes a promo code of 3–32 letters, digits, - and _, but none starting GV-', () => {
    expect(PromoCodeCreate.safeParse(percent).success).toBe(true);
    for (const code of ['AB', 'x'.repeat(33), 'TEN OFF', 'gv-summer', 'DÉJÀ']) {
      expect(PromoCodeCreate.safeParse({ ...percent, code }).success, code).toBe(false);
    }
  });

  it('refuses a percentage above 100 and a validity that ends before it starts', () => {
    expect(PromoCodeCreate.safeParse({ ...percent, discountValue: 101 }).error?.issues[0]?.path).toEqual(['discountValue']);
    expect(PromoCodeCreate.safeParse({ ...percent, discountType: 'AMOUNT', discountValue: 10_000 }).success).toBe(true);
    const ends = { validFrom: '2027-01-01T00:00:00Z', validUntil: '2027-01-01T00:00:00Z' };
    expect(PromoCodeCreate.safeParse({ ...percent, ...ends }).error?.issues[0]?.path).toEqual(['validUntil']);
  });

  it('lets a voucher PATCH change only its status (never to USED or EXPIRED) and its expiry', () => {
    expect(GiftVoucherPatch.safeParse({ status: 'DISABLED' }).success).toBe(true);
    expect(GiftVoucherPatch.safeParse({ status: 'USED' }).success).toBe(false);
    expect(GiftVoucherPatch.safeParse({ balance: '0.00' }).success).toBe(false);
    expect(GiftVoucherPatch.safeParse({}).success).toBe(false);
  });

  it('knows a voucher code by its shape and masks all but its last four characters', () => {
    expect(GIFT_VOUCHER_CODE.test('GV-7QX2-M9KD-4TZ8')).toBe(true);
    expect(GIFT_VOUCHER_CODE.test('GV-7QX2-M9KD-4TZI')).toBe(false); // I is not Crockford base32
    expect(maskVoucherCode('GV-7QX2-M9KD-4TZ8')).toBe('GV-••••-••••-4TZ8');
  });
});
