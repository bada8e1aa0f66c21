import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { ok } from '../http/reply.js';
import { serializeDailyReport, serializeOccupancyReport } from '../serializers/reports.js';
import { dailyReport, occupancyReport } from '../services/reports.js';
import { DailyReport, DailyReportQuery, MAX_REPORT_DAYS, OccupancyReport, OccupancyReportQuery } from '../../shared/index.js';

export function reportRoutes(ctx: RouteContext): ApiRoutes {
  const tag = 'Reports';
  const { store } = ctx;
  return new ApiRoutes(ctx)
    .op(
      {
        method: 'get',
        path: '/reports/daily',
        summary: 'Bookings, participants, revenue and cancellations per day',
        description:
          "One entry per date of the organization's time zone, from startDate to endDate inclusive (default the 30 days " +
          `ending today; at most ${MAX_REPORT_DAYS} days apart), days without activity included. Bookings count on the day ` +
          'they were made: `bookings`, `participants` and `revenue` (the sum of their totals) are those made that day and not ' +
          'cancelled since; `cancellations` counts the bookings cancelled that day.',
        tag,
        auth: 'secret',
        scope: 'bookings:read',
        query: DailyReportQuery,
        response: DailyReport,
      },
      async ({ caller, query }) => ok(serializeDailyReport(await dailyReport(store, caller.orgId, query, ctx.now()))),
    )
    .op(
      {
        method: 'get',
        path: '/reports/occupancy',
        summary: 'How full the active experiences are',
        description:
          "Over the time slots of each active experience's schedule that start between startDate and endDate (inclusive " +
          `dates of the organization's time zone; default today to today + 30 days; at most ${MAX_REPORT_DAYS} days apart): ` +
          'the number of slots, their places (`capacity`), the places CONFIRMED and PENDING bookings hold in them ' +
          '(`booked`), and `occupancy` = booked / capacity rounded to 4 decimals (0 without slots).',
        tag,
        auth: 'secret',
        scope: 'bookings:read',
        query: OccupancyReportQuery,
        response: OccupancyReport,
      },
      async ({ caller, query }) => ok(serializeOccupancyReport(await occupancyReport(store, caller.orgId, query, ctx.now()))),
    );
}
