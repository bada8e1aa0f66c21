import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WaitlistEntry } from '../shared/index.js';
import { ApiError, type Http, type Query } from './api.js';
import { inOrder } from './state/waitlist.js';
import { noHttp } from './test-helpers/fake-api.js';
import { mountAt, useDashboardTests } from './test-helpers/dashboard-under-test.js';

useDashboardTests();

// 1 December 2026 in Lisbon (UTC+0 in winter), the morning of the fake day.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-12-01T08:30:00.000Z'));
});
afterEach(() => vi.useRealTimers());

const START = '2026-12-01T10:00:00.000Z';

/** An entry as the server writes it, checked against the contract's own schema. */
const entry = (id: string, name: string, status: WaitlistEntry['status'], more: Partial<WaitlistEntry> = {}): WaitlistEntry =>
  WaitlistEntry.parse({
    id,
    status,
    position: null,
    experience: { id: 'exp_walk', title: 'Alfama Old Town Walk' },
    timeSlot: { id: 'slt_1', startTime: START, endTime: '2026-12-01T12:00:00.000Z' },
    places: 2,
    totalParticipants: 2,
    tickets: [],
    guestName: name,
    guestEmail: `${id}@example.com`,
    guestPhone: null,
    locale: 'en',
    offeredAt: null,
    offerExpiresAt: null,
    bookingId: null,
    createdAt: '2026-11-28T10:00:00.000Z',
    ...more,
  });

/** The slot's waitlist in memory: one offer, two waiting, one lapsed. `refuse` fails the next DELETE. */
function waitlistHttp() {
  const calls: { method: string; path: string; query?: Query | undefined }[] = [];
  const control = { refuse: null as ApiError | null };
  const entries = [
    entry('wl_old', 'Filipe Rocha', 'EXPIRED', { offeredAt: '2026-11-29T10:00:00.000Z', offerExpiresAt: '2026-11-29T22:00:00.000Z' }),
    entry('wl_eva', 'Eva Pinto', 'WAITING', { position: 2, places: 1, totalParticipants: 1, createdAt: '2026-11-30T10:00:00.000Z' }),
    entry('wl_duarte', 'Duarte Nunes', 'WAITING', { position: 1, places: 3, totalParticipants: 3, createdAt: '2026-11-29T11:00:00.000Z' }),
    entry('wl_carla', 'Carla Dias', 'OFFERED', { offeredAt: '2026-11-30T21:30:00.000Z', offerExpiresAt: '2026-12-01T09:30:00.000Z' }),
  ];
  const answer = <T,>(work: () => T): Promise<never> => Promise.resolve().then(() => structuredClone(work()) as never);
  const http: Http = {
    ...noHttp,
    list: (s, path, query) => {
      calls.push({ method: 'GET', path, query });
      if (path !== '/v1/waitlist') return noHttp.list(s, path, query);
      return answer(() => ({ data: entries, pagination: { total: entries.length, limit: 100, offset: 0, hasMore: false } }));
    },
    send: (s, method, path, body) => {
      calls.push({ method, path });
      const found = /^\/v1\/waitlist\/(\w+)$/.exec(path);
      if (method !== 'DELETE' || !found) return noHttp.send(s, method, path, body);
      return answer(() => {
        if (control.refuse) {
          const e = control.refuse;
          control.refuse = null;
          throw e;
        }
        const e = entries.find((x) => x.id === found[1])!;
        Object.assign(e, { status: 'CANCELLED', position: null });
        return e;
      });
    },
  };
  return { http, calls, control, entries };
}

/** Today with the slot's counts as the manifest gives them (waiting 2, offered 1). */
async function today() {
  const fake = waitlistHttp();
  const t = mountAt('/dashboard', { signedIn: true, http: fake.http });
  const day = await t.api.getManifest();
  day.slots[0]!.waitlist = { waiting: 2, offered: 1 };
  // Read again with the counts: the next day and back.
  fireEvent.click(await screen.findByRole('button', { name: 'Next day' }));
  fireEvent.click(await screen.findByRole('button', { name: 'Previous day' }));
  await screen.findByText('Ana Lima');
  return { api: t, wl: fake, day, http: fake.http, calls: fake.calls, control: fake.control };
}

const list = () => document.querySelector<HTMLElement>('ol.waitlist')!;
const rowOf = (name: string) => within(list()).getByText(name).closest<HTMLElement>('li')!;

