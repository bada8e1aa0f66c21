import { z } from 'zod';
import { DisplayName, Email, Instant, InstantInput, MoneyString, PageQuery, QueryBoolean } from './common.js';

/** How a promo code takes money off: a percentage of the subtotal, or an amount (never more than it). */
export const DISCOUNT_TYPES = ['PERCENT', 'AMOUNT'] as const;
export const DiscountType = z.enum(DISCOUNT_TYPES);
export type DiscountType = z.infer<typeof DiscountType>;

/** A code as a guest types it, wherever one is taken: read case-insensitively, outer spaces ignored. */
export const CodeInput = z.string().min(1).max(64).describe('1–64 characters; case and surrounding spaces do not matter');

/** The shape of a gift voucher's code: GV- and three groups of four Crockford base32 characters. */
export const GIFT_VOUCHER_CODE = /^GV-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/** A promo code's own text: 3–32 of A–Z, 0–9, `-`, `_` (stored upper-case); `GV-` is the vouchers'. */
export const PromoCodeText = z
  .string()
  .regex(/^[A-Za-z0-9_-]{3,32}$/, { message: 'Use 3–32 letters, digits, "-" or "_"' })
  .refine((code) => !code.toUpperCase().startsWith('GV-'), { message: 'Codes starting with GV- are gift vouchers' })
  .describe('3–32 of A–Z, 0–9, - and _; stored upper-case, unique in the organization; may not start with GV-');

const promoFields = {
  code: PromoCodeText,
  discountType: DiscountType,
  discountValue: z.int().min(1).max(99_999_999).describe('PERCENT: 1–100; AMOUNT: integer cents off'),
  experienceIds: z.array(z.string().min(1).max(100)).min(1).max(100).nullable().describe('null (default): every experience'),
  validFrom: InstantInput.nullable(),
  validUntil: InstantInput.nullable().describe('Exclusive: from this instant the code is EXPIRED'),
  maxUses: z.int().min(1).max(1_000_000).nullable().describe('null (default): unlimited'),
  active: z.boolean(),
};

/** The checks a promo code's whole record passes, on create and after a PATCH alike. */
export function promoCodeRules(p: Partial<{ discountType: DiscountType; discountValue: number; validFrom: string | null; validUntil: string | null }>, ctx: z.RefinementCtx) {
  if (p.discountType === 'PERCENT' && p.discountValue !== undefined && p.discountValue > 100) {
    ctx.addIssue({ code: 'custom', path: ['discountValue'], message: 'A percentage is 1–100' });
  }
  if (p.validFrom && p.validUntil && Date.parse(p.validFrom) >= Date.parse(p.validUntil)) {
    ctx.addIssue({ code: 'custom', path: ['validUntil'], message: 'validUntil must be after validFrom' });
  }
}

export const PromoCodeCreate = z
  .strictObject({
    code: promoFields.code,
    discountType: promoFields.discountType,
    discountValue: promoFields.discountValue,
    experienceIds: promoFields.experienceIds.optional(),
    validFrom: promoFields.validFrom.optional(),
    validUntil: promoFields.validUntil.optional(),
    maxUses: promoFields.maxUses.optional(),
    active: promoFields.active.optional(),
  })
  .superRefine(promoCodeRules);
export type PromoCodeCreate = z.infer<typeof PromoCodeCreate>;

/** Any create field; the record it makes is checked as a create (the service checks the merged record). */
export const PromoCodePatch = z
  .strictObject(promoFields)
  .partial()
  .refine((p) => Object.keys(p).length > 0, { message: 'Send at least one field to change' });
export type PromoCodePatch = z.infer<typeof PromoCodePatch>;

export const PromoCode = z.object({
  id: z.string(),
  code: z.string(),
  discountType: DiscountType,
  discountValue: z.int(),
  experienceIds: z.array(z.string()).nullable(),
  validFrom: Instant.nullable(),
  validUntil: Instant.nullable(),
  maxUses: z.int().nullable(),
  uses: z.int().describe('The CONFIRMED and PENDING bookings that took the code'),
  active: z.boolean(),
  createdAt: Instant,
});
export type PromoCode = z.infer<typeof PromoCode>;

export const PromoCodeListQuery = z.strictObject({ active: QueryBoolean.optional(), ...PageQuery });

/** Why a promo code was refused (`details.reason` of `400 PROMO_CODE_INVALID`), in the order checked. */
export const PROMO_CODE_REASONS = ['NOT_FOUND', 'INACTIVE', 'NOT_YET_VALID', 'EXPIRED', 'NOT_FOR_EXPERIENCE', 'USED_UP'] as const;
/** Why a voucher was refused (`details.reason` of `400 VOUCHER_INVALID`), in the order checked. */
export const VOUCHER_REASONS = ['NOT_FOUND', 'DISABLED', 'EXPIRED', 'USED', 'CURRENCY'] as const;

