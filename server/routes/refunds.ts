import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { created, list, pageOf } from '../http/reply.js';
import { createRefund, listBookingRefunds, sendRefund } from '../services/refunds.js';
import { serializeRefund } from '../serializers/refund.js';
import { Refund, RefundCreate, RefundListQuery } from '../../shared/index.js';

/** `POST` and `GET /v1/bookings/{id}/refunds`: money given back, through Stripe or by hand (docs/payments.md). */
export function refundRoutes(ctx: RouteContext): ApiRoutes {
  const tag = 'Payments';
  const { store } = ctx;
  return new ApiRoutes(ctx)
    .op(
      {
        method: 'post',
        path: '/bookings/:id/refunds',
        summary: 'Refund money on a booking',
        description:
          'Any booking status; the booking’s status does not change. `amount` must be more than 0.00 (else 400) and at most what ' +
          'is left to refund: its SUCCEEDED payments less its SUCCEEDED and PENDING refunds (else 409 REFUND_EXCEEDS_PAID). ' +
          '`method` defaults to STRIPE when the booking has a Stripe payment, else OTHER. A STRIPE refund is taken from one Stripe ' +
          'payment through Stripe’s Refunds API and is PENDING until Stripe reports it SUCCEEDED or FAILED (409 CONFLICT when ' +
          'this server has no Stripe configured); a refund by any other method is SUCCEEDED at once. A SUCCEEDED refund adds to ' +
          'the booking’s `amountRefunded` and fires PAYMENT_REFUNDED with `data.refund`.',
        tag,
        auth: 'secret',
        scope: 'bookings:write',
        params: { id: 'booking' },
        body: RefundCreate,
        response: Refund,
        status: 201,
        errors: ['REFUND_EXCEEDS_PAID', 'CONFLICT'],
        // A STRIPE refund calls Stripe after its record is committed: a concurrent retry gets IDEMPOTENCY_KEY_IN_USE.
        async: true,
      },
      async ({ caller, params, body }) => {
        const { refund, order } = await createRefund(store, caller.orgId, params.id, body, { now: ctx.now(), actor: caller.actor, provider: ctx.payments });
        const sent = order && ctx.payments ? await sendRefund(store, ctx.payments, order, ctx.now, ctx.logger) : refund;
        return created(serializeRefund(sent));
      },
    )
    .op(
      {
        method: 'get',
        path: '/bookings/:id/refunds',
        summary: 'List a booking’s refunds, oldest first',
        tag,
        auth: 'secret',
        scope: 'bookings:read',
        params: { id: 'booking' },
        query: RefundListQuery,
        response: Refund,
        list: true,
      },
      async ({ caller, params, query }) => {
        const page = pageOf(query);
        const { rows, total } = await listBookingRefunds(store, caller.orgId, params.id, page);
        return list(rows.map(serializeRefund), total, page);
      },
    );
}
