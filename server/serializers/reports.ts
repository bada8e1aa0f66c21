import { formatMoney } from '../domain/money.js';
import type { DailyReport as DailyModel, ExperienceOccupancy as OccupancyModel, ExperienceReport as ExperienceModel } from '../domain/reports.js';
import type { DailyReport, ExperienceReport, OccupancyReport } from '../../shared/index.js';

export function serializeDailyReport(r: DailyModel): DailyReport {
  return {
    timezone: r.timezone,
    currency: r.currency,
    days: r.days.map((d) => ({
      date: d.date,
      bookings: d.bookings,
      participants: d.participants,
      revenue: formatMoney(d.revenueCents),
      cancellations: d.cancellations,
    })),
  };
}

export function serializeOccupancyReport(experiences: OccupancyModel[]): OccupancyReport {
  return {
    experiences: experiences.map((e) => ({
      experience: { id: e.experienceId, title: e.experienceName },
      slots: e.slots,
      capacity: e.capacity,
      booked: e.booked,
      occupancy: e.capacity === 0 ? 0 : Math.round((e.booked / e.capacity) * 10_000) / 10_000,
    })),
  };
}

export function serializeExperienceReport(r: ExperienceModel): ExperienceReport {
  return {
    timezone: r.timezone,
    currency: r.currency,
    startDate: r.startDate,
    endDate: r.endDate,
    experiences: r.experiences.map((e) => ({
      experience: { id: e.experienceId, title: e.experienceName },
      bookings: e.bookings,
      participants: e.participants,
      revenue: formatMoney(e.revenueCents),
      cancellations: e.cancellations,
    })),
  };
}

/** `daily.csv`: a header row, then one row per day, as `GET /v1/reports/daily` has them. */
export function dailyCsvRows(r: DailyModel): string[][] {
  return [
    ['date', 'bookings', 'participants', 'revenue', 'cancellations'],
    ...r.days.map((d) => [d.date, String(d.bookings), String(d.participants), formatMoney(d.revenueCents), String(d.cancellations)]),
  ];
}

/** `experiences.csv`: a header row, then one row per experience, in the report's order. */
export function experienceCsvRows(r: ExperienceModel): string[][] {
  return [
    ['experienceId', 'experience', 'bookings', 'participants', 'revenue', 'cancellations'],
    ...r.experiences.map((e) => [
      e.experienceId, e.experienceName, String(e.bookings), String(e.participants), formatMoney(e.revenueCents), String(e.cancellations),
    ]),
  ];
}

export const dailyCsvFilename = (r: DailyModel): string => `daily-${r.startDate}-${r.endDate}.csv`;
export const experienceCsvFilename = (r: ExperienceModel): string => `experiences-${r.startDate}-${r.endDate}.csv`;
