import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { ApiError, queryString, type Http, type Query } from './api.js';
import { session } from './test-helpers/fake-api.js';
import { mountAt, useDashboardTests } from './test-helpers/dashboard-under-test.js';

useDashboardTests();

const NOW = '2026-11-20T10:00:00.000Z';

function customerOf(id: string, name: string, email: string) {
  return { id, name, email, phone: '+351 912 345 678', bookingCount: 1, totalSpent: '50.00', currency: 'EUR', firstBookingAt: NOW, lastBookingAt: NOW, createdAt: NOW, updatedAt: NOW };
}

const bookingOf = (customerId: string, guestName: string, guestEmail: string) => ({
  id: 'bk_ana',
  bookingNumber: 'BK-ANA00000',
  status: 'CONFIRMED',
  experience: { id: 'exp_walk', title: 'Alfama Old Town Walk' },
  timeSlot: { id: 'ts_1', startTime: '2026-12-01T10:00:00.000Z', endTime: '2026-12-01T12:00:00.000Z' },
  customerId,
  guestName,
  guestEmail,
  guestPhone: null,
  totalParticipants: 2,
  unitPrice: 2500,
  tickets: [],
  answers: [],
  extras: [],
  locale: 'en',
  subtotal: '50.00',
  discount: null,
  voucher: null,
  total: '50.00',
  amountDue: '50.00',
  currency: 'EUR',
  amountRefunded: '0.00',
  source: 'WIDGET',
  octo: null,
  metadata: {},
  cancellationReason: null,
  cancelledAt: null,
  holdExpiresAt: null,
  checkedInAt: null,
  internalNote: null,
  createdAt: NOW,
  updatedAt: NOW,
});

/** The customer routes over two people in memory; every call written down. */
function fakeOuting() {
  const customers = [customerOf('cus_ana', 'Ana Lima', 'ana@example.com'), customerOf('cus_bruno', 'Bruno Costa', 'bruno@example.com')];
  const calls: string[] = [];
  const refusals = new Map<string, ApiError>();
  const page = <T,>(data: T[]) => ({ data, pagination: { total: data.length, limit: 20, offset: 0, hasMore: false } });

  async function route(method: string, path: string, query: Query = {}): Promise<unknown> {
    const key = `${method} ${path}`;
    calls.push(`${key}${queryString(query)}`);
    await Promise.resolve();
    const refusal = refusals.get(key);
    if (refusal) {
      refusals.delete(key);
      throw refusal;
    }
    if (path === '/v1/experiences') return page([{ id: 'exp_walk', schedule: { timezone: 'Europe/Lisbon' } }]);
    if (path === '/v1/reports/daily') return { timezone: 'Europe/Lisbon', currency: 'EUR', days: [] };
    if (path === '/v1/customers') {
      const s = String(query['search'] ?? '').toLowerCase();
      return page(customers.filter((c) => !s || c.name.toLowerCase().includes(s) || c.email.includes(s)));
    }
    const c = customers.find((x) => path === `/v1/customers/${x.id}`);
    if (!c) throw new ApiError(404, 'NOT_FOUND', 'No such customer');
    if (method === 'DELETE') {
      Object.assign(c, { name: 'erased', email: `erased-${c.id}@erased.invalid`, phone: 'erased' });
      return { id: c.id, erased: true };
    }
    return { ...c, bookings: [bookingOf(c.id, c.name, c.email)] };
  }

  const http: Http = {
    get: async (schema, path, query) => schema.parse(await route('GET', path, query)),
    list: async (item, path, query) => {
      const r = (await route('GET', path, query)) as ReturnType<typeof page>;
      return { data: item.array().parse(r.data), pagination: r.pagination };
    },
    send: async (schema, method, path) => schema.parse(await route(method, path)),
    download: () => Promise.reject(new ApiError(404, 'NOT_FOUND', 'Not faked')),
  };
  return { http, calls, refusals };
}

const dialog = () => within(screen.getByRole('dialog'));

describe('the Customers screens', () => {
  it('lists customers and searches them through the address', async () => {
    const outing = fakeOuting();
    mountAt('/dashboard/customers', { signedIn: true, http: outing.http });
    const link = await screen.findByRole('link', { name: 'Ana Lima' });
    expect(link.getAttribute('href')).toBe('/dashboard/customers/cus_ana');
    expect(link.closest('tr')!.textContent).toContain('€50.00');

    fireEvent.input(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'bruno' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.queryByText('Ana Lima')).toBeNull());
    expect(location.search).toBe('?search=bruno');
    expect(outing.calls).toContain('GET /v1/customers?search=bruno&limit=20&offset=0');

    fireEvent.input(screen.getByLabelText('Search'), { target: { value: 'zed' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByRole('heading', { name: 'No customer matches “zed”' });
    expect(screen.getByRole('link', { name: 'show everyone' })).toBeTruthy();
  });

  it('shows a customer with their bookings, each linking to its page', async () => {
    const outing = fakeOuting();
    mountAt('/dashboard/customers/cus_ana', { signedIn: true, http: outing.http });
    await screen.findByRole('heading', { level: 1, name: 'Ana Lima' });
    expect(screen.getByText('ana@example.com')).toBeTruthy();
    const bookings = screen.getByRole('region', { name: 'Bookings' });
    expect(within(bookings).getByRole('link', { name: 'BK-ANA00000' }).getAttribute('href')).toBe('/dashboard/bookings/bk_ana');
    expect(bookings.textContent).toContain('Europe/Lisbon');
  });

  it('erases the personal data only after confirming, then shows the erased state', async () => {
    const outing = fakeOuting();
    mountAt('/dashboard/customers/cus_ana', { signedIn: true, http: outing.http });
    await screen.findByRole('heading', { level: 1, name: 'Ana Lima' });

    // Backing out sends nothing.
    fireEvent.click(screen.getByRole('button', { name: 'Erase personal data' }));
    fireEvent.click(dialog().getByRole('button', { name: 'Keep the data' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(outing.calls.some((c) => c.startsWith('DELETE'))).toBe(false);

    // A refusal is said in the dialog.
    outing.refusals.set('DELETE /v1/customers/cus_ana', new ApiError(403, 'FORBIDDEN', 'Missing scope customers:write'));
    fireEvent.click(screen.getByRole('button', { name: 'Erase personal data' }));
    expect(dialog().getByRole('heading', { name: 'Erase the personal data of Ana Lima?' })).toBeTruthy();
    fireEvent.click(dialog().getByRole('button', { name: 'Erase personal data' }));
    expect((await dialog().findByRole('alert')).textContent).toContain('Your role does not allow this');

    fireEvent.click(dialog().getByRole('button', { name: 'Erase personal data' }));
    await screen.findByRole('heading', { level: 1, name: 'Erased customer' });
    expect(outing.calls.filter((c) => c.startsWith('DELETE'))).toEqual(['DELETE /v1/customers/cus_ana', 'DELETE /v1/customers/cus_ana']);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('The personal data is erased');
    expect(screen.queryByText('ana@example.com')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Erase personal data' })).toBeNull();
  });

  it('offers staff no erasure, which their role cannot do', async () => {
    const outing = fakeOuting();
    mountAt('/dashboard/customers/cus_bruno', { signedIn: true, http: outing.http, session: { ...session, user: { ...session.user, role: 'staff' } } });
    await screen.findByRole('heading', { level: 1, name: 'Bruno Costa' });
    expect(screen.queryByRole('button', { name: 'Erase personal data' })).toBeNull();
  });
});
