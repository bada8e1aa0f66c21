import type { Page, PageResult, Sql } from './sql.js';

export type GiftVoucherStatus = 'ACTIVE' | 'USED' | 'EXPIRED' | 'DISABLED';

export interface GiftVoucherRow {
  id: string;
  orgId: string;
  /** `GV-XXXX-XXXX-XXXX`, upper-case, unique on the server. */
  code: string;
  /** Cents, at creation. */
  amount: number;
  /** Cents left: 0 ≤ balance ≤ amount. */
  balance: number;
  currency: string;
  expiresAt: number | null;
  disabled: number; // 0 or 1
  recipientName: string | null;
  recipientEmail: string | null;
  message: string | null;
  buyerName: string | null;
  buyerEmail: string | null;
  purchaseProvider: string | null;
  purchaseReference: string | null;
  purchaseAmount: number | null;
  createdAt: number;
  updatedAt: number;
}

/** One spend of a voucher by a booking (amount > 0) or its return by the booking's cancellation (amount < 0). */
export interface VoucherRedemptionRow {
  id: string;
  orgId: string;
  voucherId: string;
  bookingId: string;
  amount: number;
  createdAt: number;
}

/** A voucher with its redemptions, oldest first: what its record shows. */
export interface VoucherWithRedemptions {
  voucher: GiftVoucherRow;
  redemptions: VoucherRedemptionRow[];
}

/**
 * Gift vouchers and their redemptions. A voucher's balance moves only by one conditional UPDATE
 * (`spend`, `giveBack`), so bookings side by side, in any process, never spend more than it holds.
 */
export interface GiftVoucherStore {
  /** Writes a new voucher; false (and nothing written) when its code is already taken. */
  insertVoucher(row: GiftVoucherRow): Promise<boolean>;
  getVoucher(orgId: string, id: string): Promise<GiftVoucherRow | undefined>;
  /** By its code exactly as stored (upper-case), in any organization. */
  getVoucherByCode(code: string): Promise<GiftVoucherRow | undefined>;
  /** Newest first (id breaking ties); `status` as it stands at `now`. */
  listVouchers(orgId: string, filter: { status?: GiftVoucherStatus | undefined; now: number }, page: Page): Promise<PageResult<GiftVoucherRow>>;
  /** Sets whether it is disabled and when it expires; answers how many rows changed (0: not the org's). */
  updateVoucher(orgId: string, id: string, fields: { disabled: number; expiresAt: number | null; updatedAt: number }): Promise<number>;
  /** Takes `cents` off the balance only if the balance holds them; answers whether it did. */
  spend(id: string, cents: number, now: number): Promise<boolean>;
  /** Puts `cents` back on the balance, never above the amount; answers whether it did. */
  giveBack(id: string, cents: number, now: number): Promise<boolean>;
  insertRedemption(row: VoucherRedemptionRow): Promise<void>;
  /** The redemptions of these vouchers, oldest first (id breaking ties). */
  listRedemptions(voucherIds: readonly string[]): Promise<VoucherRedemptionRow[]>;
  /** What a booking has of a voucher now: its spends less its returns, in cents (0 when none). */
  redeemedBy(voucherId: string, bookingId: string): Promise<number>;
}

const COLUMNS = `id, org_id AS "orgId", code, amount, balance, currency, expires_at AS "expiresAt", disabled,
  recipient_name AS "recipientName", recipient_email AS "recipientEmail", message, buyer_name AS "buyerName",
  buyer_email AS "buyerEmail", purchase_provider AS "purchaseProvider", purchase_reference AS "purchaseReference",
  purchase_amount AS "purchaseAmount", created_at AS "createdAt", updated_at AS "updatedAt"`;
const REDEMPTION_COLUMNS = `id, org_id AS "orgId", voucher_id AS "voucherId", booking_id AS "bookingId", amount, created_at AS "createdAt"`;

/**
 * A status as conditions on the row at a time given as the next parameters: each answers its
 * condition and how many `now` parameters it takes. The order of the contract: DISABLED, else
 * EXPIRED, else USED, else ACTIVE.
 */
