import { afterEach, describe, expect, it } from 'vitest';
import { everyDay,
  createTestApp, expectData, expectError, expectList, expectPriceChanged, expectValidationError, manualClock, type ManualClock, type TestApp,
  type TestAppOptions,
} from '../test-helpers/index.js';
import { Availability, Booking, Experience, PublicBooking, PublicExperience } from '../../shared/index.js';

const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);
const S1 = '2027-03-02T10:00:00.000Z';
const PUBLIC_FIELDS = [
  'id', 'name', 'description', 'duration', 'price', 'currency', 'maxParticipants', 'maxPerBooking', 'priceCategories',
  'meetingPoint', 'meetingPointUrl', 'guestInstructions', 'questions', 'extras', 'waitlist', 'defaultLocale',
];

let t: TestApp;
let clock: ManualClock;

async function setup(options: TestAppOptions = {}) {
  clock = manualClock(NOW);
  t = await createTestApp({ now: clock.now, org: { timezone: 'Europe/Lisbon', currency: 'EUR' }, ...options });
  const make = async (fields: Record<string, unknown>) =>
    expectData(
      await t.request('POST', '/v1/experiences', {
        body: { name: 'Walk', description: 'Old town', duration: 90, price: 2000, maxParticipants: 8, schedule: { weekly: everyDay(['10:00']) }, ...fields },
      }),
      Experience,
      201,
    );
  const active = await make({ name: 'Alfama walk', maxPerBooking: 4 });
  const inactive = await make({ name: 'Closed for winter', active: false });
  return { active, inactive };
}
afterEach(() => t.close());

const guest = (experienceId: string, fields: Record<string, unknown> = {}) => ({
  experienceId,
  startTime: S1,
  participants: 2,
  customerName: 'Web Guest',
  customerEmail: 'guest@example.com',
  ...fields,
});

describe('public experiences', () => {
  it('lists active experiences with exactly the public fields', async () => {
    const { active } = await setup();
    const list = expectList(await t.request('GET', '/public/v1/experiences'), PublicExperience);
    expect(list.data).toEqual([
      {
        id: active.id, name: 'Alfama walk', description: 'Old town', duration: 90, price: 2000, currency: 'EUR', maxParticipants: 8, maxPerBooking: 4,
        priceCategories: [], meetingPoint: null, meetingPointUrl: null, guestInstructions: null, questions: [], extras: [], waitlist: false, defaultLocale: 'en',
      },
    ]);
    expect(Object.keys(list.data[0]!).sort()).toEqual([...PUBLIC_FIELDS].sort());
    expect(list.pagination).toEqual({ total: 1, limit: 20, offset: 0, hasMore: false });
  });

  it('takes the key as ?key= too', async () => {
    const { active } = await setup();
    const res = await t.request('GET', `/public/v1/experiences/${active.id}?key=${t.publishableKey}`, { key: null });
    const exp = expectData(res, PublicExperience);
    expect(Object.keys(exp).sort()).toEqual([...PUBLIC_FIELDS].sort());
  });

  it('answers 404 for an inactive, unknown or another org’s experience', async () => {
    const { active, inactive } = await setup();
    expectError(await t.request('GET', `/public/v1/experiences/${inactive.id}`), 404, 'NOT_FOUND');
    expectError(await t.request('GET', '/public/v1/experiences/exp_unknown'), 404, 'NOT_FOUND');
    expectError(await t.request('GET', '/public/v1/experiences/nope'), 404, 'NOT_FOUND');
    const other = await t.addOrganization({ name: 'Other' });
    expectError(await t.request('GET', `/public/v1/experiences/${active.id}`, { key: other.publishableKey }), 404, 'NOT_FOUND');
    expect(expectList(await t.request('GET', '/public/v1/experiences', { key: other.publishableKey }), PublicExperience).data).toEqual([]);
  });
});

