import { z } from 'zod';
import { Instant } from './common.js';

export const CalendarFeedCreate = z.strictObject({
  name: z.string().min(1).max(200),
  experienceId: z.string().min(1).max(100).nullable().optional().describe('Only this experience’s bookings'),
});

export const CalendarFeed = z.object({
  id: z.string(),
  name: z.string(),
  experienceId: z.string().nullable(),
  token: z.string().describe('Shown in full only when created'),
  url: z.string(),
  createdAt: Instant,
});
export type CalendarFeed = z.infer<typeof CalendarFeed>;

export const CalendarImportCreate = z.strictObject({
  name: z.string().min(1).max(200),
  url: z.string().min(1).max(2048).describe('http, https or webcal URL of an .ics calendar'),
  experienceId: z.string().min(1).max(100).nullable().optional().describe('Absent: blocks every experience'),
});

export const CalendarImport = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string().describe('Query and path after the first segment masked as …'),
  experienceId: z.string().nullable(),
  lastSyncedAt: Instant.nullable(),
  lastError: z.string().nullable(),
  eventCount: z.int(),
  createdAt: Instant,
});
export type CalendarImport = z.infer<typeof CalendarImport>;
