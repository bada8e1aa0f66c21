import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp, everyDay, expectData, expectError, expectList, expectValidationError, manualClock, type TestApp,
} from '../test-helpers/index.js';
import { issueManageToken } from '../services/messages.js';
import { answerMalformedRequests } from '../http/client-errors.js';
import { Booking, ErrorEnvelope, Experience } from '../../shared/index.js';

// Monday 2027-03-01, 08:00 in Lisbon; the tour runs every day at 10:00.
const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);
const START = '2027-03-02T10:00:00.000Z';
const NUL = '\u0000';

let t: TestApp;
let exp: Experience;
let booking: Booking;
let manageToken: string;

beforeAll(async () => {
  t = await createTestApp({ now: manualClock(NOW).now });
  exp = expectData(
    await t.request('POST', '/v1/experiences', {
      body: {
        name: 'Harbour cruise', description: 'An hour on the river', duration: 60, price: 1500, maxParticipants: 20,
        schedule: { weekly: everyDay(['10:00']) }, priceCategories: [{ name: 'Adult', price: 1500 }],
      },
    }),
    Experience,
    201,
  );
  booking = expectData(
    await t.request('POST', '/v1/bookings', {
      body: { experienceId: exp.id, startTime: START, tickets: [{ categoryId: exp.priceCategories[0]!.id, quantity: 1 }], customerName: 'Ana Costa', customerEmail: 'ana@example.com' },
    }),
    Booking,
    201,
  );
  manageToken = await issueManageToken(t.store, booking.id, NOW);
});
afterAll(() => t.close());

const ticket = () => [{ categoryId: exp.priceCategories[0]!.id, quantity: 1 }];
const newBooking = (fields: Record<string, unknown>) => ({
  experienceId: exp.id, startTime: START, tickets: ticket(), customerName: 'Eva Reis', customerEmail: 'eva@example.com', ...fields,
});

/** Rows a refused request must not have written. */
async function written() {
  const page = { limit: 1, offset: 0 };
  return {
    bookings: (await t.store.bookings.listBookings(t.orgId, {}, page)).total,
    experiences: (await t.store.experiences.listExperiences(t.orgId, {}, page)).total,
    events: (await t.store.events.listEvents(t.orgId, {}, page)).total,
  };
}

