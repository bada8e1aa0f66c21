import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from './store/index.js';
import { openPostgresStore } from './store/postgres/index.js';
import { openStore } from './store/sqlite/store.js';
import { runCli, startTestServer, tempDir, type TestServer } from './test-helpers/cli.js';
import { createTestDatabase, testDatabaseUrl, type TestDatabase } from './test-helpers/postgres.js';

// Two real `outing serve` processes (the built bin/outing.js: `npm run build:server` first) over one
// database, on PostgreSQL and on SQLite: OCTO holds racing /v1 and widget bookings for a few places
// on both processes never oversell the slot, and a lapsed hold is cancelled once, as `expired`, by
// whichever process's sweeper finds it first, its places freed for the next booking.

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

interface Engine {
  name: string;
  skip: boolean;
  /** Makes the database, runs `outing init` on it; answers the flags for the servers and a store of the test's own. */
  open(): Promise<{ init: string[]; server: { dbPath: string | null; env: Record<string, string> }; store: () => Promise<Store>; drop(): Promise<void> }>;
}

const ENGINES: Engine[] = [
  {
    name: 'PostgreSQL',
    skip: !testDatabaseUrl(),
    async open() {
      const database: TestDatabase = await createTestDatabase();
      return {
        init: ['--database-url', database.url],
        server: { dbPath: null, env: { DATABASE_URL: database.url } },
        store: async () => await openPostgresStore(database.url, { poolSize: 2 }),
        drop: () => database.drop(),
      };
    },
  },
  {
    name: 'SQLite',
    skip: false,
    async open() {
      const path = join(tempDir('outing-octo-'), 'outing.db');
      return { init: ['--db', path], server: { dbPath: path, env: {} }, store: async () => openStore(path), drop: async () => {} };
    },
  },
];

