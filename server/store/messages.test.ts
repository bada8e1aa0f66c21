import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Store } from './index.js';
import type { ExperienceRow } from './experiences.js';
import type { MessageRow, NewMessage } from './messages.js';
import { addOrganization, insertBookingRow, openTestStore, testEngine } from '../test-helpers/index.js';
import { REFUSALS } from '../test-helpers/engines.js';

// Behaviour of the store, not of one engine: the vitest project server-postgres runs these same
// tests against a leased, migrated PostgreSQL database.

/** Message ids are named by the test before each is queued, so ties ordered by id can be stated. */
const ids = vi.hoisted(() => ({ next: [] as string[] }));
vi.mock('../domain/ids.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../domain/ids.js')>();
  return {
    ...actual,
    newId: (...args: Parameters<typeof actual.newId>) => (args[0] === 'message' ? ids.next.shift() : undefined) ?? actual.newId(...args),
  };
});

const NOW = 1_800_000_000_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WINDOW = 24 * HOUR;
const tick = async (): Promise<void> => await new Promise((resolve) => setImmediate(resolve));
const refusal = (why: keyof typeof REFUSALS) => ({
  code: testEngine() === 'postgres' ? REFUSALS[why].pg : expect.stringMatching(REFUSALS[why].sqlite),
});

