import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { Activity, Message, Payment, Refund } from '../shared/index.js';
import { ApiError, queryString, type Http, type Query } from './api.js';
import type { Booking } from '../shared/index.js';
import { session } from './test-helpers/fake-api.js';
import { mountAt, useDashboardTests } from './test-helpers/dashboard-under-test.js';

useDashboardTests();

const NOW = '2026-11-20T10:00:00.000Z';

function bookingOf(id: string, name: string, participants: number, startTime = '2026-12-01T10:00:00.000Z'): Booking {
  return {
    id,
    bookingNumber: `BK-${id.toUpperCase().replace('_', '').padEnd(8, '0').slice(0, 8)}`,
    status: 'CONFIRMED',
    experience: { id: 'exp_walk', title: 'Alfama Old Town Walk' },
    timeSlot: { id: 'ts_1', startTime, endTime: startTime.replace('T10', 'T12') },
    customerId: `cus_${id}`,
    guestName: name,
    guestEmail: `${id}@example.com`,
    guestPhone: null,
    totalParticipants: participants,
    tickets: [],
    answers: [],
    extras: [],
    unitPrice: 2500,
    subtotal: (participants * 25).toFixed(2),
    discount: null,
    voucher: null,
    total: (participants * 25).toFixed(2),
    amountDue: (participants * 25).toFixed(2),
    currency: 'EUR',
    amountRefunded: '0.00',
    source: 'API',
    octo: null,
    metadata: { room: '12' },
    locale: 'en',
    cancellationReason: null,
    cancelledAt: null,
    holdExpiresAt: null,
    checkedInAt: null,
    internalNote: null,
    createdAt: NOW,
    updatedAt: NOW,
  };
}

