import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { ok } from '../http/reply.js';
import { csvDownload } from '../http/csv.js';
import {
  dailyCsvFilename, dailyCsvRows, experienceCsvFilename, experienceCsvRows, serializeDailyReport, serializeExperienceReport, serializeOccupancyReport,
} from '../serializers/reports.js';
import { dailyReport, experienceReport, occupancyReport } from '../services/reports.js';
import {
  DailyReport, DailyReportQuery, ExperienceReport, ExperienceReportQuery, MAX_REPORT_DAYS, OccupancyReport, OccupancyReportQuery,
} from '../../shared/index.js';

const RANGE =
  "startDate to endDate inclusive, dates of the organization's time zone (default the 30 days ending today; at most " +
  `${MAX_REPORT_DAYS} days apart)`;
const FORMULA_SAFE =
  "RFC 4180 CSV (UTF-8, CRLF) under a header row; a cell that a spreadsheet would run as a formula (it starts with =, +, -, @, a tab or a carriage return) gets a leading '. Errors answer as JSON envelopes.";

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
        path: '/reports/experiences',
        summary: 'Bookings, participants, revenue and cancellations per experience',
        description:
          `Over ${RANGE}, counted as \`GET /v1/reports/daily\` counts them: \`bookings\`, \`participants\` and \`revenue\` are ` +
          'the bookings made in the range and not cancelled since; `cancellations` the bookings cancelled in the range. One entry ' +
          'per experience with any of these, the highest revenue first, then by title.',
        tag,
        auth: 'secret',
        scope: 'bookings:read',
        query: ExperienceReportQuery,
        response: ExperienceReport,
      },
      async ({ caller, query }) => ok(serializeExperienceReport(await experienceReport(store, caller.orgId, query, ctx.now()))),
    )
    .op(
      {
        method: 'get',
        path: '/reports/daily.csv',
        summary: 'The daily report as a CSV file',
        description:
          `The days of \`GET /v1/reports/daily\` (same query: ${RANGE}) as ${FORMULA_SAFE} Columns: \`date\`, \`bookings\`, ` +
          '`participants`, `revenue`, `cancellations`. Downloaded as `daily-<startDate>-<endDate>.csv`.',
        tag,
        auth: 'secret',
        scope: 'bookings:read',
        query: DailyReportQuery,
        file: { mediaType: 'text/csv', example: 'DailyReportCsv' },
      },
      async ({ caller, query }) => {
        const report = await dailyReport(store, caller.orgId, query, ctx.now());
        return csvDownload(dailyCsvRows(report), dailyCsvFilename(report));
      },
    )
    .op(
      {
        method: 'get',
        path: '/reports/experiences.csv',
        summary: 'The report per experience as a CSV file',
        description:
          `The entries of \`GET /v1/reports/experiences\` (same query: ${RANGE}), in its order, as ${FORMULA_SAFE} Columns: ` +
          '`experienceId`, `experience` (its title), `bookings`, `participants`, `revenue`, `cancellations`. Downloaded as ' +
          '`experiences-<startDate>-<endDate>.csv`.',
        tag,
        auth: 'secret',
        scope: 'bookings:read',
        query: ExperienceReportQuery,
        file: { mediaType: 'text/csv', example: 'ExperienceReportCsv' },
      },
      async ({ caller, query }) => {
        const report = await experienceReport(store, caller.orgId, query, ctx.now());
        return csvDownload(experienceCsvRows(report), experienceCsvFilename(report));
      },
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
