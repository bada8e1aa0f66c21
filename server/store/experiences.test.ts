import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { ExperienceRow } from './experiences.js';
import { addOrganization, insertBookingRow, openTestStore, testEngine } from '../test-helpers/index.js';

// Behaviour of the store, not of SQLite: run with OUTING_TEST_ENGINE=postgres, the same tests hold
// the PostgreSQL store to it (a leased, migrated database of the test cluster).

describe(`experience store (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let store: Store;
  let orgId: string;
  beforeEach(async () => {
    opened = await openTestStore();
    store = opened.store;
    orgId = (await addOrganization(store)).orgId;
  });
  afterEach(async () => {
    await opened.close();
  });

  const row = (id: string, createdAt: number, active = 1, org = orgId): ExperienceRow => ({
    id, orgId: org, name: id, description: '', duration: 60, price: 100, maxParticipants: 5, maxPerBooking: null, schedule: null,
    minNoticeMinutes: 0, maxAdvanceDays: 365, active, priceCategories: '[]', createdAt, updatedAt: createdAt,
  });

  it('pages oldest first with the total, id breaking ties, filtered by active', async () => {
    await store.experiences.insertExperience(row('exp_c', 2));
    await store.experiences.insertExperience(row('exp_b', 2, 0));
    await store.experiences.insertExperience(row('exp_a', 3));
    await store.experiences.insertExperience(row('exp_z', 1));
    expect((await store.experiences.listExperiences(orgId, {}, { limit: 10, offset: 0 })).rows.map((r) => r.id)).toEqual(['exp_z', 'exp_b', 'exp_c', 'exp_a']);
    expect(await store.experiences.listExperiences(orgId, {}, { limit: 2, offset: 1 })).toMatchObject({ total: 4, rows: [{ id: 'exp_b' }, { id: 'exp_c' }] });
    expect(await store.experiences.listExperiences(orgId, { active: true }, { limit: 10, offset: 0 })).toMatchObject({ total: 3 });
    expect((await store.experiences.listExperiences(orgId, { active: false }, { limit: 10, offset: 0 })).rows.map((r) => r.id)).toEqual(['exp_b']);
  });

  it('reads, changes and deletes only within the org', async () => {
    const other = (await addOrganization(store)).orgId;
    await store.experiences.insertExperience(row('exp_mine', 1));
    expect(await store.experiences.getExperience(other, 'exp_mine')).toBeUndefined();
    await store.experiences.updateExperience({ ...row('exp_mine', 1), orgId: other, name: 'hijacked' });
    expect((await store.experiences.getExperience(orgId, 'exp_mine'))?.name).toBe('exp_mine');
    await store.experiences.deleteExperience(other, 'exp_mine');
    expect(await store.experiences.getExperience(orgId, 'exp_mine')).toBeDefined();
    await store.experiences.deleteExperience(orgId, 'exp_mine');
    expect(await store.experiences.getExperience(orgId, 'exp_mine')).toBeUndefined();
  });

  it('knows whether an experience or an org has bookings', async () => {
    await store.experiences.insertExperience(row('exp_a', 1));
    expect(await store.experiences.experienceHasBookings('exp_a')).toBe(false);
    expect(await store.bookings.orgHasBookings(orgId)).toBe(false);
    await insertBookingRow(store, { orgId, experienceId: 'exp_a' });
    expect(await store.experiences.experienceHasBookings('exp_a')).toBe(true);
    expect(await store.bookings.orgHasBookings(orgId)).toBe(true);
  });
});
