import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import type { DailyReport, ExperienceReport, OccupancyReport } from '../shared/index.js';
import { ApiError, type Http, type Query } from './api.js';
import { roundTop } from './components/chart-bars.js';
import { totalsOf } from './state/insights.js';
import { addDays } from './state/dates.js';
import { mountAt, useDashboardTests } from './test-helpers/dashboard-under-test.js';

useDashboardTests();

const FIRST = '2026-11-02';
const LAST = '2026-12-01';

/** Thirty days (or from `first` to `last`); some busy, some quiet, one with a cancellation only. */
function dailyOf(busy = true, first = FIRST, last = LAST): DailyReport {
  const count = Math.round((Date.parse(last) - Date.parse(first)) / 86_400_000) + 1;
  return {
    timezone: 'Europe/Lisbon',
    currency: 'EUR',
    days: Array.from({ length: count }, (_, i) => {
      const bookings = busy ? [3, 0, 5, 1, 2, 0][i % 6]! : 0;
      return {
        date: addDays(first, i),
        bookings,
        participants: bookings * 2,
        revenue: (bookings * 2 * 25).toFixed(2),
        cancellations: busy && i % 7 === 3 ? 1 : 0,
      };
    }),
  };
}

const occupancy = (ahead: boolean): OccupancyReport => ({
  experiences: [
    { experience: { id: 'exp_walk', title: 'Alfama Old Town Walk' }, slots: 60, capacity: 720, booked: ahead ? 24 : 281, occupancy: ahead ? 0.0333 : 0.3903 },
    { experience: { id: 'exp_sail', title: 'Sunset Sail on the Tagus' }, slots: ahead ? 0 : 17, capacity: ahead ? 0 : 136, booked: ahead ? 0 : 50, occupancy: ahead ? 0 : 0.3676 },
  ],
});

const perExperience = (startDate: string, endDate: string): ExperienceReport => ({
  timezone: 'Europe/Lisbon',
  currency: 'EUR',
  startDate,
  endDate,
  experiences: [
    { experience: { id: 'exp_sail', title: 'Sunset Sail on the Tagus' }, bookings: 20, participants: 40, revenue: '2000.00', cancellations: 1 },
    { experience: { id: 'exp_walk', title: 'Alfama Old Town Walk' }, bookings: 35, participants: 70, revenue: '750.00', cancellations: 3 },
  ],
});

function fakeReports(daily?: DailyReport) {
  const calls: string[] = [];
  const failures: ApiError[] = [];
  const answer = (path: string, query: Query = {}) => {
    calls.push(`GET ${path}${Object.keys(query).length ? ` ${JSON.stringify(query)}` : ''}`);
    const failure = failures.shift();
    if (failure) throw failure;
    const [from, to] = [query['startDate'] as string | undefined, query['endDate'] as string | undefined];
    if (path === '/v1/reports/daily') return daily ?? (from && to ? dailyOf(true, from, to) : dailyOf());
    if (path === '/v1/reports/experiences') return perExperience(from!, to!);
    if (path === '/v1/reports/occupancy') return occupancy(query['startDate'] !== FIRST);
    throw new ApiError(404, 'NOT_FOUND', `Not faked: ${path}`);
  };
  const refuse = () => Promise.reject(new ApiError(404, 'NOT_FOUND', 'Not faked'));
  const downloads: string[] = [];
  const http: Http = {
    get: async (schema, path, query) => schema.parse(answer(path, query)),
    list: refuse,
    send: refuse,
    download: async (path, query, fallbackName) => {
      downloads.push(`${path} ${JSON.stringify(query)} ${fallbackName}`);
      return { blob: new Blob(['date\r\n'], { type: 'text/csv' }), filename: fallbackName ?? 'file.csv' };
    },
  };
  return { http, calls, failures, downloads };
}

async function openInsights(daily?: DailyReport) {
  const outing = fakeReports(daily);
  const t = mountAt('/dashboard/insights', { signedIn: true, http: outing.http });
  // The screen is in a lazy chunk, which a cold, busy run transforms slowly the first time.
  await screen.findByRole('heading', { level: 1, name: 'Insights' }, { timeout: 5000 });
  return { ...t, outing };
}

