/**
 * Promo codes: an organization's discount codes, their rules and their uses. Bookings take and give
 * back uses through services/booking-codes.ts; here an operator makes, changes and deletes them.
 */
import { Refusal, invalid, notFound } from '../domain/refusal.js';
import type { Actor } from '../domain/actor.js';
import { newId } from '../domain/ids.js';
import { recordActivity } from './activity.js';
import type { Store } from '../store/index.js';
import type { Page, PageResult } from '../store/sql.js';
import { promoCodeKey, type PromoCodeRow } from '../store/promo-codes.js';
import { PromoCodeCreate, type PromoCodePatch } from '../../shared/index.js';
import type { z } from 'zod';

type CreateInput = z.output<typeof PromoCodeCreate>;
type PatchInput = z.output<typeof PromoCodePatch>;

export async function findPromoCode(store: Store, orgId: string, id: string): Promise<PromoCodeRow> {
  const row = await store.promoCodes.getPromoCode(orgId, id);
  if (!row) throw notFound('Promo code');
  return row;
}

export async function listPromoCodes(store: Store, orgId: string, filter: { active?: boolean | undefined }, page: Page): Promise<PageResult<PromoCodeRow>> {
  return await store.promoCodes.listPromoCodes(orgId, filter.active === undefined ? {} : { active: filter.active }, page);
}

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const msOrNull = (instant: string | null | undefined): number | null => (instant == null ? null : Date.parse(instant));

/** A whole record checked as a create would be (a percentage of 1–100, validFrom before validUntil…): a PATCH's result passes it too. */
function assertRules(row: PromoCodeRow): void {
  const checked = PromoCodeCreate.safeParse({
    code: row.code,
    discountType: row.discountType,
    discountValue: row.discountValue,
    experienceIds: row.experienceIds === null ? null : (JSON.parse(row.experienceIds) as string[]),
    validFrom: isoOrNull(row.validFrom),
    validUntil: isoOrNull(row.validUntil),
    maxUses: row.maxUses,
    active: row.active === 1,
  });
  const first = checked.error?.issues[0];
  if (first) throw invalid(first.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, ''), first.message);
}

/** Each id must be one of the org's experiences (400 naming the entry), each named once. */
async function assertOwnExperiences(store: Store, orgId: string, ids: readonly string[] | null): Promise<void> {
  if (ids === null) return;
  const seen = new Set<string>();
  for (const [i, id] of ids.entries()) {
    if (seen.has(id)) throw invalid(`experienceIds[${i}]`, `${id} is listed twice`);
    seen.add(id);
    if (!(await store.experiences.getExperience(orgId, id))) throw invalid(`experienceIds[${i}]`, `No experience ${id} in this organization`);
  }
}

/** A code's text is unique in the org whatever its case: a second one is a 409. */
async function assertCodeFree(store: Store, orgId: string, code: string, ownId: string | null): Promise<void> {
  const taken = await store.promoCodes.getPromoCodeByCode(orgId, code);
  if (taken && taken.id !== ownId) throw new Refusal('CONFLICT', `The promo code ${promoCodeKey(code)} already exists in this organization`);
}

function describeRule(row: PromoCodeRow): string {
  return row.discountType === 'PERCENT' ? `${row.discountValue}% off` : `${(row.discountValue / 100).toFixed(2)} off`;
}

export async function createPromoCode(store: Store, orgId: string, input: CreateInput, now: number, actor: Actor): Promise<PromoCodeRow> {
  const row: PromoCodeRow = {
    id: newId('promoCode', now),
    orgId,
    code: promoCodeKey(input.code),
    discountType: input.discountType,
    discountValue: input.discountValue,
    experienceIds: input.experienceIds ? JSON.stringify(input.experienceIds) : null,
    validFrom: msOrNull(input.validFrom),
    validUntil: msOrNull(input.validUntil),
    maxUses: input.maxUses ?? null,
    uses: 0,
    active: input.active === false ? 0 : 1,
    createdAt: now,
    updatedAt: now,
  };
  return await store.transaction(async () => {
    await assertOwnExperiences(store, orgId, input.experienceIds ?? null);
    await assertCodeFree(store, orgId, row.code, null);
    await store.promoCodes.insertPromoCode(row);
    await recordActivity(store, orgId, actor, { action: 'promo_code.create', targetType: 'promo_code', targetId: row.id, summary: `Added the promo code ${row.code} (${describeRule(row)})` }, now);
    return row;
  });
}

/** Any create field; the record it makes is checked as a create would be. */
export async function updatePromoCode(store: Store, orgId: string, id: string, patch: PatchInput, now: number, actor: Actor): Promise<PromoCodeRow> {
  return await store.transaction(async () => {
    const current = await findPromoCode(store, orgId, id);
    const next: PromoCodeRow = {
      ...current,
      code: patch.code === undefined ? current.code : promoCodeKey(patch.code),
      discountType: patch.discountType ?? current.discountType,
      discountValue: patch.discountValue ?? current.discountValue,
      experienceIds: patch.experienceIds === undefined ? current.experienceIds : patch.experienceIds === null ? null : JSON.stringify(patch.experienceIds),
      validFrom: patch.validFrom === undefined ? current.validFrom : msOrNull(patch.validFrom),
      validUntil: patch.validUntil === undefined ? current.validUntil : msOrNull(patch.validUntil),
      maxUses: patch.maxUses === undefined ? current.maxUses : patch.maxUses,
      active: patch.active === undefined ? current.active : patch.active ? 1 : 0,
      updatedAt: now,
    };
    assertRules(next);
    if (patch.experienceIds !== undefined) await assertOwnExperiences(store, orgId, patch.experienceIds);
    if (next.code !== current.code) await assertCodeFree(store, orgId, next.code, id);
    await store.promoCodes.updatePromoCode(next);
    await recordActivity(store, orgId, actor, { action: 'promo_code.update', targetType: 'promo_code', targetId: id, summary: `Changed ${Object.keys(patch).join(', ')} of the promo code ${next.code}` }, now);
    return next;
  });
}

/** Deletes a code; the bookings that took it keep their own copy of its rule. */
export async function deletePromoCode(store: Store, orgId: string, id: string, now: number, actor: Actor): Promise<void> {
  await store.transaction(async () => {
    const current = await findPromoCode(store, orgId, id);
    await store.promoCodes.deletePromoCode(orgId, id);
    await recordActivity(store, orgId, actor, { action: 'promo_code.delete', targetType: 'promo_code', targetId: id, summary: `Deleted the promo code ${current.code}` }, now);
  });
}
