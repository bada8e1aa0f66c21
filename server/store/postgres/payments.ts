import type { Async } from '../index.js';
import { COLUMNS as SQLITE_COLUMNS, type PaymentRow, type paymentStore } from '../payments.js';
import type { Page, PageResult } from '../statements.js';
import { quoteAliases, type PgDb } from './db.js';

/** SQLite's column list with its camelCase aliases quoted: PostgreSQL folds unquoted ones to lower case. */
const COLUMNS = quoteAliases(SQLITE_COLUMNS);

export function paymentStorePg(db: PgDb): Async<ReturnType<typeof paymentStore>> {
  return {
    async insertPayment(row: PaymentRow): Promise<void> {
      await db.run(
        `INSERT INTO payments (id, org_id, booking_id, amount, currency, status, provider, reference, failure_reason,
          refund_required, created_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [row.id, row.orgId, row.bookingId, row.amount, row.currency, row.status, row.provider, row.reference,
          row.failureReason, row.refundRequired, row.createdAt],
      );
    },
    /** A booking's payments, oldest first. */
    async listPayments(bookingId: string, p: Page): Promise<PageResult<PaymentRow>> {
      const total = (await db.get<{ n: number }>('SELECT count(*) AS n FROM payments WHERE booking_id = $1', [bookingId]))!.n;
      const rows = await db.all<PaymentRow>(
        `SELECT ${COLUMNS} FROM payments WHERE booking_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`,
        [bookingId, p.limit, p.offset],
      );
      return { rows, total };
    },
    /**
     * A provider payment already recorded for this booking under the same reference and status.
     * SQLite's `LIMIT 1` without ORDER BY walks payments_booking, so it answers the oldest match
     * (created_at, then id); the ORDER BY says so here, where the plan may differ.
     */
    async getPaymentByReference(bookingId: string, provider: string, reference: string, status: PaymentRow['status']): Promise<PaymentRow | undefined> {
      return await db.get<PaymentRow>(
        `SELECT ${COLUMNS} FROM payments WHERE booking_id = $1 AND provider = $2 AND reference = $3 AND status = $4
          ORDER BY created_at, id LIMIT 1`,
        [bookingId, provider, reference, status],
      );
    },
    /** Cents received for a booking and kept (refunds due not counted). sum() of BIGINT is NUMERIC: cast back. */
    async succeededPaymentsTotal(bookingId: string): Promise<number> {
      return (await db.get<{ cents: number }>(
        `SELECT coalesce(sum(amount), 0)::bigint AS cents FROM payments
          WHERE booking_id = $1 AND status = 'SUCCEEDED' AND refund_required = 0`,
        [bookingId],
      ))!.cents;
    },
    /**
     * Notes a provider callback as handled; false when it was handled before. SQLite's INSERT OR
     * IGNORE on the primary key: ON CONFLICT on that key does nothing, and rowCount is 0.
     */
    async insertProviderEvent(provider: string, eventId: string, receivedAt: number): Promise<boolean> {
      return (await db.run(
        `INSERT INTO provider_events (provider, event_id, received_at) VALUES ($1, $2, $3)
          ON CONFLICT (provider, event_id) DO NOTHING`,
        [provider, eventId, receivedAt],
      )) === 1;
    },
    async deleteProviderEventsBefore(before: number): Promise<number> {
      return await db.run('DELETE FROM provider_events WHERE received_at < $1', [before]);
    },
  };
}
