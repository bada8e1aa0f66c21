// One sync of one calendar import: fetch (conditionally), read off the main thread, and replace
// the import's busy intervals atomically. A failure of any kind keeps the last good copy and its
// intervals and records why in `lastError`; nothing here throws.
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';
import type { CalendarImportRow } from '../store/calendar-imports.js';
import { zoneOf } from './availability.js';
import { settleWaitingSlots } from './waitlist-offers.js';
import type { BusyTimes } from '../ical/busy.js';
import { CalendarFetchError, fetchCalendar, guardedCalendarFetcher, type CalendarFetcher } from '../ical/fetch.js';
import { CalendarReadError } from '../ical/calendar-text.js';

const DAY_MS = 86_400_000;
const MAX_PARALLEL_SYNCS = 4;
/** The booking horizon: a slot can be at most 730 days ahead (maxAdvanceDays), plus its local day. */
export const HORIZON_PAST_MS = DAY_MS;
export const HORIZON_FUTURE_MS = 731 * DAY_MS;
/** A 304 keeps the expanded intervals only this long; then the horizon has moved enough to refetch. */
const REEXPAND_AFTER_MS = DAY_MS;

export interface ImportSyncDeps {
  store: Store;
  logger: Logger;
  now: () => number;
  fetcher: CalendarFetcher;
  intervalSeconds: number;
  /** Longest a calendar may take to read (default 60 s). */
  readTimeoutMs?: number;
}

/** The zone floating times and all-day dates are read in: the blocked experience's, else the org's. */
export async function blockingZone(store: Store, row: Pick<CalendarImportRow, 'orgId' | 'experienceId'>): Promise<string> {
  const orgZone = (await store.organizations.getOrganization(row.orgId))?.timezone ?? 'UTC';
  if (row.experienceId === null) return orgZone;
  const exp = await store.experiences.getExperience(row.orgId, row.experienceId);
  return exp ? zoneOf(exp, orgZone) : orgZone;
}

/** What lastError says after a good copy: null, or which events were left out and why. */
export function noteOf(busy: BusyTimes): string | null {
  const parts: string[] = [];
  if (busy.skipped > 0) {
    const more = busy.skipped > busy.problems.length ? `; and ${busy.skipped - busy.problems.length} more` : '';
    parts.push(`Synced, but ${busy.skipped} of ${busy.eventCount} events were skipped: ${busy.problems.join('; ')}${more}`);
  }
  if (busy.notes.length > 0) parts.push(`${parts.length ? '' : 'Synced, but '}${busy.notes.join('; ')}`);
  return parts.length ? parts.join('. ').slice(0, 1000) : null;
}

export async function syncCalendarImport(deps: ImportSyncDeps, importId: string, signal?: AbortSignal): Promise<void> {
  const { store, logger } = deps;
  const row = await store.calendarImports.getCalendarImportById(importId);
  if (!row) return;
  const started = deps.now();
  const zone = await blockingZone(store, row);
  const nextSync = () => deps.now() + deps.intervalSeconds * 1000;
  // Conditional only while the stored intervals still cover the horizon and were read in this zone.
  const fresh = row.expandedAt === null || row.expandedZone !== zone || started - row.expandedAt >= REEXPAND_AFTER_MS;
  const previous = fresh ? null : { etag: row.etag, lastModified: row.lastModified };
  try {
    const fetched = await fetchCalendar(row.url, previous, deps.fetcher, signal);
    if (!fetched.changed) {
      await store.calendarImports.recordCalendarImportUnchanged(row.id, deps.now(), nextSync());
      logger.info('calendar unchanged', { importId: row.id, orgId: row.orgId });
      return;
    }
    if (!/^\uFEFF?\s*BEGIN:VCALENDAR/i.test(fetched.text.slice(0, 1024))) {
      throw new CalendarReadError('The response is not an iCalendar file (it does not start with BEGIN:VCALENDAR)');
    }
    // ical.js is loaded on the first sync, not at start: most servers import no calendar.
    const { readBusyTimesIsolated } = await import('../ical/isolated.js');
    const busy = await readBusyTimesIsolated(
      fetched.text,
      { zone, from: started - HORIZON_PAST_MS, to: started + HORIZON_FUTURE_MS },
      { signal, timeoutMs: deps.readTimeoutMs },
    );
    await store.transaction(async () => {
      const current = await store.calendarImports.getCalendarImportById(row.id);
      if (!current) return; // deleted while we fetched
      await store.calendarImports.replaceBusyIntervals(current, busy.intervals);
      // A slot its new blocks cover ends its waitlist.
      await settleWaitingSlots(store, current.experienceId === null ? { orgId: current.orgId } : { experienceId: current.experienceId }, deps.now());
      await store.calendarImports.recordCalendarImportCopy(row.id, {
        etag: fetched.etag,
        lastModified: fetched.lastModified,
        eventCount: busy.eventCount,
        syncNote: noteOf(busy),
        expandedZone: zone,
        syncedAt: deps.now(),
        nextSyncAt: nextSync(),
      });
    });
    logger.info('calendar synced', {
      importId: row.id,
      orgId: row.orgId,
      events: busy.eventCount,
      skipped: busy.skipped,
      busyIntervals: busy.intervals.length,
      durationMs: deps.now() - started,
    });
  } catch (err) {
    if (signal?.aborted) return; // shutting down: the next start syncs it again
    const known = err instanceof CalendarFetchError || err instanceof CalendarReadError;
    const message = known ? err.message : 'The calendar could not be synced';
    if (!known) logger.error('calendar sync failed', { importId: row.id, error: err instanceof Error ? err.message : String(err) });
    else logger.warn('calendar sync failed', { importId: row.id, orgId: row.orgId, error: message });
    try {
      await store.calendarImports.recordCalendarImportFailure(row.id, message, deps.now(), nextSync());
    } catch {
      // the database is closing; nothing more to record
    }
  }
}

