/**
 * The Insights screen's state and actions: bookings and revenue per day over a range of days (the
 * last 30 unless the address names another; GET /v1/reports/daily), the same per experience (GET
 * /v1/reports/experiences), how full each experience was over those days and will be over the 30
 * after them (GET /v1/reports/occupancy, twice), and both reports as CSV files.
 */
import { DailyReport, ExperienceReport, MAX_REPORT_DAYS, OccupancyReport } from '../../shared/index.js';
import { ApiError } from '../api.js';
import type { Location } from '../router.js';
import { fieldsOf, saveFile, sentenceFor, type Area, type AreaContext } from './context.js';
import { addDays } from './dates.js';
import { batch, computed, signal } from './signals.js';

/** The figures of one screenful, all from the same moment. */
export interface InsightsFigures {
  daily: DailyReport;
  /** The same days, per experience. */
  experiences: ExperienceReport;
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

/** The range an address asks for: both dates, or neither (the last 30 days). */
export interface InsightsRange {
  startDate: string;
  endDate: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isDate = (text: string): boolean => DATE.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);
const daysFrom = (a: string, b: string): number => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

/** The range of an address; null (the default) unless both dates are there and dates. */
export function rangeOf(search: URLSearchParams): InsightsRange | null {
  const startDate = search.get('startDate') ?? '';
  const endDate = search.get('endDate') ?? '';
  return isDate(startDate) && isDate(endDate) ? { startDate, endDate } : null;
}

/**
 * What is wrong with a range as typed, per field, in words: the API's own rules (To not before
 * From, at most MAX_REPORT_DAYS days after it), said before asking.
 */
export function rangeProblems(startDate: string, endDate: string): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!isDate(startDate)) problems['startDate'] = 'Enter the first day as a date.';
  if (!isDate(endDate)) problems['endDate'] = 'Enter the last day as a date.';
  if (Object.keys(problems).length) return problems;
  const span = daysFrom(startDate, endDate);
  if (span < 0) problems['endDate'] = '“To” must be the same day as “From” or later.';
  else if (span > MAX_REPORT_DAYS) problems['endDate'] = `At most ${MAX_REPORT_DAYS} days after “From”: ${addDays(startDate, MAX_REPORT_DAYS)} or earlier.`;
  return problems;
}

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
  /** The range asked for by the address; null: the last 30 days. */
  const range = signal<InsightsRange | null>(null);
  /** The From and To fields' errors, by field name. */
  const fieldErrors = signal<Record<string, string>>({});
  /** Made anew (a new key) when the address brings another range, so the fields show it. */
  const formKey = signal(0);
  /** The CSV file being made, and why the last one could not be. */
  const downloading = signal<'daily' | 'experiences' | null>(null);
  const downloadError = signal<string | null>(null);
  let generation = 0;
  /** The range last sent from the fields: its address needs no new form (focus stays where it is). */
  let submitted: InsightsRange | null = null;

  async function load(asked: InsightsRange | null): Promise<void> {
    const mine = ++generation;
    loading.value = true;
    error.value = null;
    try {
      // The days come in the organization's zone: the other reports' periods are cut from them.
      const daily = await ctx.http.get(DailyReport, '/v1/reports/daily', asked ? { ...asked } : {});
      const first = daily.days[0]?.date;
      const last = daily.days.at(-1)?.date;
      if (!first || !last) throw new Error('The daily report has no days');
      const aheadFrom = addDays(last, 1);
      const aheadTo = addDays(last, AHEAD_DAYS);
      const [experiences, past, ahead] = await Promise.all([
        ctx.http.get(ExperienceReport, '/v1/reports/experiences', { startDate: first, endDate: last }),
        ctx.http.get(OccupancyReport, '/v1/reports/occupancy', { startDate: first, endDate: last }),
        ctx.http.get(OccupancyReport, '/v1/reports/occupancy', { startDate: aheadFrom, endDate: aheadTo }),
      ]);
      if (mine !== generation) return;
      batch(() => {
        data.value = { daily, experiences, past, ahead, aheadFrom, aheadTo };
        loading.value = false;
      });
    } catch (e) {
      if (ctx.ended(e)) return;
      if (mine !== generation) return;
      batch(() => {
        // A range the API refuses (one typed into the address) is said beside its field.
        const fields = e instanceof ApiError && e.code === 'VALIDATION_ERROR' ? fieldsOf(e) : {};
        if (fields['startDate'] || fields['endDate']) fieldErrors.value = fields;
        error.value = sentenceFor(e);
        loading.value = false;
      });
    }
  }

  const area = {
    /** Fresh figures each time the screen is opened; the last ones stay in view meanwhile. */
    enter(location: Location): void {
      const asked = rangeOf(location.search);
      batch(() => {
        const fromFields = asked !== null && JSON.stringify(asked) === JSON.stringify(submitted);
        if (!fromFields && JSON.stringify(asked) !== JSON.stringify(range.peek())) formKey.value++;
        submitted = null;
        range.value = asked;
        fieldErrors.value = {};
        downloadError.value = null;
      });
      void load(asked);
    },
    reset(): void {
      generation++;
      batch(() => {
        data.value = null;
        loading.value = false;
        error.value = null;
        range.value = null;
        fieldErrors.value = {};
        downloading.value = null;
        downloadError.value = null;
      });
    },
  } satisfies Area;

  /** The range shown: the one asked for, else the days of the figures on screen. */
  const shown = (): InsightsRange | null => {
    const days = data.peek()?.daily.days;
    return range.peek() ?? (days?.length ? { startDate: days[0]!.date, endDate: days.at(-1)!.date } : null);
  };

  return {
    ...area,
    data,
    loading,
    error,
    range,
    fieldErrors,
    formKey,
    downloading,
    downloadError,
    totals: computed(() => (data.value ? totalsOf(data.value.daily) : null)),
    retry(): void {
      void load(range.peek());
    },
    /**
     * Another range, checked here first (errors beside their fields, nothing asked); a good one
     * becomes the address (Back returns to the one before), which loads it.
     */
    show(startDate: string, endDate: string): boolean {
      const problems = rangeProblems(startDate, endDate);
      fieldErrors.value = problems;
      if (Object.keys(problems).length) return false;
      submitted = { startDate, endDate };
      ctx.router.setQuery({ startDate, endDate });
      return true;
    },
    /** A report as a CSV file, over the range on screen. */
    async download(which: 'daily' | 'experiences'): Promise<void> {
      const r = shown();
      if (!r || downloading.peek()) return;
      batch(() => {
        downloading.value = which;
        downloadError.value = null;
      });
      try {
        saveFile(await ctx.http.download(`/v1/reports/${which}.csv`, { ...r }, `${which}-${r.startDate}-${r.endDate}.csv`));
      } catch (e) {
        if (!ctx.ended(e)) downloadError.value = `The CSV file could not be made: ${sentenceFor(e)}`;
      } finally {
        downloading.value = null;
      }
    },
  };
}

export type InsightsModel = ReturnType<typeof createInsightsModel>;