/** The routes these screens call, over a few records in memory; every call is written down. */
function fakeOuting() {
  const bookings = new Map([bookingOf('bk_ana', 'Ana Lima', 2), bookingOf('bk_bruno', 'Bruno Costa', 1)].map((b) => [b.id, b]));
  const payments: Payment[] = [];
  const refunds: Refund[] = [];
  const messages: Message[] = [];
  const activity: Activity[] = [];
  const calls: string[] = [];
  /** The bodies of POST /v1/bookings. */
  const posted: Record<string, unknown>[] = [];
  /** The next answer to this `METHOD path`, instead of the usual one. */
  const refusals = new Map<string, ApiError>();
  /** While set, changes wait for it: the screen's busy state can be seen. */
  let gate: Promise<void> | null = null;
  /** Reads wait for the gate too. */
  let holdReads = false;
  /** Places left in the three slots the first page of availability offers. */
  const remaining = [8, 1, 5];

  const log = (summary: string, targetId: string) =>
    activity.unshift({ id: `act_${activity.length + 1}`, actor: { type: 'user', id: 'usr_1', name: 'Marta Reis' }, action: 'booking.update', targetType: 'booking', targetId, summary, ip: null, createdAt: NOW });
  const page = <T,>(data: T[]) => ({ data, pagination: { total: data.length, limit: 20, offset: 0, hasMore: false } });
  const one = (id: string) => {
    const b = bookings.get(id) ?? [...bookings.values()].find((x) => x.bookingNumber === id);
    if (!b) throw new ApiError(404, 'NOT_FOUND', 'No such booking');
    return b;
  };

  async function route(method: string, path: string, query: Query = {}, body: Record<string, unknown> = {}): Promise<unknown> {
    const key = `${method} ${path}`;
    calls.push(`${key}${queryString(query)}`);
    await Promise.resolve();
    if (gate && (method !== 'GET' || holdReads)) await gate;
    const refusal = refusals.get(key);
    if (refusal) {
      refusals.delete(key);
      throw refusal;
    }
    if (path === '/v1/experiences') {
      // Whole records: the New booking form reads their prices and categories.
      return page([
        { id: 'exp_walk', name: 'Alfama Old Town Walk', description: '', duration: 120, price: 2500, currency: 'EUR', maxParticipants: 12, maxPerBooking: 6,
          schedule: null, minNoticeMinutes: 60, maxAdvanceDays: 365, active: true, priceCategories: [], createdAt: NOW, updatedAt: NOW,
          meetingPoint: null, meetingPointUrl: null, guestInstructions: null, questions: [], extras: [], waitlist: false },
      ]);
    }
    if (path === '/v1/quote' && method === 'POST') {
      // 25.00 a head; SUMMER15 takes 15% off, the voucher pays up to 20.00 of the rest.
      const subtotal = 2500 * Number(body['participants'] ?? 1);
      const discount = body['promoCode'] ? Math.round(subtotal * 0.15) : 0;
      const voucher = body['voucherCode'] ? Math.min(2000, subtotal - discount) : 0;
      const m = (c: number) => (c / 100).toFixed(2);
      const lines = [
        { kind: 'TICKETS', label: 'Alfama Old Town Walk', quantity: Number(body['participants'] ?? 1), unitPrice: 2500, amount: m(subtotal) },
        ...(discount ? [{ kind: 'DISCOUNT', label: 'SUMMER15', quantity: 1, unitPrice: -discount, amount: m(-discount) }] : []),
        ...(voucher ? [{ kind: 'VOUCHER', label: 'GV-••••-••••-4T2W', quantity: 1, unitPrice: -voucher, amount: m(-voucher) }] : []),
      ];
      return { currency: 'EUR', lines, subtotal: m(subtotal), discount: m(discount), voucherAmount: m(voucher), total: m(subtotal - discount), amountDue: m(subtotal - discount - voucher) };
    }
    if (path === '/v1/bookings' && method === 'POST') {
      posted.push(body);
      const made = { ...bookingOf('bk_new', String(body['customerName']), Number(body['participants'] ?? 1)), internalNote: (body['internalNote'] as string) ?? null, source: 'DASHBOARD' as const };
      bookings.set(made.id, made);
      return made;
    }
    if (path === '/v1/experiences/exp_walk') {
      const cat = (id: string, name: string, price: number, type: string, occupiesPlace = true) => ({ id, name, price, type, occupiesPlace, minAge: null, maxAge: null });
      return {
        id: 'exp_walk', name: 'Alfama Old Town Walk', description: '', duration: 120, price: 2500, currency: 'EUR', maxParticipants: 12, maxPerBooking: 12,
        schedule: null, minNoticeMinutes: 0, maxAdvanceDays: 365, active: true, createdAt: NOW, updatedAt: NOW,
        meetingPoint: null, meetingPointUrl: null, guestInstructions: null, questions: [], extras: [], waitlist: false,
        priceCategories: [cat('pc_adult', 'Adult', 3000, 'ADULT'), cat('pc_child', 'Child', 1500, 'CHILD'), cat('pc_infant', 'Infant', 0, 'INFANT', false)],
      };
    }
    if (path === '/v1/reports/daily') return { timezone: 'Europe/Lisbon', currency: 'EUR', days: [] };
    if (path === '/v1/bookings') {
      const q = String(query['q'] ?? '').toLowerCase();
      return page([...bookings.values()].filter((b) => (!q || (b.guestName ?? '').toLowerCase().includes(q)) && (!query['status'] || b.status === query['status'])));
    }
    if (path === '/v1/activity') return page(activity.filter((a) => a.targetId === query['targetId']));
    if (path === '/v1/availability') {
      const slot = (start: string, remaining: number) => ({ id: `ts_${start}`, startTime: start, endTime: start, capacity: 12, booked: 12 - remaining, remaining, available: remaining > 0, unavailableReason: remaining ? null : 'FULL' });
      const from = String(query['startDate'] ?? '2026-11-20');
      return {
        experienceId: 'exp_walk',
        timezone: 'Europe/Lisbon',
        startDate: from,
        endDate: from === '2026-11-20' ? '2026-12-20' : '2027-01-20',
        slots:
          from === '2026-11-20' || from === '2026-12-01'
            ? [slot('2026-12-01T10:00:00.000Z', remaining[0]!), slot('2026-12-02T10:00:00.000Z', remaining[1]!), slot('2026-12-03T15:00:00.000Z', remaining[2]!)]
            : [slot('2026-12-22T10:00:00.000Z', 12)],
      };
    }
    const m = /^\/v1\/bookings\/([^/]+)(\/cancel|\/payments|\/refunds|\/messages(?:\/([^/]+)\/resend)?)?$/.exec(path);
    if (!m) throw new ApiError(404, 'NOT_FOUND', `Not faked: ${key}`);
    const b = one(decodeURIComponent(m[1]!));
    if (m[2]?.startsWith('/messages')) {
      if (method === 'GET') return page(messages.filter((x) => x.bookingId === b.id));
      const was = messages.find((x) => x.id === decodeURIComponent(m[3]!));
      if (!was) throw new ApiError(404, 'NOT_FOUND', 'No such message');
      const again: Message = { ...was, id: `msg_${messages.length + 1}`, status: 'PENDING', attempts: 0, lastError: null, nextAttemptAt: NOW, sentAt: null, createdAt: NOW };
      messages.push(again);
      return again;
    }
    if (m[2] === '/payments') {
      if (method === 'GET') return page(payments.filter((p) => p.bookingId === b.id));
      const p: Payment = { id: `pay_${payments.length + 1}`, bookingId: b.id, amount: String(body['amount']), currency: 'EUR', status: body['status'] as 'SUCCEEDED', provider: 'manual', method: (body['method'] as Payment['method'] | undefined) ?? 'OTHER', reference: (body['reference'] as string) ?? null, failureReason: (body['failureReason'] as string) ?? null, refundRequired: false, createdAt: NOW };
      payments.push(p);
      log(`Recorded a payment of ${p.amount}`, b.id);
      return p;
    }
    if (m[2] === '/refunds') {
      if (method === 'GET') return page(refunds.filter((r) => r.bookingId === b.id));
      const r: Refund = { id: `re_${refunds.length + 1}`, bookingId: b.id, amount: String(body['amount']), currency: 'EUR', method: body['method'] as 'CASH', status: 'SUCCEEDED', reason: (body['reason'] as string) ?? null, createdAt: NOW };
      refunds.push(r);
      b.amountRefunded = (Number(b.amountRefunded) + Number(r.amount)).toFixed(2);
      log(`Refund of ${r.amount}`, b.id);
      return r;
    }
    if (m[2] === '/cancel') {
      Object.assign(b, { status: 'CANCELLED', cancelledAt: NOW, cancellationReason: body['reason'] ?? null });
      log('Cancelled the booking', b.id);
    } else if (method === 'PATCH') {
      if (body['tickets']) {
        const names: Record<string, [string, number]> = { pc_adult: ['Adult', 2500], pc_child: ['Child', 1500], pc_infant: ['Infant', 0] };
        const tickets = (body['tickets'] as { categoryId: string; quantity: number }[]).map((x) => ({
          categoryId: x.categoryId, name: names[x.categoryId]![0], type: 'OTHER' as const, quantity: x.quantity, unitPrice: names[x.categoryId]![1],
        }));
        Object.assign(b, { tickets, totalParticipants: tickets.reduce((n, x) => n + x.quantity, 0), total: (tickets.reduce((n, x) => n + x.quantity * x.unitPrice, 0) / 100).toFixed(2) });
      }
      if (body['participants']) Object.assign(b, { totalParticipants: body['participants'], total: (Number(body['participants']) * 25).toFixed(2) });
      if (body['startTime']) b.timeSlot = { ...b.timeSlot, startTime: String(body['startTime']) };
      log('Changed the booking', b.id);
    }
    return b;
  }

  const http: Http = {
    get: async (schema, path, query) => schema.parse(await route('GET', path, query)),
    list: async (item, path, query) => {
      const r = (await route('GET', path, query)) as ReturnType<typeof page>;
      return { data: item.array().parse(r.data), pagination: r.pagination };
    },
    send: async (schema, method, path, body) => schema.parse(await route(method, path, {}, body as Record<string, unknown>)),
    download: () => Promise.reject(new ApiError(404, 'NOT_FOUND', 'Not faked')),
  };
  return {
    http,
    bookings,
    messages,
    calls,
    refusals,
    remaining,
    payments,
    posted,
    refunds,
    hold(reads = false) {
      let open!: () => void;
      holdReads = reads;
      gate = new Promise((r) => (open = r));
      return () => ((gate = null), open());
    },
  };
}

const dialog = () => within(screen.getByRole('dialog'));

async function openBooking(path = '/dashboard/bookings/bk_ana', role: 'owner' | 'staff' = 'owner') {
  const outing = fakeOuting();
  const who = { ...session, user: { ...session.user, role } };
  const t = mountAt(path, { signedIn: true, http: outing.http, session: who });
  await screen.findByRole('heading', { level: 1, name: /^Booking BK-/ });
  return { ...t, outing };
}

