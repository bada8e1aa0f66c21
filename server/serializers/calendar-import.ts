import type { CalendarImportRow } from '../store/calendar-imports.js';
import { maskCalendarUrl } from '../ical/url.js';
import { iso, isoOrNull } from './instant.js';
import type { CalendarImport } from '../../shared/index.js';

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
