import { newId } from '../domain/ids.js';
import type { Actor } from '../domain/actor.js';
import { recordActivity } from './activity.js';
import { notFound, invalid } from '../domain/refusal.js';
import { assertReachableUrl } from './outbound-urls.js';
import { fetchableCalendarUrl } from '../ical/url.js';
import type { CalendarImportRow } from '../store/calendar-imports.js';
import type { Store } from '../store/index.js';
import type { Page, PageResult } from '../store/sql.js';
import type { CalendarImportCreate } from '../../shared/index.js';

/**
 * Checks a calendar URL as webhook URLs are checked (services/outbound-urls.ts): http, https or webcal, and no
 * literal loopback/private address or `localhost` unless OUTBOUND_ALLOW_PRIVATE is on. Names are
 * resolved and checked again at every fetch.
 */
export function checkCalendarUrl(url: string, allowPrivate: boolean): string {
  const trimmed = url.trim();
  if (!/^(https?|webcals?):\/\//i.test(trimmed)) {
    throw invalid('url', 'Expected an http, https or webcal URL of an .ics calendar');
  }
  assertReachableUrl(fetchableCalendarUrl(trimmed), allowPrivate);
  return trimmed;
}

/**
 * Records a new import, already claimed by its caller, which runs its first sync at once: it is
 * stored due one sync interval from now, not now, so that no background pass (of another process
 * sharing the database) fetches it in the moment before the caller's own sync. Should the caller
 * die before syncing, the import is fetched when that interval is up.
 */
export async function createCalendarImport(
  store: Store,
  orgId: string,
  input: CalendarImportCreate,
  policy: { allowPrivate: boolean; syncIntervalSeconds: number },
  now: number,
  actor: Actor,
): Promise<CalendarImportRow> {
  const url = checkCalendarUrl(input.url, policy.allowPrivate);
  const experienceId = input.experienceId ?? null;
  if (experienceId !== null && !await store.experiences.getExperience(orgId, experienceId)) throw notFound('Experience');
  const row: CalendarImportRow = {
    id: newId('calendarImport'),
    orgId,
    name: input.name,
    url,
    experienceId,
    etag: null,
    lastModified: null,
    lastSyncedAt: null,
    lastError: null,
    eventCount: 0,
    nextSyncAt: now + policy.syncIntervalSeconds * 1000,
    expandedAt: null,
    expandedZone: null,
    syncNote: null,
    createdAt: now,
    updatedAt: now,
  };
  await store.transaction(async () => {
    await store.calendarImports.insertCalendarImport(row);
    await recordActivity(store, orgId, actor, { action: 'calendar_import.create', targetType: 'calendar_import', targetId: row.id, summary: `Imported the calendar ${row.name}` }, now);
  });
  return row;
}

export async function findCalendarImport(store: Store, orgId: string, id: string): Promise<CalendarImportRow> {
  const row = await store.calendarImports.getCalendarImport(orgId, id);
  if (!row) throw notFound('Calendar import');
  return row;
}

export async function deleteCalendarImport(store: Store, orgId: string, id: string, now: number, actor: Actor): Promise<void> {
  await store.transaction(async () => {
    if (!await store.calendarImports.deleteCalendarImport(orgId, id)) throw notFound('Calendar import');
    await recordActivity(store, orgId, actor, { action: 'calendar_import.delete', targetType: 'calendar_import', targetId: id, summary: 'Deleted a calendar import' }, now);
  });
}

export async function listCalendarImports(store: Store, orgId: string, page: Page): Promise<PageResult<CalendarImportRow>> {
  return await store.calendarImports.listCalendarImports(orgId, page);
}
