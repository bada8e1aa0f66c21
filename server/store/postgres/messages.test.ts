import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bothEngines, type BothEngines } from '../../test-helpers/engines.js';
import { testDatabaseUrl } from '../../test-helpers/postgres.js';
import type { Async } from '../index.js';
import type { MessageRow, messageStore } from '../messages.js';
import { messageStorePg } from './messages.js';

// Message ids are random; the two engines must get the same ones for their answers (ties ordered by
// id included) to be compared. The test names each message before queueing it on each engine.
const ids = vi.hoisted(() => ({ next: [] as string[] }));
vi.mock('../../domain/ids.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../domain/ids.js')>();
  return {
    ...original,
    newId: (...args: Parameters<typeof original.newId>) => ids.next.shift() ?? original.newId(...args),
  };
});

type Messages = Async<ReturnType<typeof messageStore>>;
type Enqueue = Parameters<Messages['enqueueMessage']>[0];

const NOW = 1_800_000_000_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WINDOW = 24 * HOUR;

describe.skipIf(!testDatabaseUrl())('messageStorePg matches messageStore', () => {
  let e: BothEngines;
  let pg: Messages;

  /** Runs the same call on both engines (SQLite first) and holds the answers equal. */
  async function both<T>(call: (s: Messages) => Promise<T>): Promise<T> {
    const expected = await call(e.sqlite);
    const actual = await call(pg);
    expect(actual).toStrictEqual(expected);
    return expected;
  }

  /** Both engines reject the call. */
  async function bothReject(call: (s: Messages) => Promise<unknown>): Promise<void> {
    await expect(call(e.sqlite)).rejects.toThrow();
    await expect(call(pg)).rejects.toThrow();
  }

  /** Queues a message named `id` on both engines. */
  async function enqueue(id: string, input: Enqueue): Promise<MessageRow | undefined> {
    return await both(async (s) => {
      ids.next = [id];
      const row = await s.enqueueMessage(input);
      ids.next = [];
      return row;
    });
  }

  /** A row the messages do not own (organizations, bookings…), written with plain SQL on both engines. */
  async function plant(table: string, row: Record<string, unknown>): Promise<void> {
    const cols = Object.keys(row);
    const values = Object.values(row);
    e.sqliteDb.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...values);
    await e.pgDb.run(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`, values);
  }

  async function plantBooking(id: string, b: { org: string; exp: string; slot: number; status?: string; createdAt?: number }): Promise<void> {
    await plant('bookings', {
      id,
      org_id: b.org,
      booking_number: `BK-${id.toUpperCase()}`,
      experience_id: b.exp,
      customer_id: `cus_${b.org}`,
      slot_start: b.slot,
      slot_end: b.slot + HOUR,
      status: b.status ?? 'CONFIRMED',
      guest_name: `Guest ${id}`,
      guest_email: `${id}@example.com`,
      participants: 2,
      unit_price: 1500,
      currency: 'EUR',
      source: 'API',
      created_at: b.createdAt ?? NOW - 5 * DAY,
      updated_at: b.createdAt ?? NOW - 5 * DAY,
    });
  }

  beforeAll(async () => {
    e = await bothEngines();
    pg = messageStorePg(e.pgDb);
    for (const org of ['a', 'b']) {
      await plant('organizations', { id: org, name: `Org ${org}`, email: `${org}@example.com`, timezone: 'Europe/Lisbon', created_at: NOW - 9 * DAY, updated_at: NOW - 9 * DAY });
      await plant('customers', { id: `cus_${org}`, org_id: org, email: `guest@${org}.example`, name: 'Guest', created_at: NOW - 9 * DAY, updated_at: NOW - 9 * DAY });
    }
    for (const [id, org] of [['exp_a1', 'a'], ['exp_a2', 'a'], ['exp_b1', 'b']] as const) {
      await plant('experiences', { id, org_id: org, name: id, description: '', duration: 60, price: 1500, max_participants: 10, created_at: NOW - 9 * DAY, updated_at: NOW - 9 * DAY });
    }
    // Planted out of start order: SQLite answers the reminders in its scan's order, PostgreSQL by start.
    await plantBooking('bk_13', { org: 'a', exp: 'exp_a2', slot: NOW + 8 * HOUR });
    await plantBooking('bk_12', { org: 'a', exp: 'exp_a1', slot: NOW + 2 * HOUR }); // same start as bk_8
    await plantBooking('bk_6', { org: 'a', exp: 'exp_a1', slot: NOW + 30 * HOUR }); // beyond the window
    await plantBooking('bk_1', { org: 'a', exp: 'exp_a1', slot: NOW + 2 * HOUR });
    await plantBooking('bk_3', { org: 'a', exp: 'exp_a1', slot: NOW + 20 * HOUR, createdAt: NOW - 3 * HOUR }); // made inside the window
    await plantBooking('bk_2', { org: 'a', exp: 'exp_a2', slot: NOW + HOUR });
    await plantBooking('bk_4', { org: 'a', exp: 'exp_a1', slot: NOW + 3 * HOUR, status: 'CANCELLED' });
    await plantBooking('bk_5', { org: 'b', exp: 'exp_b1', slot: NOW + 5 * HOUR });
    await plantBooking('bk_7', { org: 'a', exp: 'exp_a2', slot: NOW + 4 * HOUR }); // confirmed by e-mail inside the window
    await plantBooking('bk_8', { org: 'b', exp: 'exp_b1', slot: NOW + 2 * HOUR }); // same start as bk_1
    await plantBooking('bk_9', { org: 'a', exp: 'exp_a2', slot: NOW }); // started: not ahead
    await plantBooking('bk_10', { org: 'a', exp: 'exp_a2', slot: NOW + WINDOW, createdAt: NOW }); // the window's edges
    await plantBooking('bk_11', { org: 'a', exp: 'exp_a1', slot: NOW + 6 * HOUR, status: 'PENDING' });
  });

  afterAll(async () => {
    await e?.close();
  });

  it('queues, reads and pages messages', async () => {
    const confirmed = await enqueue('msg_m', { orgId: 'a', bookingId: 'bk_1', kind: 'BOOKING_CONFIRMED', to: 'bk_1@example.com', createdAt: NOW - 1000 });
    expect(confirmed).toMatchObject({ id: 'msg_m', status: 'PENDING', nextAttemptAt: NOW - 1000 });
    // Two at the same instant, queued against id order: the list breaks the tie by id.
    await enqueue('msg_c', { orgId: 'a', bookingId: 'bk_1', kind: 'BOOKING_CHANGED', to: 'bk_1@example.com', createdAt: NOW });
    await enqueue('msg_a', { orgId: 'a', bookingId: 'bk_1', kind: 'BOOKING_CANCELLED', to: 'bk_1@example.com', createdAt: NOW });
    const skipped = await enqueue('msg_s', { orgId: 'a', bookingId: 'bk_2', kind: 'BOOKING_CONFIRMED', to: 'bk_2@example.com', createdAt: NOW, skippedBecause: 'No mail server' });
    expect(skipped).toMatchObject({ status: 'SKIPPED', lastError: 'No mail server', nextAttemptAt: null });
    await enqueue('msg_r', { orgId: 'b', bookingId: 'bk_5', kind: 'BOOKING_REMINDER', to: 'bk_5@example.com', createdAt: NOW - 500, reminderFor: NOW + 5 * HOUR });
    // The same reminder again is not queued; a resend of it is.
    expect(await enqueue('msg_r2', { orgId: 'b', bookingId: 'bk_5', kind: 'BOOKING_REMINDER', to: 'bk_5@example.com', createdAt: NOW, reminderFor: NOW + 5 * HOUR })).toBeUndefined();
    await enqueue('msg_rr', { orgId: 'b', bookingId: 'bk_5', kind: 'BOOKING_REMINDER', to: 'bk_5@example.com', createdAt: NOW - 500, reminderFor: NOW + 5 * HOUR, resendOf: 'msg_r' });
    // The same id twice is not queued either (the primary key).
    expect(await enqueue('msg_m', { orgId: 'a', bookingId: 'bk_2', kind: 'BOOKING_CHANGED', to: 'x@example.com', createdAt: NOW })).toBeUndefined();
    await enqueue('msg_7', { orgId: 'a', bookingId: 'bk_7', kind: 'BOOKING_CONFIRMED', to: 'bk_7@example.com', createdAt: NOW - 2 * HOUR });
    await enqueue('msg_8', { orgId: 'b', bookingId: 'bk_8', kind: 'BOOKING_CONFIRMED', to: 'bk_8@example.com', createdAt: NOW - 6 * DAY });
    // A booking that does not exist: the foreign key refuses on both.
    await bothReject((s) => s.enqueueMessage({ orgId: 'a', bookingId: 'bk_none', kind: 'BOOKING_CONFIRMED', to: 'x@example.com', createdAt: NOW }));

    for (const id of ['msg_m', 'msg_c', 'msg_a', 'msg_s', 'msg_r', 'msg_rr', 'msg_none']) await both((s) => s.getMessage(id));
    const firstPage = await both((s) => s.listBookingMessages('a', 'bk_1', { limit: 2, offset: 0 }));
    expect(firstPage.total).toBe(3);
    expect(firstPage.rows.map((r) => r.id)).toEqual(['msg_m', 'msg_a']);
    await both((s) => s.listBookingMessages('a', 'bk_1', { limit: 2, offset: 2 }));
    await both((s) => s.listBookingMessages('a', 'bk_1', { limit: 10, offset: 5 }));
    await both((s) => s.listBookingMessages('b', 'bk_1', { limit: 10, offset: 0 })); // another organization's booking
    await both((s) => s.listBookingMessages('b', 'bk_5', { limit: 10, offset: 0 }));
  });

  it('hands due messages to one worker at a time', async () => {
    expect(await both((s) => s.listDueMessages(NOW, 10))).toHaveLength(7);
    await both((s) => s.listDueMessages(NOW, 3));
    await both((s) => s.listDueMessages(NOW - 1000, 10));
    await both((s) => s.listDueMessages(NOW - 6 * DAY - 1, 10));
    await both((s) => s.nextMessageDueAt());

    expect(await both((s) => s.leaseMessage('msg_8', NOW, NOW + 60_000))).toBe(true);
    expect(await both((s) => s.leaseMessage('msg_8', NOW + 1000, NOW + 61_000))).toBe(false);
    expect(await both((s) => s.leaseMessage('msg_s', NOW, NOW + 60_000))).toBe(false); // not pending
    expect(await both((s) => s.leaseMessage('msg_none', NOW, NOW + 60_000))).toBe(false);
    await both((s) => s.getMessage('msg_8'));
    await both((s) => s.listDueMessages(NOW, 10));
    await both((s) => s.nextMessageDueAt());
    // A lease runs out: the message can be taken again.
    expect(await both((s) => s.leaseMessage('msg_8', NOW + 60_000, NOW + 120_000))).toBe(true);
    await both((s) => s.releaseMessage('msg_8'));
    await both((s) => s.getMessage('msg_8'));

    for (const id of ['msg_m', 'msg_c', 'msg_7']) await both((s) => s.leaseMessage(id, NOW, NOW + 60_000));
    // Every pending lease leaves; the count says how many there were.
    expect(await both((s) => s.releaseAllMessageLeases())).toBe(3);
    expect(await both((s) => s.releaseAllMessageLeases())).toBe(0);
    await both((s) => s.listDueMessages(NOW, 10));
  });

  it('lets exactly one of many concurrent leases win (PostgreSQL)', async () => {
    const tries = await Promise.all(Array.from({ length: 12 }, () => pg.leaseMessage('msg_7', NOW, NOW + 60_000)));
    expect(tries.filter(Boolean)).toHaveLength(1);
    await pg.releaseMessage('msg_7');
    // Inside transactions too: the second waits for the first to commit, then finds the lease.
    const inTransactions = await Promise.all(
      Array.from({ length: 4 }, () => e.pgDb.transaction(async () => await pg.leaseMessage('msg_7', NOW, NOW + 60_000))),
    );
    expect(inTransactions.filter(Boolean)).toHaveLength(1);
    await pg.releaseMessage('msg_7');
  });

  it('records attempts', async () => {
    await both((s) => s.leaseMessage('msg_m', NOW, NOW + 60_000));
    await both((s) => s.recordMessageAttempt('msg_m', { status: 'SENT', lastError: null, nextAttemptAt: null, sentAt: NOW + 10 }));
    await both((s) => s.leaseMessage('msg_a', NOW, NOW + 60_000));
    await both((s) => s.recordMessageAttempt('msg_a', { status: 'PENDING', lastError: '421 try later', nextAttemptAt: NOW + 30_000, sentAt: null }));
    await both((s) => s.recordMessageAttempt('msg_c', { status: 'FAILED', lastError: 'Not sent: the booking no longer exists', nextAttemptAt: null, sentAt: null }, false));
    // A sent message keeps its sentAt when an outcome without one is written over it.
    await both((s) => s.recordMessageAttempt('msg_m', { status: 'SENT', lastError: null, nextAttemptAt: null, sentAt: null }));
    for (const id of ['msg_m', 'msg_a', 'msg_c']) await both((s) => s.getMessage(id));
    await both((s) => s.nextMessageDueAt());
    // A pending message without a next attempt does not count for the next due time (SQLite's NULL max).
    await both((s) => s.leaseMessage('msg_rr', NOW, NOW + 99 * DAY));
    await both((s) => s.recordMessageAttempt('msg_rr', { status: 'PENDING', lastError: 'odd', nextAttemptAt: null, sentAt: null }));
    await both((s) => s.getMessage('msg_rr'));
    await both((s) => s.nextMessageDueAt());
    await both((s) => s.listDueMessages(NOW + DAY, 10));
    await both((s) => s.listBookingMessages('a', 'bk_1', { limit: 10, offset: 0 }));
  });

  it('finds the reminders due', async () => {
    // SQLite's order is its scan's (no ORDER BY): the rows are compared as sets.
    const byBooking = (rows: { bookingId: string }[]) => [...rows].sort((x, y) => (x.bookingId < y.bookingId ? -1 : 1));
    async function sameSet(now: number, windowMs: number, limit: number): Promise<string[]> {
      const expected = await e.sqlite.listRemindersDue(now, windowMs, limit);
      const actual = await pg.listRemindersDue(now, windowMs, limit);
      expect(byBooking(actual)).toStrictEqual(byBooking(expected));
      return actual.map((r) => r.bookingId);
    }
    // bk_1 and bk_2 have e-mails inside the window, bk_5 its reminder, bk_7 a fresh confirmation;
    // bk_8's confirmation is older than the window. bk_10 sits on both edges of the window.
    expect(await sameSet(NOW, WINDOW, 100)).toEqual(['bk_12', 'bk_8', 'bk_13', 'bk_10']);
    expect(await pg.listRemindersDue(NOW, WINDOW, 100)).toContainEqual({ bookingId: 'bk_10', orgId: 'a', to: 'bk_10@example.com', slotStart: NOW + WINDOW });
    // With a limit, as many (PostgreSQL: the soonest starts first, id breaking ties).
    expect((await e.sqlite.listRemindersDue(NOW, WINDOW, 2)).length).toBe(2);
    expect((await pg.listRemindersDue(NOW, WINDOW, 2)).map((r) => r.bookingId)).toEqual(['bk_12', 'bk_8']);
    expect(await sameSet(NOW, 3 * HOUR, 100)).toEqual(['bk_12', 'bk_8']);
    // bk_2's confirmation was queued exactly at the start of this window: not inside it.
    expect(await sameSet(NOW, HOUR, 100)).toEqual(['bk_2']);
    expect(await sameSet(NOW + 90 * DAY, WINDOW, 100)).toEqual([]);
    // Queued, a reminder takes its booking out of the list.
    await enqueue('msg_r1', { orgId: 'a', bookingId: 'bk_12', kind: 'BOOKING_REMINDER', to: 'bk_12@example.com', createdAt: NOW, reminderFor: NOW + 2 * HOUR });
    expect(await sameSet(NOW, WINDOW, 100)).toEqual(['bk_8', 'bk_13', 'bk_10']);
  });

  it('erases and skips messages', async () => {
    await both((s) => s.eraseMessagesOf('bk_1', 'erased@invalid', 'The guest was erased'));
    await both((s) => s.listBookingMessages('a', 'bk_1', { limit: 10, offset: 0 }));
    await both((s) => s.eraseMessagesOf('bk_none', 'erased@invalid', 'The guest was erased'));
    expect(await both((s) => s.skipPendingMessagesOf('b', 'Demo guests get no e-mail'))).toBe(3);
    expect(await both((s) => s.skipPendingMessagesOf('b', 'Demo guests get no e-mail'))).toBe(0);
    await both((s) => s.listBookingMessages('b', 'bk_5', { limit: 10, offset: 0 }));
    await enqueue('msg_late', { orgId: 'b', bookingId: 'bk_8', kind: 'BOOKING_CHANGED', to: 'bk_8@example.com', createdAt: NOW });
    expect(await both((s) => s.skipAllPendingMessages('No mail server is configured'))).toBe(3);
    expect(await both((s) => s.skipAllPendingMessages('No mail server is configured'))).toBe(0);
    await both((s) => s.listBookingMessages('b', 'bk_8', { limit: 10, offset: 0 }));
    await both((s) => s.listBookingMessages('a', 'bk_7', { limit: 10, offset: 0 }));
    await both((s) => s.listBookingMessages('a', 'bk_12', { limit: 10, offset: 0 }));
    await both((s) => s.listDueMessages(NOW + DAY, 10));
    await both((s) => s.nextMessageDueAt());
  });

  it('keeps manage tokens', async () => {
    await both((s) => s.insertManageToken('hash-1', 'bk_1', NOW));
    await both((s) => s.insertManageToken('hash-2', 'bk_1', NOW));
    await both((s) => s.insertManageToken('hash-5', 'bk_5', NOW));
    await bothReject((s) => s.insertManageToken('hash-1', 'bk_2', NOW)); // the hash is the key
    await bothReject((s) => s.insertManageToken('hash-x', 'bk_none', NOW));
    for (const hash of ['hash-1', 'hash-2', 'hash-5', 'hash-none']) await both((s) => s.findManageToken(hash));
    await both((s) => s.deleteManageTokens('bk_1'));
    for (const hash of ['hash-1', 'hash-2', 'hash-5']) await both((s) => s.findManageToken(hash));
    await both((s) => s.deleteManageTokens('bk_none'));
  });

  it('wakes the worker once the queueing transaction has committed', async () => {
    const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
    let sqliteWoken = 0;
    let pgWoken = 0;
    const offSqlite = await e.sqlite.onMessagesDue(() => sqliteWoken++);
    const offPg = await pg.onMessagesDue(() => pgWoken++);

    await enqueue('msg_w1', { orgId: 'a', bookingId: 'bk_2', kind: 'BOOKING_CHANGED', to: 'bk_2@example.com', createdAt: NOW });
    await tick();
    expect([sqliteWoken, pgWoken]).toEqual([1, 1]);
    // A message queued SKIPPED wakes nobody.
    await enqueue('msg_w2', { orgId: 'a', bookingId: 'bk_2', kind: 'BOOKING_CHANGED', to: 'bk_2@example.com', createdAt: NOW, skippedBecause: 'No mail server' });
    await tick();
    expect([sqliteWoken, pgWoken]).toEqual([1, 1]);

    // In a transaction: not while it is open, once it has committed, never when it rolls back.
    await e.pgDb.transaction(async () => {
      ids.next = ['msg_w3'];
      await pg.enqueueMessage({ orgId: 'a', bookingId: 'bk_2', kind: 'BOOKING_CHANGED', to: 'bk_2@example.com', createdAt: NOW });
      await tick();
      await tick();
      expect(pgWoken).toBe(1);
    });
    await tick();
    expect(pgWoken).toBe(2);
    await expect(
      e.pgDb.transaction(async () => {
        ids.next = ['msg_w4'];
        await pg.enqueueMessage({ orgId: 'a', bookingId: 'bk_2', kind: 'BOOKING_CHANGED', to: 'bk_2@example.com', createdAt: NOW });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await tick();
    expect(pgWoken).toBe(2);
    expect(await pg.getMessage('msg_w4')).toBeUndefined();

    offSqlite();
    offPg();
    await enqueue('msg_w5', { orgId: 'a', bookingId: 'bk_2', kind: 'BOOKING_CHANGED', to: 'bk_2@example.com', createdAt: NOW });
    await tick();
    expect([sqliteWoken, pgWoken]).toEqual([1, 2]);
  });
});
