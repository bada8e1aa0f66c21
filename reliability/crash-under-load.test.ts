/**
 * Crashes under load: several clients keep booking, changing and cancelling while the real server
 * is SIGKILLed five times at seeded random moments and restarted on the same database; the webhook
 * receiver is away for a while in the middle. Afterwards:
 *
 * - every booking answered 201 exists exactly once, and a request retried after a crash (same
 *   Idempotency-Key) never made a second booking;
 * - no slot holds more than its capacity, and the per-slot counter agrees with the bookings;
 * - every event reached the receiver at least once, signed, with the same `webhook-id` on repeats,
 *   including the events fired while the receiver was down.
 *
 * The database is a SQLite file, or a PostgreSQL database when OUTING_TEST_ENGINE=postgres (the
 * 'reliability-postgres' project): a killed process's open transactions are then rolled back by the
 * PostgreSQL server when its connections drop, rather than by SQLite's journal on the next open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processDatabase, runCli, startTestServer, testEngine, type ProcessDatabase, type TestServer } from '../server/test-helpers/index.js';
import { call, listAll, queryDatabase, SEED, seededRandom, sleep, waitUntil, WebhookReceiver, type JsonResponse, type Random } from './support.js';

const CLIENTS = 6;
const KILLS = 5;
const CAPACITY = 6;
const SLOTS = 16;

const SERVER_ENV = {
  OUTBOUND_ALLOW_PRIVATE: 'true',
  // Short retries, long enough in all (about 80 s) to outlast the receiver's absence.
  WEBHOOK_RETRY_SCHEDULE: '1,1,1,2,2,2,2,2,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3',
  WEBHOOK_TIMEOUT_MS: '5000',
  RATE_LIMIT_PER_MINUTE: '0',
  LOG_LEVEL: 'warn',
};

interface BookingAttempt {
  key: string;
  response: JsonResponse;
  /** Sent more than once because the server died before answering. */
  retried: boolean;
}

interface Run {
  bookings: BookingAttempt[];
  cancelled: Set<string>;
  unexpected: string[];
  requests: number;
  networkFailures: number;
}

