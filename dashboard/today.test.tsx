import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Experience } from '../shared/index.js';
import { ApiError } from './api.js';
import { mountAt, useDashboardTests } from './test-helpers/dashboard-under-test.js';

useDashboardTests();

// The fake day is 1 December 2026 in Lisbon: the clock says it is that morning, so it is "today".
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-12-01T08:30:00.000Z'));
});
afterEach(() => vi.useRealTimers());

/** The walk sold in categories, infants on a lap taking no place. */
const walk = {
  id: 'exp_walk',
  schedule: { timezone: 'Europe/Lisbon' },
  priceCategories: [
    { id: 'pc_a', name: 'Adult', price: 2500, type: 'ADULT', occupiesPlace: true, minAge: null, maxAge: null },
    { id: 'pc_c', name: 'Child', price: 1200, type: 'CHILD', occupiesPlace: true, minAge: null, maxAge: null },
    { id: 'pc_i', name: 'Infant', price: 0, type: 'INFANT', occupiesPlace: false, minAge: null, maxAge: 2 },
  ],
} as unknown as Experience;
const ticket = (categoryId: string, name: string, quantity: number) =>
  ({ categoryId, name, type: name === 'Infant' ? 'OTHER' : 'ADULT', quantity, unitPrice: 0 }) as const;

const checkInOf = (guest: string) => {
  const row = screen.getByText(guest).closest('li')!;
  return within(row).getByRole('button', { name: 'Check in' });
};

