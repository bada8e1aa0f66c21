import { z } from 'zod';
import { DateString, LocalDate, MoneyString } from './common.js';
import { BookingExperienceRef } from './booking.js';

/** Reports span at most this many days after their start date. */
export const MAX_REPORT_DAYS = 366;

export const DailyReportQuery = z.strictObject({
  startDate: LocalDate.optional().describe("Inclusive, in the organization's time zone; default endDate − 29 days"),
  endDate: LocalDate.optional().describe(`Inclusive; default today; at most ${MAX_REPORT_DAYS} days after startDate`),
});

export const DailyReportDay = z.object({
  date: DateString,
  bookings: z.int().describe('Bookings created that day and not cancelled'),
  participants: z.int().describe('Their participants'),
  revenue: MoneyString.describe('The sum of their totals, in major units with two decimals'),
  cancellations: z.int().describe('Bookings cancelled that day'),
});
export type DailyReportDay = z.infer<typeof DailyReportDay>;

export const DailyReport = z.object({
  timezone: z.string().describe("The organization's time zone, in which days are counted"),
  currency: z.string(),
  days: z.array(DailyReportDay),
});
export type DailyReport = z.infer<typeof DailyReport>;

/** The range of the per-experience report and of both CSV files: the daily report's rules and default. */
export const ExperienceReportQuery = DailyReportQuery;

export const ExperienceReportEntry = z.object({
  experience: BookingExperienceRef,
  bookings: z.int().describe('Its bookings created in the range and not cancelled'),
  participants: z.int().describe('Their participants'),
  revenue: MoneyString.describe('The sum of their totals, in major units with two decimals'),
  cancellations: z.int().describe('Its bookings cancelled in the range'),
});
export type ExperienceReportEntry = z.infer<typeof ExperienceReportEntry>;

export const ExperienceReport = z.object({
  timezone: z.string().describe("The organization's time zone, in which days are counted"),
  currency: z.string(),
  startDate: DateString.describe('The first day counted'),
  endDate: DateString.describe('The last day counted'),
  experiences: z
    .array(ExperienceReportEntry)
    .describe('One entry per experience with any figure in the range, highest revenue first, then by title'),
});
export type ExperienceReport = z.infer<typeof ExperienceReport>;

export const OccupancyReportQuery = z.strictObject({
  startDate: LocalDate.optional().describe("Inclusive, in the organization's time zone; default today"),
  endDate: LocalDate.optional().describe(`Inclusive; default startDate + 30 days; at most ${MAX_REPORT_DAYS} days after startDate`),
});

export const ExperienceOccupancy = z.object({
  experience: BookingExperienceRef,
  slots: z.int().describe('Time slots of its schedule in the range'),
  capacity: z.int().describe('Places in those slots'),
  booked: z.int().describe('Places held in those slots by CONFIRMED and PENDING bookings'),
  occupancy: z.number().describe('booked / capacity, rounded to 4 decimals; 0 without slots'),
});
export type ExperienceOccupancy = z.infer<typeof ExperienceOccupancy>;

export const OccupancyReport = z.object({
  experiences: z.array(ExperienceOccupancy),
});
export type OccupancyReport = z.infer<typeof OccupancyReport>;
