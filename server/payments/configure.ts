import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { PaymentProvider } from './provider.js';
import { StripeCheckout } from './stripe.js';

/**
 * The payment provider this server is configured for, if any: Stripe Checkout when both
 * `STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET` are set (SPEC §11). Without it every booking is
 * CONFIRMED at once and the operator takes payment elsewhere.
 */
export function paymentProviderFrom(
  config: Pick<Config, 'stripeSecretKey' | 'stripeWebhookSecret' | 'stripeApiBase'>,
  logger?: Logger,
): PaymentProvider | undefined {
  if (config.stripeSecretKey && config.stripeWebhookSecret) {
    return new StripeCheckout({
      secretKey: config.stripeSecretKey,
      webhookSecret: config.stripeWebhookSecret,
      apiBase: config.stripeApiBase,
    });
  }
  if (config.stripeSecretKey || config.stripeWebhookSecret) {
    const missing = config.stripeSecretKey ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY';
    logger?.warn('online payment is off', { reason: `${missing} is not set; Stripe Checkout needs both Stripe variables` });
  }
  return undefined;
}