const tableOf = (summary: string) => screen.getByText(summary).closest('details')!.querySelector('table')!;

describe('the Insights screen', () => {
  it('asks for the daily report, then the same 30 days per experience, their occupancy and that of the next 30', async () => {
    const { outing } = await openInsights();
    await screen.findByRole('heading', { name: 'Bookings per day' });
    expect(outing.calls).toEqual([
      'GET /v1/reports/daily',
      `GET /v1/reports/experiences {"startDate":"${FIRST}","endDate":"${LAST}"}`,
      `GET /v1/reports/occupancy {"startDate":"${FIRST}","endDate":"${LAST}"}`,
      'GET /v1/reports/occupancy {"startDate":"2026-12-02","endDate":"2026-12-31"}',
    ]);
    expect(screen.getByText(/^The last 30 days,/).textContent).toContain('Europe/Lisbon');
  });

  it('shows the totals of the period, in the organization currency', async () => {
    await openInsights();
    const totals = totalsOf(dailyOf());
    const figures = within(await screen.findByRole('region', { name: 'Totals' }));
    const value = (name: string) => figures.getByText(name).nextElementSibling!.textContent;
    expect(value('Bookings')).toBe(String(totals.bookings));
    expect(value('Guests')).toBe(String(totals.participants));
    expect(value('Revenue')).toBe('€2,750.00');
    expect(value('Cancellations')).toBe(String(totals.cancellations));
    expect(totals).toEqual({ bookings: 55, participants: 110, revenue: '2750.00', cancellations: 4 });
  });

  it('draws each day as a column, and its table carries the same numbers', async () => {
    await openInsights();
    const chart = await screen.findByRole('img', { name: 'Bookings per day' });
    expect(chart.tagName.toLowerCase()).toBe('svg');
    expect(chart.getAttribute('viewBox')).toBe('0 0 300 100');
    expect(chart.querySelector('desc')!.textContent).toBe(
      'Bookings made each day from Nov 2, 2026 to Dec 1, 2026: 55 in all, the most (5) on Nov 4, 2026. The table below has every day.',
    );
    const bars = [...chart.querySelectorAll('rect')];
    expect(bars).toHaveLength(30);
    // The top of the scale is a round number above the busiest day; each column is its share of it.
    const top = roundTop(5);
    expect(top).toBe(5);
    const rows = [...tableOf('Bookings and revenue per day as a table').querySelectorAll('tbody tr')];
    expect(rows).toHaveLength(30);
    rows.forEach((row, i) => {
      const cells = [...row.querySelectorAll('td')].map((c) => c.textContent);
      const day = dailyOf().days[i]!;
      expect(row.querySelector('time')!.getAttribute('datetime')).toBe(day.date);
      expect(cells).toEqual([String(day.bookings), String(day.participants), `€${day.revenue}`, String(day.cancellations)]);
      expect(Number(bars[i]!.getAttribute('height'))).toBeCloseTo((day.bookings / top) * 100);
      expect(bars[i]!.querySelector('title')!.textContent).toMatch(new RegExp(`: ${day.bookings} bookings?$`));
    });
    expect(rows[0]!.querySelector('th')!.textContent).toBe('Mon, Nov 2');
    const total = tableOf('Bookings and revenue per day as a table').querySelector('tfoot tr')!;
    expect([...total.querySelectorAll('td')].map((c) => c.textContent)).toEqual(['55', '110', '€2,750.00', '4']);

    const revenue = screen.getByRole('img', { name: 'Revenue per day' });
    expect(revenue.querySelector('desc')!.textContent).toContain('€2,750.00 in all, the most (€250.00) on Nov 4, 2026');
    expect(revenue.querySelectorAll('rect')[2]!.querySelector('title')!.textContent).toBe('Nov 4: €250.00');
    // The scale beside it, in whole euros.
    expect(revenue.closest('figure')!.querySelector('.chart-y')!.textContent).toBe('€500€250€0');
  });

  it('shows occupancy per experience as bars with their percentages, and as a table', async () => {
    await openInsights();
    const region = within(await screen.findByRole('region', { name: 'Occupancy per experience' }));
    const walk = region.getByText('Alfama Old Town Walk', { selector: '.meter-title' }).closest('li')!;
    expect(walk.textContent).toBe('Alfama Old Town WalkLast 30 days39%Next 30 days3%');
    const bars = walk.querySelectorAll('.meter-bar');
    expect(Number(bars[0]!.getAttribute('width'))).toBeCloseTo(39.03);
    expect(Number(bars[1]!.getAttribute('width'))).toBeCloseTo(3.33);
    const sail = region.getByText('Sunset Sail on the Tagus', { selector: '.meter-title' }).closest('li')!;
    expect(sail.textContent).toContain('Next 30 daysNo tours');

    const rows = [...tableOf('Occupancy as a table').querySelectorAll('tbody tr')].map((r) =>
      [...r.querySelectorAll('th, td')].map((c) => c.textContent),
    );
    expect(rows).toEqual([
      ['Alfama Old Town Walk', '39%: 281 of 720 places, 60 tours', '3%: 24 of 720 places, 60 tours'],
      ['Sunset Sail on the Tagus', '37%: 50 of 136 places, 17 tours', 'No tours'],
    ]);
  });

  it('shows revenue per experience as bars with their amounts, highest first, and as a table of every figure', async () => {
    await openInsights();
    const region = within(await screen.findByRole('region', { name: 'Revenue per experience' }));
    const items = region.getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual(['Sunset Sail on the TagusRevenue€2,000.00', 'Alfama Old Town WalkRevenue€750.00']);
    const bars = items.map((li) => Number(li.querySelector('.meter-bar')!.getAttribute('width')));
    expect(bars[0]).toBe(100);
    expect(bars[1]).toBeCloseTo(37.5);
    const table = region.getByRole('table', { name: 'Bookings, guests, revenue and cancellations per experience' });
    const rows = [...table.querySelectorAll('tbody tr')].map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Sunset Sail on the Tagus', '20', '40', '€2,000.00', '1'],
      ['Alfama Old Town Walk', '35', '70', '€750.00', '3'],
    ]);
    // The table scrolls sideways on a phone: it can be reached and scrolled by keyboard.
    expect(table.closest('[role="region"]')!.getAttribute('tabindex')).toBe('0');
  });

  it('shows the last 30 days in From and To, and refuses a range beside its fields before asking', async () => {
    const { outing } = await openInsights();
    await screen.findByRole('img', { name: 'Bookings per day' });
    const from = screen.getByLabelText('From') as HTMLInputElement;
    const to = screen.getByLabelText('To') as HTMLInputElement;
    expect([from.value, to.value]).toEqual([FIRST, LAST]);
    const asked = outing.calls.length;

    fireEvent.input(from, { target: { value: '2026-12-10' } });
    fireEvent.input(to, { target: { value: '2026-12-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show figures' }));
    await waitFor(() => expect(to.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(to.getAttribute('aria-describedby')!.split(' ').at(-1)!)!.textContent).toBe('“To” must be the same day as “From” or later.');
    await waitFor(() => expect(document.activeElement).toBe(to));

    fireEvent.input(from, { target: { value: '2025-01-01' } });
    fireEvent.input(to, { target: { value: '2026-01-03' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show figures' }));
    await waitFor(() => expect(screen.getByText('At most 366 days after “From”: 2026-01-02 or earlier.')).toBeTruthy());

    fireEvent.input(from, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show figures' }));
    await waitFor(() => expect(from.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('Enter the first day as a date.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(from));
    expect(outing.calls).toHaveLength(asked);
    expect(location.search).toBe('');
  });

  it('shows another range from the address it makes, every report over it, and back to the last 30 days', async () => {
    const { outing } = await openInsights();
    await screen.findByRole('img', { name: 'Bookings per day' });
    fireEvent.input(screen.getByLabelText('From'), { target: { value: '2026-10-01' } });
    fireEvent.input(screen.getByLabelText('To'), { target: { value: '2026-10-10' } });
    outing.calls.splice(0);
    fireEvent.click(screen.getByRole('button', { name: 'Show figures' }));
    await waitFor(() => expect(location.search).toBe('?startDate=2026-10-01&endDate=2026-10-10'));
    await screen.findByText(/^From Oct 1, 2026 to Oct 10, 2026/);
    expect(outing.calls).toEqual([
      'GET /v1/reports/daily {"startDate":"2026-10-01","endDate":"2026-10-10"}',
      'GET /v1/reports/experiences {"startDate":"2026-10-01","endDate":"2026-10-10"}',
      'GET /v1/reports/occupancy {"startDate":"2026-10-01","endDate":"2026-10-10"}',
      'GET /v1/reports/occupancy {"startDate":"2026-10-11","endDate":"2026-11-09"}',
    ]);
    expect(screen.getByRole('img', { name: 'Bookings per day' }).querySelectorAll('rect')).toHaveLength(10);
    expect(screen.getAllByText('These days', { selector: '.meter-name' })).toHaveLength(2);
    fireEvent.click(screen.getByRole('link', { name: 'Last 30 days' }));
    await screen.findByText(/^The last 30 days,/);
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe(FIRST);
  });

  it('downloads both reports as CSV files over the range on screen', async () => {
    const { outing } = await openInsights();
    await screen.findByRole('img', { name: 'Bookings per day' });
    URL.createObjectURL ??= () => 'blob:x';
    URL.revokeObjectURL ??= () => undefined;
    const save = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    fireEvent.click(screen.getByRole('button', { name: 'Download daily CSV' }));
    await waitFor(() => expect(outing.downloads).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'Download per-experience CSV' }));
    await waitFor(() => expect(outing.downloads).toHaveLength(2));
    expect(outing.downloads).toEqual([
      `/v1/reports/daily.csv {"startDate":"${FIRST}","endDate":"${LAST}"} daily-${FIRST}-${LAST}.csv`,
      `/v1/reports/experiences.csv {"startDate":"${FIRST}","endDate":"${LAST}"} experiences-${FIRST}-${LAST}.csv`,
    ]);
    await waitFor(() => expect(save).toHaveBeenCalledTimes(2));
    save.mockRestore();
  });

  it('says so when the period had no bookings, instead of drawing empty charts', async () => {
    await openInsights(dailyOf(false));
    await screen.findByRole('heading', { name: 'No bookings in the last 30 days' });
    expect(screen.queryByRole('img', { name: 'Bookings per day' })).toBeNull();
    expect(screen.queryByText('Bookings and revenue per day as a table')).toBeNull();
    expect(screen.getByText(/Bookings show here on the day they are made/)).toBeTruthy();
    // Occupancy still has its places on sale.
    expect(screen.getByRole('heading', { name: 'Occupancy per experience' })).toBeTruthy();
  });

  it('says when the figures could not be loaded, and tries again on request', async () => {
    const outing = fakeReports();
    outing.failures.push(new ApiError(500, 'INTERNAL_ERROR', 'boom'));
    mountAt('/dashboard/insights', { signedIn: true, http: outing.http });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The figures could not be loaded: Outing could not answer just now.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('img', { name: 'Bookings per day' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a loading status until the figures come', async () => {
    mountAt('/dashboard/insights', { signedIn: true, http: fakeReports().http });
    await screen.findByText('Loading the figures…');
    await screen.findByRole('img', { name: 'Revenue per day' });
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('sends a person whose session ended back to Sign in', async () => {
    const outing = fakeReports();
    outing.failures.push(new ApiError(401, 'UNAUTHORIZED', 'Your session has ended'));
    mountAt('/dashboard/insights', { signedIn: true, http: outing.http });
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(screen.getByText('Your session has ended. Sign in again.')).toBeTruthy();
  });

  it('is for owners only', async () => {
    const { session } = await import('./test-helpers/fake-api.js');
    const outing = fakeReports();
    mountAt('/dashboard/insights', { signedIn: true, http: outing.http, session: { ...session, user: { ...session.user, role: 'staff' } } });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('img')).toBeNull();
    expect(outing.calls).toEqual([]);
  });
});

describe('roundTop', () => {
  it.each([
    [0, 1],
    [1, 1],
    [3, 5],
    [7, 10],
    [12, 20],
    [940, 1000],
    [1001, 2000],
  ])('%d → %d', (max, top) => expect(roundTop(max)).toBe(top));
});