for (const engine of ENGINES) {
  describe.skipIf(engine.skip)(`OCTO holds over two outing serve processes on ${engine.name}`, () => {
    let db: Awaited<ReturnType<Engine['open']>>;
    let apiKey: string;
    let publishableKey: string;
    let servers: TestServer[] = [];
    let store: Store;

    async function call(server: TestServer, method: string, path: string, body?: unknown, key: 'secret' | 'publishable' = 'secret'): Promise<Answer> {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          ...(key === 'publishable' ? { 'x-outing-key': publishableKey } : { authorization: `Bearer ${apiKey}` }),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: await res.json() };
    }

    beforeAll(async () => {
      db = await engine.open();
      const init = await runCli(['init', '--name', 'Two Quays', '--email', 'ops@two.example', '--timezone', 'UTC', ...db.init]);
      expect(init.code, init.stderr).toBe(0);
      ({ apiKey, publishableKey } = JSON.parse(init.stdout) as { apiKey: string; publishableKey: string });
      const env = { ...db.server.env, RATE_LIMIT_PER_MINUTE: '100000', PUBLIC_BOOKINGS_PER_MINUTE: '100000' };
      servers = await Promise.all([0, 1].map(() => startTestServer({ dbPath: db.server.dbPath, env, startTimeoutMs: 40_000 })));
      store = await db.store();
    }, 90_000);

    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop('SIGKILL')));
      await store?.close();
      await db?.drop();
    });

    it('holds, /v1 and widget bookings racing for 5 places on both processes take exactly 5; a lapsed hold is freed once', async () => {
      const [a, b] = servers as [TestServer, TestServer];
      const CAPACITY = 5;
      const created = await call(a, 'POST', '/v1/experiences', {
        name: 'Race skiff', description: '', duration: 60, price: 2000, maxParticipants: CAPACITY,
        schedule: { timezone: 'UTC', weekly: everyDayAt('18:00') },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const experienceId = created.body.data.id as string;
      const date = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
      const startTime = `${date}T18:00:00.000Z`;
      const slot = (await call(b, 'GET', `/v1/availability?experienceId=${experienceId}&startDate=${date}&endDate=${date}`)).body.data.slots[0];
      const guest = (who: string, i: number) => ({ experienceId, startTime, participants: 1, customerName: `${who} ${i}`, customerEmail: `${who}${i}@example.com` });
      const hold = { productId: experienceId, optionId: 'DEFAULT', availabilityId: slot.id as string, unitItems: [{ unitId: 'adult' }] };

      const answers = await Promise.all([
        ...Array.from({ length: 8 }, (_, i) => call(i % 2 ? a : b, 'POST', '/octo/bookings', hold)),
        ...Array.from({ length: 4 }, (_, i) => call(i % 2 ? b : a, 'POST', '/v1/bookings', guest('api', i))),
        ...Array.from({ length: 4 }, (_, i) => call(i % 2 ? a : b, 'POST', '/public/v1/bookings', guest('widget', i), 'publishable')),
      ]);
      const holds = answers.slice(0, 8);
      const others = answers.slice(8);
      for (const h of holds.filter((x) => x.status !== 200)) expect([h.status, h.body.error]).toEqual([400, 'UNPROCESSABLE_ENTITY']);
      for (const o of others.filter((x) => x.status !== 201)) expect([o.status, o.body.error?.code]).toEqual([409, 'CAPACITY_EXCEEDED']);
      const held = holds.filter((x) => x.status === 200);
      const won = held.length + others.filter((x) => x.status === 201).length;
      expect(won).toBe(CAPACITY);
      const slotOn = async (server: TestServer) => (await call(server, 'GET', `/v1/availability?experienceId=${experienceId}&startDate=${date}&endDate=${date}`)).body.data.slots[0];
      for (const server of servers) expect(await slotOn(server)).toMatchObject({ capacity: CAPACITY, booked: CAPACITY, remaining: 0 });
      const listed = (await call(b, 'GET', `/octo/bookings?localDate=${date}`)).body as { status: string }[];
      expect(listed).toHaveLength(held.length);

      // A hold of a whole departure lapses (its end moved into the past in the database): one of the
      // two sweepers cancels it, once, and its places can be booked again.
      const nextDate = new Date(Date.now() + 4 * 86_400_000).toISOString().slice(0, 10);
      const nextOn = async (server: TestServer) => (await call(server, 'GET', `/v1/availability?experienceId=${experienceId}&startDate=${nextDate}&endDate=${nextDate}`)).body.data.slots[0];
      const nextSlot = await nextOn(a);
      const whole = await call(b, 'POST', '/octo/bookings', { ...hold, availabilityId: nextSlot.id, unitItems: Array.from({ length: CAPACITY }, () => ({ unitId: 'adult' })) });
      expect(whole.status, JSON.stringify(whole.body)).toBe(200);
      const lapsing = whole.body as { id: string; uuid: string };
      const orgId = (await call(a, 'GET', '/v1/organization')).body.data.id as string;
      const row = await store.bookings.getBooking(orgId, lapsing.id);
      await store.bookings.updateBooking({ ...row!, holdExpiresAt: Date.now() - 1000 });
      expect(((await call(a, 'GET', `/octo/bookings/${lapsing.uuid}`)).body as { status: string }).status).toBe('EXPIRED');
      await waitUntil('the lapsed hold cancelled', async () => (await call(b, 'GET', `/v1/bookings/${lapsing.id}`)).body.data.status === 'CANCELLED', 20_000);
      expect((await call(a, 'GET', `/v1/bookings/${lapsing.id}`)).body.data).toMatchObject({ cancellationReason: 'expired' });
      // A few more sweeps of both processes change nothing.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const actions = ((await call(b, 'GET', `/v1/activity?targetId=${lapsing.id}`)).body.data as { action: string; actor: { type: string } }[]).map((x) => `${x.action}:${x.actor.type}`);
      expect(actions.filter((x) => x.startsWith('booking.cancel'))).toEqual(['booking.cancel:system']);
      for (const server of servers) expect(await nextOn(server)).toMatchObject({ booked: 0, remaining: CAPACITY });
      expect((await call(a, 'POST', '/v1/bookings', { ...guest('after', 0), startTime: `${nextDate}T18:00:00.000Z`, participants: CAPACITY })).status).toBe(201);
    }, 90_000);
  });
}
