import type { Sql } from './sql.js';

/** A gift voucher bought online, from its checkout until the provider reports the payment (migration 018). */
export interface GiftVoucherPurchaseRow {
  id: string;
  orgId: string;
  /** The provider's checkout once opened; null before. */
  checkoutSessionId: string | null;
  /** Cents. */
  amount: number;
  currency: string;
  buyerName: string;
  buyerEmail: string;
  recipientName: string | null;
  recipientEmail: string | null;
  message: string | null;
  /** The voucher made once paid; null until then (and for ever when the checkout was abandoned). */
  voucherId: string | null;
  createdAt: number;
}

export interface GiftVoucherPurchaseStore {
  insertPurchase(row: GiftVoucherPurchaseRow): Promise<void>;
  setCheckoutSession(id: string, sessionId: string): Promise<void>;
  getPurchaseBySession(sessionId: string): Promise<GiftVoucherPurchaseRow | undefined>;
  /** Notes the voucher made for a purchase; answers false when one was already made (the payment reported twice). */
  setPurchaseVoucher(id: string, voucherId: string): Promise<boolean>;
}

const COLUMNS = `id, org_id AS "orgId", checkout_session_id AS "checkoutSessionId", amount, currency, buyer_name AS "buyerName",
  buyer_email AS "buyerEmail", recipient_name AS "recipientName", recipient_email AS "recipientEmail", message,
  voucher_id AS "voucherId", created_at AS "createdAt"`;

export function giftVoucherPurchaseStore(sql: Sql): GiftVoucherPurchaseStore {
  return {
    async insertPurchase(row) {
      await sql.run(
        `INSERT INTO gift_voucher_purchases (id, org_id, checkout_session_id, amount, currency, buyer_name, buyer_email,
          recipient_name, recipient_email, message, voucher_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [row.id, row.orgId, row.checkoutSessionId, row.amount, row.currency, row.buyerName, row.buyerEmail, row.recipientName,
          row.recipientEmail, row.message, row.voucherId, row.createdAt],
      );
    },
    async setCheckoutSession(id, sessionId) {
      await sql.run('UPDATE gift_voucher_purchases SET checkout_session_id = ? WHERE id = ?', [sessionId, id]);
    },
    getPurchaseBySession: (sessionId) =>
      sql.get<GiftVoucherPurchaseRow>(`SELECT ${COLUMNS} FROM gift_voucher_purchases WHERE checkout_session_id = ?`, [sessionId]),
    setPurchaseVoucher: async (id, voucherId) =>
      (await sql.run('UPDATE gift_voucher_purchases SET voucher_id = ? WHERE id = ? AND voucher_id IS NULL', [voucherId, id])) === 1,
  };
}
