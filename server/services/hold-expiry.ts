import type { Logger } from '../logger.js';
import type { BookingView } from '../store/bookings.js';
import type { Store } from '../store/index.js';
import { CLEARING_HOLD_MS } from './checkout.js';
import type { CheckoutOutcome, PaymentProvider } from './provider.js';
import { applyProviderFailure, applyProviderSuccess, EXPIRED, extendHold, type Applied } from './record.js';

export interface HoldSweeperDeps {
  store: Store;
  /** The configured provider; without one, lapsed holds are released without asking anyone. */
  provider: PaymentProvider | undefined;
  logger: Logger;
  now?: () => number;
  /** Time between sweeps (default 5 s). */
  intervalMs?: number;
}

export interface HoldSweeper {
  /** Sweeps once more, after any sweep under way; resolves to the number of holds settled. */
  runNow(): Promise<number>;
  /** Stops sweeping and waits for the sweep under way. */
  stop(): Promise<void>;
}

const BATCH = 50;
/**
 * When the provider cannot be reached, the hold stays (its checkout might still be paid) and the
 * sweeper asks again on each pass; past this long it frees the places anyway. A payment that still
 * arrives later is then handled as a late payment (SPEC §11): never lost.
 */
export const GIVE_UP_AFTER_MS = 15 * 60 * 1000;
const PROVIDER_EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** The provider every hold was opened with: Stripe is the only one that holds places today. */
const providerName = (provider: PaymentProvider | undefined) => provider?.name ?? 'stripe';

async function outcomeAtProvider(deps: HoldSweeperDeps, hold: BookingView, now: number): Promise<CheckoutOutcome | undefined> {
  const total = { amount: hold.unitPrice * hold.participants, currency: hold.currency, reference: hold.checkoutSessionId };
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
  const outcome = await outcomeAtProvider(deps, hold, now);
  const ref = { orgId: hold.orgId, id: hold.id };
  const at = deps.now?.() ?? Date.now();
  switch (outcome?.state) {
    case 'paid':
      return applyProviderSuccess(deps.store, providerName(deps.provider), ref, outcome.payment, at);
    case 'processing':
      return extendHold(deps.store, ref, at + CLEARING_HOLD_MS, at);
    case 'expired':
    case 'failed':
      return applyProviderFailure(
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
  for (const hold of deps.store.listLapsedHolds(now, BATCH)) {
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

/**
 * Runs the sweeper at once (so holds that lapsed while the server was down are released on start)
 * and then every few seconds.
 */
export function startHoldSweeper(deps: HoldSweeperDeps): HoldSweeper {
  const now = deps.now ?? Date.now;
  let queue: Promise<unknown> = Promise.resolve();
  let queued = 0;
  let stopped = false;
  let prunedAt = 0;

  const pass = async (): Promise<number> => {
    if (stopped) return 0;
    const settled = await sweepLapsedHolds(deps);
    if (now() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = now();
      deps.store.deleteProviderEventsBefore(prunedAt - PROVIDER_EVENT_RETENTION_MS);
    }
    if (settled > 0) deps.logger.info('lapsed holds settled', { count: settled });
    return settled;
  };
  // Passes run one after another, never side by side: a slow provider cannot make two passes
  // settle the same hold.
  const runNow = (): Promise<number> => {
    queued++;
    const next = queue.then(pass).catch((err: unknown) => {
      deps.logger.error('hold sweep failed', { error: err instanceof Error ? err.message : String(err) });
      return 0;
    });
    queue = next.finally(() => void queued--);
    return next;
  };
  const tick = () => {
    if (queued === 0) void runNow();
  };

  const first = setImmediate(tick);
  const timer = setInterval(tick, deps.intervalMs ?? 5_000);
  timer.unref();
  return {
    runNow,
    async stop() {
      stopped = true;
      clearImmediate(first);
      clearInterval(timer);
      await queue;
    },
  };
}
