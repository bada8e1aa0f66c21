import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { WaitlistRow } from './waitlist.js';
import { addOrganization, insertExperienceRow, openTestStore, testEngine } from '../test-helpers/index.js';

// A waitlist entry's guest as the store keeps them: found by address for an erasure, overwritten by
// it, and the entry's e-mails listed and erased. Expected values on both engines.

describe(`waitlist guests and their e-mails (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let store: Store;
  let orgId: string;
  let otherOrg: string;
  beforeEach(async () => {
    opened = await openTestStore();
    store = opened.store;
    orgId = (await addOrganization(store)).orgId;
    otherOrg = (await addOrganization(store)).orgId;
    await insertExperienceRow(store, orgId, { id: 'exp_1' });
    await insertExperienceRow(store, otherOrg, { id: 'exp_2' });
  });
  afterEach(async () => {
    await opened.close();
  });

  const entry = (id: string, fields: Partial<WaitlistRow> = {}): WaitlistRow => ({
    id, orgId, experienceId: 'exp_1', slotStart: 1_000, slotEnd: 2_000, status: 'WAITING', places: 2, totalParticipants: 2, tickets: '[]',
    answers: '[]', guestName: 'Ana', guestEmail: 'ana@example.com', guestPhone: '+351 1', locale: 'en', tokenHash: null, offeredAt: null,
    offerExpiresAt: null, bookingId: null, createdAt: 10, updatedAt: 10, ...fields,
  });

  it('finds an organization’s entries of one address in any case, oldest first', async () => {
    await store.waitlist.insertEntry(entry('wl_b', { guestEmail: 'ANA@example.com', slotStart: 3_000, createdAt: 20 }));
    await store.waitlist.insertEntry(entry('wl_a', { status: 'EXPIRED', createdAt: 5 }));
    await store.waitlist.insertEntry(entry('wl_c', { guestEmail: 'rui@example.com', createdAt: 1 }));
    await store.waitlist.insertEntry(entry('wl_d', { orgId: otherOrg, experienceId: 'exp_2' }));
    expect((await store.waitlist.listEntriesOfEmail(orgId, 'Ana@Example.com')).map((r) => r.id)).toEqual(['wl_a', 'wl_b']);
    expect(await store.waitlist.listEntriesOfEmail(orgId, 'nobody@example.com')).toEqual([]);
  });

  it('overwrites the guest of one entry and forgets its offer’s token', async () => {
    await store.waitlist.insertEntry(entry('wl_a', { status: 'OFFERED', tokenHash: 'hash-a', offeredAt: 11, offerExpiresAt: 99 }));
    await store.waitlist.insertEntry(entry('wl_b', { guestEmail: 'ana@example.com', slotStart: 3_000 }));
    await store.waitlist.replaceGuest('wl_a', { name: 'erased', email: 'erased-1@erased.invalid', phone: null }, 50);
    expect(await store.waitlist.getEntry(orgId, 'wl_a')).toEqual(
      entry('wl_a', { status: 'OFFERED', guestName: 'erased', guestEmail: 'erased-1@erased.invalid', guestPhone: null, tokenHash: null, offeredAt: 11, offerExpiresAt: 99, updatedAt: 50 }),
    );
    expect(await store.waitlist.getEntryByTokenHash('hash-a')).toBeUndefined();
    expect(await store.waitlist.getEntry(orgId, 'wl_b')).toEqual(entry('wl_b', { slotStart: 3_000 }));
  });

  it('lists an entry’s e-mails oldest first within its organization, and erases their address', async () => {
    await store.waitlist.insertEntry(entry('wl_a'));
    await store.waitlist.insertEntry(entry('wl_b', { slotStart: 3_000 }));
    const queue = (kind: 'WAITLIST_JOINED' | 'WAITLIST_OFFER', id: string, createdAt: number, skipped = false) =>
      store.messages.enqueueMessage({ orgId, bookingId: null, kind, to: 'ana@example.com', createdAt, waitlistEntryId: id, ...(skipped ? { skippedBecause: 'No SMTP' } : {}) });
    const offer = await queue('WAITLIST_OFFER', 'wl_a', 30);
    const joined = await queue('WAITLIST_JOINED', 'wl_a', 20, true);
    await queue('WAITLIST_JOINED', 'wl_b', 25);
    const page = await store.messages.listWaitlistMessages(orgId, 'wl_a', { limit: 10, offset: 0 });
    expect(page.total).toBe(2);
    expect(page.rows.map((m) => [m.id, m.kind, m.waitlistEntryId, m.bookingId])).toEqual([
      [joined!.id, 'WAITLIST_JOINED', 'wl_a', null],
      [offer!.id, 'WAITLIST_OFFER', 'wl_a', null],
    ]);
    expect((await store.messages.listWaitlistMessages(orgId, 'wl_a', { limit: 1, offset: 1 })).rows.map((m) => m.id)).toEqual([offer!.id]);
    expect(await store.messages.listWaitlistMessages(otherOrg, 'wl_a', { limit: 10, offset: 0 })).toEqual({ rows: [], total: 0 });

    await store.messages.eraseWaitlistMessagesOf('wl_a', 'erased-1@erased.invalid', 'Not sent: erased');
    const erased = (await store.messages.listWaitlistMessages(orgId, 'wl_a', { limit: 10, offset: 0 })).rows;
    expect(erased.map((m) => [m.to, m.status, m.lastError, m.nextAttemptAt])).toEqual([
      ['erased-1@erased.invalid', 'SKIPPED', null, null],
      ['erased-1@erased.invalid', 'FAILED', 'Not sent: erased', null],
    ]);
    expect((await store.messages.listWaitlistMessages(orgId, 'wl_b', { limit: 10, offset: 0 })).rows.map((m) => [m.to, m.status])).toEqual([
      ['ana@example.com', 'PENDING'],
    ]);
  });
});
