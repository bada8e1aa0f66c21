import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SYSTEM } from '../domain/actor.js';
import { everyDay,
  createTestApp, expectData, expectError, expectList, insertBookingRow, manualClock, type ManualClock, type TestApp,
} from '../test-helpers/index.js';
import { createBooking } from '../services/bookings.js';
import { Availability, Booking, Customer, CustomerDetail, CustomerErased, Experience, WebhookEvent } from '../../shared/index.js';

const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);
const S1 = '2027-03-02T10:00:00.000Z';
const S2 = '2027-03-02T15:00:00.000Z';
const S3 = '2027-03-03T10:00:00.000Z';
const iso = (ms: number) => new Date(ms).toISOString();

let t: TestApp;
let clock: ManualClock;
let exp: Experience;

beforeEach(async () => {
  clock = manualClock(NOW);
  t = await createTestApp({ now: clock.now, org: { timezone: 'Europe/Lisbon', currency: 'EUR' } });
  exp = expectData(
    await t.request('POST', '/v1/experiences', {
      body: { name: 'Tram tour', description: '', duration: 60, price: 3000, maxParticipants: 50, schedule: { weekly: everyDay(['10:00', '15:00']) } },
    }),
    Experience,
    201,
  );
});
afterEach(() => t.close());

/** A booking made with an e-mail address, so with a customer. */
async function book(fields: Record<string, unknown> = {}, key?: string): Promise<Booking & { customerId: string }> {
  const body = { experienceId: exp.id, startTime: S1, participants: 1, customerName: 'Ana Costa', customerEmail: 'ana@example.com', ...fields };
  const booking = expectData(await t.request('POST', '/v1/bookings', { body, key }), Booking, 201);
  if (booking.customerId === null) throw new Error('A booking with an e-mail address has a customer');
  return { ...booking, customerId: booking.customerId };
}
const customer = async (id: string, key?: string) => expectData(await t.request('GET', `/v1/customers/${id}`, { key }), CustomerDetail);
const customers = async (query = '', key?: string) => expectList(await t.request('GET', `/v1/customers${query}`, { key }), Customer);

describe('customers made by bookings', () => {
  it('keeps one customer per organization and lower-cased e-mail', async () => {
    const a = await book({ customerEmail: 'Ana@Example.COM' });
    clock.advance(1000);
    const b = await book({ customerEmail: 'ana@example.com', startTime: S2 });
    expect(b.customerId).toBe(a.customerId);
    const list = await customers();
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ id: a.customerId, email: 'ana@example.com', bookingCount: 2 });
    expect(b.guestEmail).toBe('ana@example.com');
    expect(a.guestEmail).toBe('Ana@Example.COM'); // the booking keeps what the guest typed

    const other = await t.addOrganization({ name: 'Other', timezone: 'Europe/Lisbon' });
    const otherExp = expectData(
      await t.request('POST', '/v1/experiences', {
        key: other.secretKey,
        body: { name: 'Boat', description: '', duration: 60, price: 100, maxParticipants: 5, schedule: { weekly: everyDay(['10:00']) } },
      }),
      Experience,
      201,
    );
    const theirs = await book({ experienceId: otherExp.id, customerEmail: 'ana@example.com' }, other.secretKey);
    expect(theirs.customerId).not.toBe(a.customerId);
    expect((await customers('', other.secretKey)).data.map((c) => c.id)).toEqual([theirs.customerId]);
    expectError(await t.request('GET', `/v1/customers/${a.customerId}`, { key: other.secretKey }), 404, 'NOT_FOUND');
  });

  it('takes its name from the latest booking and keeps the latest phone given', async () => {
    const first = await book({ customerName: 'Ana', customerPhone: '+351 111' });
    clock.advance(1000);
    await book({ customerName: 'Ana Costa', startTime: S2 });
    let c = await customer(first.customerId);
    expect(c).toMatchObject({ name: 'Ana Costa', phone: '+351 111' });
    clock.advance(1000);
    await book({ customerName: 'Ana M. Costa', customerPhone: '+351 222', startTime: S3 });
    c = await customer(first.customerId);
    expect(c).toMatchObject({ name: 'Ana M. Costa', phone: '+351 222' });
  });

  it('counts every booking and sums only CONFIRMED ones into totalSpent, in the org currency', async () => {
    const confirmed = await book({ participants: 2 }); // 60.00
    await book({ participants: 3, startTime: S2 }); // 90.00
    const cancelled = await book({ participants: 4, startTime: S3 }); // 120.00, then cancelled
    expectData(await t.request('PATCH', `/v1/bookings/${cancelled.id}/cancel`), Booking);
    await createBooking(
      t.store,
      t.orgId,
      { experienceId: exp.id, startTime: S3, participants: 5, customerName: 'Ana Costa', customerEmail: 'ana@example.com' },
      { source: 'WIDGET', holdExpiresAt: clock.now() + 1_800_000, actor: SYSTEM },
      clock.now(),
    ); // PENDING: counted, not spent
    const c = await customer(confirmed.customerId);
    expect(c).toMatchObject({ bookingCount: 4, totalSpent: '150.00', currency: 'EUR' });
  });

  it('records the creation times of the first and latest bookings', async () => {
    const first = await book({ startTime: S3 });
    clock.advance(3_600_000);
    await book({ startTime: S1 });
    clock.advance(3_600_000);
    const c = await customer(first.customerId);
    expect(c).toMatchObject({ firstBookingAt: iso(NOW), lastBookingAt: iso(NOW + 3_600_000), createdAt: iso(NOW), updatedAt: iso(NOW + 3_600_000) });
  });

  it('shows the customer with its bookings, latest slot first', async () => {
    const mid = await book({ startTime: S2 });
    const late = await book({ startTime: S3 });
    const early = await book({ startTime: S1 });
    const c = await customer(mid.customerId);
    expect(c.bookings.map((b) => b.id)).toEqual([late.id, mid.id, early.id]);
    expect(c.bookings[0]).toEqual(late);
    const { bookings: _bookings, ...record } = c;
    expect(Customer.strict().parse(record)).toEqual(record);
    expect(Object.keys(record).sort()).toEqual(
      ['id', 'name', 'email', 'phone', 'bookingCount', 'totalSpent', 'currency', 'firstBookingAt', 'lastBookingAt', 'createdAt', 'updatedAt'].sort(),
    );
  });

  it('lists at most 100 bookings in the detail, while bookingCount counts them all', async () => {
    const first = await book();
    for (let i = 0; i < 104; i++) {
      await insertBookingRow(t.store, { orgId: t.orgId, experienceId: exp.id, customerId: first.customerId, guestEmail: 'ana@example.com', slotStart: Date.parse(S3) + i * 60_000 });
    }
    const c = await customer(first.customerId);
    expect(c.bookings).toHaveLength(100);
    expect(c.bookingCount).toBe(105);
  });
});