const STATUS_CONDITION: Record<GiftVoucherStatus, { sql: string; nows: number }> = {
  DISABLED: { sql: 'disabled = 1', nows: 0 },
  EXPIRED: { sql: 'disabled = 0 AND expires_at IS NOT NULL AND expires_at <= ?', nows: 1 },
  USED: { sql: 'disabled = 0 AND (expires_at IS NULL OR expires_at > ?) AND balance = 0', nows: 1 },
  ACTIVE: { sql: 'disabled = 0 AND (expires_at IS NULL OR expires_at > ?) AND balance > 0', nows: 1 },
};

export function giftVoucherStore(sql: Sql): GiftVoucherStore {
  return {
    // ON CONFLICT (code) DO NOTHING: a clash of codes changes nothing and spoils no transaction.
    insertVoucher: async (row) =>
      (await sql.run(
        `INSERT INTO gift_vouchers (id, org_id, code, amount, balance, currency, expires_at, disabled, recipient_name,
          recipient_email, message, buyer_name, buyer_email, purchase_provider, purchase_reference, purchase_amount,
          created_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (code) DO NOTHING`,
        [row.id, row.orgId, row.code, row.amount, row.balance, row.currency, row.expiresAt, row.disabled, row.recipientName,
          row.recipientEmail, row.message, row.buyerName, row.buyerEmail, row.purchaseProvider, row.purchaseReference,
          row.purchaseAmount, row.createdAt, row.updatedAt],
      )) === 1,
    getVoucher: (orgId, id) => sql.get<GiftVoucherRow>(`SELECT ${COLUMNS} FROM gift_vouchers WHERE id = ? AND org_id = ?`, [id, orgId]),
    getVoucherByCode: (code) => sql.get<GiftVoucherRow>(`SELECT ${COLUMNS} FROM gift_vouchers WHERE code = ?`, [code]),
    async listVouchers(orgId, filter, page) {
      const status = filter.status === undefined ? undefined : STATUS_CONDITION[filter.status];
      const where = status ? `org_id = ? AND ${status.sql}` : 'org_id = ?';
      const params = [orgId, ...Array.from({ length: status?.nows ?? 0 }, () => filter.now)];
      const count = await sql.get<{ n: number }>(`SELECT count(*) AS n FROM gift_vouchers WHERE ${where}`, params);
      const rows = await sql.all<GiftVoucherRow>(
        `SELECT ${COLUMNS} FROM gift_vouchers WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
        [...params, page.limit, page.offset],
      );
      return { rows, total: count!.n }; // count(*) always answers one row
    },
    updateVoucher: (orgId, id, fields) =>
      sql.run('UPDATE gift_vouchers SET disabled = ?, expires_at = ?, updated_at = ? WHERE id = ? AND org_id = ?', [
        fields.disabled, fields.expiresAt, fields.updatedAt, id, orgId,
      ]),
    // The check and the write in one statement: whichever booking comes second sees the balance the
    // first left (the row lock on PostgreSQL, the single writer on SQLite).
    spend: async (id, cents, now) =>
      (await sql.run('UPDATE gift_vouchers SET balance = balance - ?, updated_at = ? WHERE id = ? AND balance >= ?', [cents, now, id, cents])) === 1,
    giveBack: async (id, cents, now) =>
      (await sql.run('UPDATE gift_vouchers SET balance = balance + ?, updated_at = ? WHERE id = ? AND balance + ? <= amount', [
        cents, now, id, cents,
      ])) === 1,
    async insertRedemption(row) {
      await sql.run('INSERT INTO voucher_redemptions (id, org_id, voucher_id, booking_id, amount, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
        row.id, row.orgId, row.voucherId, row.bookingId, row.amount, row.createdAt,
      ]);
    },
    async listRedemptions(voucherIds) {
      if (voucherIds.length === 0) return [];
      return await sql.all<VoucherRedemptionRow>(
        `SELECT ${REDEMPTION_COLUMNS} FROM voucher_redemptions WHERE voucher_id IN (${voucherIds.map(() => '?').join(', ')})
          ORDER BY created_at, id`,
        voucherIds,
      );
    },
    async redeemedBy(voucherId, bookingId) {
      // sum() of a BIGINT column is NUMERIC on PostgreSQL: cast back to an integer.
      const row = await sql.get<{ cents: number }>(
        'SELECT CAST(coalesce(sum(amount), 0) AS BIGINT) AS cents FROM voucher_redemptions WHERE voucher_id = ? AND booking_id = ?',
        [voucherId, bookingId],
      );
      return row!.cents;
    },
  };
}
