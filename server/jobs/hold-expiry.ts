import { forgetOldProviderEvents, sweepLapsedHolds, type HoldSweeperDeps } from '../services/hold-expiry.js';
import { repeatingJob, type Job } from './job.js';

const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * Settles lapsed payment holds at start (those that lapsed while the server was down) and every
 * few seconds; answers, per pass, the number of holds settled.
 */
export function holdExpiryJob(deps: HoldSweeperDeps & { intervalMs?: number }): Job<number> {
  const now = deps.now ?? Date.now;
  let prunedAt = 0;
  return repeatingJob({
    name: 'hold expiry',
    logger: deps.logger,
    everyMs: deps.intervalMs ?? 5_000,
    idle: 0,
    pass: async () => {
      const settled = await sweepLapsedHolds(deps);
      if (now() - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = now();
        await forgetOldProviderEvents(deps.store, prunedAt);
      }
      if (settled > 0) deps.logger.info('lapsed holds settled', { count: settled });
      return settled;
    },
  });
}
