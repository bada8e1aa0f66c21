import { afterEach, beforeEach, expect } from 'vitest';
import { createTestApp, expectData, expectList, manualClock, type ManualClock, type TestApp, type TestResponse } from '../../test-helpers/index.js';
import { createLogger } from '../../logger.js';
import { paymentProviderFrom } from '../configure.js';
import { holdExpiryJob } from '../../jobs/hold-expiry.js';
import type { Job } from '../../jobs/job.js';
import { startFakeStripe, type FakeStripe, type FakeSession } from './fake-stripe.js';
import { Availability, Booking, Experience, Organization, Payment, WebhookEvent } from '../../../shared/index.js';

/** A page of a tour operator's site that embeds the widget. */
export const HOST_PAGE = 'https://tours.example.com/book/sunset-kayak?lang=en';

export interface PaymentsHarness {
  t: TestApp;
  clock: ManualClock;
  stripe: FakeStripe | undefined;
  /** A priced experience (45.00 a guest, 4 places per slot, daily at 10:00 and 15:00 Lisbon time). */
  experienceId: string;
  /** The first bookable slot's start. */
  startTime: string;
  book(participants?: number, options?: { startTime?: string; headers?: Record<string, string> }): Promise<TestResponse>;
  bookingOf(bookingNumber: string): Promise<Booking>;
  payments(bookingNumber: string): Promise<Payment[]>;
  events(): Promise<WebhookEvent[]>;
  remaining(startTime?: string): Promise<number>;
  /** POSTs a signed Stripe event about `session` (or a refund, a charge) to the callback route. */
  callback(type: string, session: FakeSession | { id: string }, options?: { timestamp?: number; secret?: string; payload?: string; id?: string }): Promise<TestResponse & { eventId: string }>;
  sweeper(): Promise<Job<number>>;
  close(): Promise<void>;
}

/**
 * The app over a real SQLite file with the org's `onlinePayments` on, pointed at `stripe` (a local
 * fake Stripe) when given, on a clock the test moves.
 */
export async function paymentsHarness(
  options: { stripe?: FakeStripe; clock?: ManualClock; onlinePayments?: boolean; price?: number; env?: Record<string, string> } = {},
): Promise<PaymentsHarness> {
  const clock = options.clock ?? manualClock();
  const t = await createTestApp({
    now: clock.now,
    env: { PUBLIC_BOOKINGS_PER_MINUTE: '0', PUBLIC_REQUESTS_PER_MINUTE: '0', LOG_LEVEL: 'warn', ...options.stripe?.env, ...options.env },
  });
  const sweepers: Job<number>[] = [];
  if (options.onlinePayments !== false) {
    const org = expectData(await t.request('PATCH', '/v1/organization', { body: { onlinePayments: true } }), Organization);
    expect(org.onlinePayments).toBe(true);
  }
  const exp = expectData(
    await t.request('POST', '/v1/experiences', {
      body: {
        name: 'Sunset kayak',
        description: 'Two hours on the river',
        duration: 120,
        price: options.price ?? 4500,
        maxParticipants: 4,
        schedule: { weekly: { mon: ['10:00', '15:00'], tue: ['10:00', '15:00'], wed: ['10:00', '15:00'], thu: ['10:00', '15:00'], fri: ['10:00', '15:00'], sat: ['10:00', '15:00'], sun: ['10:00', '15:00'] } },
      },
    }),
    Experience,
    201,
  );
  const availability = async () =>
    expectData(await t.request('GET', `/public/v1/availability?experienceId=${exp.id}`), Availability);
  const first = (await availability()).slots[0];
  if (!first) throw new Error('No slot to book');

  const harness: PaymentsHarness = {
    t,
    clock,
    stripe: options.stripe,
    experienceId: exp.id,
    startTime: first.startTime,
    book: (participants = 2, o = {}) =>
      t.request('POST', '/public/v1/bookings', {
        body: {
          experienceId: exp.id,
          startTime: o.startTime ?? first.startTime,
          participants,
          customerName: 'Ana Lima',
          customerEmail: 'ana@example.com',
        },
        headers: o.headers ?? { origin: new URL(HOST_PAGE).origin, referer: HOST_PAGE },
      }),
    async bookingOf(bookingNumber) {
      return expectData(await t.request('GET', `/v1/bookings/${bookingNumber}`), Booking);
    },
    async payments(bookingNumber) {
      return expectList(await t.request('GET', `/v1/bookings/${bookingNumber}/payments`), Payment).data;
    },
    async events() {
      return expectList(await t.request('GET', '/v1/events?limit=100'), WebhookEvent).data;
    },
    async remaining(startTime = first.startTime) {
      const slot = (await availability()).slots.find((s) => s.startTime === startTime);
      expect(slot).toBeDefined();
      return slot?.remaining ?? -1;
    },
    async callback(type, session, o = {}) {
      if (!options.stripe) throw new Error('No fake Stripe');
      const made = options.stripe.event(type, session);
      const payload = o.payload ?? (o.id ? made.payload.replace(made.id, o.id) : made.payload);
      const signature = options.stripe.sign(payload, { timestamp: o.timestamp ?? Math.floor(clock.now() / 1000), secret: o.secret });
      const res = await t.request('POST', '/payments/stripe/webhook', {
        key: null,
        body: payload,
        headers: { 'stripe-signature': signature, 'content-type': 'application/json; charset=utf-8' },
      });
      return { ...res, eventId: o.id ?? made.id };
    },
    async sweeper() {
      const sweeper = holdExpiryJob({
        store: t.store,
        provider: paymentProviderFrom(t.config),
        logger: createLogger('silent'),
        now: clock.now,
        intervalMs: 3_600_000,
      });
      await sweeper.start();
      sweepers.push(sweeper);
      return sweeper;
    },
    async close() {
      await Promise.all(sweepers.map((s) => s.stop()));
      await t.close();
    },
  };
  return harness;
}

/**
 * A fake Stripe and a harness on a manual clock, made before each test of the calling file and
 * closed after it. Returns the current pair.
 */
export function usePaymentsHarness(): () => { stripe: FakeStripe; h: PaymentsHarness } {
  let current: { stripe: FakeStripe; h: PaymentsHarness } | undefined;
  beforeEach(async () => {
    const clock = manualClock();
    const stripe = await startFakeStripe({ now: clock.now });
    current = { stripe, h: await paymentsHarness({ stripe, clock }) };
  });
  afterEach(async () => {
    await current?.h.close();
    await current?.stripe.close();
    current = undefined;
  });
  return () => {
    if (!current) throw new Error('usePaymentsHarness: only inside a test');
    return current;
  };
}
