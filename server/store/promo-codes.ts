import type { Page, PageResult, Sql } from './sql.js';

export interface PromoCodeRow {
  id: string;
  orgId: string;
  /** Upper-case, unique in the org. */
  code: string;
  discountType: 'PERCENT' | 'AMOUNT';
  /** 1–100 for PERCENT; cents for AMOUNT. */
  discountValue: number;
  /** JSON array of experience ids, or null for every experience. */
  experienceIds: string | null;
  validFrom: number | null;
  validUntil: number | null;
  maxUses: number | null;
  /** The CONFIRMED and PENDING bookings that took it; moved only by `takeUse` and `freeUse`. */
  uses: number;
  active: number;
  createdAt: number;
  updatedAt: number;
}

/**
 * An organization's promo codes. A code's `uses` never passes `max_uses`: a use is taken by one
 * conditional UPDATE (`takeUse`), never by a read and then a write, so of two bookings racing for
 * the last use exactly one gets it, on either engine and across processes.
 */
export interface PromoCodeStore {
  insertPromoCode(row: PromoCodeRow): Promise<void>;
  /** Changes every field but `uses`, of the code of `row.orgId` only. */
  updatePromoCode(row: PromoCodeRow): Promise<void>;
  getPromoCode(orgId: string, id: string): Promise<PromoCodeRow | undefined>;
  /** By its text, whatever the case it is given in. */
  getPromoCodeByCode(orgId: string, code: string): Promise<PromoCodeRow | undefined>;
  /** Newest first, id breaking ties; `active` keeps only active (true) or inactive (false) codes. */
  listPromoCodes(orgId: string, filter: { active?: boolean }, page: Page): Promise<PageResult<PromoCodeRow>>;
  /** False when the org has no such code. */
  deletePromoCode(orgId: string, id: string): Promise<boolean>;
  /** Takes one use if the code has one left; answers whether it did. */
  takeUse(id: string): Promise<boolean>;
  /** Gives one use back (never below zero); answers whether there was one to give back. */
  freeUse(id: string): Promise<boolean>;
}

const COLUMNS = `id, org_id AS "orgId", code, discount_type AS "discountType", discount_value AS "discountValue",
  experience_ids AS "experienceIds", valid_from AS "validFrom", valid_until AS "validUntil", max_uses AS "maxUses", uses, active,
  created_at AS "createdAt", updated_at AS "updatedAt"`;

/** Integers may come back as strings from a BIGINT column: every field read as the number it is. */
const rowOf = (r: PromoCodeRow): PromoCodeRow => ({
  ...r,
  discountValue: Number(r.discountValue),
  validFrom: r.validFrom === null ? null : Number(r.validFrom),
  validUntil: r.validUntil === null ? null : Number(r.validUntil),
  maxUses: r.maxUses === null ? null : Number(r.maxUses),
  uses: Number(r.uses),
  active: Number(r.active),
  createdAt: Number(r.createdAt),
  updatedAt: Number(r.updatedAt),
});

export const promoCodeKey = (code: string): string => code.trim().toUpperCase();

export function promoCodeStore(sql: Sql): PromoCodeStore {
  return {
    async insertPromoCode(row) {
      await sql.run(
        `INSERT INTO promo_codes (id, org_id, code, discount_type, discount_value, experience_ids, valid_from, valid_until,
          max_uses, uses, active, created_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [row.id, row.orgId, row.code, row.discountType, row.discountValue, row.experienceIds, row.validFrom, row.validUntil,
          row.maxUses, row.uses, row.active, row.createdAt, row.updatedAt],
      );
    },
    async updatePromoCode(row) {
      await sql.run(
        `UPDATE promo_codes SET code = ?, discount_type = ?, discount_value = ?, experience_ids = ?, valid_from = ?,
          valid_until = ?, max_uses = ?, active = ?, updated_at = ? WHERE org_id = ? AND id = ?`,
        [row.code, row.discountType, row.discountValue, row.experienceIds, row.validFrom, row.validUntil, row.maxUses,
          row.active, row.updatedAt, row.orgId, row.id],
      );
    },
    async getPromoCode(orgId, id) {
      const row = await sql.get<PromoCodeRow>(`SELECT ${COLUMNS} FROM promo_codes WHERE org_id = ? AND id = ?`, [orgId, id]);
      return row && rowOf(row);
    },
    async getPromoCodeByCode(orgId, code) {
      const row = await sql.get<PromoCodeRow>(`SELECT ${COLUMNS} FROM promo_codes WHERE org_id = ? AND code = ?`, [orgId, promoCodeKey(code)]);
      return row && rowOf(row);
    },
    async listPromoCodes(orgId, filter, page) {
      const where = filter.active === undefined ? 'org_id = ?' : 'org_id = ? AND active = ?';
      const params = filter.active === undefined ? [orgId] : [orgId, filter.active ? 1 : 0];
      const count = await sql.get<{ n: number }>(`SELECT count(*) AS n FROM promo_codes WHERE ${where}`, params);
      const rows = await sql.all<PromoCodeRow>(
        `SELECT ${COLUMNS} FROM promo_codes WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
        [...params, page.limit, page.offset],
      );
      return { rows: rows.map(rowOf), total: Number(count!.n) }; // count(*) always answers one row
    },
    deletePromoCode: async (orgId, id) => (await sql.run('DELETE FROM promo_codes WHERE org_id = ? AND id = ?', [orgId, id])) > 0,
    takeUse: async (id) =>
      (await sql.run('UPDATE promo_codes SET uses = uses + 1 WHERE id = ? AND (max_uses IS NULL OR uses < max_uses)', [id])) === 1,
    freeUse: async (id) => (await sql.run('UPDATE promo_codes SET uses = uses - 1 WHERE id = ? AND uses > 0', [id])) === 1,
  };
}
