import type { Config } from '../config.js';
import type { Store } from '../store/index.js';
import { ACTIVITY_RETENTION_MS } from './activity.js';

/** How long a request's Idempotency-Key keeps its first answer for replay. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Forgets what has outlived its use: idempotency records past a day, events past their retention, activity past a year. */
export function pruneExpired(
  { store, config }: { store: Store; config: Pick<Config, 'eventRetentionDays'> },
  now: number,
): { idempotencyKeys: number; events: number; activity: number } {
  return {
    idempotencyKeys: store.pruneIdempotencyKeys(now - IDEMPOTENCY_TTL_MS),
    events: store.deleteEventsBefore(now - config.eventRetentionDays * DAY_MS),
    activity: store.deleteActivityBefore(now - ACTIVITY_RETENTION_MS),
  };
}
