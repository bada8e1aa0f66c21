/**
 * The Calendar's state: one week (Monday to Sunday, in the address as `?week=`) of every active
 * experience's slots, from GET /v1/availability: one call per experience, its dates read in that
 * experience's own zone, which the answer names.
 */
import { Availability, Experience } from '../../shared/index.js';
import { ApiError } from '../api.js';
import type { Location } from '../router.js';
import { addDays } from './dates.js';
import { batch, signal } from './signals.js';
import { sentenceFor, type Area, type AreaContext } from './context.js';
import { createDeparturesModel } from './departures.js';

export interface CalendarRow {
  experience: Experience;
  availability: Availability | null;
  /** This experience's week could not be loaded; the others still show. */
  error: string | null;
}

export interface WeekState {
  /** The Monday shown, `YYYY-MM-DD`; null before the first load. */
  monday: string | null;
  rows: CalendarRow[] | null;
  /** More active experiences than one page holds: only the first page is shown. */
  more: boolean;
  loading: boolean;
  error: string | null;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The Monday of the week `date` falls in. */
export function mondayOf(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return addDays(date, -((weekday + 6) % 7));
}

/** Today where this browser is: the week an operator means by "this week". */
export const localToday = (now = new Date()): string =>
  `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;

const empty: WeekState = { monday: null, rows: null, more: false, loading: false, error: null };

export function createCalendarModel(ctx: AreaContext) {
  const week = signal<WeekState>(empty);
  let generation = 0;

  async function load(asked: string | null): Promise<void> {
    const mine = ++generation;
    const monday = mondayOf(asked && DATE.test(asked) && !Number.isNaN(Date.parse(asked)) ? asked : localToday());
    const shown = week.peek();
    // Another week's slots must not stand under this week's dates while it loads.
    week.value = { ...shown, monday, rows: shown.monday === monday ? shown.rows : null, loading: true, error: null };
    try {
      const page = await ctx.http.list(Experience, '/v1/experiences', { active: 'true', limit: 100 });
      const rows = await Promise.all(
        page.data.map(async (experience): Promise<CalendarRow> => {
          try {
            const query = { experienceId: experience.id, startDate: monday, endDate: addDays(monday, 6) };
            return { experience, availability: await ctx.http.get(Availability, '/v1/availability', query), error: null };
          } catch (e) {
            // The session ended: said once, below, not once per experience.
            if (e instanceof ApiError && e.code === 'UNAUTHORIZED') throw e;
            return { experience, availability: null, error: sentenceFor(e) };
          }
        }),
      );
      if (mine === generation) week.value = { monday, rows, more: page.pagination.hasMore, loading: false, error: null };
    } catch (e) {
      if (mine !== generation || ctx.ended(e)) return;
      week.value = { ...empty, monday, error: sentenceFor(e) };
    }
  }

  // A departure changed: the week again, where it is shown.
  const departures = createDeparturesModel(ctx, () => void load(week.peek().monday));

  const area = {
    enter(location: Location): void {
      void load(location.search.get('week'));
    },
    reset(): void {
      generation++;
      departures.reset();
      batch(() => (week.value = empty));
    },
  } satisfies Area;

  return {
    ...area,
    week,
    departures,
    retry(): void {
      void load(ctx.router.location.peek().search.get('week'));
    },
  };
}

export type CalendarModel = ReturnType<typeof createCalendarModel>;