describe('New booking', () => {
  async function openForm(path = '/dashboard/bookings/new?date=2026-12-01') {
    const outing = fakeOuting();
    const t = mountAt(path, { signedIn: true, http: outing.http, session });
    // The first test to open it loads the other screens' chunk.
    await screen.findByRole('heading', { level: 1, name: 'New booking' }, { timeout: 5000 });
    await waitFor(() => expect(screen.getAllByRole('option', { name: /places? left$/ }).length).toBeGreaterThan(0));
    return { ...t, outing };
  }

  it('asks for availability with ignoreNotice, shows places left, and books with the desk’s fields', async () => {
    const t = await openForm();
    expect(t.outing.calls).toContain('GET /v1/availability?experienceId=exp_walk&startDate=2026-12-01&endDate=2026-12-01&ignoreNotice=true');
    expect((screen.getByLabelText('Experience') as HTMLSelectElement).value).toBe('exp_walk');
    expect((screen.getByLabelText('Date') as HTMLInputElement).value).toBe('2026-12-01');
    const time = screen.getByLabelText('Time') as HTMLSelectElement;
    // The fake's second slot is full after the first is taken: each says its places left.
    expect(screen.getByRole('option', { name: /8 places left$/ })).toBeTruthy();
    fireEvent.change(time, { target: { value: '2026-12-01T10:00:00.000Z' } });
    fireEvent.input(screen.getByLabelText('Participants'), { target: { value: '3' } });
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Walk-in Guest' } });
    fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'walkin@example.com' } });
    fireEvent.input(screen.getByLabelText('Phone'), { target: { value: '+351 900 000 000' } });
    fireEvent.input(screen.getByLabelText('Internal note'), { target: { value: 'Pays the rest on board' } });
    expect(screen.queryByLabelText('Payment method')).toBeNull();
    fireEvent.click(screen.getByLabelText('Paid now'));
    expect((screen.getByLabelText('Amount') as HTMLInputElement).value).toBe('75.00');
    fireEvent.change(screen.getByLabelText('Payment method'), { target: { value: 'CARD' } });
    fireEvent.input(screen.getByLabelText('Amount'), { target: { value: '30' } });
    fireEvent.click(screen.getByLabelText('Send confirmation e-mail'));
    fireEvent.click(screen.getByRole('button', { name: 'Create booking' }));
    await screen.findByRole('heading', { level: 1, name: /^Booking BK-/ });
    expect(t.outing.posted).toEqual([
      {
        experienceId: 'exp_walk',
        startTime: '2026-12-01T10:00:00.000Z',
        participants: 3,
        customerName: 'Walk-in Guest',
        customerEmail: 'walkin@example.com',
        customerPhone: '+351 900 000 000',
        internalNote: 'Pays the rest on board',
        ignoreNotice: true,
        sendConfirmation: false,
        payment: { method: 'CARD', amount: '30.00' },
      },
    ]);
    expect(location.pathname).toBe('/dashboard/bookings/bk_new');
  });

  it('shows refusals the GOV.UK way: a summary linking to each field, the message beside it', async () => {
    const t = await openForm();
    fireEvent.click(screen.getByRole('button', { name: 'Create booking' }));
    const summary = await screen.findByRole('region', { name: 'There is a problem' });
    expect(within(summary).getByRole('link', { name: 'Time: Choose a time.' })).toBeTruthy();
    expect(t.outing.posted).toEqual([]);

    fireEvent.change(screen.getByLabelText('Time'), { target: { value: '2026-12-01T10:00:00.000Z' } });
    t.outing.refusals.set(
      'POST /v1/bookings',
      new ApiError(400, 'VALIDATION_ERROR', 'Invalid body', [
        { path: 'customerEmail', message: 'Invalid email address' },
        { path: 'payment.amount', message: 'At most the booking’s total, 25.00' },
      ]),
    );
    fireEvent.click(screen.getByLabelText('Paid now'));
    fireEvent.click(screen.getByRole('button', { name: 'Create booking' }));
    const again = await screen.findByRole('region', { name: 'There is a problem' });
    await waitFor(() => expect(within(again).getAllByRole('link').map((a) => a.textContent)).toEqual(['Email: Invalid email address.', 'Amount: At most the booking’s total, 25.00.']));
    expect(document.getElementById('email-error')?.textContent).toBe('Invalid email address.');
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    // Focus goes to the summary, and each of its links to its field.
    await waitFor(() => expect(document.activeElement?.id).toBe('error-summary'));
    fireEvent.click(within(again).getByRole('link', { name: /^Amount/ }));
    await waitFor(() => expect(document.activeElement?.id).toBe('amount'));
  });

  it('is opened from Bookings, and from a Calendar slot with its time preset', async () => {
    await openForm('/dashboard/bookings/new?experienceId=exp_walk&date=2026-12-01&startTime=2026-12-01T10%3A00%3A00.000Z');
    expect((screen.getByLabelText('Time') as HTMLSelectElement).value).toBe('2026-12-01T10:00:00.000Z');
  });
});