describe('public availability', () => {
  it('answers as GET /v1/availability does', async () => {
    const { active } = await setup();
    const query = `experienceId=${active.id}&startDate=2027-03-02&endDate=2027-03-05&participants=2`;
    const pub = expectData(await t.request('GET', `/public/v1/availability?${query}`), Availability);
    const api = expectData(await t.request('GET', `/v1/availability?${query}`), Availability);
    expect(pub).toEqual(api);
    expect(pub.slots).toHaveLength(4);
    expectValidationError(await t.request('GET', `/public/v1/availability?experienceId=${active.id}&participants=5`), 'participants');
  });

  it('answers 404 for an inactive experience', async () => {
    const { inactive } = await setup();
    expectError(await t.request('GET', `/public/v1/availability?experienceId=${inactive.id}`), 404, 'NOT_FOUND');
  });
});

describe('POST /public/v1/bookings', () => {
  it('books as a guest: the public shape, and source WIDGET in /v1', async () => {
    const { active } = await setup();
    const res = await t.request('POST', '/public/v1/bookings', { body: guest(active.id, { customerPhone: '+351 1' }) });
    const b = expectData(res, PublicBooking, 201);
    expect(b).toEqual({
      bookingNumber: expect.stringMatching(/^BK-[0-9A-HJKMNP-TV-Z]{8}$/),
      status: 'CONFIRMED',
      experience: { id: active.id, title: 'Alfama walk' },
      timeSlot: { id: expect.stringMatching(/^ts_/), startTime: S1, endTime: '2027-03-02T11:30:00.000Z' },
      totalParticipants: 2,
      tickets: [],
      answers: [],
      extras: [],
      subtotal: '40.00',
      discount: null,
      voucher: null,
      total: '40.00',
      amountDue: '40.00',
      currency: 'EUR',
      guestName: 'Web Guest',
      guestEmail: 'guest@example.com',
      checkoutUrl: null,
      holdExpiresAt: null,
    });
    expect(Object.keys(b).sort()).toEqual(
      ['bookingNumber', 'status', 'experience', 'timeSlot', 'totalParticipants', 'tickets', 'answers', 'extras', 'subtotal', 'discount', 'voucher', 'total', 'amountDue', 'currency', 'guestName', 'guestEmail', 'checkoutUrl', 'holdExpiresAt'].sort(),
    );
    const full = expectData(await t.request('GET', `/v1/bookings/${b.bookingNumber}`), Booking);
    expect(full).toMatchObject({ source: 'WIDGET', status: 'CONFIRMED', guestPhone: '+351 1', metadata: {} });
  });

  it('accepts an empty honeypot', async () => {
    const { active } = await setup();
    expectData(await t.request('POST', '/public/v1/bookings', { body: guest(active.id, { website: '' }) }), PublicBooking, 201);
  });

  it('refuses a filled honeypot with 400 and stores nothing', async () => {
    const { active } = await setup();
    expectValidationError(await t.request('POST', '/public/v1/bookings', { body: guest(active.id, { website: 'http://spam.example' }) }), 'website');
    expect((await t.store.bookings.listBookings(t.orgId, {}, { limit: 1, offset: 0 })).total).toBe(0);
    expect((await t.store.customers.listCustomers(t.orgId, undefined, { limit: 1, offset: 0 })).total).toBe(0);
    expect((await t.store.events.listEvents(t.orgId, {}, { limit: 1, offset: 0 })).total).toBe(0);
  });

  it('refuses metadata, unknown fields and party sizes above maxPerBooking', async () => {
    const { active } = await setup();
    expectValidationError(await t.request('POST', '/public/v1/bookings', { body: guest(active.id, { metadata: { a: 'b' } }) }), 'metadata');
    expectValidationError(await t.request('POST', '/public/v1/bookings', { body: guest(active.id, { participants: 5 }) }), 'participants');
    expectValidationError(await t.request('POST', '/public/v1/bookings', { body: guest(active.id, { startTime: '2027-03-02T10:00' }) }), 'startTime');
  });

  it('answers 404 for an inactive experience and 409 for a full slot', async () => {
    const { active, inactive } = await setup();
    expectError(await t.request('POST', '/public/v1/bookings', { body: guest(inactive.id) }), 404, 'NOT_FOUND');
    for (let i = 0; i < 2; i++) {
      expectData(await t.request('POST', '/public/v1/bookings', { body: guest(active.id, { participants: 4, customerEmail: `g${i}@example.com` }) }), PublicBooking, 201);
    }
    const full = expectError(await t.request('POST', '/public/v1/bookings', { body: guest(active.id, { participants: 1 }) }), 409, 'CAPACITY_EXCEEDED');
    expect(full.details).toEqual([{ path: 'participants', message: '0 remaining' }]);
    expectError(await t.request('POST', '/public/v1/bookings', { body: guest(active.id, { startTime: '2027-03-02T11:00:00Z' }) }), 409, 'SLOT_UNAVAILABLE');
  });
});

