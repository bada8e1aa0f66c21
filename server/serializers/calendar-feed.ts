import type { CalendarFeedRow } from '../store/calendar-feeds.js';
import { iso } from './instant.js';
import type { CalendarFeed } from '../../shared/index.js';

export function serializeCalendarFeed(row: CalendarFeedRow): CalendarFeed {
  return { id: row.id, name: row.name, experienceId: row.experienceId, createdAt: iso(row.createdAt) };
}
