/**
 * The Insights screen's state and actions: bookings and revenue per day over the last 30 days
 * (GET /v1/reports/daily), and how full each experience was over those days and will be over the
 * next 30 (GET /v1/reports/occupancy, twice).
 */
import { DailyReport, OccupancyReport } from '../../shared/index.js';
import type { Location } from '../router.js';
import { sentenceFor, type Area, type AreaContext } from './context.js';
import { addDays } from './dates.js';
import { batch, computed, signal } from './signals.js';

/** The figures of one screenful, all from the same moment. */
export interface InsightsFigures {
  daily: DailyReport;
  /** The same days as `daily`. */
  past: OccupancyReport;
  /** The 30 days after them. */
  ahead: OccupancyReport;
  /** The first and last date of `ahead`. */
  aheadFrom: string;
  aheadTo: string;
}

export interface Totals {
  bookings: number;
  participants: number;
  /** In major units with two decimals, as the API writes money. */
  revenue: string;
  cancellations: number;
}

export const AHEAD_DAYS = 30;

/** "12.50" → 1250: sums of money in whole cents, so no float drifts into the total. */
export const cents = (amount: string): number => Math.round(Number(amount) * 100);

export function totalsOf(daily: DailyReport): Totals {
  let bookings = 0;
  let participants = 0;
  let revenue = 0;
  let cancellations = 0;
  for (const d of daily.days) {
    bookings += d.bookings;
    participants += d.participants;
    revenue += cents(d.revenue);
    cancellations += d.cancellations;
  }
  return { bookings, participants, revenue: (revenue / 100).toFixed(2), cancellations };
}

export function createInsightsModel(ctx: AreaContext) {
  const data = signal<InsightsFigures | null>(null);
  const loading = signal(false);
  const error = signal<string | null>(null);
  let generation = 0;

  async function load(): Promise<void> {
    const mine = ++generation;
    loading.value = true;
    error.value = null;
    try {
      // The days come in the organization's zone: the occupancy periods are cut from them.
      const daily = await ctx.http.get(DailyReport, '/v1/reports/daily');
      const first = daily.days[0]?.date;
      const last = daily.days.at(-1)?.date;
      if (!first || !last) throw new Error('The daily report has no days');
      const aheadFrom = addDays(last, 1);
      const aheadTo = addDays(last, AHEAD_DAYS);
      const [past, ahead] = await Promise.all([
        ctx.http.get(OccupancyReport, '/v1/reports/occupancy', { startDate: first, endDate: last }),
        ctx.http.get(OccupancyReport, '/v1/reports/occupancy', { startDate: aheadFrom, endDate: aheadTo }),
      ]);
      if (mine !== generation) return;
      batch(() => {
        data.value = { daily, past, ahead, aheadFrom, aheadTo };
        loading.value = false;
      });
    } catch (e) {
      if (ctx.ended(e)) return;
      if (mine !== generation) return;
      batch(() => {
        error.value = sentenceFor(e);
        loading.value = false;
      });
    }
  }

  const area = {
    /** Fresh figures each time the screen is opened; the last ones stay in view meanwhile. */
    enter(location: Location): void {
      void location;
      void load();
    },
    reset(): void {
      generation++;
      batch(() => {
        data.value = null;
        loading.value = false;
        error.value = null;
      });
    },
  } satisfies Area;

  return {
    ...area,
    data,
    loading,
    error,
    totals: computed(() => (data.value ? totalsOf(data.value.daily) : null)),
    retry(): void {
      void load();
    },
  };
}

export type InsightsModel = ReturnType<typeof createInsightsModel>;
