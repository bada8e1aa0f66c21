import { z } from 'zod';
import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { created, list, ok, pageOf } from '../http/reply.js';
import { serializeGiftVoucher, serializeGiftVoucherMessage } from '../serializers/gift-voucher.js';
import {
  createGiftVoucher,
  getGiftVoucher,
  listGiftVoucherMessages,
  listGiftVouchers,
  resendGiftVoucherMessage,
  updateGiftVoucher,
} from '../services/gift-vouchers.js';
import { GiftVoucher, GiftVoucherCreate, GiftVoucherListQuery, GiftVoucherMessage, GiftVoucherPatch, PageQuery } from '../../shared/index.js';

const MessageListQuery = z.strictObject({ ...PageQuery });

export function giftVoucherRoutes(ctx: RouteContext): ApiRoutes {
  const tag = 'Gift vouchers';
  const { store } = ctx;
  return new ApiRoutes(ctx)
    .op(
      {
        method: 'get',
        path: '/gift-vouchers',
        summary: 'List gift vouchers, newest first',
        description:
          '`status` keeps the vouchers of one status as it stands now: `DISABLED` (by PATCH), else `EXPIRED` (from `expiresAt` on), ' +
          'else `USED` (balance 0.00), else `ACTIVE`.',
        tag,
        auth: 'secret',
        scope: 'promotions:read',
        query: GiftVoucherListQuery,
        response: GiftVoucher,
        list: true,
      },
      async ({ caller, query }) => {
        const page = pageOf(query);
        const now = ctx.now();
        const { rows, total } = await listGiftVouchers(store, caller.orgId, query.status, page, now);
        return list(rows.map((r) => serializeGiftVoucher(r, now)), total, page);
      },
    )
    .op(
      {
        method: 'post',
        path: '/gift-vouchers',
        summary: 'Create a gift voucher',
        description:
          'A voucher of `amount` (1.00–999999.99) in the organization’s currency, with a new code `GV-XXXX-XXXX-XXXX` shown in full ' +
          'only by these `/v1/gift-vouchers` answers. `expiresAt` defaults to three years from now; null means no expiry. With ' +
          '`recipientEmail`, a GIFT_VOUCHER e-mail with the code is sent to it (SKIPPED without a mail server).',
        tag,
        auth: 'secret',
        scope: 'promotions:write',
        body: GiftVoucherCreate,
        response: GiftVoucher,
        status: 201,
      },
      async ({ caller, body }) => {
        const now = ctx.now();
        return created(serializeGiftVoucher(await createGiftVoucher(store, caller.orgId, body, now, caller.actor), now));
      },
    )
    .op(
      {
        method: 'get',
        path: '/gift-vouchers/:id',
        summary: 'Get a gift voucher with its redemptions',
        tag,
        auth: 'secret',
        scope: 'promotions:read',
        params: { id: 'giftVoucher' },
        response: GiftVoucher,
      },
      async ({ caller, params }) => ok(serializeGiftVoucher(await getGiftVoucher(store, caller.orgId, params.id), ctx.now())),
    )
    .op(
      {
        method: 'patch',
        path: '/gift-vouchers/:id',
        summary: 'Disable or enable a gift voucher, or change its expiry',
        description:
          '`status` `DISABLED` stops the voucher being redeemed; `ACTIVE` lifts that (it may then read `USED` or `EXPIRED`). `expiresAt` ' +
          'may be any instant, or null for no expiry. Spent amounts are never changed here.',
        tag,
        auth: 'secret',
        scope: 'promotions:write',
        params: { id: 'giftVoucher' },
        body: GiftVoucherPatch,
        response: GiftVoucher,
      },
      async ({ caller, params, body }) => {
        const now = ctx.now();
        return ok(serializeGiftVoucher(await updateGiftVoucher(store, caller.orgId, params.id, body, now, caller.actor), now));
      },
    )
    .op(
      {
        method: 'get',
        path: '/gift-vouchers/:id/messages',
        summary: 'The e-mails sent with a gift voucher’s code',
        description: 'Oldest first, with their delivery status; `SKIPPED` ones were not sent because no mail server is configured.',
        tag,
        auth: 'secret',
        scope: 'promotions:read',
        params: { id: 'giftVoucher' },
        query: MessageListQuery,
        response: GiftVoucherMessage,
        list: true,
      },
      async ({ caller, params, query }) => {
        const page = pageOf(query);
        const { rows, total } = await listGiftVoucherMessages(store, caller.orgId, params.id, page);
        return list(rows.map(serializeGiftVoucherMessage), total, page);
      },
    )
    .op(
      {
        method: 'post',
        path: '/gift-vouchers/:id/messages/:messageId/resend',
        summary: 'Send a gift voucher’s e-mail again',
        description:
          'Queues a new GIFT_VOUCHER message to the address the original went to, sent at once; the original stays as it was. ' +
          'A message still PENDING is tried again on its own and cannot be resent (409 CONFLICT).',
        tag,
        auth: 'secret',
        scope: 'promotions:write',
        params: { id: 'giftVoucher', messageId: 'message' },
        response: GiftVoucherMessage,
        status: 202,
        errors: ['CONFLICT'],
      },
      async ({ caller, params }) =>
        ok(serializeGiftVoucherMessage(await resendGiftVoucherMessage(store, caller.orgId, params.id, params.messageId, ctx.now())), 202),
    );
}
