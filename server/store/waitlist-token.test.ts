import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { WaitlistRow } from './waitlist.js';
import { insertExperienceRow, openStoreWithTwoOrganizations, testEngine } from '../test-helpers/index.js';

const entry = (orgId: string, more: Partial<WaitlistRow> = {}): WaitlistRow => ({
  id: 'wl_a', orgId, experienceId: 'exp_1', slotStart: 1_000_000, slotEnd: 4_600_000, status: 'WAITING', places: 2, totalParticipants: 2,
  tickets: '[]', answers: '[]', guestName: 'Ana', guestEmail: 'ana@example.com', guestPhone: null, locale: 'en', tokenHash: null,
  offeredAt: null, offerExpiresAt: null, bookingId: null, createdAt: 10, updatedAt: 10, ...more,
});

describe(`waitlist offer tokens (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openStoreWithTwoOrganizations>>;
  let store: Store;
  beforeEach(async () => {
    opened = await openStoreWithTwoOrganizations();
    store = opened.store;
    await insertExperienceRow(store, opened.orgA);
  });
  afterEach(async () => {
    await opened.close();
  });

  it('sets the token hash of an OFFERED entry only, replacing the one before; the entry is then found by it', async () => {
    await store.waitlist.insertEntry(entry(opened.orgA));
    expect(await store.waitlist.setOfferTokenHash('wl_a', 'h1', 20)).toBe(false);
    expect((await store.waitlist.getEntry(opened.orgA, 'wl_a'))?.tokenHash).toBeNull();

    expect(await store.waitlist.moveEntry('wl_a', ['WAITING'], 'OFFERED', { offeredAt: 30, offerExpiresAt: 90, updatedAt: 30 })).toBe(true);
    expect(await store.waitlist.setOfferTokenHash('wl_a', 'h1', 40)).toBe(true);
    expect(await store.waitlist.getEntryByTokenHash('h1')).toMatchObject({ id: 'wl_a', status: 'OFFERED', tokenHash: 'h1', updatedAt: 40 });
    expect(await store.waitlist.setOfferTokenHash('wl_a', 'h2', 50)).toBe(true);
    expect(await store.waitlist.getEntryByTokenHash('h1')).toBeUndefined();
    expect((await store.waitlist.getEntryByTokenHash('h2'))?.id).toBe('wl_a');

    // A final entry keeps the token it has (its link still opens it) and takes no new one.
    expect(await store.waitlist.moveEntry('wl_a', ['OFFERED'], 'EXPIRED', { updatedAt: 60 })).toBe(true);
    expect(await store.waitlist.setOfferTokenHash('wl_a', 'h3', 70)).toBe(false);
    expect(await store.waitlist.getEntryByTokenHash('h2')).toMatchObject({ id: 'wl_a', status: 'EXPIRED', tokenHash: 'h2', updatedAt: 60 });
    expect(await store.waitlist.setOfferTokenHash('wl_none', 'h4', 70)).toBe(false);
  });
});
