import type { PaymentRow } from '../store/payments.js';
import { formatMoney } from '../domain/money.js';
import { iso } from './instant.js';
import type { EventPayment, Payment } from '../../shared/index.js';

export function serializePayment(row: PaymentRow): Payment {
  return {
    id: row.id,
    bookingId: row.bookingId,
    amount: formatMoney(row.amount),
    currency: row.currency,
    status: row.status,
    provider: row.provider,
    method: row.method,
    reference: row.reference,
    failureReason: row.failureReason,
    refundRequired: row.refundRequired === 1,
    createdAt: iso(row.createdAt),
  };
}

/** The payment as a `PAYMENT_*` event carries it. */
export function serializeEventPayment(row: PaymentRow): EventPayment {
  const { id, amount, currency, status, provider, method, failureReason } = serializePayment(row);
  return { id, amount, currency, status, provider, method, failureReason };
}