describe('expectedTotal on POST /public/v1/bookings', () => {
  const bookPublic = (body: Record<string, unknown>) => t.request('POST', '/public/v1/bookings', { body });
  const stored = async () => (await t.store.bookings.listBookings(t.orgId, {}, { limit: 1, offset: 0 })).total;

  it('books at the total the guest saw, and refuses a total that changed meanwhile with 409 PRICE_CHANGED', async () => {
    const { active } = await setup();
    expect(expectData(await bookPublic(guest(active.id, { expectedTotal: '40.00' })), PublicBooking, 201).total).toBe('40.00');
    // The guest was quoted 25.00; the operator's price is 99.99 when they press Book.
    expectData(await t.request('PATCH', `/v1/experiences/${active.id}`, { body: { price: 9999 } }), Experience);
    const res = await bookPublic(guest(active.id, { participants: 1, expectedTotal: '25.00', customerEmail: 'late@example.com' }));
    expect(expectPriceChanged(res)).toBe('99.99');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await stored()).toBe(1);
    expect(expectData(await bookPublic(guest(active.id, { participants: 1, expectedTotal: '99.99', customerEmail: 'late@example.com' })), PublicBooking, 201).total).toBe('99.99');
  });

  it('checks the honeypot, the experience and the party first, and the price before the slot and the places', async () => {
    const { active, inactive } = await setup();
    const stale = { expectedTotal: '1.00' };
    expectValidationError(await bookPublic(guest(active.id, { ...stale, expectedTotal: '1' })), 'expectedTotal');
    expectValidationError(await bookPublic(guest(active.id, { ...stale, website: 'spam' })), 'website');
    expectError(await bookPublic(guest(inactive.id, stale)), 404, 'NOT_FOUND');
    expectValidationError(await bookPublic(guest(active.id, { ...stale, participants: 5 })), 'participants');
    expect(expectPriceChanged(await bookPublic(guest(active.id, { ...stale, startTime: '2027-03-02T11:00:00Z' })))).toBe('40.00');
    for (let i = 0; i < 2; i++) expectData(await bookPublic(guest(active.id, { participants: 4, customerEmail: `g${i}@example.com` })), PublicBooking, 201);
    expect(expectPriceChanged(await bookPublic(guest(active.id, stale)))).toBe('40.00');
    expectError(await bookPublic(guest(active.id, { expectedTotal: '40.00' })), 409, 'CAPACITY_EXCEEDED');
    expect(await stored()).toBe(2);
  });
});

describe('public keys', () => {
  it('refuses a secret key on /public/v1 and a publishable key on /v1 with INVALID_API_KEY', async () => {
    const { active } = await setup();
    expectError(await t.request('GET', '/public/v1/experiences', { key: t.secretKey }), 401, 'INVALID_API_KEY');
    expectError(await t.request('POST', '/public/v1/bookings', { key: t.secretKey, body: guest(active.id) }), 401, 'INVALID_API_KEY');
    expectError(await t.request('GET', '/v1/bookings', { key: t.publishableKey }), 401, 'INVALID_API_KEY');
    expectError(await t.request('POST', '/v1/bookings', { key: t.publishableKey, body: guest(active.id) }), 401, 'INVALID_API_KEY');
    expectError(await t.request('GET', '/public/v1/experiences', { key: null }), 401, 'UNAUTHORIZED');
    expect((await t.store.bookings.listBookings(t.orgId, {}, { limit: 1, offset: 0 })).total).toBe(0);
  });
});

