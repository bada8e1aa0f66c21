import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { Experience, NoticeEvent } from '../shared/index.js';
import { ApiError, type Http, type Query } from './api.js';
import { noHttp } from './test-helpers/fake-api.js';
import { mountAt, useDashboardTests } from './test-helpers/dashboard-under-test.js';

useDashboardTests();

/**
 * The fixtures' experiences have no price categories: they book by participants at their price
 * (docs/price-categories.md).
 */
const later = { priceCategories: [], meetingPoint: null, meetingPointUrl: null, guestInstructions: null, questions: [], extras: [] };

interface Call {
  method: string;
  path: string;
  query?: Query | undefined;
  body?: unknown;
}

const walk: Experience = {
  id: 'exp_walk',
  name: 'Alfama Old Town Walk',
  description: 'Two hours through the oldest quarter.',
  waitlist: false,
  duration: 120,
  price: 2500,
  currency: 'EUR',
  maxParticipants: 12,
  maxPerBooking: 6,
  schedule: {
    timezone: null,
    weekly: { mon: ['10:00', '15:00'], sat: ['09:30'] },
    startDate: null,
    endDate: null,
    exceptions: [{ date: '2026-12-25', times: [] }],
  },
  minNoticeMinutes: 60,
  maxAdvanceDays: 365,
  active: true,
  createdAt: '2026-11-01T09:00:00.000Z',
  updatedAt: '2026-11-01T09:00:00.000Z',
  ...later,
};

