import type { Config } from '../config.js';
import { IDEMPOTENCY_TTL_MS } from '../domain/retention.js';
import type { Store } from '../store/index.js';
import { ACTIVITY_RETENTION_MS } from './activity.js';
import { pruneAccounts } from './sessions.js';

export { IDEMPOTENCY_TTL_MS };

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Forgets what has outlived its use: idempotency records past a day, events past their retention,
 * activity past a year, ended sessions, lapsed setup links and sign-in failures out of their window.
 */
export async function pruneExpired(
  { store, config }: { store: Store; config: Pick<Config, 'eventRetentionDays'> },
  now: number,
): Promise<{ idempotencyKeys: number; events: number; activity: number; accounts: number }> {
  return {
    idempotencyKeys: await store.idempotency.pruneIdempotencyKeys(now - IDEMPOTENCY_TTL_MS),
    events: await store.events.deleteEventsBefore(now - config.eventRetentionDays * DAY_MS),
    activity: await store.activity.deleteActivityBefore(now - ACTIVITY_RETENTION_MS),
    accounts: await pruneAccounts(store, now),
  };
}
