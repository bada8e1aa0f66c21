/**
 * A booking's codes (promo code and gift voucher): checked after its answers and extras and before
 * any slot check, taken in the booking's transaction, and given back when the booking is cancelled.
 * The quote checks them the same way and takes nothing.
 */
import { Refusal } from '../domain/refusal.js';
import type { BookingLines, DiscountRule, PROMO_CODE_REASONS } from '../../shared/index.js';
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

/** A promo code as a booking of `exp` made `now` may take it; the first rule it breaks refuses, in the contract's order. */
async function checkPromoCode(store: Store, org: OrganizationRow, exp: ExperienceRow, input: string, now: number): Promise<CheckedCodes['promo']> {
  const text = input.trim().toUpperCase();
  const refuse = (reason: (typeof PROMO_CODE_REASONS)[number], message: string): never => {
    throw new Refusal('PROMO_CODE_INVALID', message, { reason });
  };
  const code = text === '' ? undefined : await store.promoCodes.getPromoCodeByCode(org.id, text);
  if (!code) return refuse('NOT_FOUND', 'This promo code does not exist');
  if (code.active !== 1) return refuse('INACTIVE', `The promo code ${code.code} is no longer active`);
  if (code.validFrom !== null && now < code.validFrom) return refuse('NOT_YET_VALID', `The promo code ${code.code} is not valid yet`);
  if (code.validUntil !== null && now >= code.validUntil) return refuse('EXPIRED', `The promo code ${code.code} has expired`);
  if (code.experienceIds !== null && !(JSON.parse(code.experienceIds) as string[]).includes(exp.id)) {
    return refuse('NOT_FOR_EXPERIENCE', `The promo code ${code.code} does not apply to ${exp.name}`);
  }
  if (code.maxUses !== null && code.uses >= code.maxUses) return refuse('USED_UP', `The promo code ${code.code} has been used up`);
  return { id: code.id, rule: { code: code.code, type: code.discountType, value: code.discountValue } };
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
export async function takeCodes(store: Store, row: BookingRow): Promise<void> {
  await takePromoUse(store, row);
  if (row.voucherId !== null) throw new Refusal('VOUCHER_INVALID', 'This gift voucher does not exist', { reason: 'NOT_FOUND' });
}

/**
 * In the booking's transaction, once it is written and BOOKING_CREATED recorded: what its codes
 * leave behind (the voucher's redemption and its SUCCEEDED payment, with PAYMENT_SUCCEEDED).
 */
export async function recordCodes(_store: Store, _booking: BookingView, _now: number): Promise<void> {}

/** A booking that stops holding its places (cancelled, any cause): frees its code's use and returns its voucher's part. */
export async function releaseCodes(store: Store, before: BookingView, _now: number): Promise<void> {
  await freePromoUse(store, before);
}

/**
 * The booking's use of its promo code, by one conditional UPDATE: of bookings racing for the last
 * use exactly one gets it, on either engine and across processes; the others are refused USED_UP.
 */
async function takePromoUse(store: Store, row: BookingRow): Promise<void> {
  if (row.promoCodeId === null) return;
  if (!(await store.promoCodes.takeUse(row.promoCodeId))) {
    throw new Refusal('PROMO_CODE_INVALID', `The promo code ${row.discountCode ?? ''} has been used up`, { reason: 'USED_UP' });
  }
}

/** Gives the use back (a code deleted since is gone: nothing to give); the booking keeps its discount. */
async function freePromoUse(store: Store, before: BookingRow): Promise<void> {
  if (before.promoCodeId !== null) await store.promoCodes.freeUse(before.promoCodeId);
}