describe(`crashes under a steady booking load on ${testEngine()} (seed ${SEED})`, () => {
  let db: ProcessDatabase;
  let apiKey: string;
  let server: TestServer;
  let experienceId: string;
  let slots: string[];
  const receiver = new WebhookReceiver();

  const start = async () => {
    server = await startTestServer({ ...db.server, env: SERVER_ENV, startTimeoutMs: 90_000 });
    return server;
  };

  beforeAll(async () => {
    db = await processDatabase();
    const init = await runCli(['init', '--name', 'Crash Tours', '--email', 'owner@crash.example', '--timezone', 'UTC', ...db.args]);
    if (init.code !== 0) throw new Error(`init failed: ${init.stderr}`);
    apiKey = (JSON.parse(init.stdout) as { apiKey: string }).apiKey;
    await receiver.up();
    await start();

    const hours = ['09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00', '17:00'];
    const experience = await call(server.url, 'POST', '/v1/experiences', {
      key: apiKey,
      body: {
        name: 'Harbour walk',
        description: 'One hour along the docks',
        duration: 60,
        price: 2500,
        maxParticipants: CAPACITY,
        maxPerBooking: 3,
        schedule: { timezone: 'UTC', weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, hours])) },
      },
    });
    expect(experience.status, experience.text).toBe(201);
    experienceId = experience.body.data.id;
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const availability = await call(server.url, 'GET', `/v1/availability?experienceId=${experienceId}&startDate=${tomorrow}`, { key: apiKey });
    expect(availability.status, availability.text).toBe(200);
    slots = (availability.body.data.slots as { startTime: string }[]).slice(0, SLOTS).map((s) => s.startTime);
    expect(slots).toHaveLength(SLOTS);

    const endpoint = await call(server.url, 'POST', '/v1/webhook-endpoints', { key: apiKey, body: { url: receiver.url } });
    expect(endpoint.status, endpoint.text).toBe(201);
    receiver.useSecret(endpoint.body.data.secret);
  }, 180_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await receiver.down();
    await db?.drop();
  });

  /**
   * One request, sent again after a network failure until some server answers: the server may be
   * dead or restarting. The URL is read at each attempt, since each restart listens on a new port.
   */
  async function persist(run: Run, method: string, path: string, options: Parameters<typeof call>[3]) {
    let attempts = 0;
    const giveUpAt = Date.now() + 240_000;
    for (;;) {
      attempts++;
      run.requests++;
      try {
        return { response: await call(server.url, method, path, { key: apiKey, timeoutMs: 20_000, ...options }), retried: attempts > 1 };
      } catch (err) {
        run.networkFailures++;
        if (Date.now() > giveUpAt) throw new Error(`${method} ${path} got no answer for 4 minutes: ${(err as Error).message}`);
        await sleep(50 + attempts * 10);
      }
    }
  }

  async function client(id: number, random: Random, run: Run, stop: { now: boolean }) {
    const mine: { id: string; participants: number }[] = [];
    for (let n = 0; !stop.now; n++) {
      const roll = random.next();
      if (mine.length && (roll < 0.2 || mine.length >= 4)) {
        const booking = mine.splice(random.int(0, mine.length - 1), 1)[0]!;
        const { response, retried } = await persist(run, 'PATCH', `/v1/bookings/${booking.id}/cancel`, { body: { reason: 'plans changed' } });
        // After a crash the first attempt may have gone through: the retry then finds it cancelled.
        if (response.status === 200 || (retried && response.body?.error?.code === 'INVALID_STATUS_TRANSITION')) run.cancelled.add(booking.id);
        else run.unexpected.push(`cancel → ${response.status} ${response.text}`);
      } else if (mine.length && roll < 0.35) {
        const booking = mine[random.int(0, mine.length - 1)]!;
        const participants = random.int(1, 3);
        const { response } = await persist(run, 'PATCH', `/v1/bookings/${booking.id}`, { body: { participants } });
        if (response.status === 200) booking.participants = participants;
        else if (response.body?.error?.code !== 'CAPACITY_EXCEEDED') run.unexpected.push(`patch → ${response.status} ${response.text}`);
      } else {
        const key = `reliability-${SEED}-${id}-${n}`;
        const body = {
          experienceId,
          startTime: random.pick(slots),
          participants: random.int(1, 3),
          customerName: `Guest ${id}-${n % 5}`,
          customerEmail: `guest-${id}-${n % 5}@crash.example`,
          metadata: { tag: key },
        };
        const { response, retried } = await persist(run, 'POST', '/v1/bookings', { body, headers: { 'idempotency-key': key } });
        run.bookings.push({ key, response, retried });
        if (response.status === 201) mine.push({ id: response.body.data.id, participants: body.participants });
        else if (!['CAPACITY_EXCEEDED'].includes(response.body?.error?.code)) run.unexpected.push(`book → ${response.status} ${response.text}`);
      }
      await sleep(random.int(5, 40));
    }
  }

  it('keeps every acknowledged booking exactly once, never overbooks, and delivers every event', async () => {
    const random = seededRandom(SEED);
    const run: Run = { bookings: [], cancelled: new Set(), unexpected: [], requests: 0, networkFailures: 0 };
    const stop = { now: false };
    const clients = Array.from({ length: CLIENTS }, (_, i) => client(i, seededRandom(SEED + 1000 + i), run, stop));

    let receiverDownAt = 0;
    let receiverUpAt = 0;
    for (let kill = 1; kill <= KILLS; kill++) {
      await sleep(random.int(2_000, 6_000));
      if (kill === 2) {
        await receiver.down();
        receiverDownAt = Date.now();
      }
      const { signal } = await server.stop('SIGKILL');
      expect(signal).toBe('SIGKILL');
      await start();
      if (kill === 4) {
        receiverUpAt = Date.now();
        await receiver.up();
      }
    }
    await sleep(2_000);
    stop.now = true;
    await Promise.all(clients);

    const created = run.bookings.filter((b) => b.response.status === 201);
    // The load must have been real: bookings made, crashes felt, retries answered.
    expect(created.length).toBeGreaterThan(20);
    expect(run.networkFailures).toBeGreaterThan(0);
    expect(run.unexpected).toEqual([]);

    // Every event the server stored reaches the receiver, the ones fired while it was away included.
    let events: { id: string; event: string; timestamp: string }[] = [];
    const delivered = await waitUntil(async () => {
      events = await listAll(server.url, '/v1/events', apiKey);
      const received = receiver.receivedIds();
      return events.every((e) => received.has(e.id));
    }, 180_000, 1_000);
    const received = receiver.receivedIds();
    expect(events.filter((e) => !received.has(e.id)).map((e) => e.id), 'events never delivered').toEqual([]);
    expect(delivered).toBe(true);

    const stopped = await server.stop('SIGTERM');
    expect(stopped.code).toBe(0);

    // Read the rows directly, on either engine (the servers have stopped).
    const rows = (
      await queryDatabase<{ id: string; booking_number: string; status: string; participants: number; metadata: string }>(
        db,
        'SELECT id, booking_number, status, participants, metadata FROM bookings',
      )
    ).map((r) => ({ ...r, participants: Number(r.participants) }));
    const byNumber = new Map<string, number>();
    const byTag = new Map<string, string[]>();
    for (const row of rows) {
      byNumber.set(row.booking_number, (byNumber.get(row.booking_number) ?? 0) + 1);
      const tag = (JSON.parse(row.metadata) as { tag?: string }).tag ?? '';
      byTag.set(tag, [...(byTag.get(tag) ?? []), row.booking_number]);
    }

    // Acknowledged bookings: each exists exactly once, under the request that made it.
    for (const { key, response } of created) {
      expect(byNumber.get(response.body.data.bookingNumber), `${key} → ${response.body.data.bookingNumber}`).toBe(1);
      expect(byTag.get(key)).toEqual([response.body.data.bookingNumber]);
    }
    // No request made two bookings, and a refused one made none, retries after crashes included.
    expect([...byTag].filter(([, numbers]) => numbers.length > 1)).toEqual([]);
    for (const { key } of run.bookings.filter((b) => b.response.status !== 201)) expect(byTag.get(key), key).toBeUndefined();
    const statusById = new Map(rows.map((r) => [r.id, r.status]));
    for (const id of run.cancelled) expect(statusById.get(id), id).toBe('CANCELLED');

    // Capacity: the counter equals the sum of live bookings, and both stay within capacity.
    // (The same SQL on both engines; PostgreSQL answers the BIGINT and the SUM as strings.)
    const slotsSeen = (
      await queryDatabase<{ slotStart: number | string; counted: number | string; summed: number | string }>(
        db,
        `SELECT s.slot_start AS "slotStart", s.booked AS "counted",
                (SELECT COALESCE(SUM(b.participants), 0) FROM bookings b
                  WHERE b.experience_id = s.experience_id AND b.slot_start = s.slot_start
                    AND b.status IN ('CONFIRMED', 'PENDING')) AS "summed"
           FROM (SELECT experience_id, slot_start, booked FROM slot_counts
                 UNION ALL
                 SELECT DISTINCT experience_id, slot_start, 0 FROM bookings b
                  WHERE NOT EXISTS (SELECT 1 FROM slot_counts c WHERE c.experience_id = b.experience_id AND c.slot_start = b.slot_start)) s`,
      )
    ).map((r) => ({ slotStart: Number(r.slotStart), counted: Number(r.counted), summed: Number(r.summed) }));
    expect(slotsSeen.length).toBeGreaterThan(0);
    for (const slot of slotsSeen) {
      expect(slot.counted, `slot ${new Date(slot.slotStart).toISOString()}`).toBe(slot.summed);
      expect(slot.summed).toBeLessThanOrEqual(CAPACITY);
    }

    // Deliveries: signed, `webhook-id` = the event's id, the same body on every repeat.
    const bodies = new Map<string, string>();
    for (const d of receiver.deliveries) {
      expect(d.signatureValid, `signature of ${d.webhookId}`).toBe(true);
      expect(d.event.id).toBe(d.webhookId);
      const first = bodies.get(d.webhookId);
      if (first === undefined) bodies.set(d.webhookId, d.body);
      else expect(d.body, `repeat of ${d.webhookId}`).toBe(first);
    }
    const createdEvents = new Set(
      receiver.deliveries.filter((d) => d.event.event === 'BOOKING_CREATED').map((d) => d.event.data.booking.bookingNumber as string),
    );
    for (const { response } of created) expect(createdEvents.has(response.body.data.bookingNumber)).toBe(true);

    // The receiver was really away while events fired, and got them once it was back.
    const firedWhileDown = events.filter((e) => {
      const at = Date.parse(e.timestamp);
      return at > receiverDownAt && at < receiverUpAt;
    });
    expect(firedWhileDown.length).toBeGreaterThan(0);
    const firstArrival = new Map<string, number>();
    for (const d of receiver.deliveries) if (!firstArrival.has(d.webhookId)) firstArrival.set(d.webhookId, d.receivedAt);
    for (const e of firedWhileDown) expect(firstArrival.get(e.id)).toBeGreaterThanOrEqual(receiverUpAt);

    const repeats = receiver.deliveries.length - bodies.size;
    console.info(
      `reliability on ${testEngine()} (seed ${SEED}): ${run.requests} requests, ${run.networkFailures} failed on a dead server, ` +
        `${created.length} bookings created (${created.filter((b) => b.retried).length} after a retry, ` +
        `${created.filter((b) => b.response.headers.get('idempotent-replayed') === 'true').length} of them replayed), ` +
        `${run.cancelled.size} cancelled, ${events.length} events, ${receiver.deliveries.length} deliveries ` +
        `(${repeats} repeats), ${firedWhileDown.length} fired while the receiver was down`,
    );
  }, 600_000);
});
