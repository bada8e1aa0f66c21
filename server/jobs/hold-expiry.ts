import { forgetOldProviderEvents, sweepLapsedHolds, type HoldSweeperDeps } from '../services/hold-expiry.js';
import { resendUnsentRefunds } from '../services/refunds.js';
import type { UnitOfWork } from '../services/unit-of-work.js';
import { settleAllWaitlists, sweepLapsedOffers } from '../services/waitlist-offers.js';
import { repeatingJob, type Job } from './job.js';

const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** Every slot with a waitlist is looked at again this often (what no change announces: a notice period beginning). */
const SETTLE_WAITLISTS_EVERY_MS = 60 * 1000;

/**
 * Settles lapsed payment holds at start (those that lapsed while the server was down) and every
 * few seconds, expires lapsed waitlist offers and offers their places on (so within 15 s of their
 * end), and sends again the STRIPE refunds Stripe never answered for; answers, per pass, the number
 * of holds settled.
 */
export function holdExpiryJob(deps: HoldSweeperDeps & { intervalMs?: number; work?: UnitOfWork }): Job<number> {
  const now = deps.now ?? Date.now;
  let prunedAt = 0;
  let settledWaitlistsAt = 0;
  return repeatingJob({
    name: 'hold expiry',
    logger: deps.logger,
    everyMs: deps.intervalMs ?? 5_000,
    idle: 0,
    pass: async () => {
      // In the process's unit of work: a hold's cancellation queues its e-mail as this process can send it.
      const settled = deps.work ? (await deps.work.run({ async: true }, () => sweepLapsedHolds(deps))).result : await sweepLapsedHolds(deps);
      // Offers, likewise in the unit of work: an offer made queues its e-mail as this process can send it.
      const settleWaitlists = now() - settledWaitlistsAt >= SETTLE_WAITLISTS_EVERY_MS;
      if (settleWaitlists) settledWaitlistsAt = now();
      const waitlists = async () => ({ expired: await sweepLapsedOffers(deps), offered: settleWaitlists ? await settleAllWaitlists(deps) : 0 });
      const offers = deps.work ? (await deps.work.run({ async: true }, waitlists)).result : await waitlists();
      if (offers.expired > 0) deps.logger.info('lapsed waitlist offers expired', { count: offers.expired });
      if (offers.offered > 0) deps.logger.info('waitlist places offered', { count: offers.offered });
      // STRIPE refunds whose request never reached Stripe: outside any transaction, as they call it.
      const resent = await resendUnsentRefunds({ store: deps.store, provider: deps.provider, logger: deps.logger, now });
      if (resent > 0) deps.logger.info('refunds sent to the payment provider again', { count: resent });
      if (now() - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = now();
        await forgetOldProviderEvents(deps.store, prunedAt);
      }
      if (settled > 0) deps.logger.info('lapsed holds settled', { count: settled });
      return settled;
    },
  });
}
