import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from './test-helpers/fake-stripe.js';
import { openStoreOn, processDatabase, startTestServer, type ProcessDatabase, type TestServer } from '../test-helpers/index.js';
import { Availability, Booking, Experience, Organization, Payment, PublicBooking, WebhookEvent, dataEnvelope, listEnvelope } from '../../shared/index.js';

/**
 * The real `outing serve` process (built), killed while a booking holds places awaiting payment
 * and started again once the hold has lapsed: the hold is released on start. The database is a
 * SQLite file, or a PostgreSQL database when OUTING_TEST_ENGINE=postgres.
 */

/** The store over the test's database, opened from this process while no server runs. */
describe('a payment hold across a server restart', () => {
  let stripe: FakeStripe;
  let server: TestServer | undefined;
  let db: ProcessDatabase;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    db = await processDatabase();
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await stripe.close();
    await db?.drop();
  });

  const env = () => ({ ...stripe.env, PUBLIC_BOOKINGS_PER_MINUTE: '0' });

  async function call(method: string, path: string, key: string, body?: unknown) {
    if (!server) throw new Error('No server');
    const headers: Record<string, string> = path.startsWith('/public/') ? { 'x-outing-key': key } : { authorization: `Bearer ${key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as unknown };
  }

  it('releases a hold that lapsed while the server was down, expiring its Checkout Session first', async () => {
    server = await startTestServer({ ...db.server, demo: true, env: env() });
    const keys = server.demo;
    if (!keys) throw new Error('The demo keys were not printed');
    const org = dataEnvelope(Organization).parse((await call('PATCH', '/v1/organization', keys.secretKey, { onlinePayments: true })).body).data;
    const daily = ['10:00', '15:00'];
    const exp = dataEnvelope(Experience).parse(
      (
        await call('POST', '/v1/experiences', keys.secretKey, {
          name: 'Harbour cruise',
          description: 'An hour on the water',
          duration: 60,
          price: 3000,
          maxParticipants: 6,
          schedule: { weekly: { mon: daily, tue: daily, wed: daily, thu: daily, fri: daily, sat: daily, sun: daily } },
        })
      ).body,
    ).data;
    const slot = dataEnvelope(Availability).parse((await call('GET', `/public/v1/availability?experienceId=${exp.id}`, keys.publishableKey)).body).data
      .slots[0];
    if (!slot) throw new Error('No slot');
    // The demo's month of bookings has its own events, oldest first: this booking's come after them.
    const demoEvents = listEnvelope(WebhookEvent).parse((await call('GET', '/v1/events?limit=1', keys.secretKey)).body).pagination.total;
    const booked = await call('POST', '/public/v1/bookings', keys.publishableKey, {
      experienceId: exp.id,
      startTime: slot.startTime,
      participants: 4,
      customerName: 'Ana Lima',
      customerEmail: 'ana@example.com',
    });
    expect(booked.status).toBe(201);
    const held = dataEnvelope(PublicBooking).parse(booked.body).data;
    expect(held).toMatchObject({ status: 'PENDING', checkoutUrl: stripe.lastSession().url });

    // The process dies without any chance to clean up.
    expect((await server.stop('SIGKILL')).signal).toBe('SIGKILL');
    // While it is down, the hold lapses (its expiry is moved into the past rather than waiting 30 minutes).
    const store = await openStoreOn(db);
    const row = await store.bookings.getBookingByNumber(org.id, held.bookingNumber);
    if (!row) throw new Error('Booking not stored');
    await store.bookings.updateBooking({ ...row, holdExpiresAt: Date.now() - 1_000 });
    await store.close();

    server = await startTestServer({ ...db.server, env: env() });
    // The sweeper runs at start; give it a generous moment on a loaded machine.
    let booking: Booking | undefined;
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      booking = dataEnvelope(Booking).parse((await call('GET', `/v1/bookings/${held.bookingNumber}`, keys.secretKey)).body).data;
      if (booking.status !== 'PENDING') break;
    }
    expect(booking).toMatchObject({ status: 'CANCELLED', holdExpiresAt: null });

    const session = stripe.lastSession();
    expect(session.status).toBe('expired');
    expect(stripe.requests.some((r) => r.path === `/v1/checkout/sessions/${session.id}/expire`)).toBe(true);
    const payments = listEnvelope(Payment).parse((await call('GET', `/v1/bookings/${held.bookingNumber}/payments`, keys.secretKey)).body).data;
    expect(payments).toMatchObject([{ status: 'FAILED', failureReason: 'expired', provider: 'stripe', amount: '120.00' }]);
    const events = listEnvelope(WebhookEvent).parse((await call('GET', `/v1/events?limit=100&offset=${demoEvents}`, keys.secretKey)).body).data;
    expect(events.filter((e) => e.data.booking.bookingNumber === held.bookingNumber).map((e) => e.event)).toEqual([
      'BOOKING_CREATED',
      'PAYMENT_FAILED',
      'BOOKING_CANCELED',
    ]);
    const after = dataEnvelope(Availability).parse((await call('GET', `/public/v1/availability?experienceId=${exp.id}`, keys.publishableKey)).body).data;
    expect(after.slots.find((s) => s.startTime === slot.startTime)?.remaining).toBe(6);

    const stopped = await server.stop('SIGTERM');
    expect(stopped.code).toBe(0);
  });
});
