import type { Page, PageResult, Sql } from './sql.js';

export interface PaymentRow {
  id: string;
  orgId: string;
  bookingId: string;
  amount: number; // cents
  currency: string;
  status: 'SUCCEEDED' | 'FAILED';
  provider: string;
  /**
   * How it was made (migration 012): STRIPE for the Stripe provider's, else what was recorded by
   * hand. Payments stored before the column existed read as STRIPE (the Stripe provider's) or OTHER.
   */
  method: 'CASH' | 'CARD' | 'BANK_TRANSFER' | 'STRIPE' | 'OTHER' | 'VOUCHER';
  reference: string | null;
  failureReason: string | null;
  refundRequired: number; // 0 or 1
  createdAt: number;
}

/** Payments recorded against bookings, and the provider callbacks already handled. */
export interface PaymentStore {
  /** Records a payment; a SUCCEEDED one adds its cents to its booking's `amount_paid`. */
  insertPayment(row: PaymentRow): Promise<void>;
  /** A booking's payments, oldest first (id breaking ties), with how many it has in all. */
  listPayments(bookingId: string, p: Page): Promise<PageResult<PaymentRow>>;
  /**
   * A provider payment already recorded for this booking under the same reference and status
   * (all three compared exactly); the oldest when several are.
   */
  getPaymentByReference(bookingId: string, provider: string, reference: string, status: PaymentRow['status']): Promise<PaymentRow | undefined>;
  /** Cents received for a booking and kept (refunds due not counted); 0 when none. */
  succeededPaymentsTotal(bookingId: string): Promise<number>;
  /**
   * Notes a provider callback as handled; false when it was handled before (the same provider and
   * event id, exactly). A repeat changes nothing, not even the time noted, and does not spoil a
   * transaction it runs in.
   */
  insertProviderEvent(provider: string, eventId: string, receivedAt: number): Promise<boolean>;
  /** Forgets the callbacks noted before `before`; answers how many. */
  deleteProviderEventsBefore(before: number): Promise<number>;
}

const COLUMNS = `id, org_id AS "orgId", booking_id AS "bookingId", amount, currency, status, provider,
  coalesce(method, CASE WHEN provider = 'stripe' THEN 'STRIPE' ELSE 'OTHER' END) AS method, reference,
  failure_reason AS "failureReason", refund_required AS "refundRequired", created_at AS "createdAt"`;

export function paymentStore(sql: Sql): PaymentStore {
  return {
    async insertPayment(row) {
      await sql.run(
        `INSERT INTO payments (id, org_id, booking_id, amount, currency, status, provider, method, reference, failure_reason,
          refund_required, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [row.id, row.orgId, row.bookingId, row.amount, row.currency, row.status, row.provider, row.method, row.reference,
          row.failureReason, row.refundRequired, row.createdAt],
      );
      // The booking's paid sum moves with it, in the same transaction: its amount due reads it.
      if (row.status === 'SUCCEEDED') await sql.run('UPDATE bookings SET amount_paid = amount_paid + ? WHERE id = ?', [row.amount, row.bookingId]);
    },
    async listPayments(bookingId, p) {
      const count = await sql.get<{ n: number }>('SELECT count(*) AS n FROM payments WHERE booking_id = ?', [bookingId]);
      const rows = await sql.all<PaymentRow>(
        `SELECT ${COLUMNS} FROM payments WHERE booking_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?`,
        [bookingId, p.limit, p.offset],
      );
      return { rows, total: count!.n }; // count(*) always answers one row
    },
    // payments_booking (booking_id, created_at, id) gives this order without a sort.
    getPaymentByReference: (bookingId, provider, reference, status) =>
      sql.get<PaymentRow>(
        `SELECT ${COLUMNS} FROM payments WHERE booking_id = ? AND provider = ? AND reference = ? AND status = ?
          ORDER BY created_at, id LIMIT 1`,
        [bookingId, provider, reference, status],
      ),
    async succeededPaymentsTotal(bookingId) {
      // sum() of a BIGINT column is NUMERIC on PostgreSQL: cast back to an integer.
      const row = await sql.get<{ cents: number }>(
        `SELECT CAST(coalesce(sum(amount), 0) AS BIGINT) AS cents FROM payments
          WHERE booking_id = ? AND status = 'SUCCEEDED' AND refund_required = 0`,
        [bookingId],
      );
      return row!.cents;
    },
    // ON CONFLICT … DO NOTHING on the primary key: a repeat raises no error (which would abort a
    // PostgreSQL transaction) and changes no row.
    insertProviderEvent: async (provider, eventId, receivedAt) =>
      (await sql.run(
        `INSERT INTO provider_events (provider, event_id, received_at) VALUES (?, ?, ?)
          ON CONFLICT (provider, event_id) DO NOTHING`,
        [provider, eventId, receivedAt],
      )) === 1,
    deleteProviderEventsBefore: (before) => sql.run('DELETE FROM provider_events WHERE received_at < ?', [before]),
  };
}
