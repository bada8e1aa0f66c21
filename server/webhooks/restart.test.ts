import { afterEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { processDatabase, runCli, startTestServer, type ProcessDatabase, type TestServer } from '../test-helpers/index.js';
import { hang, respond, startReceiver, type Receiver } from './test-helpers/receivers.js';
import { Delivery, WebhookEndpointWithSecret, listEnvelope } from '../../shared/index.js';

// The real built server (`npm run build:server` first), killed and started again on the same
// database: a SQLite file, or a PostgreSQL database (OUTING_TEST_ENGINE=postgres). A killed
// process's attempt is due again once its lease (the attempt's time limit plus 2 s) runs out, on
// either engine; with a 1.5 s limit that is soon.
const ENV = { OUTBOUND_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '1500', WEBHOOK_RETRY_SCHEDULE: '1,1' };

const servers: TestServer[] = [];
let receiver: Receiver | undefined;
let db: ProcessDatabase | undefined;
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop('SIGKILL')));
  await receiver?.close();
  await db?.drop();
  db = undefined;
});

async function api(server: TestServer, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** The endpoint's only delivery once it is no longer PENDING: the receiver has a request a moment before its outcome is recorded. */
async function settledDelivery(server: TestServer, key: string, endpointId: string): Promise<Delivery | undefined> {
  let delivery: Delivery | undefined;
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    const log = await api(server, key, 'GET', `/v1/webhook-endpoints/${endpointId}/deliveries`);
    [delivery] = listEnvelope(Delivery).parse(log.body).data;
    if (delivery?.status !== 'PENDING') break;
  }
  return delivery;
}

/** A database with an org, served; an endpoint pointing at `receiver`; one booking made (so one event queued). */
async function bookedOnFreshServer(rx: Receiver, env: Record<string, string> = ENV) {
  const database = await processDatabase();
  db = database;
  const init = await runCli(['init', '--name', 'Restart Tours', '--email', 'ops@restart.example', '--timezone', 'UTC', ...database.args]);
  expect(init.code, init.stderr).toBe(0);
  const { apiKey } = JSON.parse(init.stdout) as { apiKey: string };
  const server = await startTestServer({ ...database.server, env });
  servers.push(server);
  const endpoint = WebhookEndpointWithSecret.parse((await api(server, apiKey, 'POST', '/v1/webhook-endpoints', { url: rx.url })).body.data);
  const exp = await api(server, apiKey, 'POST', '/v1/experiences', {
    name: 'Sunset sail', description: '', duration: 60, price: 5000, maxParticipants: 10,
    schedule: { timezone: 'UTC', weekly: { mon: ['18:00'], tue: ['18:00'], wed: ['18:00'], thu: ['18:00'], fri: ['18:00'], sat: ['18:00'], sun: ['18:00'] } },
  });
  expect(exp.status).toBe(201);
  const startTime = `${new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)}T18:00:00.000Z`;
  const booking = await api(server, apiKey, 'POST', '/v1/bookings', {
    experienceId: exp.body.data.id, startTime, participants: 2, customerName: 'Ana', customerEmail: 'ana@example.com',
  });
  expect(booking.status).toBe(201);
  return { database, apiKey, server, endpoint };
}

describe('webhook delivery across restarts', () => {
  it('delivers, with the same webhook-id, an event whose attempt was cut short by SIGKILL', async () => {
    receiver = await startReceiver(hang);
    const { database, apiKey, server, endpoint } = await bookedOnFreshServer(receiver);
    const [first] = await receiver.waitFor(1);
    // The attempt is in flight (the receiver holds it open): kill the server mid-attempt.
    expect((await server.stop('SIGKILL')).signal).toBe('SIGKILL');
    receiver.answer(respond(200));

    const again = await startTestServer({ ...database.server, env: ENV });
    servers.push(again);
    const [, second] = await receiver.waitFor(2, 20_000);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
    const event = new Webhook(endpoint.secret).verify(second!.body, second!.headers) as { id: string; event: string };
    expect(event).toMatchObject({ id: first!.headers['webhook-id'], event: 'BOOKING_CREATED' });

    const delivery = await settledDelivery(again, apiKey, endpoint.id);
    expect(delivery).toMatchObject({ eventId: event.id, status: 'SUCCEEDED', lastStatusCode: 200 });
    expect((await again.stop('SIGTERM')).code).toBe(0);
  });

  it('resumes pending retries after a graceful restart, and SIGTERM does not wait for a hanging receiver', async () => {
    // An attempt's time limit longer than the shutdown grace (3 s): the hanging attempt gets cancelled.
    const env = { ...ENV, WEBHOOK_TIMEOUT_MS: '60000' };
    receiver = await startReceiver(respond(503));
    const { database, apiKey, server, endpoint } = await bookedOnFreshServer(receiver, env);
    await receiver.waitFor(1);
    receiver.answer(hang);
    await receiver.waitFor(2, 20_000);
    // The second attempt hangs; a graceful stop cancels it after a short grace instead of waiting it out.
    const started = Date.now();
    expect((await server.stop('SIGTERM')).code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    receiver.answer(respond(200));

    // The cancelled attempt was not counted and its lease released: it is due again at once.
    const again = await startTestServer({ ...database.server, env });
    servers.push(again);
    const all = await receiver.waitFor(3, 20_000);
    expect(new Set(all.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const delivery = await settledDelivery(again, apiKey, endpoint.id);
    expect(delivery).toMatchObject({ status: 'SUCCEEDED', attempts: 2, lastStatusCode: 200 });
  });
});
