import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';
import { pruneExpired } from '../services/retention.js';
import { repeatingJob, type Job } from './job.js';

export interface MaintenanceDeps {
  store: Store;
  config: Pick<Config, 'eventRetentionDays'>;
  logger: Logger;
}

const HOUR_MS = 60 * 60 * 1000;

/** Prunes a few seconds after start, then every hour. */
export function maintenanceJob(deps: MaintenanceDeps): Job<void> {
  return repeatingJob({
    name: 'maintenance',
    logger: deps.logger,
    everyMs: HOUR_MS,
    firstAfterMs: 5_000,
    idle: undefined,
    pass: async () => {
      const pruned = await pruneExpired(deps, Date.now());
      if (pruned.idempotencyKeys || pruned.events || pruned.activity || pruned.accounts) deps.logger.info('pruned', pruned);
    },
  });
}
