import type { Page, PageResult, Sql } from './sql.js';

export const REFUND_METHODS = ['CASH', 'CARD', 'BANK_TRANSFER', 'STRIPE', 'OTHER'] as const;
export type RefundMethod = (typeof REFUND_METHODS)[number];
export type RefundStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

export interface RefundRow {
  id: string;
  orgId: string;
  bookingId: string;
  amount: number; // cents
  currency: string;
  method: RefundMethod;
  status: RefundStatus;
  reason: string | null;
  /** The Stripe payment a STRIPE refund is taken from; null for the others. */
  paymentId: string | null;
  /** Stripe's refund id once Stripe has answered; null before, and for refunds by hand. */
  reference: string | null;
  failureReason: string | null;
  createdAt: number;
  updatedAt: number;
}

/** What a booking's refunds hold back from what it was paid. */
export interface RefundTotals {
  /** Cents of SUCCEEDED and PENDING refunds, whatever their method. */
  held: number;
  /** Cents of SUCCEEDED and PENDING refunds per Stripe payment they are taken from. */
  heldByPayment: Map<string, number>;
}

/** Refunds of bookings (migration 015), and the booking's `amount_refunded` they add up to. */
export interface RefundStore {
  insertRefund(row: RefundRow): Promise<void>;
  getRefund(orgId: string, id: string): Promise<RefundRow | undefined>;
  /** A STRIPE refund by Stripe's id for it. */
  getRefundByReference(reference: string): Promise<RefundRow | undefined>;
  /** A booking's refunds, oldest first (id breaking ties), with how many it has in all. */
  listRefunds(bookingId: string, p: Page): Promise<PageResult<RefundRow>>;
  refundTotals(bookingId: string): Promise<RefundTotals>;
  /**
   * Moves a PENDING refund on (its status, Stripe's id, why it failed); answers whether it was still
   * PENDING, so that two reports of one outcome apply it once.
   */
  settleRefund(id: string, next: Pick<RefundRow, 'status' | 'reference' | 'failureReason' | 'updatedAt'>): Promise<boolean>;
  /** Notes Stripe's id for a refund still PENDING. */
  setRefundReference(id: string, reference: string, updatedAt: number): Promise<void>;
  /** Adds a SUCCEEDED refund's cents to its booking's `amount_refunded`. */
  addAmountRefunded(bookingId: string, cents: number): Promise<void>;
  /** PENDING STRIPE refunds Stripe has not answered for, recorded before `before`, oldest first. */
  listUnsentRefunds(before: number, limit: number): Promise<RefundRow[]>;
}

const COLUMNS = `id, org_id AS "orgId", booking_id AS "bookingId", amount, currency, method, status, reason,
  payment_id AS "paymentId", reference, failure_reason AS "failureReason", created_at AS "createdAt", updated_at AS "updatedAt"`;

export function refundStore(sql: Sql): RefundStore {
  return {
    async insertRefund(row) {
      await sql.run(
        `INSERT INTO refunds (id, org_id, booking_id, amount, currency, method, status, reason, payment_id, reference,
          failure_reason, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [row.id, row.orgId, row.bookingId, row.amount, row.currency, row.method, row.status, row.reason, row.paymentId,
          row.reference, row.failureReason, row.createdAt, row.updatedAt],
      );
    },
    getRefund: (orgId, id) => sql.get<RefundRow>(`SELECT ${COLUMNS} FROM refunds WHERE org_id = ? AND id = ?`, [orgId, id]),
    getRefundByReference: (reference) =>
      sql.get<RefundRow>(`SELECT ${COLUMNS} FROM refunds WHERE reference = ? AND method = 'STRIPE' ORDER BY created_at, id LIMIT 1`, [reference]),
    async listRefunds(bookingId, p) {
      const count = await sql.get<{ n: number }>('SELECT count(*) AS n FROM refunds WHERE booking_id = ?', [bookingId]);
      const rows = await sql.all<RefundRow>(
        `SELECT ${COLUMNS} FROM refunds WHERE booking_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?`,
        [bookingId, p.limit, p.offset],
      );
      return { rows, total: count!.n }; // count(*) always answers one row
    },
    async refundTotals(bookingId) {
      // sum() of a BIGINT column is NUMERIC on PostgreSQL: cast back to an integer.
      const rows = await sql.all<{ paymentId: string | null; cents: number }>(
        `SELECT payment_id AS "paymentId", CAST(sum(amount) AS BIGINT) AS cents FROM refunds
          WHERE booking_id = ? AND status IN ('PENDING', 'SUCCEEDED') GROUP BY payment_id`,
        [bookingId],
      );
      const heldByPayment = new Map<string, number>();
      let held = 0;
      for (const r of rows) {
        held += Number(r.cents);
        if (r.paymentId !== null) heldByPayment.set(r.paymentId, Number(r.cents));
      }
      return { held, heldByPayment };
    },
    settleRefund: async (id, next) =>
      (await sql.run(
        `UPDATE refunds SET status = ?, reference = coalesce(?, reference), failure_reason = ?, updated_at = ?
          WHERE id = ? AND status = 'PENDING'`,
        [next.status, next.reference, next.failureReason, next.updatedAt, id],
      )) === 1,
    async setRefundReference(id, reference, updatedAt) {
      await sql.run(`UPDATE refunds SET reference = ?, updated_at = ? WHERE id = ? AND status = 'PENDING'`, [reference, updatedAt, id]);
    },
    async addAmountRefunded(bookingId, cents) {
      await sql.run('UPDATE bookings SET amount_refunded = amount_refunded + ? WHERE id = ?', [cents, bookingId]);
    },
    listUnsentRefunds: (before, limit) =>
      sql.all<RefundRow>(
        `SELECT ${COLUMNS} FROM refunds WHERE status = 'PENDING' AND method = 'STRIPE' AND reference IS NULL AND created_at < ?
          ORDER BY created_at, id LIMIT ?`,
        [before, limit],
      ),
  };
}