export interface CalendarSyncDeps {
  store: Store;
  config: Pick<Config, 'outboundAllowPrivate' | 'calendarSyncIntervalSeconds'>;
  logger: Logger;
  now?: () => number;
  /** Replaces the guarded fetcher (tests only). */
  fetcher?: CalendarFetcher;
  readTimeoutMs?: number;
}

/**
 * Calendar syncing shared by the background job and the `POST /calendar-imports/{id}/sync` route,
 * so that an import is never synced twice at the same time.
 */
export class CalendarSync {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly shutdown = new AbortController();
  private readonly deps: ImportSyncDeps;

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

  /**
   * Syncs one import now and resolves when done; joins a sync of it already under way in this
   * process. When the import is due, it is claimed first (as `syncDue` claims), so that another
   * process sharing the database does not start a sync of it too (a new import is stored already
   * claimed, see createCalendarImport, and synced at once by the route that created it).
   */
  sync(importId: string): Promise<void> {
    return this.start(importId, true);
  }

  private start(importId: string, claim: boolean): Promise<void> {
    const running = this.inFlight.get(importId);
    if (running) return running;
    const claimed = async () => {
      if (claim) {
        const now = this.deps.now();
        // Synced whatever the answer: an import not due (or just claimed elsewhere) is synced because it was asked for.
        await this.deps.store.calendarImports.scheduleCalendarImport(importId, now, now + this.deps.intervalSeconds * 1000);
      }
      await syncCalendarImport(this.deps, importId, this.shutdown.signal);
    };
    const run = claimed()
      .catch((err: unknown) => {
        // Only the database itself failing gets here (syncCalendarImport records every other failure).
        this.deps.logger.error('calendar sync failed', { importId, error: err instanceof Error ? err.message : String(err) });
      })
      .finally(() => this.inFlight.delete(importId));
    this.inFlight.set(importId, run);
    return run;
  }

  /** Cancels syncs under way (their last good copies stay) and waits for them. */
  async stop(): Promise<void> {
    this.shutdown.abort();
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Starts the syncs of the imports that are due, up to a few at once; they go on in the background. */
  async syncDue(): Promise<void> {
    const { store } = this.deps;
    if (this.shutdown.signal.aborted) return;
    const now = this.deps.now();
    const free = MAX_PARALLEL_SYNCS - this.inFlight.size;
    const due = free > 0 ? await store.calendarImports.listDueCalendarImports(now, free + this.inFlight.size) : [];
    for (const id of due) {
      if (this.inFlight.has(id) || this.inFlight.size >= MAX_PARALLEL_SYNCS) continue;
      // Claimed until the sync records its own next time, so the next pass does not take it again.
      // The claim holds only if the import is still due: another process (several share one
      // PostgreSQL database) may have listed it too and claimed it first; then it is theirs.
      if (!(await store.calendarImports.scheduleCalendarImport(id, now, now + this.deps.intervalSeconds * 1000))) continue;
      void this.start(id, false);
    }
  }

  /** Seconds between syncs of one import (CALENDAR_SYNC_INTERVAL). */
  get intervalSeconds(): number {
    return this.deps.intervalSeconds;
  }
}
