import type { PromoCodeRow } from '../store/promo-codes.js';
import { iso, isoOrNull } from './instant.js';
import type { PromoCode } from '../../shared/index.js';

export function serializePromoCode(row: PromoCodeRow): PromoCode {
  return {
    id: row.id,
    code: row.code,
    discountType: row.discountType,
    discountValue: row.discountValue,
    experienceIds: row.experienceIds === null ? null : (JSON.parse(row.experienceIds) as string[]),
    validFrom: isoOrNull(row.validFrom),
    validUntil: isoOrNull(row.validUntil),
    maxUses: row.maxUses,
    uses: row.uses,
    active: row.active === 1,
    createdAt: iso(row.createdAt),
  };
}
