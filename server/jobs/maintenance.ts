import type { Config } from './config.js';
import type { Logger } from './logger.js';
import type { Store } from './store/index.js';
import { IDEMPOTENCY_TTL_MS } from './http/idempotency.js';

export interface JobDeps {
  store: Store;
  config: Config;
  logger: Logger;
}

const HOUR_MS = 60 * 60 * 1000;

/** Housekeeping on a timer: expired idempotency records and events past their retention. */
export function pruneExpired({ store, config }: JobDeps, now: number): { idempotencyKeys: number; events: number } {
  return {
    idempotencyKeys: store.pruneIdempotencyKeys(now - IDEMPOTENCY_TTL_MS),
    events: store.deleteEventsBefore(now - config.eventRetentionDays * 24 * HOUR_MS),
  };
}

/** Starts the periodic jobs; the returned function stops them. */
export function startMaintenance(deps: JobDeps): () => Promise<void> {
  const run = () => {
    try {
      const pruned = pruneExpired(deps, Date.now());
      if (pruned.idempotencyKeys || pruned.events) deps.logger.info('pruned', pruned);
    } catch (err) {
      deps.logger.error('maintenance failed', { error: err instanceof Error ? err.message : String(err) });
    }
  };
  const first = setTimeout(run, 5_000);
  const timer = setInterval(run, HOUR_MS);
  first.unref();
  timer.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
