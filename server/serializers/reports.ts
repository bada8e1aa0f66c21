import { formatMoney } from '../domain/money.js';
import type { DailyReport as DailyModel, ExperienceOccupancy as OccupancyModel } from '../domain/reports.js';
import type { DailyReport, OccupancyReport } from '../../shared/index.js';

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
