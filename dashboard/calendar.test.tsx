import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { WaitlistEntry, type Availability, type Experience, type Manifest, type Session, type Slot } from '../shared/index.js';
import { ApiError, type Http, type Query } from './api.js';
import { mondayOf } from './state/calendar.js';
import { noHttp, session } from './test-helpers/fake-api.js';
import { mountAt, useDashboardTests } from './test-helpers/dashboard-under-test.js';

useDashboardTests();

/**
 * The fixtures' experiences have no price categories: they book by participants at their price
 * (docs/price-categories.md).
 */
const later = { priceCategories: [], meetingPoint: null, meetingPointUrl: null, guestInstructions: null, questions: [], extras: [] };

const at = '2026-11-01T09:00:00.000Z';
const experience = (id: string, name: string, timezone: string | null): Experience => ({
  id,
  name,
  description: '',
  waitlist: false,
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
  it('shows a week of slots per experience, in its own zone, each with booked/capacity', async () => {
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
    // Each slot: a button opening its manifest, then a New booking of it.
    const all = within(tuesday).getAllByRole('link');
    expect(all.filter((a) => a.textContent?.startsWith('New booking')).map((a) => a.getAttribute('href'))).toEqual([
      expect.stringMatching(/^\/dashboard\/bookings\/new\?experienceId=\w+&date=2026-12-01&startTime=2026-12-01T\d\d%3A00%3A00/),
      expect.stringMatching(/^\/dashboard\/bookings\/new\?/),
    ]);
    const slotsOf = (el: Element) => [...el.querySelectorAll('button.cal-slot')];
    const links = slotsOf(tuesday);
    expect(links.map((a) => a.textContent)).toEqual([expect.stringMatching(/10:00.*3\/12 places booked$/), expect.stringMatching(/3:00|15:00/)]);
    expect(links[1]!.className).toContain('full');
    expect(links[1]!.textContent).toContain('12/12 places booked, full');
    const saturday = within(walk).getByRole('heading', { name: /Sat/ }).closest('li')!;
    expect(slotsOf(saturday)[0]!.textContent).toContain('0/12');

    const cruise = screen.getByRole('region', { name: 'Harbor Cruise' });
    expect(cruise.textContent).toContain('America/New_York time');
    const [evening] = slotsOf(cruise);
    expect(evening!.textContent).toMatch(/^Tue, Dec 1, 11:30/);
  });

  it('opens a departure’s manifest, closes it, changes its capacity and note, and adds a departure on a day', async () => {
    // Before the week shown: its days take new departures.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-25T09:00:00.000Z'));
    onTestFinished(() => void vi.useRealTimers());
    const fake = calendarHttp();
    let record: Slot = {
      id: 'ts_1', experienceId: 'exp_walk', startTime: '2026-12-01T10:00:00.000Z', endTime: '2026-12-01T11:00:00.000Z',
      capacity: 12, capacityOverride: null, closed: false, note: null, booked: 3, remaining: 9,
    };
    const sent: { method: string; path: string; body: unknown }[] = [];
    const manifest: Manifest = {
      date: '2026-12-01', timezone: 'Europe/Lisbon',
      slots: [{ experience: { id: 'exp_walk', title: 'Alfama Old Town Walk' }, timeSlot: { id: 'ts_1', startTime: record.startTime, endTime: record.endTime },
        capacity: 12, booked: 3, remaining: 9, closed: false, note: null, waitlist: { waiting: 0, offered: 0 },
        bookings: [{ id: 'bk_ana', bookingNumber: 'BK-AAAA1111', status: 'CONFIRMED', guestName: 'Ana Lima', guestEmail: 'ana@example.com', guestPhone: null,
          totalParticipants: 3, tickets: [], total: '75.00', paid: '0.00', currency: 'EUR', checkedInAt: null, metadata: {}, internalNote: null, extras: [], answers: [] }] }],
    };
    // A reseller's guest without a name: the booking number names the link.
    manifest.slots[0]!.bookings.push({ ...manifest.slots[0]!.bookings[0]!, id: 'bk_octo', bookingNumber: 'BK-OCTO2222', guestName: null as never, guestEmail: null as never, totalParticipants: 1 });
    const http: Http = {
      ...fake.http,
      get: (schema, path, query) => {
        if (path === '/v1/slots/ts_1') return Promise.resolve(record as never);
        if (path === '/v1/manifest') return Promise.resolve(manifest as never);
        return fake.http.get(schema, path, query);
      },
      send: (_schema, method, path, body) => {
        sent.push({ method, path, body });
        if (path === '/v1/slots/ts_1') {
          const b = body as { closed?: boolean; capacity?: number | null; note?: string | null };
          record = { ...record, ...(b.closed !== undefined ? { closed: b.closed } : {}), ...(b.note !== undefined ? { note: b.note } : {}),
            ...(b.capacity !== undefined ? { capacityOverride: b.capacity, capacity: b.capacity ?? 12 } : {}) };
          return Promise.resolve(record as never);
        }
        return Promise.resolve({} as never);
      },
    };
    mountAt('/dashboard/calendar?week=2026-11-30', { signedIn: true, http });
    await screen.findByText('4 slots this week');
    const walk = screen.getByRole('region', { name: 'Alfama Old Town Walk' });
    fireEvent.click(walk.querySelector('button.cal-slot')!);
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText(/3 of 12 places booked/);
    expect(within(dialog).getByRole('link', { name: 'Ana Lima' }).getAttribute('href')).toBe('/dashboard/bookings/bk_ana');
    expect(within(dialog).getByRole('link', { name: 'No name given (BK-OCTO2222)' }).getAttribute('href')).toBe('/dashboard/bookings/bk_octo');
    expect(within(dialog).getByRole('link', { name: 'Open the day on Today' }).getAttribute('href')).toBe('/dashboard?date=2026-12-01');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Close departure' }));
    await within(dialog).findByText('Departure closed: it takes no new bookings.');
    expect(sent.at(-1)).toEqual({ method: 'PATCH', path: '/v1/slots/ts_1', body: { closed: true } });
    expect(within(dialog).getByText('Closed')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Change capacity' }));
    const capacity = within(dialog).getByLabelText('Capacity') as HTMLInputElement;
    capacity.value = '-2';
    fireEvent.submit(capacity.form!);
    await within(dialog).findByText(/whole number from 0 to 10000/);
    capacity.value = '5';
    fireEvent.submit(capacity.form!);
    await within(dialog).findByText('Capacity set to 5.');
    expect(sent.at(-1)?.body).toEqual({ capacity: 5 });

    const note = within(dialog).getByLabelText('Note') as HTMLTextAreaElement;
    note.value = ' Storm warning ';
    fireEvent.submit(note.form!);
    await within(dialog).findByText('Note saved.');
    expect(sent.at(-1)?.body).toEqual({ note: 'Storm warning' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reopen departure' }));
    await within(dialog).findByText('Departure reopened.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Back to the week' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    await screen.findByText('4 slots this week');
    const add = document.getElementById('add-exp_walk-2026-12-01')!;
    expect(add.textContent).toBe('Add departure, Tue, Dec 1');
    fireEvent.click(add);
    const adding = await screen.findByRole('dialog');
    const time = within(adding).getByLabelText('Time') as HTMLInputElement;
    time.value = '16:30';
    fireEvent.submit(time.form!);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent.at(-1)).toEqual({
      method: 'PATCH', path: '/v1/experiences/exp_walk',
      body: { schedule: { timezone: null, weekly: {}, startDate: null, endDate: null, exceptions: [{ date: '2026-12-01', times: ['16:30'] }] } },
    });
  });

  it('lets staff open a departure’s guests but not change it', async () => {
    const fake = calendarHttp();
    const record: Slot = { id: 'ts_1', experienceId: 'exp_walk', startTime: '2026-12-01T10:00:00.000Z', endTime: '2026-12-01T11:00:00.000Z',
      capacity: 12, capacityOverride: null, closed: true, note: 'Storm', booked: 3, remaining: 9 };
    const http: Http = {
      ...fake.http,
      get: (schema, path, query) => {
        if (path === '/v1/slots/ts_1') return Promise.resolve(record as never);
        if (path === '/v1/manifest') return Promise.resolve({ date: '2026-12-01', timezone: 'Europe/Lisbon', slots: [] } as never);
        return fake.http.get(schema, path, query);
      },
    };
    mountAt('/dashboard/calendar?week=2026-11-30', { signedIn: true, http, session: staff });
    await screen.findByText('4 slots this week');
    expect(screen.queryByRole('button', { name: /Add departure/ })).toBeNull();
    fireEvent.click(document.querySelector('button.cal-slot')!);
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Note: Storm');
    expect(within(dialog).queryByRole('button', { name: /departure/ })).toBeNull();
  });

  it('lists a waitlist experience’s departure’s waitlist in its dialog, and removes an entry from there', async () => {
    const fake = calendarHttp({ experiences: [{ ...experience('exp_walk', 'Alfama Old Town Walk', null), waitlist: true }] });
    const record: Slot = { id: 'ts_1', experienceId: 'exp_walk', startTime: '2026-12-01T10:00:00.000Z', endTime: '2026-12-01T11:00:00.000Z',
      capacity: 12, capacityOverride: null, closed: false, note: null, booked: 12, remaining: 0 };
    const base = {
      experience: { id: 'exp_walk', title: 'Alfama Old Town Walk' }, timeSlot: { id: 'ts_1', startTime: record.startTime, endTime: record.endTime },
      places: 2, totalParticipants: 2, tickets: [], guestPhone: null, locale: 'en' as const, offeredAt: null, offerExpiresAt: null, bookingId: null, createdAt: at,
    };
    const entries: WaitlistEntry[] = [
      WaitlistEntry.parse({ ...base, id: 'wl_rui', status: 'WAITING', position: 1, guestName: 'Rui Alves', guestEmail: 'rui@example.com' }),
      WaitlistEntry.parse({ ...base, id: 'wl_sofia', status: 'OFFERED', position: null, guestName: 'Sofia Matos', guestEmail: 'sofia@example.com',
        offeredAt: '2026-11-30T12:00:00.000Z', offerExpiresAt: '2026-12-01T00:00:00.000Z' }),
    ];
    const reads: string[] = [];
    const http: Http = {
      ...fake.http,
      get: (schema, path, query) => {
        reads.push(path);
        if (path === '/v1/slots/ts_1') return Promise.resolve(record as never);
        if (path === '/v1/manifest') return Promise.resolve({ date: '2026-12-01', timezone: 'Europe/Lisbon', slots: [] } as never);
        return fake.http.get(schema, path, query);
      },
      list: (schema, path, query) => {
        if (path !== '/v1/waitlist') return fake.http.list(schema, path, query);
        reads.push(`${path} ${String(query?.['startDate'])}`);
        return Promise.resolve({ data: structuredClone(entries), pagination: { total: 2, limit: 100, offset: 0, hasMore: false } } as never);
      },
      send: (_schema, method, path) => {
        reads.push(`${method} ${path}`);
        Object.assign(entries[0]!, { status: 'CANCELLED', position: null });
        return Promise.resolve(structuredClone(entries[0]) as never);
      },
    };
    mountAt('/dashboard/calendar?week=2026-11-30', { signedIn: true, http, session: staff });
    await screen.findByText('3 slots this week');
    fireEvent.click(document.querySelector('button.cal-slot')!);
    const dialog = await screen.findByRole('dialog');
    const waitlist = await within(dialog).findByRole('region', { name: 'Waitlist' });
    await within(waitlist).findByText('Rui Alves', { exact: false });
    expect(reads).toContain('/v1/waitlist 2026-12-01T10:00:00.000Z');
    // The offer first, its expiry in the organization's zone (Lisbon, UTC+0 in December).
    expect([...waitlist.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      expect.stringMatching(/^–Sofia Matos, 2 guests sofia@example.com Offered until Tue, Dec 1, 2026, (12:00 AM|0:00|00:00) Remove$/),
      expect.stringMatching(/^#1Number 1: Rui Alves, 2 guests rui@example.com Waiting Remove$/),
    ]);
    fireEvent.click(within(waitlist).getAllByRole('button', { name: 'Remove' })[1]!);
    const question = await screen.findByRole('dialog', { name: 'Remove Rui Alves from the waitlist?' });
    fireEvent.click(within(question).getByRole('button', { name: 'Remove from waitlist' }));
    await within(dialog).findByText('Rui Alves is off the waitlist.');
    expect(reads).toContain('DELETE /v1/waitlist/wl_rui');
    // The departure and the week are read again: an offer's places may have come back.
    await waitFor(() => expect(reads.filter((r) => r === '/v1/slots/ts_1')).toHaveLength(2));
    await waitFor(() => expect(within(waitlist).getByText('Removed')).toBeTruthy());
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
