import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Async } from '../index.js';
import type { EventRow, eventStore } from '../events.js';
import { bothEngines, type BothEngines } from '../../test-helpers/engines.js';
import { testDatabaseUrl } from '../../test-helpers/postgres.js';
import { eventStorePg } from './events.js';

type Events = Async<ReturnType<typeof eventStore>>;

describe.skipIf(!testDatabaseUrl())('PostgreSQL event store, held to SQLite’s', () => {
  let e: BothEngines;
  let pg: Events;
  beforeEach(async () => {
    e = await bothEngines();
    pg = eventStorePg(e.pgDb);
    for (const id of ['org_A', 'org_B']) await plant('INSERT INTO organizations (id, name, email, timezone, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [id, id, 'o@example.com', 'UTC', 1, 1]);
  });
  afterEach(async () => await e.close());

  /** A row this module does not own, written the same on both engines. */
  async function plant(sql: string, params: unknown[]): Promise<void> {
    e.sqliteDb.prepare(sql).run(...params);
    let n = 0;
    await e.pgDb.run(sql.replace(/\?/g, () => `$${++n}`), params);
  }

  /** The same call on both engines: both answer, and alike. */
  async function same<T>(call: (s: Events) => Promise<T>): Promise<T> {
    const expected = await call(e.sqlite);
    expect(await call(pg)).toStrictEqual(expected);
    return expected;
  }

  async function bothReject(call: (s: Events) => Promise<unknown>): Promise<void> {
    await expect(call(e.sqlite)).rejects.toThrow();
    await expect(call(pg)).rejects.toThrow();
  }

  const event = (id: string, orgId: string, type: string, bookingId: string | null, createdAt: number): EventRow => ({
    id, orgId, type, bookingId, payload: JSON.stringify({ id, event: type, data: { booking: { id: bookingId } } }), createdAt,
  });

  it('records, reads, pages, filters, rewrites and forgets events alike', async () => {
    const rows = [
      event('evt_3', 'org_A', 'booking.created', 'bk_1', 100),
      event('evt_1', 'org_A', 'booking.confirmed', 'bk_1', 100),
      event('evt_2', 'org_B', 'booking.created', 'bk_9', 100),
      event('evt_Z', 'org_A', 'booking.created', 'bk_2', 200),
      event('evt_a', 'org_A', 'booking.cancelled', 'bk_1', 300),
      event('evt_n', 'org_A', 'booking.created', null, 300),
    ];
    for (const row of rows) await same((s) => s.insertEvent(row));

    await same((s) => s.getEvent('evt_1'));
    await same((s) => s.getEvent('evt_missing'));
    expect(await same((s) => s.eventPosition('org_A', 'evt_Z'))).toBe(4);
    await same((s) => s.eventPosition('org_B', 'evt_Z')); // not the org's
    await same((s) => s.eventPosition('org_A', 'evt_missing'));

    // Insertion order, not created_at nor id, whatever the filter and page.
    const all = await same((s) => s.listEvents('org_A', {}, { limit: 20, offset: 0 }));
    expect(all.rows.map((r) => r.id)).toEqual(['evt_3', 'evt_1', 'evt_Z', 'evt_a', 'evt_n']);
    expect(all.total).toBe(5);
    await same((s) => s.listEvents('org_A', {}, { limit: 2, offset: 2 }));
    await same((s) => s.listEvents('org_A', {}, { limit: 2, offset: 10 }));
    await same((s) => s.listEvents('org_A', { type: 'booking.created' }, { limit: 2, offset: 1 }));
    await same((s) => s.listEvents('org_A', { afterSeq: 2 }, { limit: 20, offset: 0 }));
    await same((s) => s.listEvents('org_A', { afterSeq: 2, type: 'booking.created' }, { limit: 1, offset: 0 }));
    await same((s) => s.listEvents('org_A', { afterSeq: 6 }, { limit: 20, offset: 0 }));
    await same((s) => s.listEvents('org_B', { type: 'booking.cancelled' }, { limit: 20, offset: 0 }));
    await same((s) => s.listEvents('org_none', {}, { limit: 20, offset: 0 }));

    await same((s) => s.listBookingEvents('bk_1'));
    await same((s) => s.listBookingEvents('bk_none'));

    await same((s) => s.replaceEventPayload('evt_1', '{"redacted":true}'));
    await same((s) => s.replaceEventPayload('evt_missing', '{}'));
    await same((s) => s.getEvent('evt_1'));

    // Refused alike: a second event with the same id, an event of no organization.
    await bothReject((s) => s.insertEvent(event('evt_1', 'org_A', 'booking.created', 'bk_1', 400)));
    await bothReject((s) => s.insertEvent(event('evt_x', 'org_none', 'booking.created', 'bk_1', 400)));

    // A refused insert may leave a gap in PostgreSQL's seqs: positions compare by order, and a
    // cursor read from each engine's own position finds the same events.
    for (const row of [event('evt_b', 'org_A', 'booking.created', 'bk_3', 400), event('evt_c', 'org_A', 'booking.created', 'bk_3', 400)]) {
      await same((s) => s.insertEvent(row));
    }
    const after = async (s: Events, id: string, type?: string) =>
      await s.listEvents('org_A', { afterSeq: await s.eventPosition('org_A', id), type }, { limit: 20, offset: 0 });
    expect((await same((s) => after(s, 'evt_n'))).rows.map((r) => r.id)).toEqual(['evt_b', 'evt_c']);
    await same((s) => after(s, 'evt_3', 'booking.created'));
    const positions = await Promise.all(['evt_n', 'evt_b', 'evt_c'].map((id) => pg.eventPosition('org_A', id)));
    expect([...positions].sort((x, y) => x! - y!)).toEqual(positions);

    // Retention: strictly older than the cut-off.
    expect(await same((s) => s.deleteEventsBefore(200))).toBe(3);
    await same((s) => s.deleteEventsBefore(200));
    await same((s) => s.listEvents('org_A', {}, { limit: 20, offset: 0 }));
    await same((s) => s.listEvents('org_B', {}, { limit: 20, offset: 0 }));
    await same((s) => s.getEvent('evt_3'));
  });

  it('hands out positions in commit order, so a cursor never skips a late commit', async () => {
    let inserted!: () => void;
    const first = new Promise<void>((resolve) => (inserted = resolve));
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    // A transaction takes the first position, then stays open.
    const open = e.pgDb.transaction(async () => {
      await pg.insertEvent(event('evt_1', 'org_A', 'booking.created', 'bk_1', 100));
      inserted();
      await held;
    });
    await first;
    // An insert outside any transaction must wait for it rather than take a later seq and commit first.
    let secondDone = false;
    const second = pg.insertEvent(event('evt_2', 'org_A', 'booking.created', 'bk_1', 100)).then(() => (secondDone = true));
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(secondDone).toBe(false);
      expect((await pg.listEvents('org_A', {}, { limit: 20, offset: 0 })).rows).toEqual([]);
    } finally {
      commit();
      await Promise.all([open, second]);
    }
    const page = await pg.listEvents('org_A', {}, { limit: 20, offset: 0 });
    expect(page.rows.map((r) => r.id)).toEqual(['evt_1', 'evt_2']);
    expect((await pg.eventPosition('org_A', 'evt_1'))!).toBeLessThan((await pg.eventPosition('org_A', 'evt_2'))!);
  });

  it('inserts inside the caller’s transaction, and rolls back with it', async () => {
    await expect(
      e.pgDb.transaction(async () => {
        await pg.insertEvent(event('evt_1', 'org_A', 'booking.created', 'bk_1', 100));
        expect(await pg.getEvent('evt_1')).toBeDefined();
        throw new Error('abandoned');
      }),
    ).rejects.toThrow('abandoned');
    expect(await pg.getEvent('evt_1')).toBeUndefined();
    // The insert takes no savepoint of its own inside a transaction (a round trip under the write
    // lock, on every booking): a refused insert there fails the caller's transaction, which rolls
    // back whole. A caller that means to go on after a refusal nests a transaction, as on SQLite.
    await expect(
      e.pgDb.transaction(async () => {
        await pg.insertEvent(event('evt_0', 'org_A', 'booking.created', 'bk_1', 100));
        await pg.insertEvent(event('evt_0', 'org_A', 'booking.created', 'bk_1', 100));
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await pg.getEvent('evt_0')).toBeUndefined();
    await e.pgDb.transaction(async () => {
      await pg.insertEvent(event('evt_1', 'org_A', 'booking.created', 'bk_1', 100));
      await expect(e.pgDb.transaction(() => pg.insertEvent(event('evt_1', 'org_A', 'booking.created', 'bk_1', 100)))).rejects.toThrow();
      await pg.insertEvent(event('evt_2', 'org_A', 'booking.created', 'bk_1', 100));
    });
    expect((await pg.listBookingEvents('bk_1')).map((r) => r.id)).toEqual(['evt_1', 'evt_2']);
  });
});
