import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { created, list, ok, pageOf } from '../http/reply.js';
import { createPromoCode, deletePromoCode, findPromoCode, listPromoCodes, updatePromoCode } from '../services/promo-codes.js';
import { serializePromoCode } from '../serializers/promo-code.js';
import { Deleted, PromoCode, PromoCodeCreate, PromoCodeListQuery, PromoCodePatch } from '../../shared/index.js';

const RULES =
  '`code`: 3–32 of A–Z, 0–9, `-` and `_`, stored upper-case, unique in the organization whatever its case (409 CONFLICT), ' +
  'never starting with `GV-` (those are gift vouchers). `discountType` `PERCENT` takes a `discountValue` of 1–100, ' +
  '`AMOUNT` integer cents in the organization’s currency. `experienceIds`: null for every experience, or 1–100 of the ' +
  'organization’s experience ids. `validFrom` must be before `validUntil` (exclusive). `maxUses`: null for unlimited.';

/** Promo codes (docs/promotions.md): what bookings take with `promoCode`. */
export function promoCodeRoutes(ctx: RouteContext): ApiRoutes {
  const tag = 'Promo codes';
  const { store } = ctx;
  const read = { tag, auth: 'secret', scope: 'promotions:read' } as const;
  const write = { tag, auth: 'secret', scope: 'promotions:write' } as const;
  const params = { id: 'promoCode' } as const;

  return new ApiRoutes(ctx)
    .op(
      { ...read, method: 'get', path: '/promo-codes', summary: 'List promo codes, newest first', description: '`active` keeps only active (true) or inactive (false) codes.', query: PromoCodeListQuery, response: PromoCode, list: true },
      async ({ caller, query }) => {
        const page = pageOf(query);
        const { rows, total } = await listPromoCodes(store, caller.orgId, { active: query.active }, page);
        return list(rows.map(serializePromoCode), total, page);
      },
    )
    .op(
      {
        ...write,
        method: 'post',
        path: '/promo-codes',
        summary: 'Create a promo code',
        description: `${RULES} \`uses\` starts at 0 and counts the CONFIRMED and PENDING bookings that took the code.`,
        body: PromoCodeCreate,
        response: PromoCode,
        status: 201,
        errors: ['CONFLICT'],
      },
      async ({ caller, body }) => created(serializePromoCode(await createPromoCode(store, caller.orgId, body, ctx.now(), caller.actor))),
    )
    .op(
      { ...read, method: 'get', path: '/promo-codes/:id', summary: 'Get a promo code', params, response: PromoCode },
      async ({ caller, params }) => ok(serializePromoCode(await findPromoCode(store, caller.orgId, params.id))),
    )
    .op(
      {
        ...write,
        method: 'patch',
        path: '/promo-codes/:id',
        summary: 'Update a promo code',
        description:
          `Any create field; the record it makes is checked as a create. ${RULES} Bookings that took the code keep their ` +
          'own copy of its rule: a change applies to later bookings only.',
        params,
        body: PromoCodePatch,
        response: PromoCode,
        errors: ['CONFLICT'],
      },
      async ({ caller, params, body }) => ok(serializePromoCode(await updatePromoCode(store, caller.orgId, params.id, body, ctx.now(), caller.actor))),
    )
    .op(
      {
        ...write,
        method: 'delete',
        path: '/promo-codes/:id',
        summary: 'Delete a promo code',
        description: 'Bookings that took it keep their discount. To stop new bookings taking a code while keeping it listed, set `active` to false.',
        params,
        response: Deleted,
      },
      async ({ caller, params }) => {
        await deletePromoCode(store, caller.orgId, params.id, ctx.now(), caller.actor);
        return ok({ id: params.id, deleted: true });
      },
    );
}
