import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Store } from './index.js';
import type { EventRow } from './events.js';
import type { WebhookEndpointRow } from './webhooks.js';
import { addOrganization, openTestStore, testEngine } from '../test-helpers/index.js';
import { REFUSALS } from '../test-helpers/engines.js';

// Behaviour of the store, not of one engine: the vitest project server-postgres runs these same
// tests against a leased, migrated PostgreSQL database.

/** Deliveries are numbered in the order the store makes them, so ties ordered by id can be stated. */
const made = vi.hoisted(() => ({ next: 0 }));
vi.mock('../domain/ids.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../domain/ids.js')>();
  return {
    ...actual,
    newId: (...args: Parameters<typeof actual.newId>) =>
      args[0] === 'delivery' ? `${actual.newId(...args).split('_')[0]}_${String(made.next++).padStart(6, '0')}` : actual.newId(...args),
  };
});

const tick = async (): Promise<void> => await new Promise((resolve) => setImmediate(resolve));
const page = (limit: number, offset: number) => ({ limit, offset });
const refusal = (why: keyof typeof REFUSALS) => ({
  code: testEngine() === 'postgres' ? REFUSALS[why].pg : expect.stringMatching(REFUSALS[why].sqlite),
});

describe(`webhook store (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let store: Store;
  let orgA: string;
  let orgB: string;
  beforeEach(async () => {
    opened = await openTestStore();
    store = opened.store;
    orgA = (await addOrganization(store, { name: 'A Tours' })).orgId;
    orgB = (await addOrganization(store, { name: 'B Tours', email: 'b@example.com' })).orgId;
  });
  afterEach(async () => {
    await opened.close();
  });

  const endpoint = (id: string, orgId: string, events: string[], createdAt: number, enabled = 1): WebhookEndpointRow => ({
    id, orgId, url: `https://example.com/${id}`, events: JSON.stringify(events), description: null, enabled,
    secret: `whsec_${id}`, previousSecret: null, previousSecretUntil: null, disabledReason: null, createdAt, updatedAt: createdAt,
  });
  const event = (id: string, orgId: string, type: string, createdAt: number): EventRow => ({
    id, orgId, type, bookingId: 'bk_1', payload: JSON.stringify({ id, event: type }), createdAt,
  });
  /** An event and its deliveries, as services/event-log.ts records them: in one transaction. */
  const record = async (row: EventRow): Promise<number> =>
    await store.transaction(async () => {
      await store.events.insertEvent(row);
      return await store.webhooks.enqueueDeliveries(row.orgId, row.id, row.type, row.createdAt);
    });

  it('keeps endpoints: insert, read, page, update, disable, delete', async () => {
    const created = ['booking.created', 'booking.cancelled'];
    // Ties on created_at: ids sort byte by byte (B < Z < a).
    for (const row of [
      endpoint('we_a', orgA, created, 100),
      endpoint('we_B', orgA, created, 100),
      endpoint('we_Z', orgA, ['booking.created'], 100),
      endpoint('we_0', orgA, ['booking.cancelled'], 50),
      endpoint('we_x', orgB, created, 10),
    ]) {
      await store.webhooks.insertWebhookEndpoint(row);
    }
    await expect(store.webhooks.insertWebhookEndpoint(endpoint('we_a', orgA, created, 300))).rejects.toMatchObject(refusal('unique'));
    await expect(store.webhooks.insertWebhookEndpoint(endpoint('we_y', 'org_none', created, 300))).rejects.toMatchObject(refusal('foreignKey'));

    expect(await store.webhooks.getWebhookEndpoint(orgA, 'we_a')).toStrictEqual(endpoint('we_a', orgA, created, 100));
    expect(await store.webhooks.getWebhookEndpoint(orgB, 'we_a')).toBeUndefined();
    expect(await store.webhooks.getWebhookEndpoint(orgA, 'we_missing')).toBeUndefined();
    const ids = async (offset: number) => {
      const { rows, total } = await store.webhooks.listWebhookEndpoints(orgA, page(2, offset));
      return { ids: rows.map((r) => r.id), total };
    };
    expect(await ids(0)).toEqual({ ids: ['we_0', 'we_B'], total: 4 });
    expect(await ids(2)).toEqual({ ids: ['we_Z', 'we_a'], total: 4 });
    expect(await ids(8)).toEqual({ ids: [], total: 4 });
    expect(await store.webhooks.listWebhookEndpoints('org_none', page(20, 0))).toEqual({ rows: [], total: 0 });

    const changed: WebhookEndpointRow = {
      ...endpoint('we_a', orgA, ['booking.confirmed'], 100), description: 'CRM', secret: 'whsec_new',
      previousSecret: 'whsec_we_a', previousSecretUntil: 5000, updatedAt: 400,
    };
    await store.webhooks.updateWebhookEndpoint(changed);
    await store.webhooks.updateWebhookEndpoint({ ...changed, orgId: orgB, url: 'https://evil.example' }); // not orgB's
    expect(await store.webhooks.getWebhookEndpoint(orgA, 'we_a')).toStrictEqual(changed);

    await store.webhooks.disableWebhookEndpoint('we_B', 'Receiver answered 410 Gone', 500);
    await store.webhooks.disableWebhookEndpoint('we_missing', 'nothing', 500);
    expect(await store.webhooks.getWebhookEndpoint(orgA, 'we_B')).toMatchObject({ enabled: 0, disabledReason: 'Receiver answered 410 Gone', updatedAt: 500 });

    expect(await store.webhooks.deleteWebhookEndpoint(orgA, 'we_Z')).toBe(true);
    expect(await store.webhooks.deleteWebhookEndpoint(orgA, 'we_Z')).toBe(false);
    expect(await store.webhooks.deleteWebhookEndpoint(orgA, 'we_x')).toBe(false); // orgB's
    expect((await store.webhooks.listWebhookEndpoints(orgA, page(20, 0))).rows.map((r) => r.id)).toEqual(['we_0', 'we_B', 'we_a']);
  });

  it('queues, lists, leases, records, fails, requeues and forgets deliveries', async () => {
    for (const row of [
      endpoint('we_a', orgA, ['booking.created', 'booking.cancelled'], 100),
      endpoint('we_B', orgA, ['booking.created'], 100),
      endpoint('we_c', orgA, ['booking.cancelled'], 200),
      endpoint('we_off', orgA, ['booking.created'], 50, 0),
      endpoint('we_x', orgB, ['booking.created'], 10),
    ]) {
      await store.webhooks.insertWebhookEndpoint(row);
    }

    // Subscribers only: enabled, of the org, naming the kind exactly.
    expect(await record(event('evt_1', orgA, 'booking.created', 1000))).toBe(2);
    expect(await record(event('evt_2', orgA, 'booking.cancelled', 1000))).toBe(2);
    expect(await record(event('evt_3', orgA, 'booking.created', 2000))).toBe(2);
    expect(await record(event('evt_4', orgA, 'booking', 2000))).toBe(0);
    expect(await record(event('evt_5', orgB, 'booking.cancelled', 2000))).toBe(0);
    expect(await record(event('evt_6', orgB, 'booking.created', 2000))).toBe(1);

    // Each event's deliveries are made in the subscribers' order (oldest first, id breaking ties):
    // D(0) we_B/evt_1, D(1) we_a/evt_1, D(2) we_a/evt_2, D(3) we_c/evt_2, D(4) we_B/evt_3,
    // D(5) we_a/evt_3, D(6) we_x/evt_6.
    const D = (n: number): string => deliveryIds[n]!;
    const deliveryIds: string[] = [];
    for (const [org, ep] of [[orgA, 'we_a'], [orgA, 'we_B'], [orgA, 'we_c'], [orgB, 'we_x']] as const) {
      for (const d of (await store.webhooks.listDeliveries(org, ep, page(20, 0))).rows) deliveryIds.push(d.id);
    }
    deliveryIds.sort();
    expect(deliveryIds).toHaveLength(7);
    const label = async (id: string) => {
      const job = await store.webhooks.getDeliveryJob(id);
      return `${job?.endpointId}/${job?.eventId}`;
    };
    expect(await Promise.all(deliveryIds.map(label))).toEqual([
      'we_B/evt_1', 'we_a/evt_1', 'we_a/evt_2', 'we_c/evt_2', 'we_B/evt_3', 'we_a/evt_3', 'we_x/evt_6',
    ]);

    // Newest first, ids breaking ties; pages; another endpoint, another org.
    const all = await store.webhooks.listDeliveries(orgA, 'we_a', page(20, 0));
    expect(all.rows.map((d) => d.id)).toEqual([D(5), D(2), D(1)]);
    expect(all.total).toBe(3);
    expect(all.rows[2]).toStrictEqual({
      id: D(1), orgId: orgA, endpointId: 'we_a', eventId: 'evt_1', eventType: 'booking.created', status: 'PENDING', attempts: 0,
      lastStatusCode: null, lastError: null, nextAttemptAt: 1000, leasedUntil: null, createdAt: 1000, deliveredAt: null,
    });
    expect(await store.webhooks.listDeliveries(orgA, 'we_a', page(1, 1))).toEqual({ rows: [all.rows[1]], total: 3 });
    expect(await store.webhooks.listDeliveries(orgA, 'we_a', page(5, 5))).toEqual({ rows: [], total: 3 });
    expect((await store.webhooks.listDeliveries(orgA, 'we_B', page(20, 0))).rows.map((d) => d.id)).toEqual([D(4), D(0)]);
    expect(await store.webhooks.listDeliveries(orgB, 'we_a', page(20, 0))).toEqual({ rows: [], total: 0 });
    expect(await store.webhooks.getDelivery(orgA, 'we_a', D(1))).toStrictEqual(all.rows[2]);
    expect(await store.webhooks.getDelivery(orgA, 'we_B', D(1))).toBeUndefined(); // another endpoint's
    expect(await store.webhooks.getDelivery(orgB, 'we_a', D(1))).toBeUndefined();
    expect(await store.webhooks.getDeliveryJob(D(2))).toStrictEqual({
      id: D(2), endpointId: 'we_a', eventId: 'evt_2', attempts: 0, url: 'https://example.com/we_a', enabled: 1, secret: 'whsec_we_a',
      previousSecret: null, previousSecretUntil: null, payload: JSON.stringify({ id: 'evt_2', event: 'booking.cancelled' }),
    });
    expect(await store.webhooks.getDeliveryJob('delivery_missing')).toBeUndefined();

    // Due: oldest due first (ids breaking ties), at most perEndpoint per endpoint, up to limit.
    const due = async (now: number, limit: number, perEndpoint: number): Promise<string[]> =>
      (await store.webhooks.listDueDeliveries(now, limit, perEndpoint)).map((r) => `${r.id}@${r.endpointId}`);
    const at = (...ns: number[]) => ns.map((n) => `${D(n)}@${['we_B', 'we_a', 'we_a', 'we_c', 'we_B', 'we_a', 'we_x'][n]}`);
    expect(await due(999, 10, 5)).toEqual([]);
    expect(await due(1000, 10, 5)).toEqual(at(0, 1, 2, 3));
    expect(await due(2000, 10, 5)).toEqual(at(0, 1, 2, 3, 4, 5, 6));
    expect(await due(2000, 10, 1)).toEqual(at(0, 1, 3, 6));
    expect(await due(2000, 3, 2)).toEqual(at(0, 1, 2));
    expect(await due(2000, 10, 2)).toEqual(at(0, 1, 2, 3, 4, 6));
    expect(await store.webhooks.nextDeliveryDueAt()).toBe(1000);

    // A lease is won once until it runs out; a leased delivery is not due.
    expect(await store.webhooks.leaseDelivery(D(1), 1500, 1600)).toBe(true);
    expect(await store.webhooks.leaseDelivery(D(1), 1599, 1700)).toBe(false);
    expect(await due(1500, 10, 5)).toEqual(at(0, 2, 3));
    expect((await store.webhooks.getDelivery(orgA, 'we_a', D(1)))?.leasedUntil).toBe(1600);
    expect(await store.webhooks.leaseDelivery(D(1), 1600, 1800)).toBe(true); // ran out at 1600
    expect(await store.webhooks.leaseDelivery('delivery_missing', 1600, 1800)).toBe(false);

    // Attempts: a retry later, then success; a later outcome without deliveredAt keeps it.
    await store.webhooks.recordDeliveryAttempt(D(1), { status: 'PENDING', lastStatusCode: 500, lastError: 'HTTP 500', nextAttemptAt: 5000, deliveredAt: null });
    expect(await store.webhooks.getDelivery(orgA, 'we_a', D(1))).toMatchObject({
      status: 'PENDING', attempts: 1, lastStatusCode: 500, lastError: 'HTTP 500', nextAttemptAt: 5000, leasedUntil: null, deliveredAt: null,
    });
    expect(await store.webhooks.leaseDelivery(D(2), 1700, 1900)).toBe(true);
    await store.webhooks.recordDeliveryAttempt(D(2), { status: 'SUCCEEDED', lastStatusCode: 200, lastError: null, nextAttemptAt: null, deliveredAt: 1750 });
    await store.webhooks.recordDeliveryAttempt(D(2), { status: 'FAILED', lastStatusCode: null, lastError: 'timeout', nextAttemptAt: null, deliveredAt: null });
    expect(await store.webhooks.getDelivery(orgA, 'we_a', D(2))).toMatchObject({
      status: 'FAILED', attempts: 2, lastStatusCode: null, lastError: 'timeout', nextAttemptAt: null, deliveredAt: 1750, leasedUntil: null,
    });
    expect(await store.webhooks.leaseDelivery(D(2), 1800, 1900)).toBe(false); // not PENDING

    // The next wake-up is the later of due time and lease end; a released lease holds nothing back.
    expect(await store.webhooks.leaseDelivery(D(5), 2000, 9000)).toBe(true);
    expect(await store.webhooks.nextDeliveryDueAt()).toBe(1000); // D(0), D(3)
    for (const n of [0, 3, 4, 6]) expect(await store.webhooks.leaseDelivery(D(n), 2000, 2500)).toBe(true);
    expect(await store.webhooks.nextDeliveryDueAt()).toBe(2500);
    for (const n of [0, 3, 4, 6, 5]) await store.webhooks.releaseDelivery(D(n));
    expect(await store.webhooks.getDelivery(orgA, 'we_a', D(5))).toMatchObject({ leasedUntil: null });
    expect(await store.webhooks.nextDeliveryDueAt()).toBe(1000);

    // Failing an endpoint's pending deliveries spares the one in flight.
    expect(await store.webhooks.leaseDelivery(D(5), 2000, 9000)).toBe(true);
    expect(await store.webhooks.failPendingDeliveries('we_a', 'Endpoint disabled', 3000)).toBe(1); // D(1); D(5) is leased
    expect(await store.webhooks.getDelivery(orgA, 'we_a', D(1))).toMatchObject({ status: 'FAILED', nextAttemptAt: null, lastError: 'Endpoint disabled' });
    expect(await store.webhooks.failPendingDeliveries('we_a', 'Endpoint disabled', 9000)).toBe(1); // D(5)'s lease ran out
    expect(await store.webhooks.failPendingDeliveries('we_missing', 'x', 9000)).toBe(0);

    // A manual retry, only of the org's endpoint's delivery.
    expect(await store.webhooks.requeueDelivery(orgA, 'we_a', D(1), 9500)).toBe(true);
    expect(await store.webhooks.requeueDelivery(orgB, 'we_a', D(1), 9500)).toBe(false);
    expect(await store.webhooks.requeueDelivery(orgA, 'we_B', D(1), 9500)).toBe(false);
    expect(await store.webhooks.getDelivery(orgA, 'we_a', D(1))).toMatchObject({ status: 'PENDING', nextAttemptAt: 9500, attempts: 1 });
    expect(await due(10_000, 10, 5)).toEqual(at(0, 3, 4, 6, 1));

    // A disabled endpoint's deliveries are neither due nor counted for the next wake-up.
    for (const ep of ['we_B', 'we_c', 'we_x']) await store.webhooks.disableWebhookEndpoint(ep, 'Gone', 9000);
    expect(await due(10_000, 10, 5)).toEqual(at(1));
    expect(await store.webhooks.nextDeliveryDueAt()).toBe(9500);
    expect(await store.webhooks.failPendingDeliveries('we_a', 'x', 99_999)).toBe(1);
    expect(await store.webhooks.nextDeliveryDueAt()).toBeUndefined();

    // Deleting the endpoint, or the event (retention), takes its deliveries along.
    expect(await store.webhooks.deleteWebhookEndpoint(orgA, 'we_B')).toBe(true);
    expect(await store.webhooks.listDeliveries(orgA, 'we_B', page(20, 0))).toEqual({ rows: [], total: 0 });
    expect(await store.events.deleteEventsBefore(1500)).toBe(2);
    expect((await store.webhooks.listDeliveries(orgA, 'we_a', page(20, 0))).rows.map((d) => d.id)).toEqual([D(5)]);
    expect(await store.webhooks.listDeliveries(orgA, 'we_c', page(20, 0))).toEqual({ rows: [], total: 0 });
    expect(await store.webhooks.getDeliveryJob(D(1))).toBeUndefined();
    // No such event: the foreign key refuses.
    await expect(store.webhooks.enqueueDeliveries(orgA, 'evt_gone', 'booking.cancelled', 3000)).rejects.toMatchObject(refusal('foreignKey'));
  });

  it('queues deliveries only for the endpoints still subscribed when it writes', async () => {
    await store.webhooks.insertWebhookEndpoint(endpoint('we_a', orgA, ['booking.created'], 100));
    await store.events.insertEvent(event('evt_1', orgA, 'booking.created', 1000));
    // Outside a transaction, another call may run between the read of the subscribers and the
    // write (on SQLite the delete always does here): the endpoint deleted meanwhile gets nothing,
    // and nothing fails.
    const queued = store.webhooks.enqueueDeliveries(orgA, 'evt_1', 'booking.created', 1000);
    const deleted = store.webhooks.deleteWebhookEndpoint(orgA, 'we_a');
    const [n, gone] = await Promise.all([queued, deleted]);
    expect(gone).toBe(true);
    if (testEngine() === 'sqlite') expect(n).toBe(0);
    expect([0, 1]).toContain(n);
    expect(await store.webhooks.listDueDeliveries(1000, 10, 10)).toEqual([]);
  });

  it('wakes the worker only once the deliveries are committed', async () => {
    await store.webhooks.insertWebhookEndpoint(endpoint('we_a', orgA, ['booking.created'], 100));
    const seen: number[] = [];
    const unsubscribe = await store.webhooks.onDeliveriesDue(() => {
      // Read from outside the transaction: the wake-up must find the work.
      void store.webhooks.listDueDeliveries(Date.now(), 10, 5).then((found) => seen.push(found.length));
    });

    let resume!: () => void;
    const held = new Promise<void>((resolve) => (resume = resolve));
    let queued!: () => void;
    const inTransaction = new Promise<void>((resolve) => (queued = resolve));
    const open = store.transaction(async () => {
      await store.events.insertEvent(event('evt_1', orgA, 'booking.created', 1000));
      await store.webhooks.enqueueDeliveries(orgA, 'evt_1', 'booking.created', 1000);
      queued();
      await held;
    });
    try {
      await inTransaction;
      for (let i = 0; i < 5; i++) await tick();
      expect(seen).toEqual([]);
    } finally {
      resume();
      await open;
    }
    await vi.waitFor(() => expect(seen).toEqual([1]));

    // A rolled back enqueue wakes nobody.
    await expect(
      store.transaction(async () => {
        await store.events.insertEvent(event('evt_2', orgA, 'booking.created', 1000));
        await store.webhooks.enqueueDeliveries(orgA, 'evt_2', 'booking.created', 1000);
        throw new Error('abandoned');
      }),
    ).rejects.toThrow('abandoned');
    for (let i = 0; i < 5; i++) await tick();
    expect(seen).toEqual([1]);
    expect((await store.webhooks.listDeliveries(orgA, 'we_a', page(20, 0))).total).toBe(1);

    // Nothing queued (no subscriber) wakes nobody.
    await store.events.insertEvent(event('evt_3', orgA, 'booking.cancelled', 1000));
    expect(await store.webhooks.enqueueDeliveries(orgA, 'evt_3', 'booking.cancelled', 1000)).toBe(0);
    for (let i = 0; i < 5; i++) await tick();
    expect(seen).toEqual([1]);

    // A manual retry wakes it too; an unsubscribed listener hears nothing.
    const [delivery] = await store.webhooks.listDueDeliveries(Date.now(), 10, 5);
    if (!delivery) throw new Error('the delivery is due');
    await store.webhooks.recordDeliveryAttempt(delivery.id, { status: 'FAILED', lastStatusCode: 500, lastError: 'x', nextAttemptAt: null, deliveredAt: null });
    expect(await store.webhooks.requeueDelivery(orgA, 'we_a', delivery.id, 1000)).toBe(true);
    await vi.waitFor(() => expect(seen).toEqual([1, 1]));
    unsubscribe();
    await store.webhooks.requeueDelivery(orgA, 'we_a', delivery.id, 1000);
    for (let i = 0; i < 5; i++) await tick();
    expect(seen).toEqual([1, 1]);
  });

  it('lets exactly one of many concurrent workers lease a delivery', async () => {
    await store.webhooks.insertWebhookEndpoint(endpoint('we_a', orgA, ['booking.created'], 100));
    for (let i = 0; i < 10; i++) await record(event(`evt_${i}`, orgA, 'booking.created', 1000));
    const found = await store.webhooks.listDueDeliveries(1000, 20, 20);
    expect(found).toHaveLength(10);
    for (const { id } of found) {
      const wins = await Promise.all(Array.from({ length: 6 }, () => store.webhooks.leaseDelivery(id, 1000, 2000)));
      expect(wins.filter(Boolean)).toHaveLength(1);
    }
    expect(await store.webhooks.listDueDeliveries(1999, 20, 20)).toEqual([]);
    expect(await store.webhooks.listDueDeliveries(2000, 20, 20)).toHaveLength(10);
  });
});
