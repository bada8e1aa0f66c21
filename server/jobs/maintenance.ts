import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';
import { IDEMPOTENCY_TTL_MS } from '../http/idempotency.js';
import { repeatingJob, type Job } from './job.js';

export interface MaintenanceDeps {
  store: Store;
  config: Pick<Config, 'eventRetentionDays'>;
  logger: Logger;
}

const HOUR_MS = 60 * 60 * 1000;

/** Housekeeping: expired idempotency records and events past their retention. */
export function pruneExpired({ store, config }: Pick<MaintenanceDeps, 'store' | 'config'>, now: number): { idempotencyKeys: number; events: number } {
  return {
    idempotencyKeys: store.pruneIdempotencyKeys(now - IDEMPOTENCY_TTL_MS),
    events: store.deleteEventsBefore(now - config.eventRetentionDays * 24 * HOUR_MS),
  };
}

/** Prunes a few seconds after start, then every hour. */
export function maintenanceJob(deps: MaintenanceDeps): Job<void> {
  return repeatingJob({
    name: 'maintenance',
    logger: deps.logger,
    everyMs: HOUR_MS,
    firstAfterMs: 5_000,
    idle: undefined,
    pass: () => {
      const pruned = pruneExpired(deps, Date.now());
      if (pruned.idempotencyKeys || pruned.events) deps.logger.info('pruned', pruned);
    },
  });
}
