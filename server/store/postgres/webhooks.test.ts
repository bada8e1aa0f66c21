import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Async } from '../index.js';
import type { eventStore, EventRow } from '../events.js';
import type { webhookStore, WebhookEndpointRow } from '../webhooks.js';
import { bothEngines, type BothEngines } from '../../test-helpers/engines.js';
import { testDatabaseUrl } from '../../test-helpers/postgres.js';
import { eventStorePg } from './events.js';
import { webhookStorePg } from './webhooks.js';

/**
 * Delivery ids are made by the store (`newId`): numbered here, and numbered again from the same
 * point for the second engine, so both engines' deliveries carry the same ids and compare whole.
 */
const ids = vi.hoisted(() => ({ next: 0 }));
vi.mock('../../domain/ids.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../domain/ids.js')>();
  return { ...actual, newId: (kind: string) => `${kind}_${String(ids.next++).padStart(6, '0')}` };
});

type Twin = Async<ReturnType<typeof webhookStore>> & Async<ReturnType<typeof eventStore>>;

const tick = async (): Promise<void> => await new Promise((resolve) => setImmediate(resolve));

describe.skipIf(!testDatabaseUrl())('PostgreSQL webhook store, held to SQLite’s', () => {
  let e: BothEngines;
  let pg: Twin;
  beforeEach(async () => {
    e = await bothEngines();
    pg = { ...webhookStorePg(e.pgDb), ...eventStorePg(e.pgDb) };
    for (const id of ['org_A', 'org_B']) await plant('INSERT INTO organizations (id, name, email, timezone, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [id, id, 'o@example.com', 'UTC', 1, 1]);
  });
  afterEach(async () => await e.close());

  /** A row this module does not own (or one the store would never write), the same on both engines. */
  async function plant(sql: string, params: unknown[]): Promise<void> {
    e.sqliteDb.prepare(sql).run(...params);
    let n = 0;
    await e.pgDb.run(sql.replace(/\?/g, () => `$${++n}`), params);
  }

  /** The same call on both engines: both answer, alike, having made the same ids. */
  async function same<T>(call: (s: Twin) => Promise<T>): Promise<T> {
    const start = ids.next;
    const expected = await call(e.sqlite);
    const made = ids.next;
    ids.next = start;
    expect(await call(pg)).toStrictEqual(expected);
    expect(ids.next).toBe(made);
    return expected;
  }

  async function bothReject(call: (s: Twin) => Promise<unknown>): Promise<void> {
    await expect(call(e.sqlite)).rejects.toThrow();
    await expect(call(pg)).rejects.toThrow();
  }

  const endpoint = (id: string, orgId: string, events: string[], createdAt: number, enabled = 1): WebhookEndpointRow => ({
    id, orgId, url: `https://example.com/${id}`, events: JSON.stringify(events), description: null, enabled,
    secret: `whsec_${id}`, previousSecret: null, previousSecretUntil: null, disabledReason: null, createdAt, updatedAt: createdAt,
  });
  const event = (id: string, orgId: string, type: string, createdAt: number): EventRow => ({
    id, orgId, type, bookingId: 'bk_1', payload: JSON.stringify({ id, event: type }), createdAt,
  });
  /** An event and its deliveries, as services/event-log.ts records them. */
  const record = async (s: Twin, row: EventRow): Promise<number> => {
    await s.insertEvent(row);
    return await s.enqueueDeliveries(row.orgId, row.id, row.type, row.createdAt);
  };
  const page = (limit: number, offset: number) => ({ limit, offset });

  it('keeps endpoints alike: insert, read, page, update, disable, delete', async () => {
    const created = ['booking.created', 'booking.cancelled'];
    // Ties on created_at: ids sort byte by byte (B < Z < a), as SQLite's BINARY collation does.
    for (const row of [
      endpoint('we_a', 'org_A', created, 100),
      endpoint('we_B', 'org_A', created, 100),
      endpoint('we_Z', 'org_A', ['booking.created'], 100),
      endpoint('we_0', 'org_A', ['booking.cancelled'], 50),
      endpoint('we_x', 'org_B', created, 10),
    ]) {
      await same((s) => s.insertWebhookEndpoint(row));
    }
    await bothReject((s) => s.insertWebhookEndpoint(endpoint('we_a', 'org_A', created, 300)));
    await bothReject((s) => s.insertWebhookEndpoint(endpoint('we_y', 'org_none', created, 300)));

    await same((s) => s.getWebhookEndpoint('org_A', 'we_a'));
    await same((s) => s.getWebhookEndpoint('org_B', 'we_a'));
    await same((s) => s.getWebhookEndpoint('org_A', 'we_missing'));
    const first = await same((s) => s.listWebhookEndpoints('org_A', page(2, 0)));
    expect(first.rows.map((r) => r.id)).toEqual(['we_0', 'we_B']);
    expect(first.total).toBe(4);
    await same((s) => s.listWebhookEndpoints('org_A', page(2, 2)));
    await same((s) => s.listWebhookEndpoints('org_A', page(2, 8)));
    await same((s) => s.listWebhookEndpoints('org_none', page(20, 0)));

    const changed: WebhookEndpointRow = {
      ...endpoint('we_a', 'org_A', ['booking.confirmed'], 100), description: 'CRM', secret: 'whsec_new',
      previousSecret: 'whsec_we_a', previousSecretUntil: 5000, updatedAt: 400,
    };
    await same((s) => s.updateWebhookEndpoint(changed));
    await same((s) => s.updateWebhookEndpoint({ ...changed, orgId: 'org_B', url: 'https://evil.example' })); // not org_B's
    await same((s) => s.getWebhookEndpoint('org_A', 'we_a'));

    await same((s) => s.disableWebhookEndpoint('we_B', 'Receiver answered 410 Gone', 500));
    await same((s) => s.disableWebhookEndpoint('we_missing', 'nothing', 500));
    await same((s) => s.getWebhookEndpoint('org_A', 'we_B'));

    expect(await same((s) => s.deleteWebhookEndpoint('org_A', 'we_Z'))).toBe(true);
    expect(await same((s) => s.deleteWebhookEndpoint('org_A', 'we_Z'))).toBe(false);
    expect(await same((s) => s.deleteWebhookEndpoint('org_A', 'we_x'))).toBe(false); // org_B's
    await same((s) => s.listWebhookEndpoints('org_A', page(20, 0)));
  });

  it('queues, lists, leases, records, fails, requeues and forgets deliveries alike', async () => {
    for (const row of [
      endpoint('we_a', 'org_A', ['booking.created', 'booking.cancelled'], 100),
      endpoint('we_B', 'org_A', ['booking.created'], 100),
      endpoint('we_c', 'org_A', ['booking.cancelled'], 200),
      endpoint('we_off', 'org_A', ['booking.created'], 50, 0),
      endpoint('we_x', 'org_B', ['booking.created'], 10),
    ]) {
      await same((s) => s.insertWebhookEndpoint(row));
    }

    // Subscribers only: enabled, of the org, naming the kind exactly.
    expect(await same((s) => record(s, event('evt_1', 'org_A', 'booking.created', 1000)))).toBe(2);
    expect(await same((s) => record(s, event('evt_2', 'org_A', 'booking.cancelled', 1000)))).toBe(2);
    expect(await same((s) => record(s, event('evt_3', 'org_A', 'booking.created', 2000)))).toBe(2);
    expect(await same((s) => record(s, event('evt_4', 'org_A', 'booking', 2000)))).toBe(0);
    expect(await same((s) => record(s, event('evt_5', 'org_B', 'booking.cancelled', 2000)))).toBe(0);
    expect(await same((s) => record(s, event('evt_6', 'org_B', 'booking.created', 2000)))).toBe(1);

    // Newest first, ids breaking ties; pages; another endpoint, another org.
    const all = await same((s) => s.listDeliveries('org_A', 'we_a', page(20, 0)));
    expect(all.rows.map((d) => d.eventId)).toEqual(['evt_3', 'evt_2', 'evt_1']);
    expect(all.total).toBe(3);
    await same((s) => s.listDeliveries('org_A', 'we_a', page(1, 1)));
    await same((s) => s.listDeliveries('org_A', 'we_a', page(5, 5)));
    await same((s) => s.listDeliveries('org_A', 'we_B', page(20, 0)));
    await same((s) => s.listDeliveries('org_B', 'we_a', page(20, 0)));
    const [d3, d2, d1] = all.rows.map((d) => d.id) as [string, string, string];
    await same((s) => s.getDelivery('org_A', 'we_a', d1));
    await same((s) => s.getDelivery('org_A', 'we_B', d1)); // another endpoint's
    await same((s) => s.getDelivery('org_B', 'we_a', d1));
    await same((s) => s.getDeliveryJob(d2));
    await same((s) => s.getDeliveryJob('delivery_missing'));

    // Due: oldest due first, at most perEndpoint per endpoint, up to limit.
    await same((s) => s.listDueDeliveries(999, 10, 5));
    await same((s) => s.listDueDeliveries(1000, 10, 5));
    await same((s) => s.listDueDeliveries(2000, 10, 5));
    await same((s) => s.listDueDeliveries(2000, 10, 1));
    await same((s) => s.listDueDeliveries(2000, 3, 2));
    expect(await same((s) => s.nextDeliveryDueAt())).toBe(1000);

    // A lease is won once until it runs out; a leased delivery is not due, and counts from its end.
    expect(await same((s) => s.leaseDelivery(d1, 1500, 1600))).toBe(true);
    expect(await same((s) => s.leaseDelivery(d1, 1599, 1700))).toBe(false);
    await same((s) => s.listDueDeliveries(1500, 10, 5));
    expect(await same((s) => s.nextDeliveryDueAt())).toBe(1000); // d2 (we_a, evt_2) is still due at 1000
    await same((s) => s.getDelivery('org_A', 'we_a', d1));
    expect(await same((s) => s.leaseDelivery(d1, 1600, 1800))).toBe(true); // ran out at 1600
    expect(await same((s) => s.leaseDelivery('delivery_missing', 1600, 1800))).toBe(false);

    // Attempts: a retry later, then success; a later outcome without deliveredAt keeps it.
    await same((s) => s.recordDeliveryAttempt(d1, { status: 'PENDING', lastStatusCode: 500, lastError: 'HTTP 500', nextAttemptAt: 5000, deliveredAt: null }));
    await same((s) => s.getDelivery('org_A', 'we_a', d1));
    await same((s) => s.nextDeliveryDueAt());
    expect(await same((s) => s.leaseDelivery(d2, 1700, 1900))).toBe(true);
    await same((s) => s.recordDeliveryAttempt(d2, { status: 'SUCCEEDED', lastStatusCode: 200, lastError: null, nextAttemptAt: null, deliveredAt: 1750 }));
    await same((s) => s.recordDeliveryAttempt(d2, { status: 'FAILED', lastStatusCode: null, lastError: 'timeout', nextAttemptAt: null, deliveredAt: null }));
    await same((s) => s.getDelivery('org_A', 'we_a', d2));
    expect(await same((s) => s.leaseDelivery(d2, 1800, 1900))).toBe(false); // not PENDING

    // Released, a lease no longer holds the delivery back.
    expect(await same((s) => s.leaseDelivery(d3, 2000, 9000))).toBe(true);
    await same((s) => s.nextDeliveryDueAt());
    await same((s) => s.releaseDelivery(d3));
    await same((s) => s.listDueDeliveries(2000, 10, 5));

    // Failing an endpoint's pending deliveries spares the one in flight.
    expect(await same((s) => s.leaseDelivery(d3, 2000, 9000))).toBe(true);
    expect(await same((s) => s.failPendingDeliveries('we_a', 'Endpoint disabled', 3000))).toBe(1); // d1; d3 is leased
    await same((s) => s.listDeliveries('org_A', 'we_a', page(20, 0)));
    expect(await same((s) => s.failPendingDeliveries('we_a', 'Endpoint disabled', 9000))).toBe(1); // d3's lease ran out
    expect(await same((s) => s.failPendingDeliveries('we_missing', 'x', 9000))).toBe(0);

    // A manual retry, only of the org's endpoint's delivery.
    expect(await same((s) => s.requeueDelivery('org_A', 'we_a', d1, 9500))).toBe(true);
    expect(await same((s) => s.requeueDelivery('org_B', 'we_a', d1, 9500))).toBe(false);
    expect(await same((s) => s.requeueDelivery('org_A', 'we_B', d1, 9500))).toBe(false);
    await same((s) => s.getDelivery('org_A', 'we_a', d1));
    await same((s) => s.listDueDeliveries(10_000, 10, 5));

    // A disabled endpoint's deliveries are neither due nor counted for the next wake-up.
    await same((s) => s.disableWebhookEndpoint('we_B', 'Gone', 9000));
    await same((s) => s.listDueDeliveries(10_000, 10, 5));
    await same((s) => s.nextDeliveryDueAt());

    // A pending delivery without next_attempt_at (never written by the store) counts for nothing,
    // as SQLite's max(NULL, x) is NULL.
    await same((s) => s.disableWebhookEndpoint('we_x', 'Gone', 9000));
    await same((s) => s.disableWebhookEndpoint('we_c', 'Gone', 9000));
    await same((s) => s.failPendingDeliveries('we_a', 'x', 99_999));
    await plant(`INSERT INTO webhook_deliveries (id, org_id, endpoint_id, event_id, event_type, status, attempts,
      next_attempt_at, leased_until, created_at) VALUES (?, ?, ?, ?, ?, 'PENDING', 0, NULL, ?, ?)`, ['delivery_null', 'org_A', 'we_a', 'evt_1', 'booking.created', 7000, 1000]);
    expect(await same((s) => s.nextDeliveryDueAt())).toBeUndefined();
    await same((s) => s.listDueDeliveries(99_999, 10, 5));

    // Deleting the endpoint, or the event (retention), takes its deliveries along.
    expect(await same((s) => s.deleteWebhookEndpoint('org_A', 'we_B'))).toBe(true);
    await same((s) => s.listDeliveries('org_A', 'we_B', page(20, 0)));
    await same((s) => s.getDeliveryJob(d3));
    expect(await same((s) => s.deleteEventsBefore(1500))).toBe(2);
    await same((s) => s.listDeliveries('org_A', 'we_a', page(20, 0)));
    await same((s) => s.listDeliveries('org_A', 'we_c', page(20, 0)));
    await bothReject((s) => s.enqueueDeliveries('org_A', 'evt_gone', 'booking.cancelled', 3000)); // no such event
  });

  it('wakes the worker only once the deliveries are committed', async () => {
    await pg.insertWebhookEndpoint(endpoint('we_a', 'org_A', ['booking.created'], 100));
    const seen: number[] = [];
    const unsubscribe = await pg.onDeliveriesDue(() => {
      // Read from another connection of the pool: the wake-up must find the work.
      void pg.listDueDeliveries(Date.now(), 10, 5).then((due) => seen.push(due.length));
    });
    expect(typeof unsubscribe).toBe('function');
    expect(typeof (await e.sqlite.onDeliveriesDue(() => {}))).toBe('function');

    let resume!: () => void;
    const held = new Promise<void>((resolve) => (resume = resolve));
    let queued!: () => void;
    const inTransaction = new Promise<void>((resolve) => (queued = resolve));
    const open = e.pgDb.transaction(async () => {
      await record(pg, event('evt_1', 'org_A', 'booking.created', 1000));
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
      e.pgDb.transaction(async () => {
        await record(pg, event('evt_2', 'org_A', 'booking.created', 1000));
        throw new Error('abandoned');
      }),
    ).rejects.toThrow('abandoned');
    for (let i = 0; i < 5; i++) await tick();
    expect(seen).toEqual([1]);

    // A manual retry wakes it too; an unsubscribed listener hears nothing.
    const [delivery] = await pg.listDueDeliveries(Date.now(), 10, 5);
    if (!delivery) throw new Error('the delivery is due');
    await pg.recordDeliveryAttempt(delivery.id, { status: 'FAILED', lastStatusCode: 500, lastError: 'x', nextAttemptAt: null, deliveredAt: null });
    expect(await pg.requeueDelivery('org_A', 'we_a', delivery.id, 1000)).toBe(true);
    await vi.waitFor(() => expect(seen).toEqual([1, 1]));
    unsubscribe();
    await pg.requeueDelivery('org_A', 'we_a', delivery.id, 1000);
    for (let i = 0; i < 5; i++) await tick();
    expect(seen).toEqual([1, 1]);
  });

  it('lets exactly one of many concurrent workers lease a delivery', async () => {
    await pg.insertWebhookEndpoint(endpoint('we_a', 'org_A', ['booking.created'], 100));
    for (let i = 0; i < 10; i++) await record(pg, event(`evt_${i}`, 'org_A', 'booking.created', 1000));
    const due = await pg.listDueDeliveries(1000, 20, 20);
    expect(due).toHaveLength(10);
    for (const { id } of due) {
      const wins = await Promise.all(Array.from({ length: 6 }, () => pg.leaseDelivery(id, 1000, 2000)));
      expect(wins.filter(Boolean)).toHaveLength(1);
    }
    expect(await pg.listDueDeliveries(1999, 20, 20)).toEqual([]);
    expect(await pg.listDueDeliveries(2000, 20, 20)).toHaveLength(10);
  });
});
