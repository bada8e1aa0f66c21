import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startTestServer, type TestServer } from './test-helpers/cli.js';
import { createTestDatabase, testDatabaseUrl, type TestDatabase } from './test-helpers/postgres.js';
import { hang, respond, startReceiver, type Receiver } from './webhooks/test-helpers/receivers.js';

// Three real `outing serve` processes (the built bin/outing.js: `npm run build:server` first) over
// one PostgreSQL database, as docs/OPERATING.md ("Past one machine") runs them behind a balancer.
// Waits poll with generous deadlines; nothing asserts how long anything took.

const CALENDAR_INTERVAL_S = 2;
const ENV = {
  OUTBOUND_ALLOW_PRIVATE: 'true',
  // An attempt's time limit, and its lease less 2 s. Long enough that a loaded machine never times
  // out an attempt the receiver answered (it would be retried: delivered twice, by design).
  WEBHOOK_TIMEOUT_MS: '10000',
  WEBHOOK_RETRY_SCHEDULE: '1,1',
  CALENDAR_SYNC_INTERVAL: String(CALENDAR_INTERVAL_S),
  RATE_LIMIT_PER_MINUTE: '100000',
};
const everyDayAt = (time: string) => Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [time]]));
/** The 18:00 UTC slot `days` from today. */
const slotIn = (days: number) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)}T18:00:00.000Z`;

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function waitUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!testDatabaseUrl())('several outing serve processes over one PostgreSQL database', () => {
  let database: TestDatabase;
  let apiKey: string;
  let publishableKey: string;
  /** The running processes; scenario d replaces them. */
  let servers: TestServer[] = [];
  const everyServer: TestServer[] = [];
  const receivers: Receiver[] = [];

  const start = async (env: Record<string, string> = {}) => {
    const server = await startTestServer({ dbPath: null, env: { ...ENV, ...env, DATABASE_URL: database.url }, startTimeoutMs: 40_000 });
    everyServer.push(server);
    return server;
  };

  async function api(server: TestServer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const res = await fetch(`${server.url}${path}`, {
      method,
      // A header given as '' is left out (the widget's route sends no Authorization).
      headers: Object.fromEntries(
        Object.entries({ authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers }).filter(([, v]) => v !== ''),
      ),
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }

  async function experience(name: string, maxParticipants: number): Promise<string> {
    const res = await api(servers[0]!, 'POST', '/v1/experiences', {
      name, description: '', duration: 60, price: 2000, maxParticipants, maxPerBooking: 1,
      schedule: { timezone: 'UTC', weekly: everyDayAt('18:00') },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as string;
  }

  const booking = (experienceId: string, startTime: string, i: number) => ({
    experienceId, startTime, participants: 1, customerName: `Guest ${i}`, customerEmail: `guest${i}@example.com`,
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    const init = await runCli(['init', '--name', 'Three Harbours', '--email', 'ops@three.example', '--timezone', 'UTC', '--database-url', database.url]);
    expect(init.code, init.stderr).toBe(0);
    ({ apiKey, publishableKey } = JSON.parse(init.stdout) as { apiKey: string; publishableKey: string });
    servers = await Promise.all([start(), start(), start()]);
    expect(new Set(servers.map((s) => s.url)).size).toBe(3);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(everyServer.map((s) => s.stop('SIGKILL')));
    await Promise.all(receivers.map((r) => r.close()));
    await database?.drop();
  });

  it('a) sells exactly the places there are when 300 bookings race over three processes', async () => {
    const exp = await experience('Race boat', 20);
    const startTime = slotIn(3);
    // All 300 at once, 100 on each process: each queues most of them for its pooled connections
    // (DATABASE_POOL_SIZE, 10), and every transaction waits its turn for the write lock.
    const answers = await Promise.all(
      servers.flatMap((server, s) => Array.from({ length: 100 }, (_, i) => api(server, 'POST', '/v1/bookings', booking(exp, startTime, s * 100 + i)))),
    );
    expect(answers).toHaveLength(300);
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(280);
    for (const a of refused) expect([a.status, a.body?.error?.code]).toEqual([409, 'CAPACITY_EXCEEDED']);
    expect(new Set(answers.filter((a) => a.status === 201).map((a) => a.body.data.id)).size).toBe(20);

    const date = startTime.slice(0, 10);
    for (const server of servers) {
      const a = await api(server, 'GET', `/v1/availability?experienceId=${exp}&startDate=${date}&endDate=${date}`);
      expect(a.status).toBe(200);
      expect(a.body.data.slots[0]).toMatchObject({ startTime, capacity: 20, booked: 20, remaining: 0 });
    }
  }, 60_000);

  it('b) makes one booking of one Idempotency-Key sent to two processes at once', async () => {
    const exp = await experience('Idempotent sail', 10);
    const body = booking(exp, slotIn(4), 1);
    const headers = { 'idempotency-key': 'same-key-two-processes' };
    const [first, second] = await Promise.all([
      api(servers[0]!, 'POST', '/v1/bookings', body, headers),
      api(servers[1]!, 'POST', '/v1/bookings', body, headers),
    ]);
    // /v1/bookings runs its work and the stored reply in one transaction (services/unit-of-work.ts):
    // the later request replays the first one's reply, marked Idempotent-Replayed.
    expect([first!.status, second!.status]).toEqual([201, 201]);
    expect(first!.body.data.id).toBe(second!.body.data.id);
    expect([first!.headers.get('idempotent-replayed'), second!.headers.get('idempotent-replayed')].sort()).toEqual(['true', null].sort());
    const list = await api(servers[2]!, 'GET', `/v1/bookings?experienceId=${exp}`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((b: { id: string }) => b.id)).toEqual([first!.body.data.id]);
  }, 30_000);

  it('b) makes one booking of one Idempotency-Key sent to three processes at once on the widget route too', async () => {
    // POST /public/v1/bookings may await the network (a Stripe checkout), so its work is not one
    // transaction with the stored reply: the key is claimed in the database before the work starts.
    const exp = await experience('Idempotent kayak', 10);
    const body = booking(exp, slotIn(5), 2);
    const headers = { 'idempotency-key': 'widget-key-three-processes', 'x-outing-key': publishableKey, authorization: '' };
    const answers = await Promise.all(servers.map((server) => api(server, 'POST', '/public/v1/bookings', body, headers)));
    const made = answers.filter((a) => a.status === 201 && a.headers.get('idempotent-replayed') === null);
    expect(made, JSON.stringify(answers.map((a) => [a.status, a.body]))).toHaveLength(1);
    for (const a of answers.filter((x) => x !== made[0])) {
      // Replayed once the first finished, or refused while it was still in flight.
      if (a.status === 201) expect([a.headers.get('idempotent-replayed'), a.body.data.id]).toEqual(['true', made[0]!.body.data.id]);
      else expect([a.status, a.body?.error?.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE']);
    }
    const list = await api(servers[2]!, 'GET', `/v1/bookings?experienceId=${exp}`);
    expect(list.body.data).toHaveLength(1);
    // Once the first has answered, every process replays it.
    for (const server of servers) {
      const again = await api(server, 'POST', '/public/v1/bookings', body, headers);
      expect([again.status, again.headers.get('idempotent-replayed'), again.body.data.id]).toEqual([201, 'true', made[0]!.body.data.id]);
    }
  }, 30_000);

  it('c) delivers every booking event once, whichever process took the booking', async () => {
    const rx = await startReceiver(respond(200));
    receivers.push(rx);
    const endpoint = await api(servers[0]!, 'POST', '/v1/webhook-endpoints', { url: rx.url, events: ['BOOKING_CREATED'] });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    const exp = await experience('Webhook walk', 50);
    const startTime = slotIn(5);
    const made = await Promise.all(Array.from({ length: 30 }, (_, i) => api(servers[i % 3]!, 'POST', '/v1/bookings', booking(exp, startTime, i))));
    expect(made.map((a) => a.status)).toEqual(Array(30).fill(201));
    await rx.waitFor(30, 45_000);
    // Every delivery is recorded SUCCEEDED before we look for strays.
    await waitUntil('every delivery recorded', async () => {
      const log = await api(servers[2]!, 'GET', `/v1/webhook-endpoints/${endpoint.body.data.id}/deliveries?limit=100`);
      return log.body.data.length === 30 && log.body.data.every((d: { status: string }) => d.status === 'SUCCEEDED');
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const ids = rx.received.map((r) => r.headers['webhook-id']);
    const log = await api(servers[2]!, 'GET', `/v1/webhook-endpoints/${endpoint.body.data.id}/deliveries?limit=100`);
    const retried = log.body.data.filter((d: { attempts: number }) => d.attempts !== 1);
    expect(ids, `deliveries with more than one attempt: ${JSON.stringify(retried)}`).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    const booked = rx.received.map((r) => (JSON.parse(r.body) as { data: { booking: { id: string } } }).data.booking.id).sort();
    expect(booked).toEqual(made.map((a) => a.body.data.id as string).sort());
    // Later scenarios make bookings too: this endpoint hears no more.
    expect((await api(servers[0]!, 'DELETE', `/v1/webhook-endpoints/${endpoint.body.data.id}`)).status).toBe(200);
  }, 60_000);

  it('e) fetches an imported calendar once per interval, not once per process', async () => {
    const fetches: number[] = [];
    const feed: Server = createServer((req, res) => {
      fetches.push(Date.now());
      const body = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nEND:VCALENDAR\r\n';
      if (req.headers['if-none-match'] === '"v1"') return res.writeHead(304, { etag: '"v1"' }).end();
      res.writeHead(200, { 'content-type': 'text/calendar', etag: '"v1"' }).end(body);
    });
    await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/guide.ics`;
      const created = await api(servers[1]!, 'POST', '/v1/calendar-imports', { name: 'Guide', url });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      // The import's own fetch, then at least four background syncs by whichever process claims each.
      await waitUntil('five fetches of the feed', () => fetches.length >= 5, 45_000);
      expect((await api(servers[0]!, 'DELETE', `/v1/calendar-imports/${created.body.data.id}`)).status).toBe(200);
      // Each background fetch is a claim of one due time: the next is due a whole interval after it.
      // Three processes each syncing the import would fetch it within moments of each other. (The
      // first fetch, by the route that created the import, is left out: the import is stored due and
      // the route claims it a moment later, so a process passing in between fetches it too.)
      const background = fetches.slice(1);
      const gaps = background.slice(1).map((at, i) => at - background[i]!);
      expect(Math.min(...gaps), `gaps between fetches: ${gaps.join(', ')} ms`).toBeGreaterThan((CALENDAR_INTERVAL_S * 1000) / 2);
    } finally {
      feed.closeAllConnections();
      await new Promise<void>((resolve) => feed.close(() => resolve()));
    }
  }, 60_000);

  it('d) another process delivers a webhook whose sender was killed mid-delivery', async () => {
    // One process alone holds deliveries, so the sender is known: the three stop gracefully and a
    // sender starts alone, with a short attempt limit, so its lease (the limit plus 2 s) runs out soon.
    await Promise.all(servers.map((s) => s.stop('SIGTERM')));
    const sender = await start({ WEBHOOK_TIMEOUT_MS: '2000' });
    servers = [sender];
    const rx = await startReceiver(hang);
    receivers.push(rx);
    const endpoint = await api(sender!, 'POST', '/v1/webhook-endpoints', { url: rx.url, events: ['BOOKING_CREATED'] });
    expect(endpoint.status).toBe(201);
    const exp = await experience('Killed sender', 5);
    expect((await api(sender!, 'POST', '/v1/bookings', booking(exp, slotIn(6), 1))).status).toBe(201);
    const [first] = await rx.waitFor(1, 30_000);
    // The attempt is in flight, held open by the receiver: kill its sender.
    expect((await sender!.stop('SIGKILL')).signal).toBe('SIGKILL');
    rx.answer(respond(200));
    // Two other processes (the default attempt limit): one of them takes the delivery once the lease is out.
    servers = await Promise.all([start(), start()]);
    const [, second] = await rx.waitFor(2, 30_000);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
    await waitUntil('the delivery recorded', async () => {
      const log = await api(servers[0]!, 'GET', `/v1/webhook-endpoints/${endpoint.body.data.id}/deliveries`);
      return log.body.data[0]?.status === 'SUCCEEDED';
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // Delivered once by the survivors, not once by each.
    expect(rx.received).toHaveLength(2);
  }, 90_000);
});
