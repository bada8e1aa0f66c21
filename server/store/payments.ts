import type { Db } from './db.js';
import type { Page, PageResult } from './statements.js';

export interface PaymentRow {
  id: string;
  orgId: string;
  bookingId: string;
  amount: number; // cents
  currency: string;
  status: 'SUCCEEDED' | 'FAILED';
  provider: string;
  reference: string | null;
  failureReason: string | null;
  refundRequired: number; // 0 or 1
  createdAt: number;
}

export const COLUMNS = `id, org_id AS orgId, booking_id AS bookingId, amount, currency, status, provider, reference,
  failure_reason AS failureReason, refund_required AS refundRequired, created_at AS createdAt`;

export function paymentStore(db: Db) {
  const insert = db.prepare(`INSERT INTO payments (id, org_id, booking_id, amount, currency, status, provider,
    reference, failure_reason, refund_required, created_at)
    VALUES (@id, @orgId, @bookingId, @amount, @currency, @status, @provider, @reference, @failureReason,
    @refundRequired, @createdAt)`);
  const count = db.prepare('SELECT count(*) AS n FROM payments WHERE booking_id = ?');
  const page = db.prepare(`SELECT ${COLUMNS} FROM payments WHERE booking_id = ?
    ORDER BY created_at, id LIMIT ? OFFSET ?`);
  const byReference = db.prepare(`SELECT ${COLUMNS} FROM payments
    WHERE booking_id = ? AND provider = ? AND reference = ? AND status = ? LIMIT 1`);
  const succeededSum = db.prepare(`SELECT coalesce(sum(amount), 0) AS cents FROM payments
    WHERE booking_id = ? AND status = 'SUCCEEDED' AND refund_required = 0`);
  const insertEvent = db.prepare('INSERT OR IGNORE INTO provider_events (provider, event_id, received_at) VALUES (?, ?, ?)');
  const pruneEvents = db.prepare('DELETE FROM provider_events WHERE received_at < ?');

  return {
    insertPayment(row: PaymentRow): void {
      insert.run(row);
    },
    /** A booking's payments, oldest first. */
    listPayments(bookingId: string, p: Page): PageResult<PaymentRow> {
      const total = (count.get(bookingId) as { n: number }).n;
      return { rows: page.all(bookingId, p.limit, p.offset) as PaymentRow[], total };
    },
    /** A provider payment already recorded for this booking under the same reference and status. */
    getPaymentByReference(bookingId: string, provider: string, reference: string, status: PaymentRow['status']): PaymentRow | undefined {
      return byReference.get(bookingId, provider, reference, status) as PaymentRow | undefined;
    },
    /** Cents received for a booking and kept (refunds due not counted). */
    succeededPaymentsTotal(bookingId: string): number {
      return (succeededSum.get(bookingId) as { cents: number }).cents;
    },
    /** Notes a provider callback as handled; false when it was handled before. */
    insertProviderEvent(provider: string, eventId: string, receivedAt: number): boolean {
      return insertEvent.run(provider, eventId, receivedAt).changes === 1;
    },
    deleteProviderEventsBefore(before: number): number {
      return pruneEvents.run(before).changes;
    },
  };
}
