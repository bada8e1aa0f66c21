import type { Logger } from '../logger.js';
import type { BookingView } from '../store/bookings.js';
import type { Store } from '../store/index.js';
import { bookingTotalCents } from '../domain/bookings.js';
import { CLEARING_HOLD_MS } from './online-checkout.js';
import type { CheckoutOutcome, PaymentProvider } from '../payments/provider.js';
import { expireOctoHold } from './octo-bookings.js';
import { applyProviderFailure, applyProviderSuccess, EXPIRED, extendHold, type Applied } from './payments.js';

export interface HoldSweeperDeps {
  store: Store;
  /** The configured provider; without one, lapsed holds are released without asking anyone. */
  provider: PaymentProvider | undefined;
  logger: Logger;
  now?: () => number;
}

const BATCH = 50;
/**
 * When the provider cannot be reached, the hold stays (its checkout might still be paid) and the
 * sweeper asks again on each pass; past this long it frees the places anyway. A payment that still
 * arrives later is then handled as a late payment (docs/payments.md): never lost.
 */
export const GIVE_UP_AFTER_MS = 15 * 60 * 1000;
const PROVIDER_EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** The provider every hold was opened with: Stripe is the only one that holds places today. */
const providerName = (provider: PaymentProvider | undefined) => provider?.name ?? 'stripe';

async function outcomeAtProvider(deps: HoldSweeperDeps, hold: BookingView, now: number): Promise<CheckoutOutcome | undefined> {
  const total = { amount: bookingTotalCents(hold), currency: hold.currency, reference: hold.checkoutSessionId };
  const expired: CheckoutOutcome = { state: 'expired', payment: total };
  if (hold.checkoutSessionId === null) return expired;
  if (!deps.provider) {
    deps.logger.warn('releasing a hold whose checkout cannot be ended: no payment provider is configured', { bookingId: hold.id });
    return expired;
  }
  try {
    const outcome = await deps.provider.expireCheckout(hold.checkoutSessionId);
    return outcome.state === 'expired' ? { state: 'expired', payment: { ...total, ...outcome.payment } } : outcome;
  } catch (err) {
    const error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    if (now < (hold.holdExpiresAt ?? now) + GIVE_UP_AFTER_MS) {
      deps.logger.warn('could not end a lapsed checkout; will try again', { bookingId: hold.id, error });
      return undefined;
    }
    deps.logger.error('could not end a lapsed checkout; releasing its places anyway', { bookingId: hold.id, error });
    return expired;
  }
}

/** Settles one lapsed hold: the checkout is ended at the provider first, then the booking follows how it ended. */
async function settle(deps: HoldSweeperDeps, hold: BookingView, now: number): Promise<Applied> {
  // A reseller's hold has no checkout: it is cancelled as `expired`, with no payment recorded.
  if (hold.source === 'OCTO') return (await expireOctoHold(deps.store, hold, deps.now?.() ?? Date.now())) ? 'applied' : 'ignored';
  const outcome = await outcomeAtProvider(deps, hold, now);
  const ref = { orgId: hold.orgId, id: hold.id };
  const at = deps.now?.() ?? Date.now();
  switch (outcome?.state) {
    case 'paid':
      return await applyProviderSuccess(deps.store, providerName(deps.provider), ref, outcome.payment, at);
    case 'processing':
      return await extendHold(deps.store, ref, at + CLEARING_HOLD_MS, at);
    case 'expired':
    case 'failed':
      return await applyProviderFailure(
        deps.store,
        providerName(deps.provider),
        ref,
        { sessionId: hold.checkoutSessionId, payment: outcome.payment, failureReason: EXPIRED, lapsedBy: at },
        at,
      );
    default:
      // Unreachable now, or still open against all odds: ask again on the next pass.
      return 'ignored';
  }
}

/** One pass over the holds that have lapsed by `now`. */
export async function sweepLapsedHolds(deps: HoldSweeperDeps): Promise<number> {
  const now = deps.now?.() ?? Date.now();
  let settled = 0;
  for (const hold of await deps.store.bookings.listLapsedHolds(now, BATCH)) {
    try {
      if ((await settle(deps, hold, now)) === 'applied') settled++;
    } catch (err) {
      deps.logger.error('could not settle a lapsed hold', {
        bookingId: hold.id,
        error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      });
    }
  }
  return settled;
}

/** Provider callbacks are remembered (to apply each once) for a month; older ones are forgotten. */
export async function forgetOldProviderEvents(store: Store, now: number): Promise<number> {
  return await store.payments.deleteProviderEventsBefore(now - PROVIDER_EVENT_RETENTION_MS);
}
