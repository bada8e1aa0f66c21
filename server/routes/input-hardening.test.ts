import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyDay,
  createTestApp, expectData, expectList, expectValidationError, manualClock, type TestApp,
} from '../test-helpers/index.js';
import { Booking, Customer, Experience } from '../../shared/index.js';

// Monday 2027-03-01, 08:00 UTC; the experience runs daily at 10:00 (Lisbon = UTC in March).
const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);
const START = '2027-03-02T10:00:00.000Z';

let t: TestApp;
let exp: Experience;
let booking: Booking;

beforeAll(async () => {
  t = await createTestApp({ now: manualClock(NOW).now });
  exp = expectData(
    await t.request('POST', '/v1/experiences', {
      body: { name: 'Harbour cruise', description: 'An hour on the river', duration: 60, price: 1500, maxParticipants: 20, schedule: { weekly: everyDay(['10:00']) } },
    }),
    Experience,
    201,
  );
  booking = expectData(
    await t.request('POST', '/v1/bookings', {
      body: { experienceId: exp.id, startTime: START, participants: 1, customerName: 'Ana Costa', customerEmail: 'ana@example.com' },
    }),
    Booking,
    201,
  );
  expectData(
    await t.request('POST', '/v1/bookings', {
      body: { experienceId: exp.id, startTime: START, participants: 1, customerName: 'Rui Lopes', customerEmail: 'rui@example.com' },
    }),
    Booking,
    201,
  );
});
afterAll(() => t.close());

/** Raw JSON text: JSON.stringify of an object literal cannot carry an own `__proto__` key. */
const bookingJson = (metadata: string) =>
  `{"experienceId":"${exp.id}","startTime":"${START}","participants":1,"customerName":"Eva Reis",` +
  `"customerEmail":"eva@example.com","metadata":${metadata}}`;

describe('metadata keys that name parts of every JavaScript object', () => {
  it.each(['__proto__', 'constructor', 'prototype'])('refuses %s on create, naming the path', async (key) => {
    const res = await t.request('POST', '/v1/bookings', {
      body: bookingJson(`{"ref":"A1","${key}":"x"}`),
      headers: { 'content-type': 'application/json' },
    });
    expectValidationError(res, `metadata.${key}`);
  });

  it('refuses __proto__ holding an object too, and creates nothing', async () => {
    const before = expectList(await t.request('GET', '/v1/bookings?limit=100'), Booking).pagination.total;
    const res = await t.request('POST', '/v1/bookings', {
      body: bookingJson('{"__proto__":{"isAdmin":"true"}}'),
      headers: { 'content-type': 'application/json' },
    });
    expectValidationError(res, 'metadata.__proto__');
    expect(expectList(await t.request('GET', '/v1/bookings?limit=100'), Booking).pagination.total).toBe(before);
  });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses %s on update', async (key) => {
    const res = await t.request('PATCH', `/v1/bookings/${booking.id}`, {
      body: `{"metadata":{"${key}":"x"}}`,
      headers: { 'content-type': 'application/json' },
    });
    expectValidationError(res, `metadata.${key}`);
  });

  it('still keeps ordinary keys, including look-alikes', async () => {
    const res = await t.request('PATCH', `/v1/bookings/${booking.id}`, { body: { metadata: { proto: 'a', Constructor: 'b', __proto: 'c' } } });
    expect(expectData(res, Booking).metadata).toEqual({ proto: 'a', Constructor: 'b', __proto: 'c' });
  });
});

describe('control characters in search terms', () => {
  it.each(['%00', 'Ana%00', '%01', '%09', '%0A', '%1F', '%7F'])('refuses q=%s on bookings', async (q) => {
    expectValidationError(await t.request('GET', `/v1/bookings?q=${q}`), 'q');
  });

  it.each(['%00', 'ana%00', '%0D', '%7F'])('refuses search=%s on customers', async (search) => {
    expectValidationError(await t.request('GET', `/v1/customers?search=${search}`), 'search');
  });

  it('still searches by ordinary terms', async () => {
    const bookings = expectList(await t.request('GET', '/v1/bookings?q=Ana'), Booking);
    expect(bookings.data.map((b) => b.guestName)).toEqual(['Ana Costa']);
    const customers = expectList(await t.request('GET', '/v1/customers?search=rui'), Customer);
    expect(customers.data.map((c) => c.name)).toEqual(['Rui Lopes']);
    // Accents and other non-ASCII letters are not control characters.
    expectList(await t.request('GET', `/v1/bookings?q=${encodeURIComponent('João')}`), Booking);
  });
});

describe('outbound URLs saved through the API', () => {
  it.each([
    'http://192.0.2.1/hook',
    'http://198.51.100.7/hook',
    'https://203.0.113.9/hook',
    'http://192.88.99.1/hook',
    'http://198.18.0.1/hook',
    'http://3325256705/hook', // 198.51.100.1 as one number
    'http://[::ffff:0:7f00:1]/hook',
    'http://[64:ff9b:1::a00:1]/hook',
    'http://[2001:db8::1]/hook',
    'http://[3fff::1]/hook',
    'http://[5f00::1]/hook',
  ])('refuses a webhook endpoint at %s as an invalid url', async (url) => {
    const res = await t.request('POST', '/v1/webhook-endpoints', { body: { url } });
    const [detail] = expectValidationError(res, 'url');
    expect(detail?.message).toMatch(/OUTBOUND_ALLOW_PRIVATE/);
  });

  it('refuses a calendar import from a documentation address as an invalid url', async () => {
    const res = await t.request('POST', '/v1/calendar-imports', { body: { name: 'Partner', url: 'https://192.0.2.10/cal.ics' } });
    expectValidationError(res, 'url');
  });
});
