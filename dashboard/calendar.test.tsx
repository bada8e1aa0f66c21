import { fireEvent, screen, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { Availability, Experience, Session } from '../shared/index.js';
import { ApiError, type Http, type Query } from './api.js';
import { mondayOf } from './state/calendar.js';
import { noHttp, session } from './test-helpers/fake-api.js';
import { mountAt, useDashboardTests } from './test-helpers/dashboard-under-test.js';

useDashboardTests();

/**
 * The fixtures' experiences have no price categories: they book by participants at their price
 * (docs/price-categories.md).
 */
const later = { priceCategories: [], meetingPoint: null, meetingPointUrl: null, guestInstructions: null };

const at = '2026-11-01T09:00:00.000Z';
const experience = (id: string, name: string, timezone: string | null): Experience => ({
  id,
  name,
  description: '',
  duration: 60,
  price: 2000,
  currency: 'EUR',
  maxParticipants: 10,
  maxPerBooking: 10,
  schedule: { timezone, weekly: {}, startDate: null, endDate: null, exceptions: [] },
  minNoticeMinutes: 0,
  maxAdvanceDays: 365,
  active: true,
  createdAt: at,
  updatedAt: at,
  ...later,
});

const slot = (id: string, startTime: string, booked: number, capacity = 10) => ({
  id,
  startTime,
  endTime: startTime,
  capacity,
  booked,
  remaining: capacity - booked,
  available: booked < capacity,
  unavailableReason: booked < capacity ? null : ('FULL' as const),
});

/** Two experiences in two zones; a third whose availability fails when `broken`. */
function calendarHttp(options: { experiences?: Experience[]; broken?: boolean } = {}) {
  const calls: { path: string; query?: Query | undefined }[] = [];
  const experiences = options.experiences ?? [experience('exp_walk', 'Alfama Old Town Walk', null), experience('exp_ny', 'Harbor Cruise', 'America/New_York')];
  const weeks: Record<string, Availability['slots']> = {
    exp_walk: [slot('ts_1', '2026-12-01T10:00:00.000Z', 3, 12), slot('ts_2', '2026-12-01T15:00:00.000Z', 12, 12), slot('ts_3', '2026-12-05T09:30:00.000Z', 0, 12)],
    // 23:30 in New York on Tuesday is Wednesday in UTC: the day is the experience's own.
    exp_ny: [slot('ts_4', '2026-12-02T04:30:00.000Z', 2)],
  };
  const answer = <T,>(work: () => T): Promise<never> => Promise.resolve().then(() => work() as never);
  const http: Http = {
    ...noHttp,
    list: (s, path, query) => {
      calls.push({ path, query });
      if (path === '/v1/experiences') return answer(() => ({ data: experiences, pagination: { total: experiences.length, limit: 100, offset: 0, hasMore: false } }));
      return noHttp.list(s, path, query);
    },
    get: (s, path, query) => {
      calls.push({ path, query });
      if (path !== '/v1/availability') return noHttp.get(s, path, query);
      return answer(() => {
        const id = String(query?.['experienceId']);
        if (options.broken && id === 'exp_ny') throw new ApiError(500, 'INTERNAL_ERROR', 'boom');
        const start = String(query?.['startDate']);
        const timezone = id === 'exp_ny' ? 'America/New_York' : 'Europe/Lisbon';
        return { experienceId: id, timezone, startDate: start, endDate: String(query?.['endDate']), slots: start === '2026-11-30' ? weeks[id] ?? [] : [] };
      });
    },
  };
  return { http, calls };
}

const staff: Session = { ...session, user: { ...session.user, role: 'staff' } };

describe('the Calendar', () => {
  it('shows a week of slots per experience, in its own zone, each with booked/capacity and a link to its day', async () => {
    const fake = calendarHttp();
    mountAt('/dashboard/calendar?week=2026-12-02', { signedIn: true, http: fake.http });
    await screen.findByText('4 slots this week');
    // Any date asks for the week it falls in, Monday to Sunday, in each experience's zone.
    expect(fake.calls.filter((c) => c.path === '/v1/availability').map((c) => c.query)).toEqual([
      { experienceId: 'exp_walk', startDate: '2026-11-30', endDate: '2026-12-06' },
      { experienceId: 'exp_ny', startDate: '2026-11-30', endDate: '2026-12-06' },
    ]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Calendar');

    const walk = screen.getByRole('region', { name: 'Alfama Old Town Walk' });
    expect(walk.textContent).toContain('Europe/Lisbon time');
    const tuesday = within(walk).getByRole('heading', { name: /Tue/ }).closest('li')!;
    const links = within(tuesday).getAllByRole('link');
    expect(links.map((a) => a.textContent)).toEqual([expect.stringMatching(/10:00.*3\/12 places booked$/), expect.stringMatching(/3:00|15:00/)]);
    expect(links[0]!.getAttribute('href')).toBe('/dashboard?date=2026-12-01');
    expect(links[1]!.className).toContain('full');
    expect(links[1]!.textContent).toContain('12/12 places booked, full');
    const saturday = within(walk).getByRole('heading', { name: /Sat/ }).closest('li')!;
    expect(within(saturday).getByRole('link').textContent).toContain('0/12');

    const cruise = screen.getByRole('region', { name: 'Harbor Cruise' });
    expect(cruise.textContent).toContain('America/New_York time');
    const evening = within(cruise).getByRole('link');
    expect(evening.textContent).toMatch(/^Tue, Dec 1, 11:30/);
    expect(evening.getAttribute('href')).toBe('/dashboard?date=2026-12-01');
  });

  it('moves a week at a time, each week its own address', async () => {
    const fake = calendarHttp();
    mountAt('/dashboard/calendar?week=2026-11-30', { signedIn: true, http: fake.http });
    await screen.findByText('4 slots this week');
    fireEvent.click(screen.getByRole('link', { name: 'Next week' }));
    await screen.findByText('0 slots this week');
    expect(location.search).toBe('?week=2026-12-07');
    expect(screen.getByRole('region', { name: 'Harbor Cruise' }).textContent).toContain('No slots this week');
    fireEvent.click(screen.getByRole('link', { name: 'Previous week' }));
    await screen.findByText('4 slots this week');
    expect(location.search).toBe('?week=2026-11-30');
    expect(screen.getByRole('link', { name: 'This week' }).getAttribute('href')).toBe('/dashboard/calendar');
  });

  it('shows the other experiences when one cannot be loaded', async () => {
    const fake = calendarHttp({ broken: true });
    mountAt('/dashboard/calendar?week=2026-11-30', { signedIn: true, http: fake.http });
    await screen.findByText('3 slots this week');
    const cruise = screen.getByRole('region', { name: 'Harbor Cruise' });
    expect(within(cruise).getByRole('alert').textContent).toContain('could not be loaded');
    expect(screen.getByRole('region', { name: 'Alfama Old Town Walk' }).textContent).toContain('3/12');
  });

  it('tells staff, who cannot create experiences, who can', async () => {
    const fake = calendarHttp({ experiences: [] });
    mountAt('/dashboard/calendar', { signedIn: true, http: fake.http, session: staff });
    await screen.findByRole('heading', { name: 'No active experiences' });
    expect(screen.getByText(/An owner of the organization creates experiences/)).toBeTruthy();
  });

  it('finds the Monday of any date', () => {
    expect(mondayOf('2026-12-06')).toBe('2026-11-30');
    expect(mondayOf('2026-11-30')).toBe('2026-11-30');
    expect(mondayOf('2027-01-01')).toBe('2026-12-28');
  });
});
