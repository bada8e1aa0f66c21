// Gift vouchers' rules that need no store: their status at an instant, their default expiry, the
// amounts they may be made for.
import type { GiftVoucherStatus } from '../../shared/index.js';

/** A voucher is made for at least 1.00 and at most 999,999.99 of the organization's currency. */
export const MIN_VOUCHER_CENTS = 100;
export const MAX_VOUCHER_CENTS = 99_999_999;

/** `DISABLED` when disabled; else `EXPIRED` from `expiresAt` on; else `USED` at a zero balance; else `ACTIVE`. */
export function voucherStatus(v: { disabled: number; expiresAt: number | null; balance: number }, now: number): GiftVoucherStatus {
  if (v.disabled === 1) return 'DISABLED';
  if (v.expiresAt !== null && v.expiresAt <= now) return 'EXPIRED';
  if (v.balance === 0) return 'USED';
  return 'ACTIVE';
}

/** The expiry of a voucher made at `now` without one: the same instant three calendar years later (UTC). */
export function defaultVoucherExpiry(now: number): number {
  const d = new Date(now);
  d.setUTCFullYear(d.getUTCFullYear() + 3);
  return d.getTime();
}
