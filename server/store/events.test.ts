import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { EventRow } from './events.js';
import { addOrganization, openTestStore, testEngine } from '../test-helpers/index.js';
import { REFUSALS } from '../test-helpers/engines.js';

// Behaviour of the store, not of one engine: the same expectations hold on SQLite and, in the
// server-postgres project, on a leased database of the PostgreSQL test cluster.

describe(`event store (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let store: Store;
  let orgA: string;
  let orgB: string;
  const refusal = (why: keyof typeof REFUSALS) => (testEngine() === 'sqlite' ? expect.stringMatching(REFUSALS[why].sqlite) : REFUSALS[why].pg);
  beforeEach(async () => {
    opened = await openTestStore();
    store = opened.store;
    orgA = (await addOrganization(store)).orgId;
    orgB = (await addOrganization(store, { name: 'B' })).orgId;
  });
  afterEach(async () => {
    await opened.close();
  });

  const event = (id: string, orgId: string, type: string, bookingId: string | null, createdAt: number): EventRow => ({
    id, orgId, type, bookingId, payload: JSON.stringify({ id, event: type, data: { booking: { id: bookingId } } }), createdAt,
  });
  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
  const after = async (id: string, type?: string) =>
    await store.events.listEvents(orgA, { afterSeq: await store.events.eventPosition(orgA, id), type }, { limit: 20, offset: 0 });

  it('records, reads, pages, filters, rewrites and forgets events', async () => {
    const rows = [
      event('evt_3', orgA, 'booking.created', 'bk_1', 100),
      event('evt_1', orgA, 'booking.confirmed', 'bk_1', 100),
      event('evt_2', orgB, 'booking.created', 'bk_9', 100),
      event('evt_Z', orgA, 'booking.created', 'bk_2', 200),
      event('evt_a', orgA, 'booking.cancelled', 'bk_1', 300),
      event('evt_n', orgA, 'booking.created', null, 300),
    ];
    for (const row of rows) await store.events.insertEvent(row);

    expect(await store.events.getEvent('evt_1')).toStrictEqual(rows[1]);
    expect(await store.events.getEvent('evt_missing')).toBeUndefined();
    expect(await store.events.eventPosition(orgB, 'evt_Z')).toBeUndefined(); // not the org's
    expect(await store.events.eventPosition(orgA, 'evt_missing')).toBeUndefined();

    // Insertion order, not created_at nor id, whatever the filter and page.
    const all = await store.events.listEvents(orgA, {}, { limit: 20, offset: 0 });
    expect(ids(all.rows)).toEqual(['evt_3', 'evt_1', 'evt_Z', 'evt_a', 'evt_n']);
    expect(all.rows[0]).toStrictEqual(rows[0]);
    expect(all.total).toBe(5);
    expect(await store.events.listEvents(orgA, {}, { limit: 2, offset: 2 })).toMatchObject({ total: 5, rows: [{ id: 'evt_Z' }, { id: 'evt_a' }] });
    expect(await store.events.listEvents(orgA, {}, { limit: 2, offset: 10 })).toStrictEqual({ rows: [], total: 5 });
    const created = await store.events.listEvents(orgA, { type: 'booking.created' }, { limit: 2, offset: 1 });
    expect([ids(created.rows), created.total]).toEqual([['evt_Z', 'evt_n'], 3]);
    const later = await after('evt_1');
    expect([ids(later.rows), later.total]).toEqual([['evt_Z', 'evt_a', 'evt_n'], 3]);
    expect(ids((await after('evt_3', 'booking.created')).rows)).toEqual(['evt_Z', 'evt_n']);
    expect(await after('evt_n')).toStrictEqual({ rows: [], total: 0 });
    expect(await store.events.listEvents(orgB, { type: 'booking.cancelled' }, { limit: 20, offset: 0 })).toStrictEqual({ rows: [], total: 0 });
    expect(await store.events.listEvents('org_none', {}, { limit: 20, offset: 0 })).toStrictEqual({ rows: [], total: 0 });

    expect(ids(await store.events.listBookingEvents('bk_1'))).toEqual(['evt_3', 'evt_1', 'evt_a']);
    expect(await store.events.listBookingEvents('bk_none')).toEqual([]);

    await store.events.replaceEventPayload('evt_1', '{"redacted":true}');
    await store.events.replaceEventPayload('evt_missing', '{}');
    expect((await store.events.getEvent('evt_1'))?.payload).toBe('{"redacted":true}');

    // Refused: a second event with the same id, an event of no organization.
    await expect(store.events.insertEvent(event('evt_1', orgA, 'booking.created', 'bk_1', 400))).rejects.toMatchObject({ code: refusal('unique') });
    await expect(store.events.insertEvent(event('evt_x', 'org_none', 'booking.created', 'bk_1', 400))).rejects.toMatchObject({
      code: refusal('foreignKey'),
    });
    // After a refused insert, positions still follow insertion order.
    await store.events.insertEvent(event('evt_b', orgA, 'booking.created', 'bk_3', 400));
    expect(ids((await after('evt_n')).rows)).toEqual(['evt_b']);

    // Retention: strictly older than the cut-off.
    expect(await store.events.deleteEventsBefore(200)).toBe(3);
    expect(await store.events.deleteEventsBefore(200)).toBe(0);
    expect(ids((await store.events.listEvents(orgA, {}, { limit: 20, offset: 0 })).rows)).toEqual(['evt_Z', 'evt_a', 'evt_n', 'evt_b']);
    expect(await store.events.getEvent('evt_2')).toBeUndefined();
  });

  it('hands out positions in commit order, so a cursor never skips a late commit', async () => {
    let inserted!: () => void;
    const first = new Promise<void>((resolve) => (inserted = resolve));
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    // A transaction records an event, then stays open.
    const open = store.transaction(async () => {
      await store.events.insertEvent(event('evt_1', orgA, 'booking.created', 'bk_1', 100));
      inserted();
      await held;
    });
    await first;
    // An event recorded meanwhile outside it waits for it, rather than take a later position and be seen first.
    let secondDone = false;
    const second = store.events.insertEvent(event('evt_2', orgA, 'booking.created', 'bk_1', 100)).then(() => (secondDone = true));
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(secondDone).toBe(false);
    } finally {
      commit();
      await Promise.all([open, second]);
    }
    expect(ids((await store.events.listEvents(orgA, {}, { limit: 20, offset: 0 })).rows)).toEqual(['evt_1', 'evt_2']);
    expect((await store.events.eventPosition(orgA, 'evt_1'))!).toBeLessThan((await store.events.eventPosition(orgA, 'evt_2'))!);
  });

  it('records inside the caller’s transaction, and rolls back with it', async () => {
    await expect(
      store.transaction(async () => {
        await store.events.insertEvent(event('evt_1', orgA, 'booking.created', 'bk_1', 100));
        expect(await store.events.getEvent('evt_1')).toBeDefined();
        throw new Error('abandoned');
      }),
    ).rejects.toThrow('abandoned');
    expect(await store.events.getEvent('evt_1')).toBeUndefined();
  });
});
