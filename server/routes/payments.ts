import { Hono } from 'hono';
import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { created, list, pageOf } from '../http/reply.js';
import { Refusal } from '../domain/refusal.js';
import type { AppEnv } from '../http/context.js';
import { applyCallback } from '../services/online-checkout.js';
import { listBookingPayments, recordManualPayment } from '../services/payments.js';
import { serializePayment } from '../serializers/payment.js';
import { Payment, PaymentCreate, PaymentListQuery } from '../../shared/index.js';

/** `POST` and `GET /v1/bookings/{id}/payments`: payments recorded by hand (docs/payments.md). */
export function paymentRoutes(ctx: RouteContext): ApiRoutes {
  const tag = 'Payments';
  const { store } = ctx;
  return new ApiRoutes(ctx)
    .op(
      {
        method: 'post',
        path: '/bookings/:id/payments',
        summary: 'Record a payment taken outside Outing',
        description:
          'Provider `manual`. Fires PAYMENT_SUCCEEDED or PAYMENT_FAILED with `data.payment`. A SUCCEEDED payment on a PENDING ' +
          'booking confirms it (PAYMENT_SUCCEEDED, then BOOKING_UPDATED with `changes.status`) and ends its open online ' +
          'checkout; a FAILED one changes no booking state. A cancelled booking takes no payments (409 INVALID_STATUS_TRANSITION).',
        tag,
        auth: 'secret',
        scope: 'bookings:write',
        params: { id: 'booking' },
        body: PaymentCreate,
        response: Payment,
        status: 201,
        errors: ['INVALID_STATUS_TRANSITION'],
      },
      async ({ caller, params, body }) => {
        const { payment, supersededCheckout } = await recordManualPayment(store, caller.orgId, params.id, body, ctx.now(), caller.actor);
        if (supersededCheckout && ctx.payments) {
          // Paid by other means: the guest must not pay again at the provider. Best effort, off the
          // request path; should they pay in the meantime, that payment arrives as a callback.
          ctx.payments.expireCheckout(supersededCheckout).catch((err: unknown) =>
            ctx.logger.warn('could not end a checkout after a manual payment', {
              bookingId: payment.bookingId,
              error: err instanceof Error ? err.message : String(err),
            }),
          );
        }
        return created(serializePayment(payment));
      },
    )
    .op(
      {
        method: 'get',
        path: '/bookings/:id/payments',
        summary: 'List a booking’s payments, oldest first',
        tag,
        auth: 'secret',
        scope: 'bookings:read',
        params: { id: 'booking' },
        query: PaymentListQuery,
        response: Payment,
        list: true,
      },
      async ({ caller, params, query }) => {
        const page = pageOf(query);
        const { rows, total } = await listBookingPayments(store, caller.orgId, params.id, page);
        return list(rows.map(serializePayment), total, page);
      },
    );
}

/** Far above any Checkout event; a bigger body is not from the provider. */
const MAX_CALLBACK_BYTES = 1024 * 1024;

/**
 * `POST /payments/{provider}/webhook`: the provider's signed callbacks (docs/payments.md), at the root,
 * without an API key. The signature covers the exact bytes sent, so the raw body is read as is (no
 * JSON rules); errors still use the contract's envelope.
 */
export function paymentCallbackRoutes(ctx: RouteContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post('/payments/:provider/webhook', async (c) => {
    const provider = ctx.payments?.name === c.req.param('provider') ? ctx.payments : undefined;
    if (!provider) {
      const name = c.req.param('provider');
      throw new Refusal('NOT_FOUND', `Online payment with ${name} is not configured on this server`);
    }
    const declared = Number(c.req.header('content-length') ?? 0);
    if (declared > MAX_CALLBACK_BYTES) throw new Refusal('PAYLOAD_TOO_LARGE', 'Callback body over 1 MiB');
    const raw = new Uint8Array(await c.req.arrayBuffer());
    if (raw.byteLength > MAX_CALLBACK_BYTES) throw new Refusal('PAYLOAD_TOO_LARGE', 'Callback body over 1 MiB');
    const notice = await provider.readCallback(raw, (name) => c.req.header(name), ctx.now());
    const outcome = await applyCallback(ctx.store, provider, notice, ctx.now(), ctx.logger);
    ctx.logger.info('payment callback', { provider: provider.name, eventId: notice.eventId, outcome });
    return c.json({ success: true, data: { eventId: notice.eventId, outcome } }, 200);
  });
  return app;
}
