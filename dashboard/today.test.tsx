import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api.js';
import { mountAt, useDashboardTests } from './test-helpers/dashboard-under-test.js';

useDashboardTests();

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
    expect(slot.textContent).toContain('3/12 booked');
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
});
