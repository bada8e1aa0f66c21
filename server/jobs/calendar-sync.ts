// The calendar-import scheduler: every import is fetched at once when created, then again every
// CALENDAR_SYNC_INTERVAL seconds. One instance serves both the background loop and the
// `POST /calendar-imports/{id}/sync` route, so an import is never synced twice at the same time.
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';
import { guardedCalendarFetcher, type CalendarFetcher } from './fetch.js';
import { syncCalendarImport, type ImportSyncDeps } from './import.js';

const MAX_PARALLEL_SYNCS = 4;
const MAX_TICK_MS = 15_000;

export interface CalendarSyncDeps {
  store: Store;
  config: Config;
  logger: Logger;
  now?: () => number;
  /** Replaces the guarded fetcher (tests only). */
  fetcher?: CalendarFetcher;
  readTimeoutMs?: number;
}

export class CalendarSync {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly shutdown = new AbortController();
  private readonly deps: ImportSyncDeps;
  private timer: NodeJS.Timeout | undefined;
  private started = false;

  constructor(options: CalendarSyncDeps) {
    this.deps = {
      store: options.store,
      logger: options.logger,
      now: options.now ?? Date.now,
      fetcher: options.fetcher ?? guardedCalendarFetcher(options.config.outboundAllowPrivate),
      intervalSeconds: options.config.calendarSyncIntervalSeconds,
      readTimeoutMs: options.readTimeoutMs,
    };
  }

  /** Syncs one import now and resolves when done; joins a sync of it already under way. */
  sync(importId: string): Promise<void> {
    const running = this.inFlight.get(importId);
    if (running) return running;
    const run = syncCalendarImport(this.deps, importId, this.shutdown.signal)
      .catch((err: unknown) => {
        // Only the database itself failing gets here (syncCalendarImport records every other failure).
        this.deps.logger.error('calendar sync failed', { importId, error: err instanceof Error ? err.message : String(err) });
      })
      .finally(() => this.inFlight.delete(importId));
    this.inFlight.set(importId, run);
    return run;
  }

  /** Starts the background loop (imports due now, e.g. after a restart, are synced first). */
  start(): void {
    if (this.started || this.shutdown.signal.aborted) return;
    this.started = true;
    this.schedule(0);
  }

  /** Stops the loop, cancels syncs under way (their last good copies stay) and waits for them. */
  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.shutdown.abort();
    await Promise.allSettled([...this.inFlight.values()]);
  }

  private schedule(delayMs: number): void {
    if (this.shutdown.signal.aborted) return;
    this.timer = setTimeout(() => this.tick(), delayMs);
    this.timer.unref();
  }

  private tick(): void {
    const { store, logger } = this.deps;
    try {
      const now = this.deps.now();
      const free = MAX_PARALLEL_SYNCS - this.inFlight.size;
      const due = free > 0 ? store.listDueCalendarImports(now, free + this.inFlight.size) : [];
      for (const id of due) {
        if (this.inFlight.has(id) || this.inFlight.size >= MAX_PARALLEL_SYNCS) continue;
        // Claimed until the sync records its own next time, so the next tick does not take it again.
        store.scheduleCalendarImport(id, now + this.deps.intervalSeconds * 1000);
        void this.sync(id);
      }
    } catch (err) {
      logger.error('calendar sync loop failed', { error: err instanceof Error ? err.message : String(err) });
    }
    this.schedule(Math.min(MAX_TICK_MS, this.deps.intervalSeconds * 1000));
  }
}