describe('a departure’s waitlist on Today', () => {
  it('shows the counts, and on “Show waitlist” the entries in turn with party, status and the offer’s expiry in the organization’s zone', async () => {
    const t = await today();
    const slot = screen.getByRole('region', { name: /Alfama Old Town Walk/ });
    expect(slot.textContent).toContain('Waitlist: 2 waiting, 1 offered');
    expect(t.calls).toEqual([]);
    const toggle = within(slot).getByRole('button', { name: /^Show waitlist/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    await waitFor(() => expect(document.querySelector('ol.waitlist')).not.toBeNull());
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    // That slot only: its start is both ends of the range.
    expect(t.calls).toEqual([{ method: 'GET', path: '/v1/waitlist', query: { experienceId: 'exp_walk', startDate: START, endDate: START, limit: 100 } }]);

    const rows = [...list().querySelectorAll('li')].map((li) => li.querySelector('strong')!.textContent);
    expect(rows).toEqual(['Carla Dias', 'Number 1: Duarte Nunes', 'Number 2: Eva Pinto', 'Filipe Rocha']);
    expect(rowOf('Carla Dias').textContent).toMatch(/2 guests.*Offered until Tue, Dec 1, 2026, 9:30/);
    expect(rowOf('Duarte Nunes').textContent).toMatch(/#1.*3 guests.*Waiting/);
    expect(rowOf('Eva Pinto').textContent).toMatch(/#2.*1 guest\b.*Waiting/);
    expect(rowOf('Filipe Rocha').textContent).toContain('Offer lapsed');
    // Live entries may be removed; a finished one stays as it is.
    expect(within(list()).getAllByRole('button', { name: 'Remove' }).map((b) => b.getAttribute('aria-describedby'))).toEqual([
      'entry-wl_carla',
      'entry-wl_duarte',
      'entry-wl_eva',
    ]);
    expect(within(rowOf('Filipe Rocha')).queryByRole('button')).toBeNull();

    fireEvent.click(toggle);
    expect(document.querySelector('ol.waitlist')).toBeNull();
    expect(toggle.textContent).toMatch(/^Show waitlist/);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('shows no waitlist where nobody is on it', async () => {
    mountAt('/dashboard', { signedIn: true });
    const slot = await screen.findByRole('region', { name: /Alfama Old Town Walk/ });
    await screen.findByText('Ana Lima');
    expect(slot.textContent).not.toContain('Waitlist');
    expect(within(slot).queryByRole('button', { name: /waitlist/ })).toBeNull();
  });

  it('removes an offer after asking, then reads the day and the list again', async () => {
    const t = await today();
    fireEvent.click(screen.getByRole('button', { name: /^Show waitlist/ }));
    await waitFor(() => expect(document.querySelector('ol.waitlist')).not.toBeNull());
    fireEvent.click(within(rowOf('Carla Dias')).getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Carla Dias from the waitlist?' });
    expect(dialog.textContent).toContain('Their offer of 2 places ends now');
    expect(t.calls.some((c) => c.method === 'DELETE')).toBe(false);
    const manifests = t.api.calls.filter((c) => c === 'getManifest').length;
    t.day.slots[0]!.waitlist = { waiting: 2, offered: 0 };

    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove from waitlist' }));
    await screen.findByText(/Carla Dias is off the waitlist; the places held for the offer are free again\./);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(t.calls.filter((c) => c.method === 'DELETE')).toEqual([{ method: 'DELETE', path: '/v1/waitlist/wl_carla' }]);
    await waitFor(() => expect(rowOf('Carla Dias').textContent).toContain('Removed'));
    expect(within(rowOf('Carla Dias')).queryByRole('button')).toBeNull();
    expect(t.calls.filter((c) => c.path === '/v1/waitlist')).toHaveLength(2);
    await waitFor(() => expect(t.api.calls.filter((c) => c === 'getManifest')).toHaveLength(manifests + 1));
    await waitFor(() => expect(screen.getByRole('region', { name: /Alfama Old Town Walk/ }).textContent).toContain('Waitlist: 2 waiting'));
    expect(screen.getByRole('region', { name: /Alfama Old Town Walk/ }).textContent).not.toContain('offered');
    expect(document.activeElement?.id).toBe('waitlist-slt_1');
  });

  it('keeps the entry on “Keep on the waitlist”, and says why a removal was refused', async () => {
    const t = await today();
    fireEvent.click(screen.getByRole('button', { name: /^Show waitlist/ }));
    await waitFor(() => expect(document.querySelector('ol.waitlist')).not.toBeNull());
    const remove = within(rowOf('Duarte Nunes')).getByRole('button', { name: 'Remove' });
    fireEvent.click(remove);
    let dialog = await screen.findByRole('dialog', { name: 'Remove Duarte Nunes from the waitlist?' });
    expect(dialog.textContent).toContain('They lose their place in the queue (3 places asked for)');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep on the waitlist' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(remove);
    expect(t.calls.some((c) => c.method === 'DELETE')).toBe(false);

    t.control.refuse = new ApiError(409, 'INVALID_STATUS_TRANSITION', 'This entry is already BOOKED and cannot be removed');
    fireEvent.click(remove);
    dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove from waitlist' }));
    expect(await within(dialog).findByRole('alert')).toHaveProperty('textContent', 'This entry is already BOOKED and cannot be removed.');
    expect(screen.getByRole('dialog')).toBe(dialog);
  });

  it('says when the list cannot be read', async () => {
    const t = await today();
    t.http.list = () => Promise.reject(new ApiError(0, 'NETWORK', 'offline'));
    fireEvent.click(screen.getByRole('button', { name: /^Show waitlist/ }));
    expect((await screen.findAllByRole('alert')).map((a) => a.textContent)).toContain(
      'The waitlist could not be loaded: Outing could not be reached. Check the connection and try again.',
    );
  });
});

describe('the waitlist’s order', () => {
  it('puts offers first, then the queue by position, then finished entries newest first', () => {
    const a = entry('wl_a', 'A', 'CANCELLED', { createdAt: '2026-11-01T00:00:00.000Z' });
    const b = entry('wl_b', 'B', 'BOOKED', { createdAt: '2026-11-03T00:00:00.000Z' });
    const c = entry('wl_c', 'C', 'WAITING', { position: 10 });
    const d = entry('wl_d', 'D', 'WAITING', { position: 9 });
    const e = entry('wl_e', 'E', 'OFFERED');
    expect(inOrder([a, b, c, d, e]).map((x) => x.id)).toEqual(['wl_e', 'wl_d', 'wl_c', 'wl_b', 'wl_a']);
  });
});
