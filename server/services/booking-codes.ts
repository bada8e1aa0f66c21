/**
 * A booking's codes (promo code and gift voucher): checked after its answers and extras and before
 * any slot check, taken in the booking's transaction, and given back when the booking is cancelled.
 * The quote checks them the same way and takes nothing.
 */
import { Refusal } from '../domain/refusal.js';
import type { BookingLines, DiscountRule } from '../../shared/index.js';
import type { BookingRow, BookingView } from '../store/bookings.js';
import type { ExperienceRow } from '../store/experiences.js';
import type { OrganizationRow } from '../store/organizations.js';
import type { Store } from '../store/index.js';

/** The codes a booking (or a quote) came with, once checked: what the lines are made from. */
export interface CheckedCodes {
  /** The promo code's id and its rule as the booking will keep it; null without one. */
  promo: { id: string; rule: DiscountRule } | null;
  /** The voucher's id, its mask and its balance in cents when checked; null without one. */
  voucher: { id: string; mask: string; balance: number } | null;
}

export const NO_CODES: CheckedCodes = { promo: null, voucher: null };

/** The promo code first, then the voucher; the first that does not hold refuses (400 with its reason). */
export async function checkCodes(
  store: Store,
  org: OrganizationRow,
  exp: ExperienceRow,
  input: { promoCode?: string | undefined; voucherCode?: string | undefined },
  now: number,
): Promise<CheckedCodes> {
  const promo = input.promoCode === undefined ? null : await checkPromoCode(store, org, exp, input.promoCode, now);
  const voucher = input.voucherCode === undefined ? null : await checkVoucherCode(store, org, input.voucherCode, now);
  return { promo, voucher };
}

/** A promo code as a booking of `exp` made `now` may take it. */
async function checkPromoCode(_store: Store, _org: OrganizationRow, _exp: ExperienceRow, _code: string, _now: number): Promise<CheckedCodes['promo']> {
  throw new Refusal('PROMO_CODE_INVALID', 'This promo code does not exist', { reason: 'NOT_FOUND' });
}

/** A gift voucher as a booking made `now` may spend it. */
async function checkVoucherCode(_store: Store, _org: OrganizationRow, _code: string, _now: number): Promise<CheckedCodes['voucher']> {
  throw new Refusal('VOUCHER_INVALID', 'This gift voucher does not exist', { reason: 'NOT_FOUND' });
}

/** The booking's own copy of what its codes came to: the fields of its row. */
export function codeFields(codes: CheckedCodes, lines: BookingLines): Pick<
  BookingRow,
  'promoCodeId' | 'discountCode' | 'discountType' | 'discountValue' | 'voucherId' | 'voucherMask' | 'voucherCents'
> {
  const spent = codes.voucher !== null && lines.voucherAmount > 0;
  return {
    promoCodeId: codes.promo?.id ?? null,
    discountCode: codes.promo?.rule.code ?? null,
    discountType: codes.promo?.rule.type ?? null,
    discountValue: codes.promo?.rule.value ?? null,
    voucherId: spent ? codes.voucher!.id : null,
    voucherMask: spent ? codes.voucher!.mask : null,
    voucherCents: spent ? lines.voucherAmount : null,
  };
}

/**
 * In the booking's transaction, before it is written: takes the promo code's use and the voucher's
 * part, each by one conditional statement; refuses (the transaction rolls back) when another booking
 * took the last use or the balance meanwhile.
 */
export async function takeCodes(_store: Store, row: BookingRow): Promise<void> {
  if (row.promoCodeId !== null) throw new Refusal('PROMO_CODE_INVALID', 'This promo code does not exist', { reason: 'NOT_FOUND' });
  if (row.voucherId !== null) throw new Refusal('VOUCHER_INVALID', 'This gift voucher does not exist', { reason: 'NOT_FOUND' });
}

/**
 * In the booking's transaction, once it is written and BOOKING_CREATED recorded: what its codes
 * leave behind (the voucher's redemption and its SUCCEEDED payment, with PAYMENT_SUCCEEDED).
 */
export async function recordCodes(_store: Store, _booking: BookingView, _now: number): Promise<void> {}

/** A booking that stops holding its places (cancelled, any cause): frees its code's use and returns its voucher's part. */
export async function releaseCodes(_store: Store, _before: BookingView, _now: number): Promise<void> {}

/**
 * A booking paid after its hold lapsed (it was cancelled, its codes given back) takes its codes
 * again as it is confirmed again: the promo code's use and the voucher's part, by the same
 * conditional statements as `takeCodes`, in a savepoint. Answers false, with nothing taken, when
 * either is gone meanwhile (used up, spent elsewhere, disabled): the booking then stays cancelled.
 */
export async function retakeCodes(store: Store, booking: BookingView): Promise<boolean> {
  if (booking.promoCodeId === null && booking.voucherId === null) return true;
  try {
    await store.transaction(async () => await takeCodes(store, booking));
    return true;
  } catch (err) {
    if (err instanceof Refusal) return false;
    throw err;
  }
}