describe('the Today screen', () => {
  it('shows the day in two requests after the session: slots with time, zone, load and guests', async () => {
    const t = mountAt('/dashboard', { signedIn: true });
    await screen.findByText('Ana Lima');
    expect(t.calls).toEqual(['getSession', 'getManifest', 'listExperiences']);
    const slot = screen.getByRole('region', { name: /Alfama Old Town Walk/ });
    expect(slot.textContent).toContain('Europe/Lisbon time');
    expect(slot.textContent).toContain('3/12 places booked');
    expect(slot.textContent).toContain('BK-ANA00000');
    expect(slot.textContent).toContain('2 guests');
    expect(slot.textContent).toContain('€50.00');
    expect((screen.getByLabelText('Date') as HTMLInputElement).value).toBe('2026-12-01');
    expect(screen.getByRole('link', { name: 'Today' }).getAttribute('aria-current')).toBe('page');
  });

  it('names a ticketed party’s tickets beside its size', async () => {
    const t = mountAt('/dashboard', { signedIn: true });
    const day = await t.api.getManifest();
    day.slots[0]!.bookings[0]!.tickets = [
      { categoryId: 'pc_a', name: 'Adult', type: 'ADULT', quantity: 1, unitPrice: 2500 },
      { categoryId: 'pc_c', name: 'Child', type: 'CHILD', quantity: 1, unitPrice: 1200 },
    ];
    fireEvent.click(await screen.findByRole('button', { name: 'Next day' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Previous day' }));
    const row = (await screen.findByText('Ana Lima')).closest('li')!;
    expect(row.textContent).toContain('2 guests: 1 × Adult, 1 × Child');
  });

  it('links each guest to the booking, a call and an e-mail, shows the note, and counts the guests checked in', async () => {
    const t = mountAt('/dashboard', { signedIn: true });
    const day = await t.api.getManifest();
    Object.assign(day.slots[0]!.bookings[0]!, { guestPhone: '+351 912 345 678', internalNote: 'Vegetarian; meets us at the café' });
    fireEvent.click(await screen.findByRole('button', { name: 'Next day' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Previous day' }));
    const row = (await screen.findByText('Ana Lima')).closest('li')!;
    expect(within(row).getByRole('link', { name: 'Ana Lima' }).getAttribute('href')).toBe('/dashboard/bookings/ana');
    expect(within(row).getByRole('link', { name: '+351 912 345 678' }).getAttribute('href')).toBe('tel:+351912345678');
    expect(within(row).getByRole('link', { name: 'ana@example.com' }).getAttribute('href')).toBe('mailto:ana@example.com');
    expect(row.textContent).toContain('Internal note');
    expect(row.textContent).toContain('Vegetarian; meets us at the café');
    // No phone, no phone link; no note, no note.
    const bruno = screen.getByText('Bruno Costa').closest('li')!;
    expect(within(bruno).queryByRole('link', { name: /^\+/ })).toBeNull();
    expect(bruno.textContent).not.toContain('Internal note');

    const slot = screen.getByRole('region', { name: /Alfama Old Town Walk/ });
    expect(slot.textContent).toContain('0 of 3 guests checked in');
    fireEvent.click(checkInOf('Ana Lima'));
    await waitFor(() => expect(slot.textContent).toContain('2 of 3 guests checked in'));
    expect(screen.getByRole('link', { name: 'New booking' }).getAttribute('href')).toBe('/dashboard/bookings/new?date=2026-12-01');
  });

  it('checks a guest in and out with a toggle button that says its state', async () => {
    const t = mountAt('/dashboard', { signedIn: true });
    await screen.findByText('Ana Lima');
    const ana = checkInOf('Ana Lima');
    expect(ana.getAttribute('aria-pressed')).toBe('false');
    // Its description names the guest: every row has a "Check in" button.
    expect(ana.getAttribute('aria-describedby')).toBe('guest-ana');

    fireEvent.click(ana);
    // At once, before the server answers…
    expect(checkInOf('Ana Lima').getAttribute('aria-pressed')).toBe('true');
    // …and kept once it has.
    await waitFor(() => expect(screen.getByText(/^Arrived/)).toBeTruthy());
    expect(checkInOf('Ana Lima').getAttribute('aria-pressed')).toBe('true');
    expect(checkInOf('Bruno Costa').getAttribute('aria-pressed')).toBe('false');
    expect(t.calls.at(-1)).toBe('setCheckedIn');
    expect(t.tokens.at(-1)).toBe('csrf-token-1');

    fireEvent.click(checkInOf('Ana Lima'));
    await waitFor(() => expect(checkInOf('Ana Lima').getAttribute('aria-pressed')).toBe('false'));
    expect(screen.queryByText(/^Arrived/)).toBeNull();
  });

  it('undoes a check-in the server refused and says why in an alert', async () => {
    const t = mountAt('/dashboard', { signedIn: true });
    await screen.findByText('Bruno Costa');
    t.failures.set('setCheckedIn', new ApiError(409, 'INVALID_STATUS_TRANSITION', 'Only CONFIRMED bookings can be checked in'));
    fireEvent.click(checkInOf('Bruno Costa'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Bruno Costa (BK-BRUNO000) could not be checked in: Only CONFIRMED bookings can be checked in');
    expect(checkInOf('Bruno Costa').getAttribute('aria-pressed')).toBe('false');
  });

  it('sends a person whose session ended back to Sign in', async () => {
    const t = mountAt('/dashboard', { signedIn: true });
    await screen.findByText('Ana Lima');
    t.failures.set('setCheckedIn', new ApiError(401, 'UNAUTHORIZED', 'Your session has ended'));
    fireEvent.click(checkInOf('Ana Lima'));
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(screen.getByText('Your session has ended. Sign in again.')).toBeTruthy();
  });

  it('says what to do on a day without bookings, and moves between days', async () => {
    const t = mountAt('/dashboard', { signedIn: true });
    await screen.findByText('Ana Lima');
    fireEvent.click(screen.getByRole('button', { name: 'Next day' }));
    await screen.findByRole('heading', { name: 'No bookings on this day' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Wednesday, December 2, 2026');
    expect(location.search).toBe('?date=2026-12-02');
    // The zones are known already: one request for another day.
    expect(t.calls.slice(3)).toEqual(['getManifest']);

    fireEvent.change(screen.getByLabelText('Date'), { target: { value: '2026-12-01' } });
    await screen.findByText('Ana Lima');
    history.back();
    await screen.findByRole('heading', { name: 'No bookings on this day' });
  });

  it('asks before checking in a guest whose slot is on another day, and checks in only once told to', async () => {
    // Ten days before the tour: a guest checked in by mistake, or far too early.
    vi.setSystemTime(new Date('2026-11-21T09:00:00.000Z'));
    const t = mountAt('/dashboard?date=2026-12-01', { signedIn: true });
    await screen.findByText('Ana Lima');
    fireEvent.click(checkInOf('Ana Lima'));
    const dialog = await screen.findByRole('dialog', { name: 'Check in Ana Lima?' });
    expect(dialog.textContent).toContain('This booking is for Tuesday, December 1, 2026. Check in anyway?');
    expect(t.calls).not.toContain('setCheckedIn');
    expect(checkInOf('Ana Lima').getAttribute('aria-pressed')).toBe('false');

    // "Not now" leaves it as it was, focus back on the guest's button.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(checkInOf('Ana Lima'));
    expect(t.calls).not.toContain('setCheckedIn');

    fireEvent.click(checkInOf('Ana Lima'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Check in anyway' }));
    await waitFor(() => expect(checkInOf('Ana Lima').getAttribute('aria-pressed')).toBe('true'));
    expect(t.calls.filter((c) => c === 'setCheckedIn')).toHaveLength(1);
    expect(screen.queryByRole('dialog')).toBeNull();

    // Undoing a check-in never asks.
    fireEvent.click(checkInOf('Ana Lima'));
    await waitFor(() => expect(checkInOf('Ana Lima').getAttribute('aria-pressed')).toBe('false'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('checks in without asking on the slot’s own day, in the experience’s zone', async () => {
    // The walk runs in Tokyo: 20:00 UTC on 30 November is already the morning of 1 December there,
    // the slot's own day (10:00 UTC, 19:00 in Tokyo), though not yet in UTC or in Lisbon.
    vi.setSystemTime(new Date('2026-11-30T20:00:00.000Z'));
    const tokyo = { ...walk, schedule: { timezone: 'Asia/Tokyo' }, priceCategories: [] } as unknown as Experience;
    const t = mountAt('/dashboard?date=2026-12-01', { signedIn: true, experiences: [tokyo] });
    await screen.findByText('Ana Lima');
    fireEvent.click(checkInOf('Ana Lima'));
    await waitFor(() => expect(t.calls).toContain('setCheckedIn'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('counts places and guests apart where infants take no place, and each count adds up', async () => {
    const t = mountAt('/dashboard', { signedIn: true, experiences: [walk] });
    const day = await t.api.getManifest();
    const slot = day.slots[0]!;
    // One adult and 500 infants: one place, 501 guests. Bruno: three tickets, two places.
    slot.bookings[0]!.tickets = [ticket('pc_a', 'Adult', 1), ticket('pc_i', 'Infant', 500)];
    slot.bookings[0]!.totalParticipants = 501;
    slot.bookings[1]!.tickets = [ticket('pc_a', 'Adult', 1), ticket('pc_c', 'Child', 1), ticket('pc_i', 'Infant', 1)];
    slot.bookings[1]!.totalParticipants = 3;
    slot.booked = 3;
    slot.remaining = 9;
    fireEvent.click(await screen.findByRole('button', { name: 'Next day' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Previous day' }));
    const ana = (await screen.findByText('Ana Lima')).closest('li')!;
    expect(ana.textContent).toContain('501 guests (1 place): 1 × Adult, 500 × Infant');
    expect(screen.getByText('Bruno Costa').closest('li')!.textContent).toContain('3 guests (2 places): 1 × Adult, 1 × Child, 1 × Infant');
    const region = screen.getByRole('region', { name: /Alfama Old Town Walk/ });
    expect(region.querySelector('header')!.textContent).toContain('3/12 places booked504 guests');
    expect(screen.getByText(/^2 bookings/).textContent).toBe('2 bookings, 504 guests (3 places)');
  });

  it('says a departure is Closed and shows its note', async () => {
    const t = mountAt('/dashboard', { signedIn: true });
    const day = await t.api.getManifest();
    day.slots[0]!.closed = true;
    day.slots[0]!.note = 'Storm warning: meet indoors';
    fireEvent.click(await screen.findByRole('button', { name: 'Next day' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Previous day' }));
    await screen.findByText('Ana Lima');
    const header = screen.getByRole('region', { name: /Alfama Old Town Walk/ }).querySelector('header')!;
    expect(within(header).getByText('Closed')).toBeTruthy();
    expect(within(header).getByText('Storm warning: meet indoors')).toBeTruthy();
  });

  it('says guests alone when every guest takes a place', async () => {
    mountAt('/dashboard', { signedIn: true });
    await screen.findByText('Ana Lima');
    expect(screen.getByText(/^2 bookings/).textContent).toBe('2 bookings, 3 guests');
    expect(screen.getByText('Ana Lima').closest('li')!.textContent).toContain('2 guests');
    expect(screen.getByText('Ana Lima').closest('li')!.textContent).not.toContain('place');
  });

  it('shows a reseller’s guest without a name or an e-mail, and checks them in by booking number', async () => {
    const t = mountAt('/dashboard', { signedIn: true });
    const day = await t.api.getManifest();
    // A reseller may pass on no contact at all.
    Object.assign(day.slots[0]!.bookings[0]!, { guestName: null, guestEmail: null });
    fireEvent.click(await screen.findByRole('button', { name: 'Next day' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Previous day' }));
    const row = (await screen.findByText('No name given')).closest('li')!;
    expect(row.textContent).toContain('BK-ANA00000');
    expect(within(row).queryByText('Email')).toBeNull();
    expect(row.querySelector('a[href^="mailto:"]')).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: 'Check in' }));
    await waitFor(() => expect(within(row).getByRole('button', { name: 'Check in' }).getAttribute('aria-pressed')).toBe('true'));
    // The other guest is as before.
    expect(screen.getByText('Bruno Costa').closest('li')!.querySelector('a[href="mailto:bruno@example.com"]')).not.toBeNull();
  });
});
