import { newId } from '../domain/ids.js';
import { notFound, invalid } from '../domain/refusal.js';
import { checkOutboundUrl, OutboundError } from '../net/outbound.js';
import { iso, isoOrNull } from '../serialize.js';
import { fetchableCalendarUrl, maskCalendarUrl } from '../ical/url.js';
import type { CalendarImportRow } from '../store/calendar-imports.js';
import type { Store } from '../store/index.js';
import type { CalendarImport, CalendarImportCreate } from '../../shared/index.js';

/**
 * Checks a calendar URL as webhook URLs are checked (SPEC §8): http, https or webcal, and no
 * literal loopback/private address or `localhost` unless OUTBOUND_ALLOW_PRIVATE is on. Names are
 * resolved and checked again at every fetch.
 */
export function checkCalendarUrl(url: string, allowPrivate: boolean): string {
  const trimmed = url.trim();
  if (!/^(https?|webcals?):\/\//i.test(trimmed)) {
    throw invalid('url', 'Expected an http, https or webcal URL of an .ics calendar');
  }
  try {
    checkOutboundUrl(fetchableCalendarUrl(trimmed), allowPrivate);
  } catch (err) {
    if (err instanceof OutboundError) throw invalid('url', err.message);
    throw err;
  }
  return trimmed;
}

/** Records a new import, due at once; the caller runs its first sync. */
export function createCalendarImport(
  store: Store,
  orgId: string,
  input: CalendarImportCreate,
  policy: { allowPrivate: boolean },
  now: number,
): CalendarImportRow {
  const url = checkCalendarUrl(input.url, policy.allowPrivate);
  const experienceId = input.experienceId ?? null;
  if (experienceId !== null && !store.getExperience(orgId, experienceId)) throw notFound('Experience');
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
    nextSyncAt: now,
    expandedAt: null,
    expandedZone: null,
    syncNote: null,
    createdAt: now,
    updatedAt: now,
  };
  store.insertCalendarImport(row);
  return row;
}

export function findCalendarImport(store: Store, orgId: string, id: string): CalendarImportRow {
  const row = store.getCalendarImport(orgId, id);
  if (!row) throw notFound('Calendar import');
  return row;
}

export function deleteCalendarImport(store: Store, orgId: string, id: string): void {
  if (!store.deleteCalendarImport(orgId, id)) throw notFound('Calendar import');
}

export function serializeCalendarImport(row: CalendarImportRow): CalendarImport {
  return {
    id: row.id,
    name: row.name,
    url: maskCalendarUrl(row.url),
    experienceId: row.experienceId,
    lastSyncedAt: isoOrNull(row.lastSyncedAt),
    lastError: row.lastError,
    eventCount: row.eventCount,
    createdAt: iso(row.createdAt),
  };
}
