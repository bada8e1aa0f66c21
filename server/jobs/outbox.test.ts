import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp, expectData, harbourCruise, manualClock, openStoreOn, testEngine, type ManualClock, type TestApp,
} from '../test-helpers/index.js';
import { createLogger } from '../logger.js';
import type { Store } from '../store/index.js';
import { messageOutbox } from '../services/guest-mail.js';
import { leasedOutboxJob, type LeasedOutboxOptions, type OutboxJob } from './outbox.js';
import { Booking, type Experience } from '../../shared/index.js';

// The shared outbox runner over a real outbox (the guest e-mails' table, both engines), with two
// store handles over one database standing for two processes. `send` is the test's: it records who
// sent what, and is held open where a test needs an attempt in flight.

const quiet = createLogger('silent');
// The clock starts on Monday 5 January 2026, 12:00 UTC.
const SATURDAY_10 = '2026-01-10T10:00:00.000Z';

interface Held {
  id: string;
  by: string;
  signal: AbortSignal;
  finish(): void;
}

let t: TestApp;
let other: Store;
let clock: ManualClock;
let exp: Experience;
let jobs: OutboxJob[];
/** Every send begun, in order. */
let sends: Held[];

beforeEach(async () => {
  clock = manualClock();
  t = await createTestApp({ now: clock.now, logLevel: 'silent' });
  other = await openStoreOn({ path: t.dbPath, url: t.config.databaseUrl });
  exp = await harbourCruise(t);
  jobs = [];
  sends = [];
});

afterEach(async () => {
  for (const s of sends) s.finish();
  await Promise.all(jobs.map((job) => job.stop()));
  await other.close();
  await t.close();
});

/** A booking on Saturday: its confirmation is queued in the outbox with it. */
async function queueOne(): Promise<string> {
  const booking = expectData(
    await t.request('POST', '/v1/bookings', {
      body: { experienceId: exp.id, startTime: SATURDAY_10, participants: 1, customerName: 'Eve Adams', customerEmail: 'eve@example.com' },
    }),
    Booking,
    201,
  );
  const [message] = (await t.store.messages.listBookingMessages(t.orgId, booking.id, { limit: 10, offset: 0 })).rows;
  return message!.id;
}

/**
 * A runner on `store` named `by`. Its sends stay in flight until finished (then recorded SENT);
 * with `instant` they finish at once.
 */
function runner(store: Store, by: string, options: Partial<LeasedOutboxOptions<{ id: string }>> & { instant?: boolean } = {}): OutboxJob {
  const job = leasedOutboxJob({
    name: `outbox ${by}`,
    logger: quiet,
    outbox: messageOutbox(store),
    leaseMs: 60_000,
    maxInFlight: 4,
    pollMs: 60_000,
    stopGraceMs: 100,
    now: clock.now,
    send: (item, signal) =>
      new Promise<void>((resolve, reject) => {
        const finish = () => {
          store.messages.recordMessageAttempt(item.id, { status: 'SENT', lastError: null, nextAttemptAt: null, sentAt: clock.now() }).then(resolve, reject);
        };
        sends.push({ id: item.id, by, signal, finish });
        if (options.instant) finish();
      }),
    ...options,
  });
  jobs.push(job);
  return job;
}

async function eventually<T>(check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const statusOf = async (id: string) => (await t.store.messages.getMessage(id))?.status;

describe(`the leased outbox (${testEngine()})`, () => {
  it('leases each item to one process at a time', async () => {
    const ids = [await queueOne(), await queueOne(), await queueOne()];
    const a = runner(t.store, 'a');
    const b = runner(other, 'b');
    // Both processes look at once, and again: every item is begun exactly once between them.
    await Promise.all([a.wake(), b.wake(), a.wake(), b.wake()]);
    expect(sends.map((s) => s.id).sort()).toEqual([...ids].sort());
    expect(a.inFlight() + b.inFlight()).toBe(3);
    for (const s of sends) s.finish();
    await eventually(async () => (await Promise.all(ids.map(statusOf))).every((s) => s === 'SENT'));
    await Promise.all([a.runOnce(), b.runOnce()]);
    expect(sends).toHaveLength(3);
  });

  it("makes a crashed holder's item due again once its lease runs out, and not before", async () => {
    const id = await queueOne();
    // Process a leases the item and dies mid-send: its attempt never ends and it never releases.
    const a = runner(t.store, 'a');
    await a.wake();
    expect(sends.map((s) => s.by)).toEqual(['a']);
    const b = runner(other, 'b', { instant: true });
    await b.runOnce();
    clock.advance(59_000);
    await b.runOnce();
    expect(sends.map((s) => s.by)).toEqual(['a']);
    clock.advance(1_000);
    await b.runOnce();
    expect(sends.map((s) => s.by)).toEqual(['a', 'b']);
    expect(await statusOf(id)).toBe('SENT');
  });

  it('wakes when an item is queued, and when an attempt ends with work held back by the limit', async () => {
    const job = runner(t.store, 'a', { maxInFlight: 1 });
    await job.start();
    // The poll is a minute: only a wake can explain a send within the test's few seconds.
    const first = await queueOne();
    const second = await queueOne();
    await eventually(() => sends.length === 1);
    expect(sends[0]!.id).toBe(first);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sends).toHaveLength(1);
    sends[0]!.finish();
    await eventually(() => sends.length === 2);
    expect(sends[1]!.id).toBe(second);
  });

  it('stops by waiting for the attempts under way, and begins none after', async () => {
    const id = await queueOne();
    const job = runner(t.store, 'a', { stopGraceMs: 5_000 });
    await job.start();
    await eventually(() => sends.length === 1);
    let stopped = false;
    const stopping = job.stop().then(() => void (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stopped).toBe(false);
    sends[0]!.finish();
    await stopping;
    expect(await statusOf(id)).toBe('SENT');
    await queueOne();
    await job.runOnce();
    await job.wake();
    expect(sends).toHaveLength(1);
  });

  it('after the grace, cancels what is still in flight, or leaves it its lease', async () => {
    const id = await queueOne();
    const cancelling = runner(t.store, 'a', {
      cancelAtStop: true,
      // An attempt that honours the signal: it gives its item back, uncounted.
      send: (item, signal) =>
        new Promise<void>((resolve) => {
          sends.push({ id: item.id, by: 'a', signal, finish: () => {} });
          signal.addEventListener('abort', () => void t.store.messages.releaseMessage(item.id).then(resolve));
        }),
    });
    await cancelling.wake();
    const began = Date.now();
    await cancelling.stop();
    expect(Date.now() - began).toBeLessThan(3_000);
    expect(sends[0]!.signal.aborted).toBe(true);
    expect(await t.store.messages.getMessage(id)).toMatchObject({ status: 'PENDING', attempts: 0, leasedUntil: null });

    const keeping = runner(t.store, 'b');
    await keeping.wake();
    await keeping.stop();
    expect(sends[1]!.signal.aborted).toBe(false);
    expect((await t.store.messages.getMessage(id))?.leasedUntil).toBe(clock.now() + 60_000);
  });
});
