/**
 * The one seam between Outing and an online payment provider (docs/payments.md). A provider hosts a
 * checkout page for one booking, can end it, and sends signed callbacks; everything else (holds,
 * payment records, booking moves, events) is the provider-neutral code around it. Another provider
 * is one file implementing this interface, plus a line in `configure.ts`.
 */

/** What to charge for one held booking, and where to send the customer back to. */
export interface CheckoutRequest {
  orgId: string;
  bookingId: string;
  bookingNumber: string;
  /** Shown on the checkout page. */
  title: string;
  description: string;
  /**
   * What is charged, one line per kind of ticket (a booking without price categories has one line:
   * its participants at its unit price) and one per extra, free ones left out. Cents per unit; the
   * total is the sum of the products.
   */
  lineItems: CheckoutLineItem[];
  /** ISO 4217, upper-case (providers lower-case it when they need to). */
  currency: string;
  /** The guest's address, which Checkout fills in; null when the booking has none. */
  customerEmail: string | null;
  successUrl: string;
  cancelUrl: string;
  /** When the hold lapses (epoch ms): the checkout should not outlive it. */
  expiresAt: number;
  /** The current instant (epoch ms), as the rest of the request sees it. */
  now: number;
}

export interface CheckoutLineItem {
  name: string;
  /** Cents per unit. */
  unitAmount: number;
  quantity: number;
}

export interface Checkout {
  sessionId: string;
  url: string;
}

/** Money that moved at the provider. */
export interface ProviderPayment {
  /** Cents. */
  amount: number;
  /** ISO 4217, upper-case. */
  currency: string;
  /** The provider's id for the payment (Stripe: the PaymentIntent, else the Checkout Session); null when no checkout was opened. */
  reference: string | null;
}

/** How a checkout stands at the provider. */
export type CheckoutOutcome =
  | { state: 'open' }
  /** The customer finished, but the money is still on its way (bank debits and the like). */
  | { state: 'processing' }
  | { state: 'paid'; payment: ProviderPayment }
  | { state: 'failed'; payment: ProviderPayment; failureReason: string }
  | { state: 'expired'; payment: ProviderPayment };

/** Money to give back from one payment made at the provider. */
export interface RefundRequest {
  /** Outing's refund id (`re_…`): the provider keeps it with the refund, and one id is refunded once. */
  refundId: string;
  orgId: string;
  bookingId: string;
  /** The provider's reference of the payment the money came with (Stripe: the PaymentIntent). */
  paymentReference: string;
  /** Cents. */
  amount: number;
  /** ISO 4217, upper-case. */
  currency: string;
  reason: string | null;
}

/** How a refund stands at the provider. */
export type RefundOutcome =
  | { state: 'pending'; reference: string }
  | { state: 'succeeded'; reference: string }
  /** Refused when asked (`reference` null) or failed later at the bank. */
  | { state: 'failed'; reference: string | null; failureReason: string };

/** A refund the provider reports on, with Outing's id for it when the provider kept one. */
export interface RefundReport {
  refundId: string | undefined;
  orgId: string | undefined;
  outcome: RefundOutcome;
}

/** A verified callback from the provider. */
export type CallbackNotice =
  | { kind: 'checkout'; eventId: string; sessionId: string; booking: { orgId: string; bookingId: string } | undefined; outcome: CheckoutOutcome }
  /** Refunds moved on (Stripe: `charge.refunded`, `refund.updated`). */
  | { kind: 'refund'; eventId: string; refunds: RefundReport[] }
  /** An event Outing does not act on: answered 200 so the provider stops sending it. */
  | { kind: 'ignored'; eventId: string; type: string };

export interface PaymentProvider {
  /** `stripe`: the `provider` of its payment records and the `{name}` of `POST /payments/{name}/webhook`. */
  readonly name: string;
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  /**
   * Ends an open checkout so that it can no longer be paid, and tells how it really ended: a
   * checkout paid a moment before answers `paid`, never `expired`.
   */
  expireCheckout(sessionId: string): Promise<CheckoutOutcome>;
  /**
   * Gives money back from a payment. Asking twice for one `refundId` makes one refund. A refusal
   * (the payment cannot be refunded so) answers `failed`; a provider that cannot be reached throws,
   * and the refund is asked for again later.
   */
  createRefund(request: RefundRequest): Promise<RefundOutcome>;
  /**
   * Verifies a callback's signature over the raw body and reads it. A forged, altered or stale
   * callback throws an `Refusal` (400) and nothing else happens.
   */
  readCallback(rawBody: Uint8Array, header: (name: string) => string | undefined, receivedAt: number): Promise<CallbackNotice>;
}
