import { z } from 'zod';
import { Instant, PageQuery } from './common.js';

/** `POST /calendar-feeds`: a private iCal feed of the org's bookings (docs/ical.md). */
/** An optional experience a feed or an import is limited to; an unknown one is 404. */
const ExperienceScope = (meaning: string) => z.string().min(1).max(100).nullable().optional().describe(meaning);

export const CalendarFeedCreate = z.strictObject({
  name: z.string().min(1).max(200),
  experienceId: ExperienceScope('Only this experience’s bookings; absent or null: every experience. An unknown experience is 404.'),
});
export type CalendarFeedCreate = z.infer<typeof CalendarFeedCreate>;

/**
 * A bookings feed as lists show it. Only a hash of the token is kept, so neither the token nor the
 * feed URL can be shown again after creation: to change or recover a URL, create a new feed and
 * delete the old one.
 */
export const CalendarFeed = z.object({
  id: z.string(),
  name: z.string(),
  experienceId: z.string().nullable(),
  createdAt: Instant,
});
export type CalendarFeed = z.infer<typeof CalendarFeed>;

/** The feed as created: the only time its token and URL are shown. */
export const CalendarFeedWithToken = CalendarFeed.extend({
  token: z.string().describe('32 random bytes, base64url; shown only in this response'),
  url: z.string().describe('{PUBLIC_URL}/api/ical/{token}: subscribe to it in a calendar app (".ics" may be appended)'),
});
export type CalendarFeedWithToken = z.infer<typeof CalendarFeedWithToken>;

/** `POST /calendar-imports`: an external calendar whose busy times block slots. */
export const CalendarImportCreate = z.strictObject({
  name: z.string().min(1).max(200),
  url: z
    .string()
    .min(1)
    .max(2048)
    .describe('http, https or webcal URL of an .ics calendar (webcal:// is read as https://)'),
  experienceId: ExperienceScope('Blocks only this experience; absent or null: every experience of the org. An unknown experience is 404.'),
});
export type CalendarImportCreate = z.infer<typeof CalendarImportCreate>;

export const CalendarImport = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string().describe('Scheme, host and first path segment; the rest of the path and the query masked as …'),
  experienceId: z.string().nullable(),
  lastSyncedAt: Instant.nullable().describe('Last successful fetch (a 304 counts); null until one succeeds'),
  lastError: z
    .string()
    .nullable()
    .describe('Why the last fetch failed (the last good copy still blocks), or which events of the good copy were skipped; null when all is well'),
  eventCount: z.int().describe('VEVENTs in the last good copy'),
  createdAt: Instant,
});
export type CalendarImport = z.infer<typeof CalendarImport>;

export const CalendarListQuery = z.strictObject({ ...PageQuery });