describe('GET /v1/customers', () => {
  it('lists the latest booking first, and pages', async () => {
    const ana = await book({ customerEmail: 'ana@example.com' });
    clock.advance(1000);
    const rui = await book({ customerEmail: 'rui@example.com', customerName: 'Rui' });
    clock.advance(1000);
    const mia = await book({ customerEmail: 'mia@example.com', customerName: 'Mia' });
    clock.advance(1000);
    await book({ customerEmail: 'ANA@example.com', startTime: S2 }); // Ana is the latest again
    const all = await customers();
    expect(all.data.map((c) => c.id)).toEqual([ana.customerId, mia.customerId, rui.customerId]);
    expect(all.pagination).toEqual({ total: 3, limit: 20, offset: 0, hasMore: false });
    const page = await customers('?limit=1&offset=1');
    expect(page.data.map((c) => c.id)).toEqual([mia.customerId]);
    expect(page.pagination).toEqual({ total: 3, limit: 1, offset: 1, hasMore: true });
  });

  it('searches names and e-mails case-insensitively', async () => {
    const ana = await book({ customerName: 'Ana Costa', customerEmail: 'ana@mail.example' });
    const rui = await book({ customerName: 'Rui Sousa', customerEmail: 'rui.costa@example.com' });
    const ids = async (q: string) => (await customers(`?search=${encodeURIComponent(q)}`)).data.map((c) => c.id).sort();
    expect(await ids('COSTA')).toEqual([ana.customerId, rui.customerId].sort());
    expect(await ids('sousa')).toEqual([rui.customerId]);
    expect(await ids('MAIL.EXAMPLE')).toEqual([ana.customerId]);
    expect(await ids('%')).toEqual([]);
    expect(await ids('nobody')).toEqual([]);
    expect((await customers('?search=costa')).pagination.total).toBe(2);
  });

  it('refuses bad queries', async () => {
    for (const q of ['limit=0', 'limit=101', 'offset=x', 'search=', 'q=ana']) {
      expectError(await t.request('GET', `/v1/customers?${q}`), 400, 'VALIDATION_ERROR');
    }
  });

  it('needs customers:read', async () => {
    const key = await t.createKey({ scopes: ['bookings:read'] });
    expect(expectError(await t.request('GET', '/v1/customers', { key: key.key }), 403, 'FORBIDDEN').message).toContain('customers:read');
  });

  it('answers 404 for an unknown customer or an id of the wrong shape', async () => {
    expectError(await t.request('GET', '/v1/customers/cus_unknown'), 404, 'NOT_FOUND');
    expectError(await t.request('GET', '/v1/customers/bk_abc'), 404, 'NOT_FOUND');
    expectError(await t.request('GET', '/v1/customers/ana@example.com'), 404, 'NOT_FOUND');
  });
});