// One database for the whole suite: each test goes on from the state the previous one left.
describe(`message store (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let store: Store;
  let orgA: string;
  let orgB: string;

  /** Queues a message named `id`. */
  async function enqueue(id: string, input: NewMessage): Promise<MessageRow | undefined> {
    ids.next = [id];
    try {
      return await store.messages.enqueueMessage(input);
    } finally {
      ids.next = [];
    }
  }
  const mail = (orgId: string, bookingId: string, kind: NewMessage['kind'], createdAt: number, more: Partial<NewMessage> = {}): NewMessage => ({
    orgId, bookingId, kind, to: `${bookingId}@example.com`, createdAt, ...more,
  });
  const dueIds = async (now: number, limit = 10) => await store.messages.listDueMessages(now, limit);
  const bookingMessages = async (orgId: string, bookingId: string, limit = 10, offset = 0) => {
    const { rows, total } = await store.messages.listBookingMessages(orgId, bookingId, { limit, offset });
    return { ids: rows.map((r) => r.id), total };
  };
  const reminders = async (now: number, windowMs: number, limit = 100) =>
    (await store.messages.listRemindersDue(now, windowMs, limit)).map((r) => r.bookingId);

  beforeAll(async () => {
    opened = await openTestStore();
    store = opened.store;
    orgA = (await addOrganization(store, { name: 'A Tours' })).orgId;
    orgB = (await addOrganization(store, { name: 'B Tours', email: 'b@example.com' })).orgId;
    const experience = (id: string, orgId: string): ExperienceRow => ({
      id, orgId, name: id, description: '', duration: 60, price: 1500, maxParticipants: 10, maxPerBooking: null, schedule: null,
      minNoticeMinutes: 0, maxAdvanceDays: 365, active: 1, priceCategories: '[]', createdAt: NOW - 9 * DAY, updatedAt: NOW - 9 * DAY,
    });
    for (const [id, org] of [['exp_a1', orgA], ['exp_a2', orgA], ['exp_b1', orgB]] as const) await store.experiences.insertExperience(experience(id, org));
    const booking = async (id: string, b: { org: string; exp: string; slot: number; status?: 'CONFIRMED' | 'CANCELLED' | 'PENDING'; createdAt?: number }) =>
      await insertBookingRow(store, {
        id, orgId: b.org, experienceId: b.exp, slotStart: b.slot, status: b.status ?? 'CONFIRMED', guestEmail: `${id}@example.com`,
        participants: 2, createdAt: b.createdAt ?? NOW - 5 * DAY, updatedAt: b.createdAt ?? NOW - 5 * DAY,
      });
    // Made out of start order: the reminders come by start, id breaking ties, whatever the insertion order.
    await booking('bk_13', { org: orgA, exp: 'exp_a2', slot: NOW + 8 * HOUR });
    await booking('bk_12', { org: orgA, exp: 'exp_a1', slot: NOW + 2 * HOUR }); // same start as bk_8
    await booking('bk_6', { org: orgA, exp: 'exp_a1', slot: NOW + 30 * HOUR }); // beyond the window
    await booking('bk_1', { org: orgA, exp: 'exp_a1', slot: NOW + 2 * HOUR });
    await booking('bk_3', { org: orgA, exp: 'exp_a1', slot: NOW + 20 * HOUR, createdAt: NOW - 3 * HOUR }); // made inside the window
    await booking('bk_2', { org: orgA, exp: 'exp_a2', slot: NOW + HOUR });
    await booking('bk_4', { org: orgA, exp: 'exp_a1', slot: NOW + 3 * HOUR, status: 'CANCELLED' });
    await booking('bk_5', { org: orgB, exp: 'exp_b1', slot: NOW + 5 * HOUR });
    await booking('bk_7', { org: orgA, exp: 'exp_a2', slot: NOW + 4 * HOUR }); // confirmed by e-mail inside the window
    await booking('bk_8', { org: orgB, exp: 'exp_b1', slot: NOW + 2 * HOUR }); // same start as bk_12
    await booking('bk_9', { org: orgA, exp: 'exp_a2', slot: NOW }); // started: not ahead
    await booking('bk_10', { org: orgA, exp: 'exp_a2', slot: NOW + WINDOW, createdAt: NOW }); // the window's edges
    await booking('bk_11', { org: orgA, exp: 'exp_a1', slot: NOW + 6 * HOUR, status: 'PENDING' });
  });
  afterAll(async () => {
    await opened?.close();
  });

  it('queues, reads and pages messages', async () => {
    const confirmed = await enqueue('msg_m', mail(orgA, 'bk_1', 'BOOKING_CONFIRMED', NOW - 1000));
    const stored: MessageRow = {
      id: 'msg_m', orgId: orgA, bookingId: 'bk_1', kind: 'BOOKING_CONFIRMED', to: 'bk_1@example.com', status: 'PENDING', attempts: 0,
      lastError: null, nextAttemptAt: NOW - 1000, leasedUntil: null, reminderFor: null, resendOf: null, sentAt: null, createdAt: NOW - 1000,
      noticeOf: null, userId: null, setupUrl: null, giftVoucherId: null, waitlistEntryId: null,
    };
    expect(confirmed).toStrictEqual(stored);
    expect(await store.messages.getMessage('msg_m')).toStrictEqual(stored);
    // Two at the same instant, queued against id order: the list breaks the tie by id.
    await enqueue('msg_c', mail(orgA, 'bk_1', 'BOOKING_CHANGED', NOW));
    await enqueue('msg_a', mail(orgA, 'bk_1', 'BOOKING_CANCELLED', NOW));
    const skipped = await enqueue('msg_s', mail(orgA, 'bk_2', 'BOOKING_CONFIRMED', NOW, { skippedBecause: 'No mail server' }));
    expect(skipped).toMatchObject({ status: 'SKIPPED', lastError: 'No mail server', nextAttemptAt: null });
    expect(await store.messages.getMessage('msg_s')).toStrictEqual(skipped);
    await enqueue('msg_r', mail(orgB, 'bk_5', 'BOOKING_REMINDER', NOW - 500, { reminderFor: NOW + 5 * HOUR }));
    // The same reminder again is not queued; a resend of it is.
    expect(await enqueue('msg_r2', mail(orgB, 'bk_5', 'BOOKING_REMINDER', NOW, { reminderFor: NOW + 5 * HOUR }))).toBeUndefined();
    expect(await enqueue('msg_rr', mail(orgB, 'bk_5', 'BOOKING_REMINDER', NOW - 500, { reminderFor: NOW + 5 * HOUR, resendOf: 'msg_r' }))).toMatchObject({
      reminderFor: NOW + 5 * HOUR, resendOf: 'msg_r',
    });
    // The same id twice is not queued either (the primary key).
    expect(await enqueue('msg_m', mail(orgA, 'bk_2', 'BOOKING_CHANGED', NOW))).toBeUndefined();
    expect(await store.messages.getMessage('msg_m')).toStrictEqual(stored);
    await enqueue('msg_7', mail(orgA, 'bk_7', 'BOOKING_CONFIRMED', NOW - 2 * HOUR));
    await enqueue('msg_8', mail(orgB, 'bk_8', 'BOOKING_CONFIRMED', NOW - 6 * DAY));
    // A booking that does not exist: the foreign key refuses.
    await expect(store.messages.enqueueMessage(mail(orgA, 'bk_none', 'BOOKING_CONFIRMED', NOW))).rejects.toMatchObject(refusal('foreignKey'));
    expect(await store.messages.getMessage('msg_r2')).toBeUndefined();
    expect(await store.messages.getMessage('msg_none')).toBeUndefined();

    expect(await bookingMessages(orgA, 'bk_1', 2, 0)).toEqual({ ids: ['msg_m', 'msg_a'], total: 3 });
    expect(await bookingMessages(orgA, 'bk_1', 2, 2)).toEqual({ ids: ['msg_c'], total: 3 });
    expect(await bookingMessages(orgA, 'bk_1', 10, 5)).toEqual({ ids: [], total: 3 });
    expect(await bookingMessages(orgB, 'bk_1')).toEqual({ ids: [], total: 0 }); // another organization's booking
    expect(await bookingMessages(orgB, 'bk_5')).toEqual({ ids: ['msg_r', 'msg_rr'], total: 2 });
  });

  it('hands due messages to one worker at a time', async () => {
    expect(await dueIds(NOW)).toEqual(['msg_8', 'msg_7', 'msg_m', 'msg_r', 'msg_rr', 'msg_a', 'msg_c']);
    expect(await dueIds(NOW, 3)).toEqual(['msg_8', 'msg_7', 'msg_m']);
    expect(await dueIds(NOW - 1000)).toEqual(['msg_8', 'msg_7', 'msg_m']);
    expect(await dueIds(NOW - 6 * DAY - 1)).toEqual([]);
    expect(await store.messages.nextMessageDueAt()).toBe(NOW - 6 * DAY);

    expect(await store.messages.leaseMessage('msg_8', NOW, NOW + 60_000)).toBe(true);
    expect(await store.messages.leaseMessage('msg_8', NOW + 1000, NOW + 61_000)).toBe(false);
    expect(await store.messages.leaseMessage('msg_s', NOW, NOW + 60_000)).toBe(false); // not pending
    expect(await store.messages.leaseMessage('msg_none', NOW, NOW + 60_000)).toBe(false);
    expect(await store.messages.getMessage('msg_8')).toMatchObject({ status: 'PENDING', leasedUntil: NOW + 60_000, nextAttemptAt: NOW - 6 * DAY });
    expect(await dueIds(NOW)).toEqual(['msg_7', 'msg_m', 'msg_r', 'msg_rr', 'msg_a', 'msg_c']);
    // A leased message counts from its lease's end: the next is msg_7's due time.
    expect(await store.messages.nextMessageDueAt()).toBe(NOW - 2 * HOUR);
    // A lease runs out: the message can be taken again.
    expect(await store.messages.leaseMessage('msg_8', NOW + 60_000, NOW + 120_000)).toBe(true);
    await store.messages.releaseMessage('msg_8');
    expect(await store.messages.getMessage('msg_8')).toMatchObject({ leasedUntil: null });

    for (const id of ['msg_m', 'msg_c', 'msg_7']) expect(await store.messages.leaseMessage(id, NOW, NOW + 60_000)).toBe(true);
    // Every pending lease leaves; the count says how many there were.
    expect(await store.messages.releaseAllMessageLeases()).toBe(3);
    expect(await store.messages.releaseAllMessageLeases()).toBe(0);
    expect(await dueIds(NOW)).toHaveLength(7);
  });

  it('lets exactly one of many concurrent leases win', async () => {
    const tries = await Promise.all(Array.from({ length: 12 }, () => store.messages.leaseMessage('msg_7', NOW, NOW + 60_000)));
    expect(tries.filter(Boolean)).toHaveLength(1);
    await store.messages.releaseMessage('msg_7');
    // Inside transactions too: the second waits for the first to commit, then finds the lease.
    const inTransactions = await Promise.all(
      Array.from({ length: 4 }, () => store.transaction(async () => await store.messages.leaseMessage('msg_7', NOW, NOW + 60_000))),
    );
    expect(inTransactions.filter(Boolean)).toHaveLength(1);
    await store.messages.releaseMessage('msg_7');
  });

  it('records attempts', async () => {
    await store.messages.leaseMessage('msg_m', NOW, NOW + 60_000);
    await store.messages.recordMessageAttempt('msg_m', { status: 'SENT', lastError: null, nextAttemptAt: null, sentAt: NOW + 10 });
    await store.messages.leaseMessage('msg_a', NOW, NOW + 60_000);
    await store.messages.recordMessageAttempt('msg_a', { status: 'PENDING', lastError: '421 try later', nextAttemptAt: NOW + 30_000, sentAt: null });
    await store.messages.recordMessageAttempt('msg_c', { status: 'FAILED', lastError: 'Not sent: the booking no longer exists', nextAttemptAt: null, sentAt: null }, false);
    // A sent message keeps its sentAt when an outcome without one is written over it.
    await store.messages.recordMessageAttempt('msg_m', { status: 'SENT', lastError: null, nextAttemptAt: null, sentAt: null });
    expect(await store.messages.getMessage('msg_m')).toMatchObject({ status: 'SENT', attempts: 2, lastError: null, nextAttemptAt: null, leasedUntil: null, sentAt: NOW + 10 });
    expect(await store.messages.getMessage('msg_a')).toMatchObject({ status: 'PENDING', attempts: 1, lastError: '421 try later', nextAttemptAt: NOW + 30_000, leasedUntil: null, sentAt: null });
    expect(await store.messages.getMessage('msg_c')).toMatchObject({ status: 'FAILED', attempts: 0, lastError: 'Not sent: the booking no longer exists', nextAttemptAt: null });
    expect(await store.messages.nextMessageDueAt()).toBe(NOW - 6 * DAY);
    // A pending message without a next attempt is never due and does not count for the next due time.
    await store.messages.leaseMessage('msg_rr', NOW, NOW + 99 * DAY);
    await store.messages.recordMessageAttempt('msg_rr', { status: 'PENDING', lastError: 'odd', nextAttemptAt: null, sentAt: null });
    expect(await store.messages.getMessage('msg_rr')).toMatchObject({ status: 'PENDING', attempts: 1, nextAttemptAt: null, leasedUntil: null });
    expect(await dueIds(NOW + DAY)).toEqual(['msg_8', 'msg_7', 'msg_r', 'msg_a']);
    for (const id of ['msg_8', 'msg_7', 'msg_r']) await store.messages.leaseMessage(id, NOW, NOW + 99 * DAY);
    expect(await store.messages.nextMessageDueAt()).toBe(NOW + 30_000); // msg_a; msg_rr counts for nothing
    expect(await store.messages.releaseAllMessageLeases()).toBe(3);
    expect(await bookingMessages(orgA, 'bk_1')).toEqual({ ids: ['msg_m', 'msg_a', 'msg_c'], total: 3 });
  });

  it('finds the reminders due, soonest start first, id breaking ties', async () => {
    // bk_1 and bk_2 have e-mails inside the window, bk_5 its reminder, bk_7 a fresh confirmation;
    // bk_8's confirmation is older than the window. bk_10 sits on both edges of the window.
    expect(await reminders(NOW, WINDOW)).toEqual(['bk_12', 'bk_8', 'bk_13', 'bk_10']);
    expect((await store.messages.listRemindersDue(NOW, WINDOW, 100))[3]).toStrictEqual({
      bookingId: 'bk_10', orgId: orgA, to: 'bk_10@example.com', slotStart: NOW + WINDOW,
    });
    expect(await reminders(NOW, WINDOW, 2)).toEqual(['bk_12', 'bk_8']);
    expect(await reminders(NOW, 3 * HOUR)).toEqual(['bk_12', 'bk_8']);
    // bk_2's confirmation was queued exactly at the start of this window: not inside it.
    expect(await reminders(NOW, HOUR)).toEqual(['bk_2']);
    expect(await reminders(NOW + 90 * DAY, WINDOW)).toEqual([]);
    // Queued, a reminder takes its booking out of the list.
    await enqueue('msg_r1', mail(orgA, 'bk_12', 'BOOKING_REMINDER', NOW, { reminderFor: NOW + 2 * HOUR }));
    expect(await reminders(NOW, WINDOW)).toEqual(['bk_8', 'bk_13', 'bk_10']);
  });

  it('erases and skips messages', async () => {
    await store.messages.eraseMessagesOf('bk_1', 'erased@invalid', 'The guest was erased');
    const erased = (await store.messages.listBookingMessages(orgA, 'bk_1', { limit: 10, offset: 0 })).rows;
    expect(erased.map(({ id, to, status, lastError, nextAttemptAt, sentAt }) => ({ id, to, status, lastError, nextAttemptAt, sentAt }))).toEqual([
      { id: 'msg_m', to: 'erased@invalid', status: 'SENT', lastError: null, nextAttemptAt: null, sentAt: NOW + 10 },
      { id: 'msg_a', to: 'erased@invalid', status: 'FAILED', lastError: 'The guest was erased', nextAttemptAt: null, sentAt: null },
      { id: 'msg_c', to: 'erased@invalid', status: 'FAILED', lastError: null, nextAttemptAt: null, sentAt: null },
    ]);
    await store.messages.eraseMessagesOf('bk_none', 'erased@invalid', 'The guest was erased');
    expect(await store.messages.skipPendingMessagesOf(orgB, 'Demo guests get no e-mail')).toBe(3); // msg_8, msg_r, msg_rr
    expect(await store.messages.skipPendingMessagesOf(orgB, 'Demo guests get no e-mail')).toBe(0);
    for (const id of ['msg_r', 'msg_rr', 'msg_8']) {
      expect(await store.messages.getMessage(id)).toMatchObject({ status: 'SKIPPED', lastError: 'Demo guests get no e-mail', nextAttemptAt: null });
    }
    await enqueue('msg_late', mail(orgB, 'bk_8', 'BOOKING_CHANGED', NOW));
    expect(await store.messages.skipAllPendingMessages('No mail server is configured')).toBe(3); // msg_7, msg_r1, msg_late
    expect(await store.messages.skipAllPendingMessages('No mail server is configured')).toBe(0);
    expect(await store.messages.getMessage('msg_late')).toMatchObject({ status: 'SKIPPED', lastError: 'No mail server is configured', nextAttemptAt: null });
    expect(await store.messages.getMessage('msg_m')).toMatchObject({ status: 'SENT' });
    expect(await dueIds(NOW + DAY)).toEqual([]);
    expect(await store.messages.nextMessageDueAt()).toBeUndefined();
  });

  it('keeps manage tokens', async () => {
    await store.messages.insertManageToken('hash-1', 'bk_1', NOW);
    await store.messages.insertManageToken('hash-2', 'bk_1', NOW);
    await store.messages.insertManageToken('hash-5', 'bk_5', NOW);
    await expect(store.messages.insertManageToken('hash-1', 'bk_2', NOW)).rejects.toMatchObject(refusal('unique')); // the hash is the key
    await expect(store.messages.insertManageToken('hash-x', 'bk_none', NOW)).rejects.toMatchObject(refusal('foreignKey'));
    expect(await store.messages.findManageToken('hash-1')).toStrictEqual({ tokenHash: 'hash-1', orgId: orgA, bookingId: 'bk_1' });
    expect(await store.messages.findManageToken('hash-5')).toStrictEqual({ tokenHash: 'hash-5', orgId: orgB, bookingId: 'bk_5' });
    expect(await store.messages.findManageToken('hash-none')).toBeUndefined();
    await store.messages.deleteManageTokens('bk_1');
    expect(await store.messages.findManageToken('hash-1')).toBeUndefined();
    expect(await store.messages.findManageToken('hash-2')).toBeUndefined();
    expect(await store.messages.findManageToken('hash-5')).toStrictEqual({ tokenHash: 'hash-5', orgId: orgB, bookingId: 'bk_5' });
    await store.messages.deleteManageTokens('bk_none');
  });

  it('wakes the worker once the queueing transaction has committed', async () => {
    let woken = 0;
    const off = await store.messages.onMessagesDue(() => woken++);

    await enqueue('msg_w1', mail(orgA, 'bk_2', 'BOOKING_CHANGED', NOW));
    await tick();
    expect(woken).toBe(1);
    // A message queued SKIPPED wakes nobody.
    await enqueue('msg_w2', mail(orgA, 'bk_2', 'BOOKING_CHANGED', NOW, { skippedBecause: 'No mail server' }));
    await tick();
    expect(woken).toBe(1);

    // In a transaction: not while it is open, once it has committed, never when it rolls back.
    await store.transaction(async () => {
      await enqueue('msg_w3', mail(orgA, 'bk_2', 'BOOKING_CHANGED', NOW));
      await tick();
      await tick();
      expect(woken).toBe(1);
    });
    await tick();
    expect(woken).toBe(2);
    await expect(
      store.transaction(async () => {
        await enqueue('msg_w4', mail(orgA, 'bk_2', 'BOOKING_CHANGED', NOW));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await tick();
    expect(woken).toBe(2);
    expect(await store.messages.getMessage('msg_w4')).toBeUndefined();

    off();
    await enqueue('msg_w5', mail(orgA, 'bk_2', 'BOOKING_CHANGED', NOW));
    await tick();
    expect(woken).toBe(2);
  });
});

describe(`notices and invites in the message store (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let store: Store;
  let orgId: string;
  beforeAll(async () => {
    opened = await openTestStore();
    store = opened.store;
    orgId = (await addOrganization(store, { name: 'N Tours' })).orgId;
    await store.experiences.insertExperience({
      id: 'exp_n', orgId, name: 'Walk', description: '', duration: 60, price: 1500, maxParticipants: 10, maxPerBooking: null, schedule: null,
      minNoticeMinutes: 0, maxAdvanceDays: 365, active: 1, priceCategories: '[]', createdAt: NOW, updatedAt: NOW,
    });
    await insertBookingRow(store, { id: 'bk_n', orgId, experienceId: 'exp_n', slotStart: NOW + DAY, status: 'CONFIRMED', guestEmail: 'guest@example.com', participants: 1, createdAt: NOW, updatedAt: NOW });
    for (const id of ['usr_1', 'usr_2', 'usr_3']) {
      await store.users.insertUser({ id, orgId, email: `${id}@n-tours.example`, name: id, role: 'staff', passwordHash: null, createdAt: NOW, lastSignInAt: null, disabledAt: null });
    }
  });
  afterAll(async () => {
    await opened?.close();
  });

  const invite = (userId: string, skippedBecause?: string) =>
    store.messages.enqueueMessage({
      orgId, bookingId: null, kind: 'USER_INVITE', to: `${userId}@n-tours.example`, userId, setupUrl: `https://x.example/dashboard/setup#${userId}`, createdAt: NOW,
      ...(skippedBecause ? { skippedBecause } : {}),
    });

  it('keeps an invite’s link while it is pending and erases it once sent, failed or skipped', async () => {
    const sent = (await invite('usr_1'))!;
    expect(sent).toMatchObject({ bookingId: null, kind: 'USER_INVITE', userId: 'usr_1', setupUrl: 'https://x.example/dashboard/setup#usr_1', noticeOf: null });
    await store.messages.recordMessageAttempt(sent.id, { status: 'PENDING', lastError: '451 later', nextAttemptAt: NOW + 5000, sentAt: null });
    expect((await store.messages.getMessage(sent.id))?.setupUrl).toBe('https://x.example/dashboard/setup#usr_1');
    await store.messages.recordMessageAttempt(sent.id, { status: 'SENT', lastError: null, nextAttemptAt: null, sentAt: NOW + 6000 });
    expect(await store.messages.listUserMessages('usr_1')).toMatchObject([{ id: sent.id, status: 'SENT', setupUrl: null }]);

    const failed = (await invite('usr_2'))!;
    await store.messages.recordMessageAttempt(failed.id, { status: 'FAILED', lastError: '550 no such user', nextAttemptAt: null, sentAt: null });
    expect((await store.messages.getMessage(failed.id))?.setupUrl).toBeNull();

    // Queued SKIPPED (no mail server) keeps none; skipped later, it is erased.
    expect((await invite('usr_3', 'No mail server'))?.setupUrl).toBeNull();
    const later = (await invite('usr_3'))!;
    expect(await store.messages.skipAllPendingMessages('No mail server')).toBeGreaterThanOrEqual(1);
    expect((await store.messages.getMessage(later.id))?.setupUrl).toBeNull();
    // A deleted user takes their invitations along.
    await store.users.deleteUser('usr_3');
    expect(await store.messages.listUserMessages('usr_3')).toEqual([]);
  });

  it('keeps the operator’s address on a notice when the guest is erased, and ends it unsent', async () => {
    const notice = (await store.messages.enqueueMessage({ orgId, bookingId: 'bk_n', kind: 'OPERATOR_NOTICE', noticeOf: 'BOOKING_CREATED', to: 'desk@n-tours.example', createdAt: NOW }))!;
    const guest = (await store.messages.enqueueMessage({ orgId, bookingId: 'bk_n', kind: 'BOOKING_CONFIRMED', to: 'guest@example.com', createdAt: NOW }))!;
    expect(notice).toMatchObject({ noticeOf: 'BOOKING_CREATED', userId: null, setupUrl: null });
    await store.messages.eraseMessagesOf('bk_n', 'erased@erased.invalid', 'The guest was erased');
    expect(await store.messages.getMessage(notice.id)).toMatchObject({ to: 'desk@n-tours.example', status: 'FAILED' });
    expect(await store.messages.getMessage(guest.id)).toMatchObject({ to: 'erased@erased.invalid', status: 'FAILED' });
  });

  it('refuses a kind or an event it does not know', async () => {
    await expect(store.messages.enqueueMessage({ orgId, bookingId: 'bk_n', kind: 'NOPE' as 'OPERATOR_NOTICE', to: 'x@example.com', createdAt: NOW })).rejects.toMatchObject(refusal('check'));
    await expect(
      store.messages.enqueueMessage({ orgId, bookingId: 'bk_n', kind: 'OPERATOR_NOTICE', noticeOf: 'PAYMENT_SUCCEEDED' as 'BOOKING_CREATED', to: 'x@example.com', createdAt: NOW }),
    ).rejects.toMatchObject(refusal('check'));
  });
});
