import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp, expectData, expectError, expectList, expectValidationError, insertBookingRow, manualClock,
  type ManualClock, type TestApp,
} from '../test-helpers/index.js';
import { recordEvent } from '../services/event-log.js';
import { serializeBookingEventData } from '../serializers/event.js';
import { pruneExpired } from '../services/retention.js';
import { Deleted, Delivery, EVENT_KINDS, RotatedSecret, WebhookEndpoint, WebhookEndpointWithSecret } from '../../shared/index.js';

const RECEIVER = 'https://hooks.example.com/outing';

describe('webhook endpoints API', () => {
  let t: TestApp;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = manualClock(Date.UTC(2026, 10, 21, 10, 0, 0));
    t = await createTestApp({ now: clock.now, logLevel: 'silent' });
  });
  afterEach(() => t.close());

  const create = async (body: Record<string, unknown> = { url: RECEIVER }, key?: string) => {
    const res = await t.request('POST', '/v1/webhook-endpoints', { body, key });
    clock.advance(1000);
    return expectData(res, WebhookEndpointWithSecret, 201);
  };

  /** Fires one event for the org (as the bookings service does) and returns its id. */
  async function fireEvent(orgId = t.orgId): Promise<string> {
    const exp = (await t.store.experiences.listExperiences(orgId, {}, { limit: 1, offset: 0 })).rows[0] ?? await addExperience(orgId);
    const row = await insertBookingRow(t.store, { orgId, experienceId: exp.id });
    const view = (await t.store.bookings.getBooking(orgId, row.id))!;
    return (await t.store.transaction(async () => await recordEvent(t.store, orgId, 'BOOKING_CREATED', serializeBookingEventData(view), clock.now()))).id;
  }
  async function addExperience(orgId: string) {
    const now = clock.now();
    const row = {
      id: `exp_${Math.random().toString(36).slice(2, 12)}`, orgId, name: 'Walk', description: '', duration: 60, price: 1000,
      maxParticipants: 10, maxPerBooking: null, schedule: null, minNoticeMinutes: 0, maxAdvanceDays: 365, active: 1, priceCategories: '[]',
      createdAt: now, updatedAt: now,
    };
    await t.store.experiences.insertExperience(row);
    return row;
  }

  describe('POST /v1/webhook-endpoints', () => {
    it('registers an endpoint for every kind by default and shows its secret once', async () => {
      const endpoint = await create({ url: RECEIVER, description: 'CRM sync' });
      expect(endpoint).toEqual({
        id: endpoint.id,
        url: RECEIVER,
        events: [...EVENT_KINDS],
        description: 'CRM sync',
        enabled: true,
        disabledReason: null,
        secret: endpoint.secret,
        createdAt: '2026-11-21T10:00:00.000Z',
      });
      expect(endpoint.id).toMatch(/^whe_[A-Za-z0-9]+$/);
      expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(endpoint.secret.slice(6), 'base64')).toHaveLength(32);

      const fetched = expectData(await t.request('GET', `/v1/webhook-endpoints/${endpoint.id}`), WebhookEndpoint);
      expect(fetched).not.toHaveProperty('secret');
      const listed = expectList(await t.request('GET', '/v1/webhook-endpoints'), WebhookEndpoint);
      expect(JSON.stringify(listed)).not.toContain(endpoint.secret);
    });

    it('keeps the chosen event kinds', async () => {
      const endpoint = await create({ url: RECEIVER, events: ['BOOKING_CANCELED', 'PAYMENT_FAILED'] });
      expect(endpoint.events).toEqual(['BOOKING_CANCELED', 'PAYMENT_FAILED']);
      expect(endpoint.description).toBeNull();
    });

    it.each([
      [{}, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ url: 'ftp://hooks.example.com/x' }, 'url'],
      [{ url: 42 }, 'url'],
      [{ url: RECEIVER, events: ['BOOKING_EXPLODED'] }, 'events[0]'],
      [{ url: RECEIVER, events: [] }, 'events'],
      [{ url: RECEIVER, events: 'BOOKING_CREATED' }, 'events'],
      [{ url: RECEIVER, events: ['BOOKING_CREATED', 'BOOKING_CREATED'] }, 'events'],
      [{ url: RECEIVER, description: 'x'.repeat(501) }, 'description'],
      [{ url: RECEIVER, secret: 'whsec_mine' }, 'secret'],
    ])('refuses %j naming %s', async (body, path) => {
      expectValidationError(await t.request('POST', '/v1/webhook-endpoints', { body }), path);
    });

    it.each([
      'http://127.0.0.1/hook', 'http://10.0.0.1/', 'http://172.16.0.1/', 'http://192.168.1.1/', 'http://169.254.169.254/',
      'http://100.64.0.1/', 'http://0.0.0.0/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://[fe80::1]/',
      'http://[fc00::1]/', 'http://2130706433/', 'http://0x7f000001/', 'http://017700000001/', 'http://127.1/',
      'http://localhost:8080/', 'ftp://x/',
    ])('refuses %s as a receiver (SSRF guard)', async (url) => {
      const details = expectValidationError(await t.request('POST', '/v1/webhook-endpoints', { body: { url } }), 'url');
      expect(details[0]!.message.length).toBeGreaterThan(10);
    });

    it('accepts a name that does not resolve (it is checked at each delivery)', async () => {
      const endpoint = await create({ url: 'https://hooks.not-yet-registered.invalid/x' });
      expect(endpoint.url).toBe('https://hooks.not-yet-registered.invalid/x');
    });

    it('accepts loopback receivers when OUTBOUND_ALLOW_PRIVATE is on', async () => {
      const open = await createTestApp({ env: { OUTBOUND_ALLOW_PRIVATE: 'true' }, logLevel: 'silent' });
      try {
        const res = await open.request('POST', '/v1/webhook-endpoints', { body: { url: 'http://127.0.0.1:9999/hook' } });
        expect(res.status).toBe(201);
      } finally {
        await open.close();
      }
    });
  });

  describe('reading, changing and deleting', () => {
    it('lists endpoints oldest first with pagination', async () => {
      const a = await create();
      const b = await create({ url: `${RECEIVER}/b` });
      const c = await create({ url: `${RECEIVER}/c` });
      const page = expectList(await t.request('GET', '/v1/webhook-endpoints?limit=2'), WebhookEndpoint);
      expect(page.data.map((e) => e.id)).toEqual([a.id, b.id]);
      expect(page.pagination).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true });
      const rest = expectList(await t.request('GET', '/v1/webhook-endpoints?limit=2&offset=2'), WebhookEndpoint);
      expect(rest.data.map((e) => e.id)).toEqual([c.id]);
      expectValidationError(await t.request('GET', '/v1/webhook-endpoints?limit=0'), 'limit');
    });

    it('updates url, events, description and enabled', async () => {
      const endpoint = await create();
      const res = await t.request('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, {
        body: { url: `${RECEIVER}/v2`, events: ['BOOKING_CREATED'], description: 'v2', enabled: false },
      });
      const updated = expectData(res, WebhookEndpoint);
      expect(updated).toMatchObject({
        url: `${RECEIVER}/v2`, events: ['BOOKING_CREATED'], description: 'v2', enabled: false, disabledReason: 'Disabled through the API',
      });
      const again = expectData(await t.request('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { body: { enabled: true, description: null } }), WebhookEndpoint);
      expect(again).toMatchObject({ enabled: true, disabledReason: null, description: null });
    });

    it('refuses a bad patch naming the field', async () => {
      const endpoint = await create();
      const patch = (body: unknown) => t.request('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { body });
      expectValidationError(await patch({ url: 'http://192.168.0.10/' }), 'url');
      expectValidationError(await patch({ events: ['NOPE'] }), 'events[0]');
      expectValidationError(await patch({ enabled: 'yes' }), 'enabled');
      expectValidationError(await patch({ secret: 'x' }), 'secret');
      expectError(await patch({}), 400, 'VALIDATION_ERROR');
    });

    it('deletes an endpoint', async () => {
      const endpoint = await create();
      expect(expectData(await t.request('DELETE', `/v1/webhook-endpoints/${endpoint.id}`), Deleted)).toEqual({ id: endpoint.id, deleted: true });
      expectError(await t.request('GET', `/v1/webhook-endpoints/${endpoint.id}`), 404, 'NOT_FOUND');
      expectError(await t.request('DELETE', `/v1/webhook-endpoints/${endpoint.id}`), 404, 'NOT_FOUND');
    });

    it("answers 404 for another organization's endpoint and for ids of the wrong shape", async () => {
      const other = await t.addOrganization({ name: 'Other' });
      const theirs = await create({ url: RECEIVER }, other.secretKey);
      for (const [method, path] of [
        ['GET', `/v1/webhook-endpoints/${theirs.id}`],
        ['PATCH', `/v1/webhook-endpoints/${theirs.id}`],
        ['DELETE', `/v1/webhook-endpoints/${theirs.id}`],
        ['POST', `/v1/webhook-endpoints/${theirs.id}/rotate-secret`],
        ['GET', `/v1/webhook-endpoints/${theirs.id}/deliveries`],
        ['GET', '/v1/webhook-endpoints/xyz'],
        ['GET', '/v1/webhook-endpoints/whe_nope/deliveries'],
      ] as const) {
        const body = method === 'PATCH' ? { enabled: false } : undefined;
        expectError(await t.request(method, path, { body }), 404, 'NOT_FOUND');
      }
      expect(expectList(await t.request('GET', '/v1/webhook-endpoints'), WebhookEndpoint).data).toEqual([]);
    });

    it('needs webhooks:read to read and webhooks:write to change', async () => {
      const endpoint = await create();
      const reader = (await t.createKey({ scopes: ['webhooks:read'] })).key;
      const other = (await t.createKey({ scopes: ['bookings:read'] })).key;
      expect((await t.request('GET', '/v1/webhook-endpoints', { key: reader })).status).toBe(200);
      expect((await t.request('GET', '/v1/events', { key: reader })).status).toBe(200);
      const denied = expectError(await t.request('POST', '/v1/webhook-endpoints', { key: reader, body: { url: RECEIVER } }), 403, 'FORBIDDEN');
      expect(denied.message).toContain('webhooks:write');
      expectError(await t.request('POST', `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, { key: reader }), 403, 'FORBIDDEN');
      expectError(await t.request('GET', '/v1/webhook-endpoints', { key: other }), 403, 'FORBIDDEN');
      expectError(await t.request('GET', '/v1/events', { key: other }), 403, 'FORBIDDEN');
      expectError(await t.request('GET', '/v1/webhook-endpoints', { key: null }), 401, 'UNAUTHORIZED');
    });

    it('is served under /api/v1 too', async () => {
      const endpoint = await create();
      expect(expectData(await t.request('GET', `/api/v1/webhook-endpoints/${endpoint.id}`), WebhookEndpoint).id).toBe(endpoint.id);
    });
  });

  describe('rotate-secret', () => {
    it('returns a new secret and keeps the previous one signing for 24 hours', async () => {
      const endpoint = await create();
      const { secret } = expectData(await t.request('POST', `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`), RotatedSecret);
      expect(secret).toMatch(/^whsec_/);
      expect(secret).not.toBe(endpoint.secret);
      const row = (await t.store.webhooks.getWebhookEndpoint(t.orgId, endpoint.id))!;
      expect(row).toMatchObject({ secret, previousSecret: endpoint.secret, previousSecretUntil: clock.now() + 24 * 3600 * 1000 });
    });
  });

  describe('deliveries', () => {
    it('queues one delivery per subscribed, enabled endpoint in the transaction of the event', async () => {
      const all = await create();
      const cancels = await create({ url: RECEIVER, events: ['BOOKING_CANCELED'] });
      const off = await create();
      await t.request('PATCH', `/v1/webhook-endpoints/${off.id}`, { body: { enabled: false } });
      const eventId = await fireEvent();
      const log = expectList(await t.request('GET', `/v1/webhook-endpoints/${all.id}/deliveries`), Delivery);
      expect(log.data).toEqual([
        {
          id: log.data[0]!.id, eventId, event: 'BOOKING_CREATED', status: 'PENDING', attempts: 0, lastStatusCode: null,
          lastError: null, nextAttemptAt: new Date(clock.now()).toISOString(), createdAt: new Date(clock.now()).toISOString(),
          deliveredAt: null,
        },
      ]);
      expect(log.data[0]!.id).toMatch(/^dlv_[A-Za-z0-9]+$/);
      expect(expectList(await t.request('GET', `/v1/webhook-endpoints/${cancels.id}/deliveries`), Delivery).data).toEqual([]);
      expect(expectList(await t.request('GET', `/v1/webhook-endpoints/${off.id}/deliveries`), Delivery).data).toEqual([]);
    });

    it('lists deliveries newest first, paged', async () => {
      const endpoint = await create();
      const first = await fireEvent();
      clock.advance(1000);
      const second = await fireEvent();
      const page = expectList(await t.request('GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=1`), Delivery);
      expect(page.data.map((d) => d.eventId)).toEqual([second]);
      expect(page.pagination).toEqual({ total: 2, limit: 1, offset: 0, hasMore: true });
      const next = expectList(await t.request('GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=1&offset=1`), Delivery);
      expect(next.data.map((d) => d.eventId)).toEqual([first]);
    });

    it('fails pending deliveries when the endpoint is disabled', async () => {
      const endpoint = await create();
      await fireEvent();
      await t.request('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { body: { enabled: false } });
      const [d] = expectList(await t.request('GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries`), Delivery).data;
      expect(d).toMatchObject({ status: 'FAILED', attempts: 0, lastError: 'Endpoint disabled', nextAttemptAt: null });
    });

    it('retries a FAILED delivery now: 202 with it PENDING', async () => {
      const endpoint = await create();
      await fireEvent();
      const [d] = expectList(await t.request('GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries`), Delivery).data;
      await t.store.webhooks.recordDeliveryAttempt(d!.id, { status: 'FAILED', lastStatusCode: 500, lastError: 'Receiver answered 500', nextAttemptAt: null, deliveredAt: null });
      clock.advance(60_000);
      const res = await t.request('POST', `/v1/webhook-endpoints/${endpoint.id}/deliveries/${d!.id}/retry`);
      expect(expectData(res, Delivery, 202)).toMatchObject({
        id: d!.id, status: 'PENDING', attempts: 1, lastStatusCode: 500, nextAttemptAt: new Date(clock.now()).toISOString(),
      });
      expectError(await t.request('POST', `/v1/webhook-endpoints/${endpoint.id}/deliveries/dlv_missing/retry`), 404, 'NOT_FOUND');
      expectError(await t.request('POST', `/v1/webhook-endpoints/${endpoint.id}/deliveries/nope/retry`), 404, 'NOT_FOUND');
      const other = await create();
      expectError(await t.request('POST', `/v1/webhook-endpoints/${other.id}/deliveries/${d!.id}/retry`), 404, 'NOT_FOUND');
    });

    it('refuses to retry while the endpoint is disabled', async () => {
      const endpoint = await create();
      await fireEvent();
      const [d] = expectList(await t.request('GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries`), Delivery).data;
      await t.request('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { body: { enabled: false } });
      const error = expectError(await t.request('POST', `/v1/webhook-endpoints/${endpoint.id}/deliveries/${d!.id}/retry`), 409, 'CONFLICT');
      expect(error.message).toMatch(/disabled/);
    });

    it('drops deliveries with their endpoint, and with their events once past retention', async () => {
      const keep = await create();
      const drop = await create();
      await fireEvent();
      await t.request('DELETE', `/v1/webhook-endpoints/${drop.id}`);
      expect(await t.store.webhooks.listDueDeliveries(clock.now(), 10, 2)).toHaveLength(1);
      const pruned = await pruneExpired({ store: t.store, config: t.config }, clock.now() + 31 * 86_400_000);
      expect(pruned.events).toBe(1);
      expect(expectList(await t.request('GET', `/v1/webhook-endpoints/${keep.id}/deliveries`), Delivery).data).toEqual([]);
    });
  });

  it('documents every route in the OpenAPI document', async () => {
    const doc = (await t.request('GET', '/v1/openapi.json', { key: null })).body as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/v1/webhook-endpoints'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/v1/webhook-endpoints/{id}'] ?? {}).sort()).toEqual(['delete', 'get', 'patch']);
    expect(doc.paths['/v1/webhook-endpoints/{id}/rotate-secret']).toHaveProperty('post');
    expect(doc.paths['/v1/webhook-endpoints/{id}/deliveries']).toHaveProperty('get');
    expect(doc.paths['/v1/webhook-endpoints/{id}/deliveries/{deliveryId}/retry']).toHaveProperty('post');
    expect(doc.paths['/v1/events']).toHaveProperty('get');
  });
});