describe('a NUL (U+0000) in a JSON body is a 400 naming the field, on every route', () => {
  const cases: [string, string, () => unknown, string][] = [
    ['POST', '/public/v1/bookings', () => newBooking({ customerName: `a${NUL}b` }), 'customerName'],
    ['POST', '/public/v1/bookings', () => newBooking({ experienceId: NUL }), 'experienceId'],
    ['POST', '/public/v1/bookings', () => newBooking({ website: NUL }), 'website'],
    ['POST', '/v1/bookings', () => newBooking({ tickets: [{ categoryId: `pc_${NUL}`, quantity: 1 }] }), 'tickets[0].categoryId'],
    ['POST', '/v1/bookings', () => newBooking({ metadata: { ref: `A1${NUL}` } }), 'metadata.ref'],
    ['POST', '/v1/bookings', () => newBooking({ metadata: { [`a${NUL}b`]: 'x' } }), 'metadata.a\\u0000b'],
    ['POST', '/v1/bookings', () => newBooking({ customerPhone: NUL }), 'customerPhone'],
    ['PATCH', '/v1/bookings/{booking}', () => ({ guestName: `Ana${NUL}` }), 'guestName'],
    ['PATCH', '/v1/bookings/{booking}/cancel', () => ({ reason: NUL }), 'reason'],
    ['POST', '/v1/bookings/{booking}/payments', () => ({ amount: '1.00', status: 'SUCCEEDED', reference: `r${NUL}` }), 'reference'],
    ['POST', '/v1/experiences', () => ({ name: `a${NUL}b`, description: '', duration: 60, price: 1, maxParticipants: 2 }), 'name'],
    ['POST', '/v1/experiences', () => ({ name: 'ok', description: NUL, duration: 60, price: 1, maxParticipants: 2 }), 'description'],
    ['PATCH', '/v1/experiences/{experience}', () => ({ priceCategories: [{ name: `Adult${NUL}`, price: 1 }] }), 'priceCategories[0].name'],
    ['PATCH', '/v1/experiences/{experience}', () => ({ schedule: { timezone: `Europe/Lisbon${NUL}`, weekly: {} } }), 'schedule.timezone'],
    ['PATCH', '/v1/organization', () => ({ phone: `+351${NUL}` }), 'phone'],
    ['POST', '/v1/users', () => ({ email: 'new@test-tours.example', name: `N${NUL}`, role: 'staff' }), 'name'],
    ['POST', '/v1/api-keys', () => ({ name: NUL }), 'name'],
    ['POST', '/v1/webhook-endpoints', () => ({ url: 'https://example.com/hook', description: NUL }), 'description'],
    ['POST', '/v1/calendar-feeds', () => ({ name: NUL }), 'name'],
    ['POST', '/v1/calendar-imports', () => ({ name: 'Partner', url: `https://example.com/${NUL}.ics` }), 'url'],
    ['POST', '/dashboard/api/session', () => ({ email: 'owner@test-tours.example', password: `a${NUL}b` }), 'password'],
    ['POST', '/dashboard/api/setup', () => ({ token: `stp${NUL}`, password: 'a long enough password' }), 'token'],
    ['POST', '/public/v1/manage/cancel', () => ({ reason: `Flight${NUL}` }), 'reason'],
  ];

  it.each(cases)('%s %s names %s', async (method, template, body, path) => {
    const before = await written();
    const url = template.replace('{booking}', booking.id).replace('{experience}', exp.id);
    const headers = url.startsWith('/public/v1/manage') ? { 'x-manage-token': manageToken } : undefined;
    const key = url.startsWith('/dashboard/') || url.startsWith('/public/v1/manage') ? null : undefined;
    const details = expectValidationError(await t.request(method, url, { body: body(), key, headers }), path);
    expect(details.find((d) => d.path === path)?.message).toMatch(/NUL character \(U\+0000\)/);
    expect(await written()).toEqual(before);
  });

  it('names every field that holds one', async () => {
    const res = await t.request('POST', '/v1/bookings', { body: newBooking({ customerName: NUL, metadata: { a: NUL, b: 'ok', c: NUL } }) });
    const details = expectValidationError(res, 'customerName');
    expect(details.map((d) => d.path)).toEqual(['customerName', 'metadata.a', 'metadata.c']);
    expect((res.body as ErrorEnvelope).error.message).toBe('Invalid body: customerName: Must not contain the NUL character (U+0000)');
  });

  it('reads an escaped backslash before u0000 as the text it is', async () => {
    const res = await t.request('PATCH', `/v1/bookings/${booking.id}`, { body: { metadata: { path: 'C:\\u0000' } } });
    expect(expectData(res, Booking).metadata).toEqual({ path: 'C:\\u0000' });
  });
});

describe('a NUL in the query is a 400 naming the parameter', () => {
  it.each([
    ['/public/v1/availability?experienceId=%00', 'experienceId'],
    ['/public/v1/availability?experienceId={experience}&startDate=2027-03-02%00', 'startDate'],
    ['/v1/availability?experienceId=%00', 'experienceId'],
    ['/v1/bookings?experienceId=%00', 'experienceId'],
    ['/v1/bookings?customerId=cus_%00', 'customerId'],
    ['/v1/bookings?q=Ana%00', 'q'],
    ['/v1/customers?search=%00', 'search'],
    ['/v1/events?after=evt_%00', 'after'],
    ['/v1/activity?actorId=%00', 'actorId'],
    ['/v1/manifest?date=%00', 'date'],
    ['/v1/bookings?a%00b=1', 'a\\u0000b'],
    ['/public/v1/manage/availability?startDate=%00', 'startDate'],
    // Routes that read no query refuse one with a NUL all the same.
    ['/v1/organization?x=%00', 'x'],
    ['/public/v1/manage?x=%00', 'x'],
  ])('GET %s names %s', async (template, path) => {
    const url = template.replace('{experience}', exp.id);
    const headers = url.startsWith('/public/v1/manage') ? { 'x-manage-token': manageToken } : undefined;
    const key = url.startsWith('/public/v1/manage') ? null : undefined;
    const details = expectValidationError(await t.request('GET', url, { key, headers }), path);
    expect(details[0]?.message).toMatch(/NUL character/);
  });
});

