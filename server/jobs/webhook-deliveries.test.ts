import { afterEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createTestApp, type TestApp } from '../test-helpers/index.js';
import { createLogger } from '../logger.js';
import { recordEvent } from '../services/event-log.js';
import { serializeBookingEventData } from '../serializers/event.js';
import type { Resolver } from '../net/outbound.js';
import { webhookDeliveryJob, type WebhookWorker, type WebhookWorkerOptions } from './webhook-deliveries.js';
import {
  bookingFixture, createEndpoint, eventually, hang, reset, respond, startReceiver, type Receiver,
} from '../webhooks/test-helpers/receivers.js';
import { Delivery, EVENT_KINDS, EventBooking, EventPayment, EventRefund, WebhookEndpoint, WebhookEvent, listEnvelope } from '../../shared/index.js';

let t: TestApp;
let worker: WebhookWorker | undefined;
const receivers: Receiver[] = [];

/**
 * A test app and its delivery worker. The worker's poll interval is a minute, longer than any wait
 * here: every delivery in these tests shows the worker waking by itself (a new event, a due retry).
 */
async function setup(env: Record<string, string> = {}, workerOptions: Partial<WebhookWorkerOptions> = {}) {
  t = await createTestApp({
    env: { OUTBOUND_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '0.2,0.2', WEBHOOK_TIMEOUT_MS: '2000', ...env },
    logLevel: 'silent',
  });
  worker = webhookDeliveryJob({ store: t.store, config: t.config, logger: createLogger('silent'), pollMs: 60_000, stopGraceMs: 100, ...workerOptions });
  await worker.start();
  return t;
}

async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

async function deliveries(endpointId: string) {
  const res = await t.request('GET', `/v1/webhook-endpoints/${endpointId}/deliveries?limit=100`);
  expect(res.status).toBe(200);
  return listEnvelope(Delivery).parse(res.body).data;
}

/** The deliveries of an endpoint once none is PENDING any more. */
const settled = (endpointId: string, count: number, timeoutMs?: number) =>
  eventually(async () => {
    const list = await deliveries(endpointId);
    return list.length === count && list.every((d) => d.status !== 'PENDING') ? list : undefined;
  }, timeoutMs);

afterEach(async () => {
  await worker?.stop();
  worker = undefined;
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  await t?.close();
});