describe('DELETE /v1/customers/{id}', () => {
  it('erases the person from the customer, its bookings and stored events, keeping places and numbers', async () => {
    const a = await book({ customerName: 'Ana Costa', customerEmail: 'Ana.Costa@example.com', customerPhone: '+351 999', participants: 3 });
    const b = await book({ customerName: 'Ana Costa', customerEmail: 'ana.costa@example.com', startTime: S2 });
    expectData(await t.request('PATCH', `/v1/bookings/${b.id}`, { body: { customerName: 'Ana C.', customerPhone: '+351 888' } }), Booking);
    expectData(await t.request('PATCH', `/v1/bookings/${b.id}/cancel`), Booking);
    const someoneElse = await book({ customerName: 'Rui', customerEmail: 'rui@example.com', startTime: S3 });

    clock.advance(1000);
    const res = await t.request('DELETE', `/v1/customers/${a.customerId}`);
    expect(expectData(res, CustomerErased)).toEqual({ id: a.customerId, erased: true });

    const c = await customer(a.customerId);
    expect(c.name).toBe('erased');
    expect(c.phone).toBe('erased');
    expect(c.email).not.toContain('ana');
    expect(c.email).toContain('erased');
    expect(c.bookingCount).toBe(2);
    for (const booking of c.bookings) {
      expect(booking).toMatchObject({ guestName: 'erased', guestEmail: c.email });
      expect(booking.guestPhone === null || booking.guestPhone === 'erased').toBe(true);
    }
    const stillA = expectData(await t.request('GET', `/v1/bookings/${a.bookingNumber}`), Booking);
    expect(stillA).toMatchObject({ id: a.id, bookingNumber: a.bookingNumber, totalParticipants: 3, status: 'CONFIRMED', guestPhone: 'erased' });

    const slots = expectData(await t.request('GET', `/v1/availability?experienceId=${exp.id}&startDate=2027-03-02&endDate=2027-03-02`), Availability);
    expect(slots.slots.find((s) => s.startTime === S1)).toMatchObject({ booked: 3 });

    const events = expectList(await t.request('GET', '/v1/events?limit=100'), WebhookEvent).data;
    const text = JSON.stringify(events.filter((e) => e.data.booking.id !== someoneElse.id));
    for (const secret of ['Ana', 'ana.costa', 'Ana.Costa', '999', '888']) expect(text).not.toContain(secret);
    expect(JSON.stringify(events)).toContain('rui@example.com');
    expect(expectList(await t.request('GET', '/v1/customers?search=ana'), Customer).data).toEqual([]);
    expect(expectList(await t.request('GET', '/v1/bookings?q=ana'), Booking).data).toEqual([]);
  });

  it('lets the same e-mail book again as a new customer after erasure', async () => {
    const a = await book({ customerEmail: 'ana@example.com' });
    expectData(await t.request('DELETE', `/v1/customers/${a.customerId}`), CustomerErased);
    const again = await book({ customerEmail: 'ana@example.com', startTime: S2 });
    expect(again.customerId).not.toBe(a.customerId);
    expect(await customer(again.customerId)).toMatchObject({ email: 'ana@example.com', bookingCount: 1 });
  });

  it('needs customers:write and answers 404 for an unknown or another org’s customer', async () => {
    const a = await book();
    const reader = await t.createKey({ scopes: ['customers:read'] });
    expect(expectError(await t.request('DELETE', `/v1/customers/${a.customerId}`, { key: reader.key }), 403, 'FORBIDDEN').message).toContain(
      'customers:write',
    );
    const writer = await t.createKey({ scopes: ['customers:write'] });
    expectData(await t.request('DELETE', `/v1/customers/${a.customerId}`, { key: writer.key }), CustomerErased);
    expectError(await t.request('DELETE', '/v1/customers/cus_unknown'), 404, 'NOT_FOUND');
    const other = await t.addOrganization({ name: 'Other' });
    const b = await book({ customerEmail: 'b@example.com' });
    expectError(await t.request('DELETE', `/v1/customers/${b.customerId}`, { key: other.secretKey }), 404, 'NOT_FOUND');
    expect((await customer(b.customerId)).name).toBe('Ana Costa');
  });
});