describe('CORS on /public/v1', () => {
  it('allows any origin without credentials, also on errors', async () => {
    await setup();
    const ok = await t.request('GET', '/public/v1/experiences', { headers: { origin: 'https://shop.example' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    expect(ok.headers.get('access-control-allow-credentials')).toBeNull();
    const refused = await t.request('GET', '/public/v1/experiences', { key: null, headers: { origin: 'https://shop.example' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers a preflight for POST with the headers the widget sends', async () => {
    await setup();
    const res = await t.app.request('/public/v1/bookings', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-outing-key, idempotency-key',
      },
    });
    expect(res.status).toBeLessThan(300);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const h of ['content-type', 'x-outing-key', 'idempotency-key']) expect(allowed).toContain(h);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('public rate limits', () => {
  it('limits booking POSTs per client IP with PUBLIC_BOOKINGS_PER_MINUTE, apart from other requests', async () => {
    const { active } = await setup({ env: { PUBLIC_BOOKINGS_PER_MINUTE: '2', PUBLIC_REQUESTS_PER_MINUTE: '0' } });
    for (let i = 0; i < 2; i++) {
      expectData(await t.request('POST', '/public/v1/bookings', { body: guest(active.id, { participants: 1, customerEmail: `g${i}@example.com` }) }), PublicBooking, 201);
    }
    const limited = await t.request('POST', '/public/v1/bookings', { body: guest(active.id, { participants: 1 }), headers: { origin: 'https://shop.example' } });
    expectError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('access-control-allow-origin')).toBe('*');
    expect((await t.store.bookings.listBookings(t.orgId, {}, { limit: 1, offset: 0 })).total).toBe(2);
    // Reads have their own budget (off here).
    for (let i = 0; i < 5; i++) expect((await t.request('GET', '/public/v1/experiences')).status).toBe(200);
    clock.advance(61_000);
    expectData(await t.request('POST', '/public/v1/bookings', { body: guest(active.id, { participants: 1, customerEmail: 'later@example.com' }) }), PublicBooking, 201);
  });

  it('limits every other public request with PUBLIC_REQUESTS_PER_MINUTE', async () => {
    const { active } = await setup({ env: { PUBLIC_REQUESTS_PER_MINUTE: '3' } });
    expect((await t.request('GET', '/public/v1/experiences')).status).toBe(200);
    expect((await t.request('GET', `/public/v1/experiences/${active.id}`)).status).toBe(200);
    expect((await t.request('GET', `/public/v1/availability?experienceId=${active.id}`)).status).toBe(200);
    const limited = await t.request('GET', '/public/v1/experiences');
    expectError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Booking POSTs count against their own budget.
    expectData(await t.request('POST', '/public/v1/bookings', { body: guest(active.id) }), PublicBooking, 201);
    // /v1 is not limited per IP.
    expect((await t.request('GET', '/v1/bookings')).status).toBe(200);
  });

  it('turns each limit off with 0', async () => {
    const { active } = await setup({ env: { PUBLIC_BOOKINGS_PER_MINUTE: '0', PUBLIC_REQUESTS_PER_MINUTE: '0' } });
    for (let i = 0; i < 25; i++) {
      expectData(await t.request('POST', '/public/v1/bookings', { body: guest(active.id, { participants: 1, customerEmail: `g${i}@example.com`, startTime: new Date(Date.parse(S1) + Math.floor(i / 8) * 86_400_000).toISOString() }) }), PublicBooking, 201);
    }
    for (let i = 0; i < 310; i++) expect((await t.request('GET', '/public/v1/experiences')).status).toBe(200);
  });

  it('takes the client IP from X-Forwarded-For only when TRUST_PROXY is on', async () => {
    await setup({ env: { PUBLIC_REQUESTS_PER_MINUTE: '1', TRUST_PROXY: 'true' } });
    const from = (xff: string) => t.request('GET', '/public/v1/experiences', { headers: { 'x-forwarded-for': xff } });
    expect((await from('203.0.113.5')).status).toBe(200);
    // The same client behind our proxy, with a forged address prepended: still the same client.
    expect((await from('1.2.3.4, 203.0.113.5, 10.0.0.2')).status).toBe(429);
    expect((await from('198.51.100.7')).status).toBe(200);
    await t.close();

    await setup({ env: { PUBLIC_REQUESTS_PER_MINUTE: '1' } });
    const direct = (xff: string) => t.request('GET', '/public/v1/experiences', { headers: { 'x-forwarded-for': xff } });
    expect((await direct('203.0.113.5')).status).toBe(200);
    expect((await direct('198.51.100.7')).status).toBe(429); // the header is ignored: one socket address
  });
});
