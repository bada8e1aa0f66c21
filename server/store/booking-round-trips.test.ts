import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestApp, everyDay, expectData, manualClock, testEngine, type TestApp } from '../test-helpers/index.js';
import { Booking, Experience, PublicBooking } from '../../shared/index.js';

// On PostgreSQL every statement is a round trip to the server, and a booking's transaction holds
// its slot's row lock for as long as they take: a booking through the real app must take few.
// node-postgres sends one message exchange per `query` call (a multi-statement string without
// parameters included), so counting those calls counts the round trips.

const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);
const S1 = '2027-03-02T10:00:00.000Z';
const S2 = '2027-03-02T15:00:00.000Z';
const MAX_ROUND_TRIPS = 6;

/** Counts the queries every client of every pool sends while `work` runs (the statements too, for a failure message). */
async function counted(work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const original = pg.Client.prototype.query;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- query's overloads, passed through untouched
  (pg.Client.prototype as { query: (...args: unknown[]) => unknown }).query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0];
    sent.push(typeof first === 'string' ? first : String((first as { text?: string }).text ?? first));
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  };
  try {
    await work();
  } finally {
    pg.Client.prototype.query = original;
  }
  return sent.map((s) => s.replace(/\s+/g, ' ').slice(0, 160));
}

describe.skipIf(testEngine() !== 'postgres')('round trips of a booking on PostgreSQL', () => {
  let t: TestApp;
  let experienceId: string;
  beforeEach(async () => {
    const clock = manualClock(NOW);
    t = await createTestApp({ now: clock.now, org: { timezone: 'Europe/Lisbon', currency: 'EUR' } });
    const body = { name: 'Walk', description: 'Old town', duration: 90, price: 2000, maxParticipants: 8, schedule: { weekly: everyDay(['10:00', '15:00']) } };
    experienceId = expectData(await t.request('POST', '/v1/experiences', { body }), Experience, 201).id;
    await t.request('POST', '/v1/webhook-endpoints', { body: { url: 'https://hooks.example/outing', events: ['*'] } });
    // A first booking warms what a process reads once (none of it counted below).
    expectData(await t.request('POST', '/v1/bookings', { body: { experienceId, startTime: S2, participants: 1, customerName: 'W', customerEmail: 'w@example.com' } }), Booking, 201);
  });
  afterEach(async () => await t.close());

  it(`books through POST /v1/bookings in at most ${MAX_ROUND_TRIPS} round trips, Idempotency-Key and all`, async () => {
    const sent = await counted(async () => {
      const body = { experienceId, startTime: S1, participants: 2, customerName: 'Ana Costa', customerEmail: 'ana@example.com' };
      expectData(await t.request('POST', '/v1/bookings', { body, headers: { 'idempotency-key': 'rt-1' } }), Booking, 201);
    });
    expect(sent.length, sent.join('\n')).toBeLessThanOrEqual(MAX_ROUND_TRIPS);
  });

  // The widget's route reads the experience and the organization itself before it books (to choose
  // between a booking and a payment page), and a publishable key records its use: 2 more.
  it(`books through the widget's POST /public/v1/bookings in at most ${MAX_ROUND_TRIPS + 2} round trips`, async () => {
    const sent = await counted(async () => {
      const body = { experienceId, startTime: S1, participants: 2, customerName: 'Web Guest', customerEmail: 'guest@example.com' };
      expectData(await t.request('POST', '/public/v1/bookings', { body }), PublicBooking, 201);
    });
    expect(sent.length, sent.join('\n')).toBeLessThanOrEqual(MAX_ROUND_TRIPS + 2);
  });
});
