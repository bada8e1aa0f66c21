/**
 * A booking's codes (promo code and gift voucher): checked after its answers and extras and before
 * any slot check, taken in the booking's transaction, and given back when the booking is cancelled.
 * The quote checks them the same way and takes nothing.
 */
import { Refusal } from '../domain/refusal.js';
import { newId } from '../domain/ids.js';
import { voucherStatus } from '../domain/gift-vouchers.js';
import { recordBookingEvent } from './event-log.js';
import { redemptionRow, voucherMask } from './gift-vouchers.js';
import type { PaymentRow } from '../store/payments.js';
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

const voucherRefusal = (reason: 'NOT_FOUND' | 'DISABLED' | 'EXPIRED' | 'USED' | 'CURRENCY', message: string) =>
  new Refusal('VOUCHER_INVALID', message, { reason });

/**
 * A gift voucher as a booking made `now` may spend it: its code read case-insensitively, outer spaces
 * ignored; the first that holds refuses: not the org's (NOT_FOUND), DISABLED, EXPIRED, USED (nothing
 * left), CURRENCY (made in another currency than the org's now).
 */
async function checkVoucherCode(store: Store, org: OrganizationRow, code: string, now: number): Promise<CheckedCodes['voucher']> {
  const voucher = await store.giftVouchers.getVoucherByCode(code.trim().toUpperCase());
  if (!voucher || voucher.orgId !== org.id) throw voucherRefusal('NOT_FOUND', 'This gift voucher does not exist');
  const status = voucherStatus(voucher, now);
  if (status === 'DISABLED') throw voucherRefusal('DISABLED', 'This gift voucher has been disabled');
  if (status === 'EXPIRED') throw voucherRefusal('EXPIRED', 'This gift voucher has expired');
  if (status === 'USED') throw voucherRefusal('USED', 'This gift voucher has been used up');
  if (voucher.currency !== org.currency) throw voucherRefusal('CURRENCY', `This gift voucher is in ${voucher.currency}, not in ${org.currency}`);
  return { id: voucher.id, mask: voucherMask(voucher), balance: voucher.balance };
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
  await spendVoucher(store, row);
}

/**
 * Takes the booking's voucher part off the balance by one conditional UPDATE: when bookings side by
 * side (in any process) spent it meanwhile, this one is refused as USED and writes nothing.
 */
async function spendVoucher(store: Store, row: BookingRow): Promise<void> {
  if (row.voucherId === null || row.voucherCents === null || row.voucherCents <= 0) return;
  if (!(await store.giftVouchers.spend(row.voucherId, row.voucherCents, row.createdAt))) {
    throw voucherRefusal('USED', 'This gift voucher has been used up');
  }
}

/**
 * In the booking's transaction, once it is written and BOOKING_CREATED recorded: what its codes
 * leave behind (the voucher's redemption and its SUCCEEDED payment, with PAYMENT_SUCCEEDED).
 */
export async function recordCodes(store: Store, booking: BookingView, now: number): Promise<void> {
  await recordVoucherPayment(store, booking, now);
}

/**
 * The voucher's part as a redemption and a SUCCEEDED payment of method VOUCHER (provider `voucher`,
 * reference the mask: never the code), with PAYMENT_SUCCEEDED. Never refundable: a cancellation
 * returns it to the voucher instead.
 */
async function recordVoucherPayment(store: Store, booking: BookingView, now: number): Promise<void> {
  if (booking.voucherId === null || booking.voucherCents === null || booking.voucherCents <= 0) return;
  await store.giftVouchers.insertRedemption(redemptionRow({ id: booking.voucherId, orgId: booking.orgId }, booking.id, booking.voucherCents, now));
  const payment: PaymentRow = {
    id: newId('payment', now),
    orgId: booking.orgId,
    bookingId: booking.id,
    amount: booking.voucherCents,
    currency: booking.currency,
    status: 'SUCCEEDED',
    provider: VOUCHER_PROVIDER,
    method: 'VOUCHER',
    reference: booking.voucherMask,
    failureReason: null,
    refundRequired: 0,
    createdAt: now,
  };
  await store.payments.insertPayment(payment);
  await recordBookingEvent(store, booking.orgId, 'PAYMENT_SUCCEEDED', booking, now, { payment });
}

/** The provider name of the payments a voucher's part makes. */
export const VOUCHER_PROVIDER = 'voucher';

/** A booking that stops holding its places (cancelled, any cause): frees its code's use and returns its voucher's part. */
export async function releaseCodes(store: Store, before: BookingView, now: number): Promise<void> {
  await freePromoUse(store, before);
  await returnVoucher(store, before, now);
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

/**
 * A booking paid after its hold lapsed (it was cancelled, its codes given back) takes its codes
 * again as it is confirmed again: the promo code's use and the voucher's part, by the same
 * conditional statements as `takeCodes`, in a savepoint. Answers false, with nothing taken, when
 * either is gone meanwhile (used up, spent elsewhere, disabled): the booking then stays cancelled.
 */
export async function retakeCodes(store: Store, booking: BookingView, now: number): Promise<boolean> {
  if (booking.promoCodeId === null && booking.voucherId === null) return true;
  try {
    await store.transaction(async () => {
      await takePromoUse(store, booking);
      // Spent again as of now (an expired or disabled voucher refuses), with its redemption again.
      await spendVoucher(store, { ...booking, createdAt: now });
      if (booking.voucherId !== null && booking.voucherCents !== null && booking.voucherCents > 0) {
        await store.giftVouchers.insertRedemption(redemptionRow({ id: booking.voucherId, orgId: booking.orgId }, booking.id, booking.voucherCents, now));
      }
    });
    return true;
  } catch (err) {
    if (err instanceof Refusal) return false;
    throw err;
  }
}

/**
 * Gives the voucher back what the booking still holds of it (its spends less its returns): a negative
 * redemption and the balance restored (a USED voucher is ACTIVE again). The booking keeps its
 * `voucher` and its VOUCHER payment stays listed.
 */
async function returnVoucher(store: Store, before: BookingView, now: number): Promise<void> {
  if (before.voucherId === null) return;
  const held = await store.giftVouchers.redeemedBy(before.voucherId, before.id);
  if (held <= 0) return;
  if (!(await store.giftVouchers.giveBack(before.voucherId, held, now))) throw new Error('A voucher cannot take back more than its amount');
  await store.giftVouchers.insertRedemption(redemptionRow({ id: before.voucherId, orgId: before.orgId }, before.id, -held, now));
}
