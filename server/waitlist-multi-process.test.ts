import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from './domain/ids.js';
import type { Store } from './store/index.js';
import { openPostgresStore } from './store/postgres/index.js';
import { runCli, startTestServer, type TestServer } from './test-helpers/cli.js';
import { createTestDatabase, testDatabaseUrl, type TestDatabase } from './test-helpers/postgres.js';

// Two real `outing serve` processes (the built bin/outing.js: `npm run build:server` first) over one
// PostgreSQL database: places freed while guests book on both go to the waiting guests first, never
// oversold; a lapsed offer is expired by one sweeper, once, and its place offered on.
// The waiting entries are written straight into the database (joining is another module's route).

interface Answer {
  status: number;
  body: any;
}

const everyDayAt = (time: string) => Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [time]]));

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(!testDatabaseUrl())('waitlist offers over two outing serve processes on PostgreSQL', () => {
  let database: TestDatabase;
  let apiKey: string;
  let publishableKey: string;
  let orgId: string;
  let servers: TestServer[] = [];
  let store: Store;

  async function api(server: TestServer, method: string, path: string, body?: unknown, publicKey = false): Promise<Answer> {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(publicKey ? { 'x-outing-key': publishableKey } : { authorization: `Bearer ${apiKey}` }),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: await res.json() };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const init = await runCli(['init', '--name', 'Two Piers', '--email', 'ops@two.example', '--timezone', 'UTC', '--database-url', database.url]);
    expect(init.code, init.stderr).toBe(0);
    ({ apiKey, publishableKey } = JSON.parse(init.stdout) as { apiKey: string; publishableKey: string });
    const env = { DATABASE_URL: database.url, RATE_LIMIT_PER_MINUTE: '100000', PUBLIC_BOOKINGS_PER_MINUTE: '100000' };
    servers = await Promise.all([0, 1].map(() => startTestServer({ dbPath: null, env, startTimeoutMs: 40_000 })));
    store = await openPostgresStore(database.url, { poolSize: 2 });
  }, 90_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
    await store?.close();
    await database?.drop();
  });

  it('cancellations racing bookings on both processes: the waiting guests get the freed places first; a lapsed offer passes on once', async () => {
    const [a, b] = servers as [TestServer, TestServer];
    const CAPACITY = 6;
    const created = await api(a, 'POST', '/v1/experiences', {
      name: 'Race ferry', description: '', duration: 60, price: 2000, maxParticipants: CAPACITY, waitlist: true,
      schedule: { timezone: 'UTC', weekly: everyDayAt('18:00') },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const experienceId = created.body.data.id as string;
    orgId = (await api(a, 'GET', '/v1/organization')).body.data.id as string;
    const startTime = `${new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)}T18:00:00.000Z`;
    const start = Date.parse(startTime);
    const booking = (i: number, who = 'guest') => ({ experienceId, startTime, participants: 1, customerName: `${who} ${i}`, customerEmail: `${who}${i}@example.com` });

    const bookingIds: string[] = [];
    for (let i = 0; i < CAPACITY; i++) {
      const made = await api(i % 2 ? a : b, 'POST', '/v1/bookings', booking(i));
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      bookingIds.push(made.body.data.id as string);
    }
    const wait = async (i: number) => {
      const now = Date.now();
      const id = newId('waitlistEntry', now);
      await store.waitlist.insertEntry({
        id, orgId, experienceId, slotStart: start, slotEnd: start + 3_600_000, status: 'WAITING', places: 1, totalParticipants: 1,
        tickets: '[]', answers: '[]', guestName: `Waiting ${i}`, guestEmail: `waiting${i}@example.com`, guestPhone: null, locale: 'en',
        tokenHash: null, offeredAt: null, offerExpiresAt: null, bookingId: null, createdAt: now + i, updatedAt: now + i,
      });
      return id;
    };
    const waiting = [await wait(0), await wait(1), await wait(2), await wait(3)];

    // Every cancellation and 20 rival bookings at once, half on each process.
    const answers = await Promise.all([
      ...bookingIds.map((id, i) => api(i % 2 ? a : b, 'PATCH', `/v1/bookings/${id}/cancel`, {})),
      ...Array.from({ length: 20 }, (_, i) => api(i % 2 ? b : a, 'POST', '/public/v1/bookings', booking(i, 'rival'), true)),
    ]);
    for (const c of answers.slice(0, CAPACITY)) expect(c.status, JSON.stringify(c.body)).toBe(200);
    const rivals = answers.slice(CAPACITY);
    for (const r of rivals.filter((x) => x.status !== 201)) expect([r.status, r.body.error.code]).toEqual([409, 'CAPACITY_EXCEEDED']);
    const won = rivals.filter((r) => r.status === 201).length;
    const entries = await Promise.all(waiting.map(async (id) => (await store.waitlist.getEntry(orgId, id))!));
    expect(entries.map((e) => e.status)).toEqual(['OFFERED', 'OFFERED', 'OFFERED', 'OFFERED']);
    expect(won).toBeLessThanOrEqual(CAPACITY - 4);
    const date = startTime.slice(0, 10);
    const slotOn = async (server: TestServer) => (await api(server, 'GET', `/v1/availability?experienceId=${experienceId}&startDate=${date}&endDate=${date}`)).body.data.slots[0];
    for (const server of servers) expect(await slotOn(server)).toMatchObject({ capacity: CAPACITY, booked: won + 4 });

    // Fill what is left, then one more guest waits; the first offer lapses.
    for (let i = 0; i < CAPACITY - 4 - won; i++) expect((await api(a, 'POST', '/v1/bookings', booking(i, 'filler'))).status).toBe(201);
    const next = await wait(4);
    const first = entries[0]!;
    expect(await store.waitlist.moveEntry(first.id, ['OFFERED'], 'OFFERED', { offerExpiresAt: Date.now() - 1000, updatedAt: Date.now() })).toBe(true);

    // Both processes' sweepers (every 5 s) see it: one expires it and offers its place to the next guest.
    await waitUntil('the lapsed offer expired and passed on', async () => (await store.waitlist.getEntry(orgId, next))?.status === 'OFFERED', 20_000);
    expect((await store.waitlist.getEntry(orgId, first.id))?.status).toBe('EXPIRED');
    // A few more sweeps of both processes change nothing.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const activity = async (targetId: string) => ((await api(b, 'GET', `/v1/activity?targetId=${targetId}`)).body.data as { action: string }[]).map((x) => x.action).reverse();
    expect(await activity(first.id)).toEqual(['waitlist.offer', 'waitlist.expire']);
    expect(await activity(next)).toEqual(['waitlist.offer']);
    for (const server of servers) expect(await slotOn(server)).toMatchObject({ capacity: CAPACITY, booked: CAPACITY, remaining: 0 });
  }, 90_000);
});
