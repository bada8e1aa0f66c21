import type { RefundRow } from '../store/refunds.js';
import { formatMoney } from '../domain/money.js';
import { iso } from './instant.js';
import type { EventRefund, Refund } from '../../shared/index.js';

export function serializeRefund(row: RefundRow): Refund {
  return {
    id: row.id,
    bookingId: row.bookingId,
    amount: formatMoney(row.amount),
    currency: row.currency,
    method: row.method,
    status: row.status,
    reason: row.reason,
    createdAt: iso(row.createdAt),
  };
}

/** The refund as a `PAYMENT_REFUNDED` event carries it. */
export function serializeEventRefund(row: RefundRow): EventRefund {
  const { id, amount, currency, method, status, reason } = serializeRefund(row);
  return { id, amount, currency, method, status, reason };
}