describe('the Bookings list', () => {
  it('lists bookings with their time in the experience’s zone, each linking to its page', async () => {
    const outing = fakeOuting();
    mountAt('/dashboard/bookings', { signedIn: true, http: outing.http });
    // The first test of the file waits for the screens' lazy chunk, which a cold, busy run transforms slowly.
    const link = await screen.findByRole('link', { name: 'BK-BKANA000' }, { timeout: 5000 });
    expect(link.getAttribute('href')).toBe('/dashboard/bookings/bk_ana');
    const row = link.closest('tr')!;
    expect(row.textContent).toContain('Europe/Lisbon');
    expect(row.textContent).toContain('Ana Lima');
    expect(row.textContent).toContain('€50.00');
    // It opens on the bookings to come: from today in the organization's zone, soonest first.
    expect(screen.getByRole('status').textContent).toBe('2 upcoming bookings');
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date());
    expect(outing.calls.filter((c) => c.startsWith('GET /v1/bookings'))).toEqual([`GET /v1/bookings?startDate=${today}&limit=20&offset=0`]);
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe(today);
    expect(screen.getByRole('link', { name: 'Show past bookings too' }).getAttribute('href')).toBe('/dashboard/bookings?startDate=any');
    expect(screen.getByRole('searchbox', { name: 'Search' })).toBeTruthy();
  });

  it('sorts by a column header: a button in the th, aria-sort on it, the order in the address and the request', async () => {
    const outing = fakeOuting();
    mountAt('/dashboard/bookings', { signedIn: true, http: outing.http });
    await screen.findByText('Bruno Costa');
    const header = (name: string) => screen.getByRole('button', { name }).closest('th')!;
    expect(header('Time').getAttribute('aria-sort')).toBe('ascending');
    expect(header('Booked').getAttribute('aria-sort')).toBeNull();
    expect(screen.getByRole('table').querySelector('caption')!.textContent).toBe('Bookings, by time of the tour, soonest first');
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date());

    // Pressing the sorted column reverses it; the filters stay.
    fireEvent.click(screen.getByRole('button', { name: 'Time' }));
    await waitFor(() => expect(header('Time').getAttribute('aria-sort')).toBe('descending'));
    expect(location.search).toBe(`?startDate=${today}&sort=-startTime`);
    expect(outing.calls.at(-1)).toBe(`GET /v1/bookings?startDate=${today}&sort=-startTime&limit=20&offset=0`);

    // Another column sorts by it, ascending first, then reversed.
    fireEvent.click(screen.getByRole('button', { name: 'Booked' }));
    await waitFor(() => expect(header('Booked').getAttribute('aria-sort')).toBe('ascending'));
    expect(header('Time').getAttribute('aria-sort')).toBeNull();
    expect(outing.calls.at(-1)).toBe(`GET /v1/bookings?startDate=${today}&sort=createdAt&limit=20&offset=0`);
    fireEvent.click(screen.getByRole('button', { name: 'Booked' }));
    await waitFor(() => expect(header('Booked').getAttribute('aria-sort')).toBe('descending'));
    expect(screen.getByRole('table').querySelector('caption')!.textContent).toBe('Bookings, by when they were booked, newest first');
    // The order survives a new search, and Back returns to the one before.
    fireEvent.input(screen.getByLabelText('Search'), { target: { value: 'bruno' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show bookings' }));
    await waitFor(() => expect(location.search).toBe(`?q=bruno&startDate=${today}&sort=-createdAt`));
    history.back();
    await waitFor(() => expect(location.search).toBe(`?startDate=${today}&sort=-createdAt`));
    history.back();
    await waitFor(() => expect(header('Booked').getAttribute('aria-sort')).toBe('ascending'));
  });

  it('keeps what is typed in the search box while the list arrives', async () => {
    const outing = fakeOuting();
    const release = outing.hold(true);
    mountAt('/dashboard/bookings', { signedIn: true, http: outing.http });
    const search = (await screen.findByLabelText('Search')) as HTMLInputElement;
    fireEvent.input(search, { target: { value: 'ana' } });
    expect(screen.getByRole('status').textContent).toBe('Loading bookings…');
    release();
    await screen.findByText('Bruno Costa');
    expect(search.value).toBe('ana');
  });

  it('keeps the search and filters in the address and asks the API with them', async () => {
    const outing = fakeOuting();
    mountAt('/dashboard/bookings', { signedIn: true, http: outing.http });
    await screen.findByText('Bruno Costa');
    fireEvent.input(screen.getByLabelText('Search'), { target: { value: 'bruno' } });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'CONFIRMED' } });
    fireEvent.input(screen.getByLabelText('From'), { target: { value: '2026-12-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show bookings' }));
    await waitFor(() => expect(screen.queryByText('Ana Lima')).toBeNull());
    expect(location.search).toBe('?q=bruno&status=CONFIRMED&startDate=2026-12-01');
    expect(outing.calls.at(-1)).toBe('GET /v1/bookings?q=bruno&status=CONFIRMED&startDate=2026-12-01&limit=20&offset=0');
    expect(screen.getByRole('status').textContent).toBe('1 booking match');

    // Nothing matches: the empty state says what to try, and offers the whole list.
    fireEvent.input(screen.getByLabelText('Search'), { target: { value: 'nobody' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show bookings' }));
    await screen.findByRole('heading', { name: 'No bookings match' });
    expect(screen.getByRole('link', { name: 'show every booking' }).getAttribute('href')).toBe('/dashboard/bookings?startDate=any');
    history.back();
    await screen.findByText('Bruno Costa');
    expect((screen.getByLabelText('Search') as HTMLInputElement).value).toBe('bruno');
  });
});

describe('a booking’s page', () => {
  it('shows the details, the payments and the activity, in the experience’s zone', async () => {
    const t = await openBooking();
    const details = screen.getByRole('region', { name: 'Details' });
    expect(details.textContent).toContain('Alfama Old Town Walk');
    expect(details.textContent).toContain('Europe/Lisbon time');
    expect(details.textContent).toContain('Ana Lima');
    expect(details.textContent).toContain('€50.00');
    expect(details.textContent).toContain('room:12'.replace(':', ''));
    expect(screen.getByRole('region', { name: 'Payments' }).textContent).toContain('No payments yet');
    expect(screen.queryByRole('region', { name: 'Tickets' })).toBeNull();
    expect(t.outing.calls).toContain('GET /v1/activity?targetId=bk_ana&limit=50');
    for (const label of ['Cancel booking', 'Change time', 'Change participants', 'Record payment']) expect(screen.getByRole('button', { name: label })).toBeTruthy();
  });

  it('cancels with a reason after confirming, busy meanwhile, then shows the new state and the activity entry', async () => {
    const t = await openBooking();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel booking' }));
    expect(dialog().getByRole('heading', { name: 'Cancel booking BK-BKANA000?' })).toBeTruthy();
    fireEvent.input(dialog().getByLabelText('Reason'), { target: { value: 'Guest is ill' } });
    const release = t.outing.hold();
    fireEvent.click(dialog().getByRole('button', { name: 'Cancel booking' }));
    await waitFor(() => expect(screen.getByRole('dialog').querySelector('form')!.getAttribute('aria-busy')).toBe('true'));
    // A second press while it is on its way sends nothing more.
    fireEvent.click(dialog().getByRole('button', { name: 'Cancel booking' }));
    release();
    await screen.findByText(/is cancelled; its places are free again/);
    expect(t.outing.calls.filter((c) => c.startsWith('PATCH'))).toEqual(['PATCH /v1/bookings/bk_ana/cancel']);
    expect(t.outing.bookings.get('bk_ana')!.cancellationReason).toBe('Guest is ill');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('region', { name: 'Details' }).textContent).toContain('Guest is ill');
    await waitFor(() => expect(screen.getByRole('region', { name: 'Activity' }).textContent).toContain('Cancelled the booking'));
    // The cancellation queues an e-mail to the guest: the messages are read again with the activity.
    expect(t.outing.calls.filter((c) => c.startsWith('GET /v1/bookings/bk_ana/messages'))).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Change time' })).toBeNull();
  });

  it('closes a dialog without doing anything, and focus returns to its button', async () => {
    const t = await openBooking();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel booking' }));
    fireEvent.click(dialog().getByRole('button', { name: 'Keep booking' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement?.id).toBe('open-cancel');
    expect(t.outing.calls.some((c) => c.startsWith('PATCH'))).toBe(false);
  });

  it('shows a refused participant count next to the field, keeping what was typed', async () => {
    const t = await openBooking();
    fireEvent.click(screen.getByRole('button', { name: 'Change participants' }));
    const field = dialog().getByLabelText('Participants') as HTMLInputElement;
    expect(field.value).toBe('2');
    t.outing.refusals.set(
      'PATCH /v1/bookings/bk_ana',
      new ApiError(409, 'CAPACITY_EXCEEDED', 'Only 3 places left in this time slot', [{ path: 'participants', message: '3 remaining' }]),
    );
    fireEvent.input(field, { target: { value: '9' } });
    fireEvent.click(dialog().getByRole('button', { name: 'Change participants' }));
    const error = await screen.findByText('Only 3 places left in this time slot.');
    expect(error.id).toBe('participants-error');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.value).toBe('9');

    // Nothing to send: said at once, without a request.
    fireEvent.input(field, { target: { value: '' } });
    fireEvent.click(dialog().getByRole('button', { name: 'Change participants' }));
    await screen.findByText('Enter a whole number of 1 or more.');

    fireEvent.input(field, { target: { value: '3' } });
    fireEvent.click(dialog().getByRole('button', { name: 'Change participants' }));
    await screen.findByText(/is now for 3 participants/);
    expect(screen.getByRole('region', { name: 'Details' }).textContent).toContain('€75.00');
  });

  it('changes a ticketed booking’s tickets: its own at its prices, the experience’s others at today’s', async () => {
    const outing = fakeOuting();
    Object.assign(outing.bookings.get('bk_ana')!, {
      unitPrice: null,
      total: '50.00',
      tickets: [{ categoryId: 'pc_adult', name: 'Adult', type: 'ADULT', quantity: 2, unitPrice: 2500 }],
    });
    mountAt('/dashboard/bookings/bk_ana', { signedIn: true, http: outing.http });
    await screen.findByRole('heading', { level: 1, name: /^Booking BK-/ });
    expect(screen.getByRole('region', { name: 'Tickets' }).textContent).toContain('Adult');
    fireEvent.click(screen.getByRole('button', { name: 'Change participants' }));
    // The booking's own price for adults (€25.00), today's for the categories it has not got.
    const adults = (await dialog().findByLabelText('Adult, €25.00')) as HTMLInputElement;
    expect(adults.value).toBe('2');
    expect((dialog().getByLabelText('Child, €15.00') as HTMLInputElement).value).toBe('0');
    fireEvent.input(dialog().getByLabelText('Child, €15.00'), { target: { value: '1' } });
    fireEvent.click(dialog().getByRole('button', { name: 'Change participants' }));
    await screen.findByText(/now has 2 × Adult, 1 × Child/);
    expect(outing.calls).toContain('PATCH /v1/bookings/bk_ana');
    expect(outing.bookings.get('bk_ana')!.tickets.map((x) => [x.categoryId, x.quantity])).toEqual([['pc_adult', 2], ['pc_child', 1]]);
    expect(screen.getByRole('region', { name: 'Details' }).textContent).toContain('€65.00');
  });

  it('offers the experience’s available times and moves the booking to the chosen one', async () => {
    const t = await openBooking();
    fireEvent.click(screen.getByRole('button', { name: 'Change time' }));
    await dialog().findByText('Tuesday, December 1, 2026');
    const radios = dialog().getAllByRole('radio') as HTMLInputElement[];
    // The current time, and a slot with one place for a party of two, cannot be chosen.
    expect(radios.map((r) => r.disabled)).toEqual([true, true, false]);
    expect(dialog().getByText('· current time')).toBeTruthy();
    expect(dialog().getByText('· only 1 left')).toBeTruthy();

    // No choice: the group says so.
    fireEvent.click(dialog().getByRole('button', { name: 'Change time' }));
    await dialog().findByText('Choose one of the times offered.');

    fireEvent.click(dialog().getByRole('button', { name: 'Show later times' }));
    await waitFor(() => expect(dialog().getAllByRole('radio')).toHaveLength(4));
    expect(t.outing.calls).toContain('GET /v1/availability?experienceId=exp_walk&startDate=2026-12-21');

    fireEvent.click(radios[2]!);
    fireEvent.click(dialog().getByRole('button', { name: 'Change time' }));
    await screen.findByText(/now starts at the new time/);
    expect(t.outing.bookings.get('bk_ana')!.timeSlot.startTime).toBe('2026-12-03T15:00:00.000Z');
    await waitFor(() => expect(screen.getByRole('region', { name: 'Activity' }).textContent).toContain('Changed the booking'));
  });

  it('records a payment, with the API’s refusal next to its field first', async () => {
    const t = await openBooking();
    fireEvent.click(screen.getByRole('button', { name: 'Record payment' }));
    const amount = dialog().getByLabelText('Amount (EUR)') as HTMLInputElement;
    expect(amount.value).toBe('50.00');
    fireEvent.input(amount, { target: { value: 'ten' } });
    fireEvent.click(dialog().getByRole('button', { name: 'Record payment' }));
    await dialog().findByText('Enter an amount such as 25.00.');

    t.outing.refusals.set(
      'POST /v1/bookings/bk_ana/payments',
      new ApiError(400, 'VALIDATION_ERROR', 'Invalid body', [{ path: 'reference', message: 'Too long' }]),
    );
    fireEvent.input(amount, { target: { value: '20' } });
    fireEvent.input(dialog().getByLabelText('Reference'), { target: { value: 'cash' } });
    fireEvent.click(dialog().getByRole('button', { name: 'Record payment' }));
    expect((await dialog().findByText('Too long.')).id).toBe('reference-error');
    expect(amount.value).toBe('20');

    fireEvent.click(dialog().getByRole('button', { name: 'Record payment' }));
    // In the booking's currency, as every amount on the page.
    await screen.findByText('A payment of €20.00 is recorded.');
    const payments = screen.getByRole('region', { name: 'Payments' });
    await waitFor(() => expect(payments.textContent).toContain('€20.00'));
    expect(payments.textContent).toContain('cash');
    expect(screen.getByRole('region', { name: 'Details' }).textContent).toContain('€30.00 still due');
  });

  it('refunds part of what was paid, the amount defaulting to what is left, and lists the refund', async () => {
    const t = await openBooking();
    // Nothing paid: nothing to refund.
    expect(screen.queryByRole('button', { name: 'Refund' })).toBeNull();
    expect(screen.getByRole('region', { name: 'Refunds' }).textContent).toContain('No refunds');
    fireEvent.click(screen.getByRole('button', { name: 'Record payment' }));
    fireEvent.click(dialog().getByRole('button', { name: 'Record payment' }));
    await screen.findByText('A payment of €50.00 is recorded.');

    fireEvent.click(await screen.findByRole('button', { name: 'Refund' }));
    const amount = dialog().getByLabelText('Amount (EUR)') as HTMLInputElement;
    expect(amount.value).toBe('50.00');
    expect((dialog().getByLabelText('Method') as HTMLSelectElement).value).toBe('OTHER');
    fireEvent.input(amount, { target: { value: '0' } });
    fireEvent.click(dialog().getByRole('button', { name: 'Refund' }));
    await dialog().findByText('Enter an amount more than 0.00, such as 25.00.');

    t.outing.refusals.set('POST /v1/bookings/bk_ana/refunds', new ApiError(409, 'REFUND_EXCEEDS_PAID', 'At most 50.00 EUR of this booking can be refunded'));
    fireEvent.input(amount, { target: { value: '60' } });
    fireEvent.click(dialog().getByRole('button', { name: 'Refund' }));
    expect((await dialog().findByText(/At most 50\.00 EUR/)).id).toBe('amount-error');

    fireEvent.input(amount, { target: { value: '12.5' } });
    fireEvent.change(dialog().getByLabelText('Method'), { target: { value: 'CASH' } });
    fireEvent.input(dialog().getByLabelText('Reason'), { target: { value: 'One guest fell ill' } });
    fireEvent.click(dialog().getByRole('button', { name: 'Refund' }));
    await screen.findByText('A refund of €12.50 is recorded.');
    expect(t.outing.refunds.at(-1)).toMatchObject({ amount: '12.50', method: 'CASH', reason: 'One guest fell ill' });
    const refunds = screen.getByRole('region', { name: 'Refunds' });
    await waitFor(() => expect(refunds.textContent).toContain('€12.50'));
    expect(refunds.textContent).toContain('Cash');
    expect(screen.getByRole('region', { name: 'Details' }).textContent).toContain('Refunded€12.50');
  });

  it('asks for a failure reason only when the payment failed', async () => {
    const t = await openBooking();
    fireEvent.click(screen.getByRole('button', { name: 'Record payment' }));
    const status = dialog().getByLabelText('Payment status') as HTMLSelectElement;
    expect(status.value).toBe('SUCCEEDED');
    expect(dialog().queryByLabelText('Failure reason')).toBeNull();
    fireEvent.input(dialog().getByLabelText('Amount (EUR)'), { target: { value: '50' } });

    fireEvent.change(status, { target: { value: 'FAILED' } });
    await dialog().findByLabelText('Failure reason');
    // What was typed stays through the change of status.
    expect((dialog().getByLabelText('Amount (EUR)') as HTMLInputElement).value).toBe('50');
    fireEvent.change(status, { target: { value: 'SUCCEEDED' } });
    await waitFor(() => expect(dialog().queryByLabelText('Failure reason')).toBeNull());
    fireEvent.change(status, { target: { value: 'FAILED' } });
    fireEvent.input(await dialog().findByLabelText('Failure reason'), { target: { value: 'Card declined' } });

    fireEvent.click(dialog().getByRole('button', { name: 'Record payment' }));
    await screen.findByText('A failed payment of €50.00 is recorded.');
    expect(t.outing.payments.at(-1)).toMatchObject({ amount: '50.00', status: 'FAILED', failureReason: 'Card declined' });
  });

  it('leaves out the metadata when the booking has none, rather than saying “None”', async () => {
    const outing = fakeOuting();
    outing.bookings.get('bk_bruno')!.metadata = {};
    mountAt('/dashboard/bookings/bk_bruno', { signedIn: true, http: outing.http });
    await screen.findByRole('heading', { level: 1, name: /^Booking BK-/ });
    const details = screen.getByRole('region', { name: 'Details' });
    expect(details.textContent).not.toContain('Metadata');
    expect(details.textContent).not.toContain('None');
  });

  it('tells places from guests where infants take no place: details, cancelling and moving', async () => {
    const outing = fakeOuting();
    const tickets = (adults: number, children: number, infants: number) =>
      [
        { categoryId: 'pc_adult', name: 'Adult', type: 'ADULT' as const, quantity: adults, unitPrice: 2500 },
        { categoryId: 'pc_child', name: 'Child', type: 'CHILD' as const, quantity: children, unitPrice: 1500 },
        // Typed OTHER: whether it takes a place comes from the experience's category, not its type.
        { categoryId: 'pc_infant', name: 'Infant', type: 'OTHER' as const, quantity: infants, unitPrice: 0 },
      ].filter((x) => x.quantity > 0);
    // One adult with 500 infants on their laps: one place, 501 guests.
    Object.assign(outing.bookings.get('bk_ana')!, { unitPrice: null, total: '25.00', totalParticipants: 501, tickets: tickets(1, 0, 500) });
    mountAt('/dashboard/bookings/bk_ana', { signedIn: true, http: outing.http });
    await screen.findByRole('heading', { level: 1, name: /^Booking BK-/ });
    await waitFor(() => expect(screen.getByRole('region', { name: 'Details' }).textContent).toContain('501 guests (1 place)'));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel booking' }));
    expect(screen.getByRole('dialog').textContent).toContain("Ana Lima's booking is for 501 guests; its 1 place goes back on sale.");
    expect(screen.getByRole('dialog').textContent).not.toContain('501 places');
    fireEvent.click(dialog().getByRole('button', { name: 'Keep booking' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // Two adults, a child and an infant: 3 places. A slot with 3 left has room for them.
    Object.assign(outing.bookings.get('bk_bruno')!, { unitPrice: null, total: '65.00', totalParticipants: 4, tickets: tickets(2, 1, 1) });
    outing.remaining.splice(0, 3, 8, 3, 2);
    history.pushState(null, '', '/dashboard/bookings/bk_bruno');
    dispatchEvent(new PopStateEvent('popstate'));
    await screen.findByRole('heading', { level: 1, name: 'Booking BK-BKBRUNO0' });
    await waitFor(() => expect(screen.getByRole('region', { name: 'Details' }).textContent).toContain('4 guests (3 places)'));
    fireEvent.click(screen.getByRole('button', { name: 'Change time' }));
    await dialog().findByText('Tuesday, December 1, 2026');
    expect(screen.getByRole('dialog').textContent).toContain('Times with room for 3 places can be chosen.');
    const radios = dialog().getAllByRole('radio') as HTMLInputElement[];
    expect(radios.map((r) => r.disabled)).toEqual([true, false, true]);
    expect(dialog().getByText('· 3 places left')).toBeTruthy();
    expect(dialog().getByText('· only 2 left')).toBeTruthy();
  });

  it('says when a booking does not exist', async () => {
    const outing = fakeOuting();
    mountAt('/dashboard/bookings/bk_nobody', { signedIn: true, http: outing.http });
    expect((await screen.findByRole('alert')).textContent).toContain('There is no booking with this number');
  });

  it('does not ask staff for the activity log, which their role cannot read', async () => {
    const t = await openBooking('/dashboard/bookings/bk_bruno', 'staff');
    expect(screen.getByRole('region', { name: 'Activity' }).textContent).toContain('shown to owners');
    expect(t.outing.calls.some((c) => c.includes('/v1/activity'))).toBe(false);
  });
});

describe('a booking’s e-mails', () => {
  const mail = (id: string, kind: Message['kind'], status: Message['status'], more: Partial<Message> = {}): Message => ({
    id, bookingId: 'bk_ana', kind, to: 'bk_ana@example.com', status, attempts: status === 'SKIPPED' ? 0 : 1, lastError: null,
    nextAttemptAt: null, sentAt: status === 'SENT' ? '2026-11-20T10:00:05.000Z' : null, createdAt: NOW, ...more,
  });

  async function withMail(messages: Message[], role: 'owner' | 'staff' = 'owner', cancelled = false) {
    const outing = fakeOuting();
    outing.messages.push(...messages);
    if (cancelled) Object.assign(outing.bookings.get('bk_ana')!, { status: 'CANCELLED', cancelledAt: NOW });
    mountAt('/dashboard/bookings/bk_ana', { signedIn: true, http: outing.http, session: { ...session, user: { ...session.user, role } } });
    await screen.findByRole('heading', { level: 1, name: /^Booking BK-/ });
    return { outing, section: screen.getByRole('region', { name: 'Messages' }) };
  }

  it('lists them oldest first, each status in words, times in the experience’s zone', async () => {
    const { outing, section } = await withMail([
      mail('msg_1', 'BOOKING_CONFIRMED', 'SENT'),
      mail('msg_2', 'BOOKING_CHANGED', 'PENDING', { attempts: 2, lastError: '421 Try again later', nextAttemptAt: '2026-11-20T10:05:00.000Z' }),
      mail('msg_3', 'BOOKING_REMINDER', 'FAILED', { lastError: '550 Mailbox unavailable' }),
      mail('msg_4', 'BOOKING_CHANGED', 'SKIPPED', { lastError: 'No mail server is configured (SMTP_URL)' }),
      mail('msg_6', 'BOOKING_CANCELLED', 'SKIPPED', { lastError: 'Demo data: not sent' }),
      mail('msg_5', 'BOOKING_REMINDER', 'PENDING', { attempts: 0, nextAttemptAt: NOW }),
    ]);
    expect(outing.calls).toContain('GET /v1/bookings/bk_ana/messages?limit=100');
    const rows = within(section).getAllByRole('row').slice(1);
    const cell = (row: HTMLElement, label: string) => row.querySelector(`td[data-label="${label}"]`)!.textContent;
    expect(rows.map((r) => cell(r, 'E-mail'))).toEqual(['Confirmation', 'Change', 'Reminder', 'Change', 'Cancellation', 'Reminder']);
    expect(cell(rows[0]!, 'To')).toBe('bk_ana@example.com');
    expect(cell(rows[0]!, 'Status')).toBe('Sent');
    // Lisbon is on UTC in November: 10:00:05Z is 10:00 there.
    expect(cell(rows[0]!, 'Sent')).toMatch(/Nov 20, 2026.*10:00/);
    expect(cell(rows[1]!, 'Status')).toMatch(/^Waiting, will retry at .*10:05.* · last error: 421 Try again later$/);
    expect(cell(rows[1]!, 'Attempts')).toBe('2');
    expect(cell(rows[1]!, 'Sent')).toBe('Not yet');
    expect(cell(rows[2]!, 'Status')).toBe('Failed · last error: 550 Mailbox unavailable');
    expect(cell(rows[3]!, 'Status')).toBe('Not sent — no mail server is configured');
    expect(cell(rows[4]!, 'Status')).toBe('Not sent — Demo data: not sent');
    expect(cell(rows[5]!, 'Status')).toBe('Waiting');
    expect(section.textContent).toContain('times in Europe/Lisbon time');
    // The booking stands: everything but the cancellation may be sent again.
    // The two still being sent go out by themselves: no Resend for them.
    expect(within(section).getAllByRole('button', { name: 'Resend' })).toHaveLength(3);
  });

  it('says what happens when there are none yet', async () => {
    const { section } = await withMail([]);
    expect(section.textContent).toContain('No e-mails yet: guests get one when a booking is confirmed, changed or cancelled.');
    expect(within(section).queryByRole('table')).toBeNull();
  });

  it('resends one: the request sent, the list read again, the news said politely', async () => {
    const { outing, section } = await withMail([mail('msg_1', 'BOOKING_CONFIRMED', 'SENT')]);
    const button = within(section).getByRole('button', { name: 'Resend' });
    expect(button.getAttribute('aria-describedby')).toBe('mail-msg_1');
    const release = outing.hold();
    fireEvent.click(button);
    await waitFor(() => expect(button.getAttribute('aria-disabled')).toBe('true'));
    // A second press while it is on its way sends nothing more.
    fireEvent.click(button);
    release();
    await within(section).findByText('A new confirmation e-mail to bk_ana@example.com is queued; it goes out in a moment.');
    expect(outing.calls.filter((c) => c.startsWith('POST'))).toEqual(['POST /v1/bookings/bk_ana/messages/msg_1/resend']);
    expect(outing.calls.filter((c) => c.includes('/messages?'))).toHaveLength(2);
    expect(within(section).getByRole('status').textContent).toContain('is queued');
    const rows = within(section).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.querySelector('td[data-label="Status"]')!.textContent)).toEqual(['Sent', 'Waiting']);
    expect(button.getAttribute('aria-disabled')).toBeNull();
  });

  it('shows the API’s refusal in an alert and moves focus to it', async () => {
    const { outing, section } = await withMail([mail('msg_1', 'BOOKING_CONFIRMED', 'FAILED')]);
    outing.refusals.set('POST /v1/bookings/bk_ana/messages/msg_1/resend', new ApiError(403, 'FORBIDDEN', 'Missing scope bookings:write'));
    fireEvent.click(within(section).getByRole('button', { name: 'Resend' }));
    const alert = await within(section).findByRole('alert');
    expect(alert.textContent).toBe('The e-mail could not be resent: Your role does not allow this. Ask an owner of the organization.');
    await waitFor(() => expect(document.activeElement).toBe(alert));
    expect(outing.messages).toHaveLength(1);
  });

  it('keeps the page when the e-mails cannot be read, and reads them again on request', async () => {
    const outing = fakeOuting();
    outing.messages.push(mail('msg_1', 'BOOKING_CONFIRMED', 'SENT'));
    outing.refusals.set('GET /v1/bookings/bk_ana/messages', new ApiError(500, 'INTERNAL_ERROR', 'Boom'));
    mountAt('/dashboard/bookings/bk_ana', { signedIn: true, http: outing.http });
    await screen.findByRole('heading', { level: 1, name: /^Booking BK-/ });
    expect(screen.getByRole('region', { name: 'Details' }).textContent).toContain('Ana Lima');
    const section = screen.getByRole('region', { name: 'Messages' });
    expect(within(section).getByRole('alert').textContent).toContain('The e-mails could not be read: Outing could not answer just now.');
    fireEvent.click(within(section).getByRole('button', { name: 'Try again' }));
    await within(section).findByText('Confirmation');
    expect(within(section).queryByRole('alert')).toBeNull();
  });

  it('offers Resend to staff, whose role writes bookings, but only the cancellation once a booking is cancelled', async () => {
    const { section } = await withMail([mail('msg_1', 'BOOKING_CONFIRMED', 'SENT'), mail('msg_2', 'BOOKING_CANCELLED', 'SENT')], 'staff', true);
    expect(screen.getByText(/This booking is cancelled/)).toBeTruthy();
    const buttons = within(section).getAllByRole('button', { name: 'Resend' });
    expect(buttons.map((x) => x.getAttribute('aria-describedby'))).toEqual(['mail-msg_2']);
  });
});

describe('promo codes and gift vouchers on bookings', () => {
  const detailsOf = () => Object.fromEntries([...document.querySelectorAll('.bk-details > div')].map((d) => [d.querySelector('dt')!.textContent, d.querySelector('dd')!.textContent]));

  it('shows the subtotal, the discount and its code, the voucher’s mask and part, and the amount due; refunds leave the voucher out', async () => {
    const outing = fakeOuting();
    Object.assign(outing.bookings.get('bk_ana')!, {
      subtotal: '50.00',
      discount: { code: 'SUMMER15', amount: '7.50' },
      total: '42.50',
      voucher: { code: 'GV-••••-••••-4T2W', amount: '30.00' },
      amountDue: '7.50',
    });
    const pay = (id: string, amount: string, method: Payment['method'], provider: string, reference: string | null): Payment => ({
      id, bookingId: 'bk_ana', amount, currency: 'EUR', status: 'SUCCEEDED', provider, method, reference, failureReason: null, refundRequired: false, createdAt: NOW,
    });
    outing.payments.push(pay('pay_v', '30.00', 'VOUCHER', 'voucher', 'GV-••••-••••-4T2W'), pay('pay_c', '5.00', 'CASH', 'manual', null));
    mountAt('/dashboard/bookings/bk_ana', { signedIn: true, http: outing.http, session });
    await screen.findByRole('heading', { level: 1, name: /^Booking BK-/ }, { timeout: 5000 });
    await waitFor(() => expect(detailsOf()['Paid']).toBe('€35.00'));
    expect(detailsOf()).toMatchObject({
      Subtotal: '€50.00',
      Discount: '−€7.50 (code SUMMER15)',
      Total: '€42.50',
      'Gift voucher': '−€30.00 (GV-••••-••••-4T2W)',
      'Amount due': '€7.50',
    });
    const payments = screen.getByRole('table', { name: 'Payments' });
    expect(within(payments).getByText('Gift voucher')).toBeTruthy();
    expect(within(payments).getByText('Cash, recorded by hand')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Refund' }));
    // Only the cash is money to give back; the voucher's part goes back to the voucher on a cancellation.
    expect((dialog().getByLabelText('Amount (EUR)') as HTMLInputElement).value).toBe('5.00');
    expect(screen.getByRole('dialog').textContent).toContain('Paid €5.00 (and €30.00 by gift voucher');
  });

  it('offers no Refund when a gift voucher paid it all', async () => {
    const outing = fakeOuting();
    Object.assign(outing.bookings.get('bk_ana')!, { voucher: { code: 'GV-••••-••••-4T2W', amount: '50.00' }, amountDue: '0.00' });
    outing.payments.push({ id: 'pay_v', bookingId: 'bk_ana', amount: '50.00', currency: 'EUR', status: 'SUCCEEDED', provider: 'voucher', method: 'VOUCHER', reference: 'GV-••••-••••-4T2W', failureReason: null, refundRequired: false, createdAt: NOW });
    mountAt('/dashboard/bookings/bk_ana', { signedIn: true, http: outing.http, session });
    await screen.findByRole('heading', { level: 1, name: /^Booking BK-/ }, { timeout: 5000 });
    await waitFor(() => expect(detailsOf()['Paid']).toBe('€50.00'));
    expect(detailsOf()['Amount due']).toBe('€0.00');
    expect(screen.queryByRole('button', { name: 'Refund' })).toBeNull();
  });

  it('takes a promo code and a gift voucher code at the desk, and says why one is refused beside it', async () => {
    const outing = fakeOuting();
    mountAt('/dashboard/bookings/new?date=2026-12-01', { signedIn: true, http: outing.http, session });
    await screen.findByRole('heading', { level: 1, name: 'New booking' }, { timeout: 5000 });
    await waitFor(() => expect(screen.getAllByRole('option', { name: /places? left$/ }).length).toBeGreaterThan(0));
    fireEvent.change(screen.getByLabelText('Time'), { target: { value: '2026-12-01T10:00:00.000Z' } });
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Walk-in Guest' } });
    fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'walkin@example.com' } });
    fireEvent.input(screen.getByLabelText('Promo code'), { target: { value: ' summer15 ' } });
    fireEvent.input(screen.getByLabelText('Gift voucher code'), { target: { value: 'GV-7K3M-Q9PX-4T2W' } });
    outing.refusals.set('POST /v1/bookings', new ApiError(400, 'PROMO_CODE_INVALID', 'The promo code has expired', [], 'EXPIRED'));
    fireEvent.click(screen.getByRole('button', { name: 'Create booking' }));
    const summary = await screen.findByRole('region', { name: 'There is a problem' });
    expect(within(summary).getByRole('link', { name: 'Promo code: This promo code has expired.' })).toBeTruthy();
    expect(screen.getByLabelText('Promo code').getAttribute('aria-invalid')).toBe('true');

    outing.refusals.set('POST /v1/bookings', new ApiError(400, 'VOUCHER_INVALID', 'The voucher has no balance left', [], 'USED'));
    fireEvent.click(screen.getByRole('button', { name: 'Create booking' }));
    await waitFor(() => expect(document.getElementById('voucherCode-error')?.textContent).toBe('This gift voucher has no balance left.'));
    expect(screen.getByLabelText('Promo code').getAttribute('aria-invalid')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Create booking' }));
    await waitFor(() => expect(outing.posted.at(-1)).toMatchObject({ promoCode: 'summer15', voucherCode: 'GV-7K3M-Q9PX-4T2W' }));
  });

  it('checks the codes before booking: the discount, the total, the voucher’s part and what is left to pay, which Paid now suggests', async () => {
    const outing = fakeOuting();
    mountAt('/dashboard/bookings/new?date=2026-12-01', { signedIn: true, http: outing.http, session });
    await screen.findByRole('heading', { level: 1, name: 'New booking' }, { timeout: 5000 });
    await waitFor(() => expect(screen.getAllByRole('option', { name: /places? left$/ }).length).toBeGreaterThan(0));
    fireEvent.input(screen.getByLabelText('Participants'), { target: { value: '2' } });
    fireEvent.input(screen.getByLabelText('Promo code'), { target: { value: 'summer15' } });
    fireEvent.input(screen.getByLabelText('Gift voucher code'), { target: { value: 'GV-7K3M-Q9PX-4T2W' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check codes' }));
    const quote = document.getElementById('new-booking-quote')!;
    await waitFor(() => expect(quote.querySelectorAll('dt').length).toBe(5));
    const rows = Object.fromEntries([...quote.querySelectorAll('dl > div')].map((d) => [d.querySelector('dt')!.textContent, d.querySelector('dd')!.textContent]));
    expect(Object.keys(rows)).toEqual(['Subtotal', 'Discount (SUMMER15)', 'Total', 'Gift voucher (GV-••••-••••-4T2W)', 'Left to pay']);
    expect(rows['Left to pay']).toMatch(/22[.,]50/);
    expect(outing.calls).toContain('POST /v1/quote');
    fireEvent.click(screen.getByLabelText('Paid now'));
    await waitFor(() => expect((screen.getByLabelText('Amount') as HTMLInputElement).value).toBe('22.50'));

    // A change of the party forgets the quote; a refused code is said beside its field.
    fireEvent.input(screen.getByLabelText('Participants'), { target: { value: '3' } });
    await waitFor(() => expect(quote.querySelector('dl')).toBeNull());
    outing.refusals.set('POST /v1/quote', new ApiError(400, 'PROMO_CODE_INVALID', 'The promo code has expired', [], 'EXPIRED'));
    fireEvent.click(screen.getByRole('button', { name: 'Check codes' }));
    await waitFor(() => expect(document.getElementById('promoCode-error')?.textContent).toBe('This promo code has expired.'));
    expect(screen.getByLabelText('Promo code').getAttribute('aria-invalid')).toBe('true');
  });
});
