import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { ok } from '../http/reply.js';
import { quoteBooking } from '../services/quote.js';
import { Quote, QuoteRequest } from '../../shared/index.js';

/** What the description of both quote routes says (the public one adds its own limits). */
export const QUOTE_DESCRIPTION =
  'Prices a booking of these parts as if it were made now: checked as POST /bookings checks it (the party, the extras, ' +
  'the promo code then the voucher; 400s and 404) but never against the slot or its places. The lines come in a ' +
  'receipt’s order: TICKETS (one per `tickets` entry as sent, or one for `participants` labelled with the experience’s ' +
  'name), EXTRA (in the experience’s order), DISCOUNT (labelled with the code) and VOUCHER (labelled with its mask), ' +
  'the last two with negative `unitPrice` and `amount`. `amountDue` = `total` − `voucherAmount` = the sum of the lines. ' +
  'A booking of the same parts made at once has the same amounts. Nothing is stored: no code is used, no voucher spent.';

export function quoteRoutes(ctx: RouteContext): ApiRoutes {
  const { store } = ctx;
  return new ApiRoutes(ctx).op(
    {
      method: 'post',
      path: '/quote',
      summary: 'Price a booking without making it',
      description: QUOTE_DESCRIPTION,
      tag: 'Bookings',
      auth: 'secret',
      scope: 'bookings:read',
      body: QuoteRequest,
      response: Quote,
      errors: ['PROMO_CODE_INVALID', 'VOUCHER_INVALID'],
    },
    async ({ caller, body }) => ok(await quoteBooking(store, caller.orgId, body, ctx.now(), { activeOnly: false })),
  );
}
