import Stripe from 'stripe';
import { Refusal } from '../domain/refusal.js';
import type { CallbackNotice, Checkout, CheckoutOutcome, CheckoutRequest, PaymentProvider, RefundOutcome, RefundReport, RefundRequest } from './provider.js';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Where the API is reached (`https://api.stripe.com` when unset); tests point it at a local fake. */
  apiBase?: string;
}

/**
 * Stripe measures a Checkout Session's `expires_at` from its own clock at creation: at least 30
 * minutes, at most 24 hours later. A minute of margin on each side keeps request latency and
 * clock skew from turning a valid hold into a refused session; a hold shorter than that is still
 * enforced, by the sweeper expiring the session when the hold lapses.
 */
const MIN_SESSION_SECONDS = 31 * 60;
const MAX_SESSION_SECONDS = 23 * 3600 + 59 * 60;
/** Stripe's own default tolerance for a callback's signed timestamp. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

type Session = Stripe.Checkout.Session;

function connection(apiBase: string | undefined): Pick<NonNullable<ConstructorParameters<typeof Stripe>[1]>, 'host' | 'port' | 'protocol'> {
  if (apiBase === undefined) return {};
  const url = new URL(apiBase);
  return {
    host: url.hostname,
    port: url.port || (url.protocol === 'http:' ? 80 : 443),
    protocol: url.protocol === 'http:' ? 'http' : 'https',
  };
}

function paymentOf(session: Session) {
  const intent = session.payment_intent;
  return {
    amount: session.amount_total ?? 0,
    currency: (session.currency ?? '').toUpperCase(),
    reference: (typeof intent === 'string' ? intent : intent?.id) ?? session.id,
  };
}

/** Reads where a session stands. */
export function outcomeOfSession(session: Session): CheckoutOutcome {
  if (session.status === 'expired') return { state: 'expired', payment: paymentOf(session) };
  if (session.status === 'complete') {
    return session.payment_status === 'unpaid' ? { state: 'processing' } : { state: 'paid', payment: paymentOf(session) };
  }
  return { state: 'open' };
}

/** What each Checkout event means for the booking; other event types are ignored. */
function outcomeOfEvent(type: string, session: Session): CheckoutOutcome | undefined {
  switch (type) {
    case 'checkout.session.completed':
      return session.payment_status === 'unpaid' ? { state: 'processing' } : { state: 'paid', payment: paymentOf(session) };
    case 'checkout.session.async_payment_succeeded':
      return { state: 'paid', payment: paymentOf(session) };
    case 'checkout.session.async_payment_failed':
      return { state: 'failed', payment: paymentOf(session), failureReason: 'payment_failed' };
    case 'checkout.session.expired':
      return { state: 'expired', payment: paymentOf(session) };
    default:
      return undefined;
  }
}

/** Where a Stripe refund stands: `requires_action` is still on its way; `canceled` never happened. */
export function outcomeOfRefund(refund: Stripe.Refund): RefundOutcome {
  switch (refund.status) {
    case 'succeeded':
      return { state: 'succeeded', reference: refund.id };
    case 'failed':
    case 'canceled':
      return { state: 'failed', reference: refund.id, failureReason: refund.failure_reason ?? refund.status };
    default:
      return { state: 'pending', reference: refund.id };
  }
}

function reportOf(refund: Stripe.Refund): RefundReport {
  return { refundId: refund.metadata?.refundId, orgId: refund.metadata?.orgId, outcome: outcomeOfRefund(refund) };
}

/**
 * The refunds a refund event tells about: `refund.*` events carry the refund itself; `charge.refunded`
 * carries the charge, with its refunds when the API version lists them.
 */
function refundsOfEvent(event: Stripe.Event): RefundReport[] | undefined {
  const object = event.data.object as { object?: string };
  if (event.type.startsWith('refund.') && object.object === 'refund') return [reportOf(object as Stripe.Refund)];
  if (event.type === 'charge.refunded' && object.object === 'charge') return ((object as Stripe.Charge).refunds?.data ?? []).map(reportOf);
  return undefined;
}

const signatureError = (message: string) =>
  new Refusal('VALIDATION_ERROR', message, [{ path: 'Stripe-Signature', message }]);

/** Stripe Checkout (hosted payment page) as Outing's first payment provider. */
export class StripeCheckout implements PaymentProvider {
  readonly name = 'stripe';
  private readonly stripe: Stripe;

  constructor(private readonly settings: StripeSettings) {
    this.stripe = new Stripe(settings.secretKey, {
      // A guest waits on the booking request while the session is created: fail within ~20 s.
      maxNetworkRetries: 1,
      timeout: 10_000,
      telemetry: false,
      appInfo: { name: 'Outing' },
      ...connection(settings.apiBase),
    });
  }

