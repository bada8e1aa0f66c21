import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertExperienceRow, openStoreWithTwoOrganizations } from '../test-helpers/index.js';
import type { Store } from './index.js';
import type { WaitlistRow } from './waitlist.js';
import type { WaitlistStatus } from '../../shared/index.js';

describe('store.waitlist.listWaitingSlots', () => {
  let store: Store;
  let orgA: string;
  let orgB: string;
  let close: () => Promise<void>;
  let n = 0;

  beforeEach(async () => {
    ({ store, orgA, orgB, close } = await openStoreWithTwoOrganizations());
    await insertExperienceRow(store, orgA, { id: 'exp_a1' });
    await insertExperienceRow(store, orgA, { id: 'exp_a2' });
    await insertExperienceRow(store, orgB, { id: 'exp_b1' });
  });
  afterEach(() => close());

  const entry = async (orgId: string, experienceId: string, slotStart: number, status: WaitlistStatus = 'WAITING') => {
    n++;
    const row: WaitlistRow = {
      id: `wl_${String(n).padStart(20, '0')}`, orgId, experienceId, slotStart, slotEnd: slotStart + 3_600_000, status, places: 1,
      totalParticipants: 1, tickets: '[]', answers: '[]', guestName: 'Guest', guestEmail: `guest${n}@example.com`, guestPhone: null, locale: 'en',
      tokenHash: null, offeredAt: null, offerExpiresAt: null, bookingId: null, createdAt: n, updatedAt: n,
    };
    await store.waitlist.insertEntry(row);
  };

  it('lists each slot with WAITING entries once, soonest first, in the scope asked for', async () => {
    const T = 1_900_000_000_000;
    await entry(orgA, 'exp_a1', T + 2);
    await entry(orgA, 'exp_a1', T + 2);
    await entry(orgA, 'exp_a2', T + 1);
    await entry(orgA, 'exp_a1', T + 3, 'OFFERED');
    await entry(orgA, 'exp_a1', T + 4, 'EXPIRED');
    await entry(orgB, 'exp_b1', T);

    expect(await store.waitlist.listWaitingSlots({}, 10)).toEqual([
      { orgId: orgB, experienceId: 'exp_b1', slotStart: T },
      { orgId: orgA, experienceId: 'exp_a2', slotStart: T + 1 },
      { orgId: orgA, experienceId: 'exp_a1', slotStart: T + 2 },
    ]);
    expect(await store.waitlist.listWaitingSlots({}, 1)).toEqual([{ orgId: orgB, experienceId: 'exp_b1', slotStart: T }]);
    expect((await store.waitlist.listWaitingSlots({ orgId: orgA }, 10)).map((s) => s.experienceId)).toEqual(['exp_a2', 'exp_a1']);
    expect(await store.waitlist.listWaitingSlots({ experienceId: 'exp_a1' }, 10)).toEqual([{ orgId: orgA, experienceId: 'exp_a1', slotStart: T + 2 }]);
    expect(await store.waitlist.listWaitingSlots({ orgId: orgB, experienceId: 'exp_a1' }, 10)).toEqual([]);
  });
});
