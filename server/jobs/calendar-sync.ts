import type { Logger } from '../logger.js';
import type { CalendarSync } from '../services/calendar-sync.js';
import { repeatingJob, type Job } from './job.js';

const MAX_TICK_MS = 15_000;

/**
 * Fetches every calendar import when it falls due (at start, those that fell due while the server
 * was down), looking for due imports every CALENDAR_SYNC_INTERVAL seconds, 15 s at most.
 */
export function calendarSyncJob(sync: CalendarSync, logger: Logger): Job<void> {
  const job = repeatingJob({
    name: 'calendar sync',
    logger,
    everyMs: Math.min(MAX_TICK_MS, sync.intervalSeconds * 1000),
    idle: undefined,
    pass: async () => await sync.syncDue(),
  });
  return {
    ...job,
    async stop() {
      await job.stop();
      await sync.stop();
    },
  };
}
