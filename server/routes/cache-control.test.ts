import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectData, harbourCruise, manualClock, tampered, type ManualClock, type TestApp } from '../test-helpers/index.js';
import { issueManageToken } from '../services/messages.js';
import { Booking } from '../../shared/index.js';

// Monday 5 January 2026, 12:00 in Lisbon; the cruise sails on Saturday.
const SATURDAY_10 = '2026-01-10T10:00:00.000Z';

describe('Cache-Control on personal data', () => {
  let t: TestApp;
  let clock: ManualClock;
  let booking: Booking;
  beforeEach(async () => {
    clock = manualClock();
    t = await createTestApp({ now: clock.now });
    const exp = await harbourCruise(t);
    booking = expectData(
      await t.request('POST', '/v1/bookings', {
        body: { experienceId: exp.id, startTime: SATURDAY_10, participants: 2, customerName: 'Eve Adams', customerEmail: 'eve@example.com' },
      }),
      Booking,
      201,
    );
  });
  afterEach(() => t.close());

  it('sends no-store on every /v1 and /api/v1 answer: records, lists, CSV files and errors', async () => {
    const answers: [string, string, number][] = [
      ['GET', '/v1/organization', 200],
      ['GET', '/v1/bookings', 200],
      ['GET', `/v1/bookings/${booking.id}`, 200],
      ['GET', `/v1/bookings/${booking.id}/messages`, 200],
      ['GET', '/v1/customers?search=eve', 200],
      ['GET', '/v1/manifest?date=2026-01-10', 200],
      ['GET', '/v1/manifest.csv?date=2026-01-10', 200],
      ['GET', '/v1/users', 200],
      ['GET', '/v1/activity', 200],
      ['GET', '/v1/events', 200],
      ['GET', '/v1/api-keys', 200],
      ['GET', '/api/v1/bookings', 200],
      ['GET', '/api/v1/manifest.csv?date=2026-01-10', 200],
      ['GET', '/v1/bookings/bkg_doesnotexist0000', 404],
      ['GET', '/v1/nope', 404],
      ['GET', '/api/v1/nope', 404],
      ['GET', '/v1', 404],
      ['GET', '/v1/manifest?date=tomorrow', 400],
      ['POST', '/v1/experiences', 400],
    ];
    for (const [method, path, status] of answers) {
      const res = await t.request(method, path, method === 'POST' ? { body: {} } : {});
      expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} ${status}`);
      expect(res.headers.get('cache-control'), `${method} ${path}`).toBe('no-store');
    }
    const unauthorized = await t.request('GET', '/v1/bookings', { key: tampered(t.secretKey) });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('cache-control')).toBe('no-store');
  });

  it('sends no-store on the guests’ manage API, a refused token included', async () => {
    const token = await issueManageToken(t.store, booking.id, clock.now());
    const asGuest = (path: string, manageToken: string) =>
      t.request('GET', `/public/v1/manage${path}`, { key: null, headers: { 'x-manage-token': manageToken } });
    for (const [path, manageToken, status] of [
      ['', token, 200],
      ['/availability', token, 200],
      ['', tampered(token), 404],
    ] as const) {
      const res = await asGuest(path, manageToken);
      expect(res.status, path).toBe(status);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it('leaves the public document, the iCal feed and the widget their own caching', async () => {
    const doc = await t.request('GET', '/v1/openapi.json', { key: null });
    expect(doc.headers.get('cache-control')).toBe('no-cache');
    const etag = doc.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    expect((await t.request('GET', '/v1/openapi.json', { key: null, headers: { 'if-none-match': etag } })).status).toBe(304);
    const feed = await t.request('GET', new URL(t.icalFeedUrl).pathname, { key: null });
    expect(feed.headers.get('cache-control')).toBe('private, no-cache');
    const experiences = await t.request('GET', '/public/v1/experiences');
    expect(experiences.headers.get('cache-control')).toBeNull();
  });
});