/** `DISABLED` by PATCH; else `EXPIRED` past `expiresAt`; else `USED` at a zero balance; else `ACTIVE`. */
export const GIFT_VOUCHER_STATUSES = ['ACTIVE', 'USED', 'EXPIRED', 'DISABLED'] as const;
export const GiftVoucherStatus = z.enum(GIFT_VOUCHER_STATUSES);
export type GiftVoucherStatus = z.infer<typeof GiftVoucherStatus>;

export const GiftVoucherCreate = z.strictObject({
  amount: MoneyString.describe('At least "1.00", in the organization’s currency'),
  expiresAt: InstantInput.nullable().optional().describe('A future instant, or null for no expiry; default three years from now'),
  recipientName: DisplayName(200).optional(),
  recipientEmail: Email.optional().describe('Gets the GIFT_VOUCHER e-mail with the code'),
  message: z.string().max(500).optional(),
});
export type GiftVoucherCreate = z.infer<typeof GiftVoucherCreate>;

/** `POST /public/v1/gift-vouchers`: a guest buys a voucher online, for one of the org's `giftVoucherAmounts`. */
export const GiftVoucherPurchaseCreate = z.strictObject({
  amount: MoneyString.describe('One of the organization’s giftVoucherAmounts'),
  buyerName: DisplayName(200),
  buyerEmail: Email.describe('Gets the GIFT_VOUCHER e-mail too, or alone without recipientEmail'),
  recipientName: DisplayName(200).optional(),
  recipientEmail: Email.optional().describe('Gets the GIFT_VOUCHER e-mail with the code'),
  message: z.string().max(500).optional(),
});
export type GiftVoucherPurchaseCreate = z.infer<typeof GiftVoucherPurchaseCreate>;

/** `GET /public/v1/gift-vouchers`: what the widget offers before a purchase. */
export const GiftVoucherOffer = z.object({
  amounts: z.array(MoneyString).describe('The organization’s giftVoucherAmounts, in its currency; empty when none are sold online'),
  currency: z.string().describe('ISO 4217 code of the amounts'),
  available: z.boolean().describe('Whether POST /public/v1/gift-vouchers takes a purchase now: online payment and e-mail set up, and amounts set. False where it would answer 409 PAYMENTS_NOT_CONFIGURED'),
});
export type GiftVoucherOffer = z.infer<typeof GiftVoucherOffer>;

/** Where the buyer pays; the voucher is made once the provider reports the payment. */
export const GiftVoucherCheckout = z.object({ checkoutUrl: z.string().describe('The payment page (Stripe Checkout)') });
export type GiftVoucherCheckout = z.infer<typeof GiftVoucherCheckout>;

export const GiftVoucherPatch = z
  .strictObject({
    status: z.enum(['ACTIVE', 'DISABLED']),
    expiresAt: InstantInput.nullable(),
  })
  .partial()
  .refine((p) => Object.keys(p).length > 0, { message: 'Send at least one field to change' });
export type GiftVoucherPatch = z.infer<typeof GiftVoucherPatch>;

export const GiftVoucherRedemption = z.object({
  bookingId: z.string(),
  amount: z.string().describe('Spent (positive), or returned by a cancellation (negative)'),
  at: Instant,
});

export const GiftVoucher = z.object({
  id: z.string(),
  code: z.string().describe('In full here only; everywhere else masked, GV-••••-••••- and its last four'),
  amount: z.string(),
  balance: z.string(),
  currency: z.string(),
  expiresAt: Instant.nullable(),
  status: GiftVoucherStatus,
  recipientName: z.string().nullable(),
  recipientEmail: z.string().nullable(),
  message: z.string().nullable(),
  purchase: z
    .object({
      provider: z.string().describe('The payment provider, `stripe`'),
      reference: z.string().describe('The payment’s reference at the provider'),
      amount: z.string(),
      buyerName: z.string(),
      buyerEmail: z.string(),
    })
    .nullable()
    .describe('How a voucher bought online was paid for, and by whom; null for a voucher made by the operator'),
  createdAt: Instant,
  redemptions: z.array(GiftVoucherRedemption).describe('Oldest first'),
});
export type GiftVoucher = z.infer<typeof GiftVoucher>;

export const GiftVoucherListQuery = z.strictObject({ status: GiftVoucherStatus.optional(), ...PageQuery });

/** A gift voucher's code as everyone but the operator sees it: `GV-••••-••••-` and its last four characters. */
export const maskVoucherCode = (code: string): string => `GV-\u2022\u2022\u2022\u2022-\u2022\u2022\u2022\u2022-${code.slice(-4)}`;
