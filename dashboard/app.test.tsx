import { fireEvent, screen, waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { mountAt, useDashboardTests } from './test-helpers/dashboard-under-test.js';

useDashboardTests();

describe('the screens past Today', () => {
  it('arrive after their chunk loads, named in the title at once, with focus on their heading once there', async () => {
    mountAt('/dashboard', { signedIn: true });
    await screen.findByText('Ana Lima');
    fireEvent.click(screen.getByRole('link', { name: 'Bookings' }));
    // The title says where the person is going while the screen's code is on its way.
    expect(document.title).toBe('Bookings · Outing');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Bookings' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByRole('link', { name: 'Bookings' }).getAttribute('aria-current')).toBe('page');
  });
});
