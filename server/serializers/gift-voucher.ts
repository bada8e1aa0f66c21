import { formatMoney } from '../domain/money.js';
import { voucherStatus } from '../domain/gift-vouchers.js';
import type { VoucherWithRedemptions } from '../store/gift-vouchers.js';
import type { MessageRow } from '../store/messages.js';
import { iso, isoOrNull } from './instant.js';
import { messageFields } from './message.js';
import type { GiftVoucher, GiftVoucherMessage } from '../../shared/index.js';

/** A voucher as `/v1/gift-vouchers` shows it: the only answer that carries its code in full. */
export function serializeGiftVoucher({ voucher: v, redemptions }: VoucherWithRedemptions, now: number): GiftVoucher {
  return {
    id: v.id,
    code: v.code,
    amount: formatMoney(v.amount),
    balance: formatMoney(v.balance),
    currency: v.currency,
    expiresAt: isoOrNull(v.expiresAt),
    status: voucherStatus(v, now),
    recipientName: v.recipientName,
    recipientEmail: v.recipientEmail,
    message: v.message,
    purchase:
      v.purchaseProvider === null || v.purchaseReference === null || v.purchaseAmount === null
        ? null
        : { provider: v.purchaseProvider, reference: v.purchaseReference, amount: formatMoney(v.purchaseAmount), buyerName: v.buyerName ?? '', buyerEmail: v.buyerEmail ?? '' },
    createdAt: iso(v.createdAt),
    redemptions: redemptions.map((r) => ({ bookingId: r.bookingId, amount: formatMoney(r.amount), at: iso(r.createdAt) })),
  };
}

export function serializeGiftVoucherMessage(row: MessageRow): GiftVoucherMessage {
  return { ...messageFields(row), giftVoucherId: row.giftVoucherId ?? '' };
}