  async createCheckout(req: CheckoutRequest): Promise<Checkout> {
    const nowSeconds = Math.floor(req.now / 1000);
    const expiresAt = Math.min(Math.max(Math.ceil(req.expiresAt / 1000), nowSeconds + MIN_SESSION_SECONDS), nowSeconds + MAX_SESSION_SECONDS);
    const reference = { orgId: req.orgId, bookingId: req.bookingId, bookingNumber: req.bookingNumber };
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: req.lineItems.map((item) => ({
          quantity: item.quantity,
          price_data: {
            currency: req.currency.toLowerCase(),
            unit_amount: item.unitAmount,
            product_data: { name: item.name, description: req.description },
          },
        })),
        ...(req.customerEmail === null ? {} : { customer_email: req.customerEmail }),
        client_reference_id: req.bookingId,
        metadata: reference,
        payment_intent_data: { metadata: reference, description: `${req.bookingNumber} · ${req.title}` },
        success_url: req.successUrl,
        cancel_url: req.cancelUrl,
        expires_at: expiresAt,
      },
      // A retried create (network blip) returns the same session instead of a second one.
      { idempotencyKey: `outing-checkout-${req.bookingId}` },
    );
    if (!session.url) throw new Error(`Stripe returned Checkout Session ${session.id} without a url`);
    return { sessionId: session.id, url: session.url };
  }

  async expireCheckout(sessionId: string): Promise<CheckoutOutcome> {
    try {
      return outcomeOfSession(await this.stripe.checkout.sessions.expire(sessionId));
    } catch (err) {
      // Only an open session can be expired: any other answer means it ended already (paid,
      // expired by Stripe itself…). Ask how, rather than trusting the error's wording.
      if (!(err instanceof Stripe.errors.StripeInvalidRequestError)) throw err;
      return outcomeOfSession(await this.stripe.checkout.sessions.retrieve(sessionId));
    }
  }

  async createRefund(req: RefundRequest): Promise<RefundOutcome> {
    try {
      const refund = await this.stripe.refunds.create(
        {
          payment_intent: req.paymentReference,
          amount: req.amount,
          reason: 'requested_by_customer',
          metadata: { orgId: req.orgId, bookingId: req.bookingId, refundId: req.refundId, ...(req.reason ? { reason: req.reason } : {}) },
        },
        // Sent again after a lost answer or a restart, the same refund id makes no second refund.
        { idempotencyKey: `outing-refund-${req.refundId}` },
      );
      return outcomeOfRefund(refund);
    } catch (err) {
      // Stripe understood and refused (already refunded, amount too large, no such payment): final.
      // Anything else (network, outage, rate limit) is thrown, so the refund is asked for again.
      if (err instanceof Stripe.errors.StripeInvalidRequestError || err instanceof Stripe.errors.StripeCardError) {
        return { state: 'failed', reference: null, failureReason: err.message };
      }
      throw err;
    }
  }

  async readCallback(rawBody: Uint8Array, header: (name: string) => string | undefined, receivedAt: number): Promise<CallbackNotice> {
    const signature = header('stripe-signature');
    if (!signature) throw signatureError('Missing the Stripe-Signature header: only Stripe’s signed callbacks are accepted here');
    let event: Stripe.Event;
    try {
      event = await this.stripe.webhooks.constructEventAsync(
        rawBody,
        signature,
        this.settings.webhookSecret,
        SIGNATURE_TOLERANCE_SECONDS,
        undefined,
        receivedAt,
      );
    } catch (err) {
      if (!(err instanceof Stripe.errors.StripeSignatureVerificationError)) throw signatureError('The callback body is not a Stripe event');
      const first = (err.message.split('\n')[0] ?? '').trim();
      throw signatureError(
        /tolerance/i.test(first)
          ? 'Stripe-Signature timestamp is too old (more than 5 minutes): the callback was refused as a possible replay'
          : `Stripe-Signature does not match the body with the configured STRIPE_WEBHOOK_SECRET (${first})`,
      );
    }
    const refunds = refundsOfEvent(event);
    if (refunds) return { kind: 'refund', eventId: event.id, refunds };
    const session = event.data.object as Session;
    const outcome = outcomeOfEvent(event.type, session);
    if (!outcome || session.object !== 'checkout.session') return { kind: 'ignored', eventId: event.id, type: event.type };
    const { orgId, bookingId } = session.metadata ?? {};
    return {
      kind: 'checkout',
      eventId: event.id,
      sessionId: session.id,
      booking: orgId && bookingId ? { orgId, bookingId } : undefined,
      outcome,
    };
  }
}