describe('webhook delivery', () => {
  it('delivers every event kind with the contract body, signed so standardwebhooks verifies it', async () => {
    await setup();
    const rx = await receiver();
    const endpoint = await createEndpoint(t, { url: rx.url });
    const { book } = await bookingFixture(t);

    const booking = await book();
    const patched = await t.request('PATCH', `/v1/bookings/${booking.id}`, { body: { participants: 3 } });
    expect(patched.status, patched.text).toBe(200);
    const cancelled = await t.request('PATCH', `/v1/bookings/${booking.id}/cancel`, { body: { reason: 'Weather' } });
    expect(cancelled.status, cancelled.text).toBe(200);
    // Payments have no API yet: record their events the way the payments service will.
    const view = (await t.store.bookings.getBooking(t.orgId, booking.id))!;
    const payment = (status: 'SUCCEEDED' | 'FAILED') => ({
      id: `pay_${status}`, amount: '135.00', currency: 'EUR', status, provider: 'manual', method: 'CASH' as const, failureReason: status === 'FAILED' ? 'card_declined' : null,
    });
    await t.store.transaction(async () => {
      await recordEvent(t.store, t.orgId, 'PAYMENT_SUCCEEDED', serializeBookingEventData(view, { payment: payment('SUCCEEDED') }), Date.now());
      await recordEvent(t.store, t.orgId, 'PAYMENT_FAILED', serializeBookingEventData(view, { payment: payment('FAILED') }), Date.now());
      const refund = { id: 're_1', amount: '20.00', currency: 'EUR', method: 'CASH' as const, status: 'SUCCEEDED' as const, reason: null };
      await recordEvent(t.store, t.orgId, 'PAYMENT_REFUNDED', serializeBookingEventData({ ...view, amountRefunded: 2000 }, { refund }), Date.now());
    });

    const got = await rx.waitFor(6);
    const verifier = new Webhook(endpoint.secret);
    const bodies = got.map((r) => {
      expect(r.method).toBe('POST');
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['user-agent']).toBe('Outing-Webhooks/1');
      expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      const verified = verifier.verify(r.body, r.headers) as Record<string, unknown>;
      expect(Object.keys(verified).sort()).toEqual(['data', 'event', 'id', 'timestamp']);
      const event = WebhookEvent.parse(verified);
      expect(r.headers['webhook-id']).toBe(event.id);
      expect(event.id).toMatch(/^evt_[A-Za-z0-9]+$/);
      EventBooking.strict().parse(event.data.booking);
      expect(event.data.experience).toEqual(booking.experience);
      expect(event.data.timeSlot).toEqual(booking.timeSlot);
      return event;
    });
    const byKind = Object.fromEntries(bodies.map((e) => [e.event, e]));
    expect(Object.keys(byKind).sort()).toEqual([...EVENT_KINDS].sort());
    expect(byKind.BOOKING_CREATED!.data.booking).toMatchObject({ id: booking.id, status: 'CONFIRMED', totalParticipants: 2 });
    expect(byKind.BOOKING_CREATED!.data.changes).toBeUndefined();
    expect(byKind.BOOKING_UPDATED!.data.changes).toMatchObject({ totalParticipants: { from: 2, to: 3 } });
    expect(byKind.BOOKING_CANCELED!.data.booking).toMatchObject({ status: 'CANCELLED', cancellationReason: 'Weather' });
    for (const kind of ['PAYMENT_SUCCEEDED', 'PAYMENT_FAILED'] as const) {
      expect(EventPayment.strict().parse(byKind[kind]!.data.payment)).toMatchObject({ status: kind.slice(8) });
    }
    expect(EventRefund.strict().parse(byKind.PAYMENT_REFUNDED!.data.refund)).toMatchObject({ id: 're_1', status: 'SUCCEEDED' });
    expect(byKind.PAYMENT_REFUNDED!.data.booking.amountRefunded).toBe('20.00');

    // The body sent is the stored event, byte for byte: /v1/events returns the same.
    const events = await t.request('GET', '/v1/events');
    expect(got.map((r) => JSON.parse(r.body)).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [...events.body.data].sort((a, b) => a.id.localeCompare(b.id)),
    );
    const log = await settled(endpoint.id, 6);
    for (const d of log) expect(d).toMatchObject({ status: 'SUCCEEDED', attempts: 1, lastStatusCode: 200, lastError: null, nextAttemptAt: null });
    for (const d of log) expect(d.deliveredAt).not.toBeNull();
  });

  it('sends an endpoint only the kinds it subscribes to, and nothing to a disabled endpoint', async () => {
    await setup();
    const [all, cancels, off] = await Promise.all([receiver(), receiver(), receiver()]);
    await createEndpoint(t, { url: all.url });
    await createEndpoint(t, { url: cancels.url, events: ['BOOKING_CANCELED'] });
    const disabled = await createEndpoint(t, { url: off.url });
    expect((await t.request('PATCH', `/v1/webhook-endpoints/${disabled.id}`, { body: { enabled: false } })).status).toBe(200);
    const { book } = await bookingFixture(t);
    const booking = await book();
    await t.request('PATCH', `/v1/bookings/${booking.id}/cancel`, { body: {} });

    await all.waitFor(2);
    const [onlyCancel] = await cancels.waitFor(1);
    expect(JSON.parse(onlyCancel!.body).event).toBe('BOOKING_CANCELED');
    expect(await deliveries(disabled.id)).toEqual([]);
    expect(off.received).toEqual([]);
    expect(cancels.received).toHaveLength(1);
  });

  it('retries a failing receiver with the same webhook-id, re-signed each time, and fails after 1 + schedule length attempts', async () => {
    await setup();
    const rx = await receiver(respond(500));
    const endpoint = await createEndpoint(t, { url: rx.url });
    const { book } = await bookingFixture(t);
    await book();

    const [delivery] = await settled(endpoint.id, 1);
    expect(delivery).toMatchObject({
      status: 'FAILED', attempts: 3, lastStatusCode: 500, lastError: 'Receiver answered 500', nextAttemptAt: null, deliveredAt: null,
    });
    expect(rx.received).toHaveLength(3);
    const ids = new Set(rx.received.map((r) => r.headers['webhook-id']));
    expect([...ids]).toEqual([delivery!.eventId]);
    for (const r of rx.received) new Webhook(endpoint.secret).verify(r.body, r.headers);
    // Attempts keep the schedule's order: each waits for the one before it.
    for (let i = 1; i < rx.received.length; i++) expect(rx.received[i]!.at).toBeGreaterThanOrEqual(rx.received[i - 1]!.at + 150);

    // A manual retry sends a FAILED delivery once more.
    rx.answer(respond(204));
    const retried = await t.request('POST', `/v1/webhook-endpoints/${endpoint.id}/deliveries/${delivery!.id}/retry`);
    expect(retried.status).toBe(202);
    expect(Delivery.parse(retried.body.data)).toMatchObject({ id: delivery!.id, status: 'PENDING' });
    await rx.waitFor(4);
    const [after] = await settled(endpoint.id, 1);
    expect(after).toMatchObject({ status: 'SUCCEEDED', attempts: 4, lastStatusCode: 204, lastError: null });
    expect(rx.received[3]!.headers['webhook-id']).toBe(delivery!.eventId);
  });

  it("waits for the receiver's Retry-After when it is longer than the schedule", async () => {
    await setup({ WEBHOOK_RETRY_SCHEDULE: '0.1,0.1' });
    const rx = await receiver(respond(503, { 'retry-after': '2' }));
    const endpoint = await createEndpoint(t, { url: rx.url });
    const { book } = await bookingFixture(t);
    await book();
    const [first] = await rx.waitFor(1);
    rx.answer(respond(200));
    const pending = await eventually(async () => {
      const [d] = await deliveries(endpoint.id);
      return d && d.attempts === 1 ? d : undefined;
    });
    expect(pending).toMatchObject({ status: 'PENDING', lastStatusCode: 503 });
    expect(Date.parse(pending.nextAttemptAt!) - first!.at).toBeGreaterThanOrEqual(1900);
    const [, second] = await rx.waitFor(2);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1900);
    expect((await settled(endpoint.id, 1))[0]).toMatchObject({ status: 'SUCCEEDED', attempts: 2 });
  });

  it('disables the endpoint on 410 Gone and fails its pending deliveries', async () => {
    await setup({}, { maxPerEndpoint: 1 });
    // The receiver answers once both bookings are made: a 410 before the second would leave it no delivery.
    let bothBooked!: () => void;
    const booked = new Promise<void>((resolve) => (bothBooked = resolve));
    const rx = await receiver((req, res, received) => void booked.then(() => respond(410)(req, res, received)));
    const endpoint = await createEndpoint(t, { url: rx.url });
    const { book } = await bookingFixture(t);
    await book();
    await book();
    bothBooked();

    const log = await settled(endpoint.id, 2);
    expect(rx.received).toHaveLength(1);
    const gone = log.find((d) => d.attempts === 1);
    expect(gone).toMatchObject({ status: 'FAILED', lastStatusCode: 410 });
    expect(log.find((d) => d.attempts === 0)).toMatchObject({ status: 'FAILED', lastError: expect.stringContaining('410') });
    const after = WebhookEndpoint.parse((await t.request('GET', `/v1/webhook-endpoints/${endpoint.id}`)).body.data);
    expect(after.enabled).toBe(false);
    expect(after.disabledReason).toMatch(/410 Gone/);

    await book();
    expect(await deliveries(endpoint.id)).toHaveLength(2);
    const retry = await t.request('POST', `/v1/webhook-endpoints/${endpoint.id}/deliveries/${gone!.id}/retry`);
    expect(retry.status).toBe(409);
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    await setup({ WEBHOOK_RETRY_SCHEDULE: '0.1' });
    const target = await receiver();
    const rx = await receiver(respond(307, { location: target.url }));
    const endpoint = await createEndpoint(t, { url: rx.url });
    const { book } = await bookingFixture(t);
    await book();
    const [d] = await settled(endpoint.id, 1);
    expect(d).toMatchObject({ status: 'FAILED', attempts: 2, lastStatusCode: 307, lastError: 'Receiver answered 307: redirects are not followed' });
    expect(target.received).toEqual([]);
  });

  it('times out a hanging receiver without delaying deliveries to another endpoint', async () => {
    await setup({ WEBHOOK_TIMEOUT_MS: '3000', WEBHOOK_RETRY_SCHEDULE: '30' });
    const slow = await receiver(hang);
    const fast = await receiver();
    const slowEndpoint = await createEndpoint(t, { url: slow.url });
    await createEndpoint(t, { url: fast.url });
    const { book } = await bookingFixture(t);
    for (let i = 0; i < 5; i++) await book();

    await fast.waitFor(5);
    // Every fast delivery is in while the slow receiver still holds its first attempts open.
    const slowLog = await deliveries(slowEndpoint.id);
    expect(slowLog.every((d) => d.attempts === 0)).toBe(true);
    expect(slow.maxOpen()).toBeLessThanOrEqual(2);

    const timedOut = await eventually(async () => {
      const list = await deliveries(slowEndpoint.id);
      const done = list.filter((d) => d.attempts === 1);
      return done.length >= 2 ? done : undefined;
    });
    for (const d of timedOut) expect(d).toMatchObject({ status: 'PENDING', lastStatusCode: null, lastError: 'No response within 3000 ms' });
    expect(slow.maxOpen()).toBeLessThanOrEqual(2);
  });

  it('records a connection the receiver drops as a failed attempt', async () => {
    await setup({ WEBHOOK_RETRY_SCHEDULE: '0.1' });
    const rx = await receiver(reset);
    const endpoint = await createEndpoint(t, { url: rx.url });
    const { book } = await bookingFixture(t);
    await book();
    const [d] = await settled(endpoint.id, 1);
    expect(d).toMatchObject({ status: 'FAILED', attempts: 2, lastStatusCode: null });
    expect(d!.lastError).toMatch(/Connection (reset|closed) by the receiver/);
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    await setup();
    const rx = await receiver();
    const endpoint = await createEndpoint(t, { url: rx.url });
    const rotated = await t.request('POST', `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const { secret } = rotated.body.data as { secret: string };
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(endpoint.secret);
    const { book } = await bookingFixture(t);
    await book();
    const [first] = await rx.waitFor(1);
    expect(first!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    new Webhook(secret).verify(first!.body, first!.headers);
    new Webhook(endpoint.secret).verify(first!.body, first!.headers);

    // 24 hours later the old secret signs no more.
    const row = (await t.store.webhooks.getWebhookEndpoint(t.orgId, endpoint.id))!;
    await t.store.webhooks.updateWebhookEndpoint({ ...row, previousSecretUntil: Date.now() - 1 });
    await book();
    const [, second] = await rx.waitFor(2);
    expect(second!.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    new Webhook(secret).verify(second!.body, second!.headers);
    expect(() => new Webhook(endpoint.secret).verify(second!.body, second!.headers)).toThrow();
  });

  it('checks resolved addresses at delivery time: a name resolving to loopback is refused, one that does not resolve fails', async () => {
    const resolver: Resolver = async (name) => {
      if (name === 'hooks.rebind.example') return [{ address: '127.0.0.1', family: 4 }];
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    };
    await setup({ OUTBOUND_ALLOW_PRIVATE: 'false', WEBHOOK_RETRY_SCHEDULE: '0.1' }, { resolver });
    const rx = await receiver();
    const rebinding = await createEndpoint(t, { url: `http://hooks.rebind.example:${rx.port}/hooks` });
    const missing = await createEndpoint(t, { url: 'https://no-such-host.invalid/hooks' });
    const { book } = await bookingFixture(t);
    await book();
    const [refused] = await settled(rebinding.id, 1);
    expect(refused).toMatchObject({ status: 'FAILED', attempts: 2, lastStatusCode: null });
    expect(refused!.lastError).toBe('hooks.rebind.example resolves to a loopback address; set OUTBOUND_ALLOW_PRIVATE=true to allow it');
    const [unresolved] = await settled(missing.id, 1);
    expect(unresolved!.lastError).toBe('Could not resolve no-such-host.invalid (ENOTFOUND)');
    expect(rx.received).toEqual([]);
  });

  it('stops promptly, leaving an attempt in flight due again rather than counted', async () => {
    await setup({ WEBHOOK_TIMEOUT_MS: '20000' }, { stopGraceMs: 100 });
    const rx = await receiver(hang);
    const endpoint = await createEndpoint(t, { url: rx.url });
    const { book } = await bookingFixture(t);
    await book();
    await rx.waitFor(1);
    const started = Date.now();
    await worker!.stop();
    expect(Date.now() - started).toBeLessThan(5_000);
    const [d] = await deliveries(endpoint.id);
    expect(d).toMatchObject({ status: 'PENDING', attempts: 0 });
    expect((await t.store.webhooks.listDueDeliveries(Date.now(), 10, 2)).map((x) => x.id)).toEqual([d!.id]);
  });
});