/** The routes the experience page calls, over one stored experience; `refuse` answers the next write with it. */
function experienceHttp() {
  const calls: Call[] = [];
  let stored: Experience = structuredClone(walk);
  const state = { refuse: null as ApiError | null };
  const answer = <T,>(work: () => T): Promise<never> => Promise.resolve().then(() => work() as never);
  const http: Http = {
    ...noHttp,
    get: (_s, path, query) => {
      calls.push({ method: 'GET', path, query });
      if (path === '/v1/organization') return answer(() => ({ id: 'org_1', name: 'Lisbon Walks', email: 'a@b.example', phone: null, timezone: 'Europe/Lisbon', currency: 'EUR', onlinePayments: false, cancellationCutoffHours: 24, guestSelfService: true, notificationEmails: [] as string[], notifyOn: ['BOOKING_CREATED', 'BOOKING_CANCELED'] as NoticeEvent[], brandColor: null as string | null, logoUrl: null as string | null, createdAt: walk.createdAt, updatedAt: walk.updatedAt }));
      if (path === `/v1/experiences/${walk.id}`) return answer(() => stored);
      if (path === '/v1/availability') return answer(() => ({ experienceId: walk.id, timezone: 'Europe/Lisbon', startDate: '2026-12-01', endDate: '2026-12-31', slots: [] }));
      return noHttp.get(_s, path, query);
    },
    list: (_s, path, query) => {
      calls.push({ method: 'GET', path, query });
      if (path === '/v1/api-keys') return answer(() => ({ data: [], pagination: { total: 0, limit: 100, offset: 0, hasMore: false } }));
      return noHttp.list(_s, path, query);
    },
    send: (_s, method, path, body) => {
      calls.push({ method, path, body });
      return answer(() => {
        if (state.refuse) {
          const e = state.refuse;
          state.refuse = null;
          throw e;
        }
        stored = { ...stored, ...(body as Partial<Experience>), id: method === 'POST' ? 'exp_new' : stored.id } as Experience;
        return stored;
      });
    },
  };
  return { http, calls, state, writes: () => calls.filter((c) => c.method !== 'GET') };
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.input(input(label), { target: { value } });
const save = (name = 'Save changes') => fireEvent.click(screen.getByRole('button', { name }));
/** The messages tied to a control by aria-describedby. */
const descriptionOf = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ');

async function openWalk() {
  const fake = experienceHttp();
  const t = mountAt('/dashboard/experiences/exp_walk', { signedIn: true, http: fake.http });
  await screen.findByRole('heading', { level: 1, name: 'Alfama Old Town Walk' });
  return { ...t, ...fake };
}

describe('the weekly schedule editor', () => {
  it('shows the saved times per weekday, and the exceptions', async () => {
    await openWalk();
    expect(input('Monday, time 1').value).toBe('10:00');
    expect(input('Monday, time 2').value).toBe('15:00');
    expect(input('Saturday, time 1').value).toBe('09:30');
    const tuesday = screen.getByRole('group', { name: 'Tuesday' });
    expect(within(tuesday).getByText('No times')).toBeTruthy();
    const christmas = screen.getByRole('group', { name: 'Exception on 2026-12-25' });
    expect(within(christmas).getByText('Closed all day')).toBeTruthy();
    // Following the organization's zone, which the option names.
    const zone = screen.getByLabelText('Time zone') as HTMLSelectElement;
    await waitFor(() => expect(zone.selectedOptions[0]!.textContent).toBe('The organization’s (Europe/Lisbon)'));
  });

  it('adds and removes times on a day, moving focus to what comes next, and saves only the schedule', async () => {
    const t = await openWalk();
    fireEvent.click(screen.getByRole('button', { name: 'Add time on Tuesday' }));
    const added = input('Tuesday, time 1');
    expect(document.activeElement).toBe(added);
    type('Tuesday, time 1', '11:00');
    fireEvent.click(screen.getByRole('button', { name: 'Add time on Tuesday' }));
    type('Tuesday, time 2', '08:15');
    fireEvent.click(screen.getByRole('button', { name: 'Remove Monday 10:00' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add time on Monday' }));
    expect(input('Monday, time 1').value).toBe('15:00');
    expect(screen.queryByLabelText('Monday, time 2')).toBeNull();

    save();
    await screen.findByText('Saved.');
    expect(t.writes()).toEqual([
      {
        method: 'PATCH',
        path: '/v1/experiences/exp_walk',
        body: {
          schedule: {
            timezone: null,
            weekly: { mon: ['15:00'], tue: ['11:00', '08:15'], sat: ['09:30'] },
            startDate: null,
            endDate: null,
            exceptions: [{ date: '2026-12-25', times: [] }],
          },
        },
      },
    ]);
  });

  it('keeps exceptions: a closed date, and a date with its own times', async () => {
    const t = await openWalk();
    fireEvent.click(screen.getByRole('button', { name: 'Add exception' }));
    const date = screen.getAllByLabelText('Date').at(-1) as HTMLInputElement;
    expect(document.activeElement).toBe(date);
    fireEvent.input(date, { target: { value: '2026-12-31' } });
    const eve = screen.getByRole('group', { name: 'Exception on 2026-12-31' });
    expect(within(eve).getByText('Closed all day')).toBeTruthy();
    fireEvent.click(within(eve).getByRole('button', { name: 'Add time on Exception on 2026-12-31' }));
    type('Exception on 2026-12-31, time 1', '22:00');
    expect(within(eve).queryByText('Closed all day')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Remove exception 2026-12-25' }));
    expect(screen.queryByRole('group', { name: 'Exception on 2026-12-25' })).toBeNull();

    save();
    await screen.findByText('Saved.');
    const body = t.writes()[0]!.body as { schedule: Experience['schedule'] };
    expect(body.schedule!.exceptions).toEqual([{ date: '2026-12-31', times: ['22:00'] }]);
  });

  it('sets the time zone and the first and last day', async () => {
    const t = await openWalk();
    fireEvent.change(screen.getByLabelText('Time zone'), { target: { value: 'America/New_York' } });
    type('Starts on', '2027-01-01');
    type('Ends on', '2027-06-30');
    save();
    await screen.findByText('Saved.');
    expect(t.writes()[0]!.body).toMatchObject({ schedule: { timezone: 'America/New_York', startDate: '2027-01-01', endDate: '2027-06-30' } });
  });

  it('says which rows are not filled in, before asking the server', async () => {
    const t = await openWalk();
    fireEvent.click(screen.getByRole('button', { name: 'Add time on Friday' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add exception' }));
    save();
    const summary = await screen.findByRole('region', { name: 'There is a problem' });
    expect(document.activeElement).toBe(summary);
    expect(summary.textContent).toContain('Friday, time 1: Enter a time, or remove it.');
    expect(descriptionOf(input('Friday, time 1'))).toContain('Enter a time, or remove it.');
    expect(descriptionOf(screen.getAllByLabelText('Date').at(-1)!)).toContain('Enter a date, or remove this exception.');
    expect(t.writes()).toEqual([]);
    // A link of the summary takes focus to its field.
    fireEvent.click(within(summary).getByRole('link', { name: /Friday, time 1/ }));
    expect(document.activeElement).toBe(input('Friday, time 1'));
  });

  it('shows the server’s refusals on nested schedule paths beside the rows they name', async () => {
    const t = await openWalk();
    fireEvent.click(screen.getByRole('button', { name: 'Add time on Tuesday' }));
    type('Tuesday, time 1', '09:00');
    fireEvent.click(screen.getByRole('button', { name: 'Add exception' }));
    fireEvent.input(screen.getAllByLabelText('Date').at(-1)!, { target: { value: '2026-12-25' } });
    fireEvent.change(screen.getByLabelText('Time zone'), { target: { value: 'Europe/Paris' } });
    t.state.refuse = new ApiError(400, 'VALIDATION_ERROR', 'Invalid body', [
      { path: 'schedule.exceptions[1].date', message: 'Duplicate exception date' },
      { path: 'schedule.weekly.mon[1]', message: 'Expected a time as HH:MM (00:00–23:59)' },
      { path: 'schedule.timezone', message: 'Expected an IANA time zone such as Europe/Lisbon' },
      { path: 'schedule.endDate', message: 'endDate must not be before startDate' },
    ]);
    save();
    const summary = await screen.findByRole('region', { name: 'There is a problem' });
    expect(summary.textContent).toContain('Exception on 2026-12-25: Duplicate exception date.');
    // The second exception, the one just added: not the first, which has the same date.
    const [first, second] = screen.getAllByLabelText('Date') as HTMLInputElement[];
    expect(descriptionOf(second!)).toBe('Duplicate exception date.');
    expect(first!.getAttribute('aria-invalid')).toBeNull();
    expect(descriptionOf(input('Monday, time 2'))).toBe('Expected a time as HH:MM (00:00–23:59).');
    expect(input('Monday, time 1').getAttribute('aria-invalid')).toBeNull();
    expect(descriptionOf(screen.getByLabelText('Time zone'))).toBe('Expected an IANA time zone such as Europe/Lisbon.');
    expect(descriptionOf(input('Ends on'))).toContain('endDate must not be before startDate.');
    // The rows are as the person left them.
    expect(input('Tuesday, time 1').value).toBe('09:00');
    expect((screen.getByLabelText('Time zone') as HTMLSelectElement).value).toBe('Europe/Paris');

    // A refused row keeps its error when another row before it is removed: errors follow rows, not positions.
    fireEvent.click(screen.getByRole('button', { name: 'Remove Monday 10:00' }));
    expect(descriptionOf(input('Monday, time 1'))).toBe('Expected a time as HH:MM (00:00–23:59).');
  });
});
