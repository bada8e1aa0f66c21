// Capacity under concurrency, against the real built server (`bin/outing.js serve`): 100 simultaneous
// requests for one slot with 10 places give exactly 10 bookings, on every run — also when two server
// processes share one database, where only the database can keep them apart: SQLite's write lock
// on a shared file, or PostgreSQL's row locks and transactions (OUTING_TEST_ENGINE=postgres).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'node:http';
import { processDatabase, runCli, startTestServer, type ProcessDatabase, type TestServer } from './test-helpers/index.js';
import { Availability, Booking, ErrorEnvelope, Experience, WebhookEvent, dataEnvelope, listEnvelope } from '../shared/index.js';

const CAPACITY = 10;
const REQUESTS = 100;
const ROUNDS = 4;

interface Answer {
  status: number;
  body: unknown;
  replayed: string | null;
}

describe('capacity under concurrency (real server processes)', () => {
  let a: TestServer;
  let b: TestServer;
  let secretKey: string;
  let experienceId: string;
  let slots: string[];
  let db: ProcessDatabase | undefined;
  // Many sockets per server, so that requests really arrive together rather than queue on a few connections.
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });

  const call = (server: TestServer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        `${server.url}${path}`,
        {
          method,
          agent,
          headers: {
            authorization: `Bearer ${secretKey}`,
            ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
            ...headers,
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (d: string) => (text += d));
          res.on('end', () => {
            const replayed = res.headers['idempotent-replayed'];
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown, replayed: typeof replayed === 'string' ? replayed : null });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

  beforeAll(async () => {
    const database = await processDatabase();
    db = database;
    const init = await runCli(['init', '--name', 'Busy Tours', '--email', 'ops@busy.example', '--timezone', 'Europe/Lisbon', ...database.args]);
    expect(init.code, init.stderr).toBe(0);
    secretKey = (JSON.parse(init.stdout) as { apiKey: string }).apiKey;
    const env = { RATE_LIMIT_PER_MINUTE: '0' };
    [a, b] = await Promise.all([startTestServer({ ...database.server, env }), startTestServer({ ...database.server, env })]);

    const created = await call(a, 'POST', '/v1/experiences', {
      name: 'Tiny boat',
      description: 'Ten seats',
      duration: 60,
      price: 1000,
      maxParticipants: CAPACITY,
      schedule: { weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, ['09:00', '12:00', '15:00', '18:00']])) },
    });
    experienceId = dataEnvelope(Experience).parse(created.body).data.id;
    // Slots at least a day away, so none of them starts while the test runs.
    const from = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const avail = await call(b, 'GET', `/v1/availability?experienceId=${experienceId}&startDate=${from}`);
    slots = dataEnvelope(Availability).parse(avail.body).data.slots.map((s) => s.startTime);
    expect(slots.length).toBeGreaterThan(ROUNDS + 1);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    agent.destroy();
    await db?.drop();
  });

  const bookOne = (server: TestServer, startTime: string, i: number, headers: Record<string, string> = {}) =>
    call(server, 'POST', '/v1/bookings', { experienceId, startTime, participants: 1, customerName: `Guest ${i}`, customerEmail: `guest${i}@example.com` }, headers);

  async function bookedIn(startTime: string): Promise<number> {
    const date = startTime.slice(0, 10);
    const avail = await call(a, 'GET', `/v1/availability?experienceId=${experienceId}&startDate=${date}&endDate=${date}`);
    const slot = dataEnvelope(Availability).parse(avail.body).data.slots.find((s) => s.startTime === startTime);
    expect(slot).toBeDefined();
    expect(slot!.booked + slot!.remaining).toBe(CAPACITY);
    return slot!.booked;
  }

  it(`takes exactly ${CAPACITY} of ${REQUESTS} simultaneous one-place bookings, round after round, across two processes`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const startTime = slots[round]!;
      // Round 0 on one process; later rounds alternate requests between the two processes.
      const answers = await Promise.all(
        Array.from({ length: REQUESTS }, (_, i) => bookOne(round === 0 || i % 2 === 0 ? a : b, startTime, round * 1000 + i)),
      );
      const created = answers.filter((x) => x.status === 201);
      const refused = answers.filter((x) => x.status === 409);
      expect({ round, created: created.length, refused: refused.length }).toEqual({ round, created: CAPACITY, refused: REQUESTS - CAPACITY });
      for (const x of created) expect(dataEnvelope(Booking).parse(x.body).data.timeSlot.startTime).toBe(startTime);
      for (const x of refused) {
        const { error } = ErrorEnvelope.parse(x.body);
        expect(error.code).toBe('CAPACITY_EXCEEDED');
        expect(error.details).toEqual([{ path: 'participants', message: '0 remaining' }]);
      }
      expect(new Set(created.map((x) => dataEnvelope(Booking).parse(x.body).data.bookingNumber)).size).toBe(CAPACITY);
      expect(await bookedIn(startTime)).toBe(CAPACITY);

      const listed = await call(b, 'GET', `/v1/bookings?experienceId=${experienceId}&startDate=${encodeURIComponent(startTime)}&endDate=${encodeURIComponent(startTime)}&limit=100`);
      expect(listEnvelope(Booking).parse(listed.body).pagination.total).toBe(CAPACITY);
    }
    const events = await call(a, 'GET', '/v1/events?type=BOOKING_CREATED&limit=1');
    expect(listEnvelope(WebhookEvent).parse(events.body).pagination.total).toBe(CAPACITY * ROUNDS);
  }, 120_000);

  it('takes mixed party sizes without ever passing the capacity', async () => {
    const startTime = slots[ROUNDS]!;
    const sizes = Array.from({ length: 60 }, (_, i) => 1 + (i % 4)); // 1, 2, 3, 4, 1, 2…
    const answers = await Promise.all(
      sizes.map((participants, i) =>
        call(i % 2 === 0 ? a : b, 'POST', '/v1/bookings', {
          experienceId,
          startTime,
          participants,
          customerName: 'Party',
          customerEmail: `party${i}@example.com`,
        }),
      ),
    );
    const taken = answers.reduce((n, x, i) => (x.status === 201 ? n + sizes[i]! : n), 0);
    expect(answers.every((x) => x.status === 201 || x.status === 409)).toBe(true);
    expect(taken).toBeLessThanOrEqual(CAPACITY);
    expect(await bookedIn(startTime)).toBe(taken);
  }, 60_000);

  it('takes exactly the places of 40 simultaneous ticketed bookings on 30 places, infants on a lap not counted', async () => {
    const PLACES = 30;
    const created = await call(a, 'POST', '/v1/experiences', {
      name: 'Family boat',
      description: 'Thirty seats, laps free',
      duration: 60,
      price: 1000,
      maxParticipants: PLACES,
      schedule: { weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, ['11:00']])) },
      priceCategories: [
        { name: 'Adult', price: 2500, type: 'ADULT' },
        { name: 'Child', price: 1200, type: 'CHILD' },
        { name: 'Infant', price: 0, type: 'INFANT', occupiesPlace: false },
      ],
    });
    const family = dataEnvelope(Experience).parse(created.body).data;
    const [adult, child, infant] = family.priceCategories.map((c) => c.id) as [string, string, string];
    const from = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const avail = await call(b, 'GET', `/v1/availability?experienceId=${family.id}&startDate=${from}`);
    const startTime = dataEnvelope(Availability).parse(avail.body).data.slots[0]!.startTime;

    // Mixed parties: one place (an adult, with an infant every third time) or two (an adult and a child).
    const parties = Array.from({ length: 40 }, (_, i) =>
      i % 4 === 3
        ? { tickets: [{ categoryId: adult, quantity: 1 }, { categoryId: child, quantity: 1 }], places: 2 }
        : { tickets: [{ categoryId: adult, quantity: 1 }, ...(i % 3 === 0 ? [{ categoryId: infant, quantity: 1 }] : [])], places: 1 },
    );
    const answers = await Promise.all(
      parties.map((p, i) =>
        call(i % 2 === 0 ? a : b, 'POST', '/v1/bookings', {
          experienceId: family.id,
          startTime,
          tickets: p.tickets,
          customerName: `Family ${i}`,
          customerEmail: `family${i}@example.com`,
        }),
      ),
    );
    expect(answers.every((x) => x.status === 201 || x.status === 409)).toBe(true);
    const taken = answers.reduce((n, x, i) => (x.status === 201 ? n + parties[i]!.places : n), 0);
    // 40 parties ask for 50 places: the slot fills, and never past its 30.
    expect(taken).toBeLessThanOrEqual(PLACES);
    expect(taken).toBeGreaterThanOrEqual(PLACES - 1);
    for (const x of answers.filter((y) => y.status === 409)) expect(ErrorEnvelope.parse(x.body).error.code).toBe('CAPACITY_EXCEEDED');
    const date = startTime.slice(0, 10);
    const after = await call(a, 'GET', `/v1/availability?experienceId=${family.id}&startDate=${date}&endDate=${date}`);
    const slot = dataEnvelope(Availability).parse(after.body).data.slots.find((s) => s.startTime === startTime)!;
    expect(slot.booked).toBe(taken);
    expect(slot.booked + slot.remaining).toBe(PLACES);
  }, 60_000);

  it('creates one booking for concurrent duplicates with one Idempotency-Key across both processes', async () => {
    const startTime = slots[ROUNDS + 1]!;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => bookOne(i % 2 === 0 ? a : b, startTime, 99_999, { 'idempotency-key': 'same-order' })),
    );
    expect(answers.map((x) => x.status)).toEqual(Array(40).fill(201));
    expect(new Set(answers.map((x) => JSON.stringify(x.body))).size).toBe(1);
    expect(answers.filter((x) => x.replayed === null)).toHaveLength(1);
    expect(await bookedIn(startTime)).toBe(1);
  }, 60_000);
});