describe('a NUL in a path id is a 400 naming it, not a 404', () => {
  it.each([
    ['GET', '/v1/experiences/%00', 'id'],
    ['GET', '/v1/experiences/{experience}%00', 'id'],
    ['PATCH', '/v1/experiences/exp_%00', 'id'],
    ['GET', '/v1/bookings/BK-%00', 'id'],
    ['GET', '/v1/bookings/{booking}%00/payments', 'id'],
    ['GET', '/v1/customers/%00', 'id'],
    ['POST', '/v1/webhook-endpoints/whe_x/deliveries/%00/retry', 'deliveryId'],
    ['GET', '/public/v1/experiences/%00', 'id'],
    ['GET', '/public/v1/bookings/%00', 'bookingNumber'],
  ])('%s %s names %s', async (method, template, path) => {
    const url = template.replace('{experience}', exp.id).replace('{booking}', booking.id);
    const details = expectValidationError(await t.request(method, url, method === 'GET' ? {} : { body: {} }), path);
    expect(details[0]?.message).toMatch(/NUL character/);
  });

  it('is a 400 in the path of a calendar feed too, whose other wrong tokens are 404s', async () => {
    expectValidationError(await t.request('GET', '/api/ical/%00', { key: null }), 'token');
    expectValidationError(await t.request('GET', `/api/ical/${t.icalFeedUrl.split('/').pop()}%00.ics`, { key: null }), 'token');
    expectError(await t.request('GET', '/api/ical/nonsense', { key: null }), 404, 'NOT_FOUND');
  });

  it('keeps the 404 for ids of another shape without a NUL', async () => {
    expectError(await t.request('GET', '/v1/experiences/nonsense'), 404, 'NOT_FOUND');
  });
});

describe('a NUL in a header', () => {
  /** One raw HTTP/1.1 request: fetch itself refuses a NUL in a header value. */
  async function rawRequest(url: string, head: string): Promise<{ status: number; body: string }> {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    socket.write(`${head}\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`);
    let text = '';
    for await (const chunk of socket) text += String(chunk);
    const [status = '0'] = /^HTTP\/1\.1 (\d{3})/.exec(text)?.slice(1) ?? [];
    return { status: Number(status), body: text.slice(text.indexOf('\r\n\r\n') + 4) };
  }

  it.each([
    ['X-Manage-Token', 'GET /public/v1/manage HTTP/1.1'],
    ['Idempotency-Key', 'POST /v1/bookings HTTP/1.1'],
  ])('%s is refused with 400 VALIDATION_ERROR before the app sees it', async (header, line) => {
    const server = await t.listen();
    // As `outing serve` does (server/main.ts): Node's HTTP parser refuses the header, answered in the envelope.
    answerMalformedRequests(server.server);
    try {
      const res = await rawRequest(server.url, `${line}\r\n${header}: a${NUL}b\r\nAuthorization: Bearer ${t.secretKey}`);
      expect(res.status).toBe(400);
      expect(ErrorEnvelope.parse(JSON.parse(res.body)).error.code).toBe('VALIDATION_ERROR');
    } finally {
      await server.close();
    }
  });
});

describe('other control characters are kept as sent, alike on both engines', () => {
  const controls = Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join('');

  it('stores and returns them in names, notes and metadata, and finds the booking by its plain part', async () => {
    const created = expectData(
      await t.request('POST', '/v1/bookings', {
        body: newBooking({ customerName: `Rui${controls}Lopes`, customerEmail: 'rui@example.com', metadata: { [`k${controls}`]: `v${controls}` } }),
      }),
      Booking,
      201,
    );
    expect(created).toMatchObject({ guestName: `Rui${controls}Lopes`, metadata: { [`k${controls}`]: `v${controls}` } });
    expect(expectData(await t.request('GET', `/v1/bookings/${created.id}`), Booking)).toEqual(created);
    expect(expectList(await t.request('GET', '/v1/bookings?q=Rui'), Booking).data.map((b) => b.id)).toEqual([created.id]);
    const cancelled = expectData(await t.request('PATCH', `/v1/bookings/${created.id}/cancel`, { body: { reason: `Storm\r\n\t${controls}` } }), Booking);
    expect(cancelled.cancellationReason).toBe(`Storm\r\n\t${controls}`);
  });

  it('answers an id made of them as any unknown id', async () => {
    expectError(await t.request('POST', '/public/v1/bookings', { body: newBooking({ experienceId: '\u0001' }) }), 404, 'NOT_FOUND');
    expectError(await t.request('GET', '/public/v1/availability?experienceId=%01'), 404, 'NOT_FOUND');
    expect(expectList(await t.request('GET', '/v1/bookings?experienceId=%1F'), Booking).data).toEqual([]);
    expectError(await t.request('GET', '/v1/experiences/%01'), 404, 'NOT_FOUND');
  });
});
