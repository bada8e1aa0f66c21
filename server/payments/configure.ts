import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { PaymentProvider } from './provider.js';

/**
 * Stands for a provider whose library is loaded on first use: Stripe's SDK takes a noticeable
 * part of a cold start, and a server without online payment never needs it.
 */
function loadedOnFirstUse(name: string, load: () => Promise<PaymentProvider>): PaymentProvider {
  let provider: Promise<PaymentProvider> | undefined;
  const real = () => (provider ??= load());
  return {
    name,
    createCheckout: async (request) => (await real()).createCheckout(request),
    expireCheckout: async (sessionId) => (await real()).expireCheckout(sessionId),
    createRefund: async (request) => (await real()).createRefund(request),
    readCallback: async (rawBody, header, receivedAt) => (await real()).readCallback(rawBody, header, receivedAt),
  };
}

/**
 * The payment provider this server is configured for, if any: Stripe Checkout when both
 * `STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET` are set (docs/payments.md). Without it every
 * booking is CONFIRMED at once and the operator takes payment elsewhere.
 */
export function paymentProviderFrom(
  config: Pick<Config, 'stripeSecretKey' | 'stripeWebhookSecret' | 'stripeApiBase'>,
  logger?: Logger,
): PaymentProvider | undefined {
  const { stripeSecretKey: secretKey, stripeWebhookSecret: webhookSecret, stripeApiBase: apiBase } = config;
  if (secretKey && webhookSecret) {
    return loadedOnFirstUse('stripe', async () => {
      const { StripeCheckout } = await import('./stripe.js');
      return new StripeCheckout({ secretKey, webhookSecret, apiBase });
    });
  }
  if (secretKey || webhookSecret) {
    const missing = secretKey ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY';
    logger?.warn('online payment is off', { reason: `${missing} is not set; Stripe Checkout needs both Stripe variables` });
  }
  return undefined;
}
