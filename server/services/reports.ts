import { invalid } from '../domain/refusal.js';
import { addDays, daysBetween, localTodayOf, startOfLocalDay } from '../domain/time.js';
import { byRevenueThenTitle, type DailyFigures, type DailyReport, type ExperienceOccupancy, type ExperienceReport } from '../domain/reports.js';
export type { DailyFigures, DailyReport, ExperienceOccupancy, ExperienceReport };
import type { Store } from '../store/index.js';
import type { SlotState } from '../store/slots.js';
import { slotCapacity } from '../domain/bookings.js';
import { scheduledSlotsBetween } from './manifest.js';
import { zoneOf } from './availability.js';
import { getOrganization } from './organizations.js';
import { MAX_REPORT_DAYS } from '../../shared/index.js';

export const DAILY_DEFAULT_DAYS = 30;
export const OCCUPANCY_DEFAULT_DAYS = 30;

function assertSpan(startDate: string, endDate: string): void {
  const span = daysBetween(startDate, endDate);
  if (span < 0) throw invalid('endDate', 'endDate must not be before startDate');
  if (span > MAX_REPORT_DAYS) throw invalid('endDate', `At most ${MAX_REPORT_DAYS} days after startDate`);
}

/** The local midnights of each date from startDate to the day after endDate: n + 1 bounds for n days. */
function midnights(startDate: string, days: number, zone: string): number[] {
  return Array.from({ length: days + 1 }, (_, i) => startOfLocalDay(addDays(startDate, i), zone));
}

/**
 * Bookings per local day of the organization, by the day they were made: those still standing
 * (not cancelled), their participants and totals, and the cancellations of each day.
 *
 * Days are cut in JS and summed in SQL: a local day's bounds come from domain/time.ts (so a DST
 * day is 23 or 25 hours long, exactly), and each day is one range of a covering index summed by
 * SQLite, so no booking becomes a JS object and the cost follows the range, not the history.
 */
export async function dailyReport(store: Store, orgId: string, query: { startDate?: string; endDate?: string }, now: number): Promise<DailyReport> {
  const org = await getOrganization(store, orgId);
  const { startDate, endDate } = createdRange(query, now, org.timezone);
  const count = daysBetween(startDate, endDate) + 1;
  const bounds = midnights(startDate, count, org.timezone);
  const created = await store.reports.createdTotalsBetween(orgId, bounds);
  const cancelled = await store.reports.cancellationsBetween(orgId, bounds);
  const days = created.map((c, i): DailyFigures => ({
    date: addDays(startDate, i),
    bookings: c.bookings,
    participants: c.participants,
    revenueCents: c.totalCents,
    cancellations: cancelled[i] ?? 0,
  }));
  return { timezone: org.timezone, currency: org.currency, startDate, endDate, days };
}

/** The range of the reports by creation date: default the 30 days ending today, checked. */
function createdRange(query: { startDate?: string; endDate?: string }, now: number, zone: string): { startDate: string; endDate: string } {
  const endDate = query.endDate ?? localTodayOf(now, zone);
  const startDate = query.startDate ?? addDays(endDate, -(DAILY_DEFAULT_DAYS - 1));
  assertSpan(startDate, endDate);
  return { startDate, endDate };
}

/**
 * The daily report's figures over its whole range, per experience: the bookings made in the range
 * and not cancelled, their participants and totals, and the cancellations of the range. One entry
 * per experience with any, highest revenue first, then by title.
 */
export async function experienceReport(store: Store, orgId: string, query: { startDate?: string; endDate?: string }, now: number): Promise<ExperienceReport> {
  const org = await getOrganization(store, orgId);
  const { startDate, endDate } = createdRange(query, now, org.timezone);
  const from = startOfLocalDay(startDate, org.timezone);
  const to = startOfLocalDay(addDays(endDate, 1), org.timezone);
  const rows = await store.reports.totalsByExperience(orgId, from, to);
  const experiences = rows
    .map((r) => ({
      experienceId: r.experienceId,
      experienceName: r.experienceName,
      bookings: r.bookings,
      participants: r.participants,
      revenueCents: r.totalCents,
      cancellations: r.cancellations,
    }))
    .sort(byRevenueThenTitle);
  return { timezone: org.timezone, currency: org.currency, startDate, endDate, experiences };
}

/**
 * How full the active experiences' scheduled slots are between two local dates of the
 * organization: slots and places from the schedules as they stand, places taken from the per-slot
 * counters (so the cost follows the range and the number of experiences, never the history).
 */
export async function occupancyReport(
  store: Store,
  orgId: string,
  query: { startDate?: string; endDate?: string },
  now: number,
): Promise<ExperienceOccupancy[]> {
  const org = await getOrganization(store, orgId);
  const startDate = query.startDate ?? localTodayOf(now, org.timezone);
  const endDate = query.endDate ?? addDays(startDate, OCCUPANCY_DEFAULT_DAYS);
  assertSpan(startDate, endDate);
  const from = startOfLocalDay(startDate, org.timezone);
  const to = startOfLocalDay(addDays(endDate, 1), org.timezone);
  const active = (await store.experiences.listAllExperiences(orgId)).filter((exp) => exp.active === 1);
  return await Promise.all(
    active.map(async (exp): Promise<ExperienceOccupancy> => {
      const slots = scheduledSlotsBetween(exp, zoneOf(exp, org.timezone), from, to);
      const states = slots.length > 0 ? await store.slots.slotsBetween(exp.id, from, to) : new Map<number, SlotState>();
      // Each departure at its own capacity when the operator set one.
      let booked = 0;
      let capacity = 0;
      for (const slot of slots) {
        const state = states.get(slot.start);
        booked += state?.booked ?? 0;
        capacity += slotCapacity(exp.maxParticipants, state);
      }
      return { experienceId: exp.id, experienceName: exp.name, slots: slots.length, capacity, booked };
    }),
  );
}
