import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { ExperienceRow } from './experiences.js';
import { addOrganization, testEngine } from '../test-helpers/index.js';
import { openTwoStores } from '../test-helpers/process-database.js';

// Every booking reads its experience: a read must see every committed change, from this store or
// another connection, and nothing a rolled-back transaction wrote, inside a transaction or after it.
// (The same cases for organizations and settings are in their own suites.)
describe(`experiences read after changes (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openTwoStores>>;
  let store: Store;
  let other: Store;
  let orgId: string;
  beforeEach(async () => {
    opened = await openTwoStores();
    ({ store, other } = opened);
    orgId = (await addOrganization(store)).orgId;
  });
  afterEach(async () => {
    await opened.close();
  });

  const experience = (id: string, price: number): ExperienceRow => ({
    id, orgId, name: id, description: '', duration: 60, price, maxParticipants: 5, maxPerBooking: null, schedule: null,
    minNoticeMinutes: 0, maxAdvanceDays: 365, active: 1, priceCategories: '[]', createdAt: 1, updatedAt: 1,
  });

  it('sees an experience changed and deleted through another connection (the CLI, another process), inside a transaction too', async () => {
    await store.experiences.insertExperience(experience('exp_a', 100));
    expect((await store.experiences.getExperience(orgId, 'exp_a'))?.price).toBe(100);
    await other.experiences.updateExperience({ ...experience('exp_a', 250), updatedAt: 2 });
    expect((await store.experiences.getExperience(orgId, 'exp_a'))?.price).toBe(250);
    // Inside a transaction too: its snapshot starts after the other connection's commit.
    await other.experiences.deleteExperience(orgId, 'exp_a');
    await store.transaction(async () => {
      expect(await store.experiences.getExperience(orgId, 'exp_a')).toBeUndefined();
    });
  });

  it('forgets what a rolled-back transaction wrote, though it was read inside it', async () => {
    await store.experiences.insertExperience(experience('exp_a', 100));
    expect((await store.experiences.getExperience(orgId, 'exp_a'))?.price).toBe(100);
    await expect(
      store.transaction(async () => {
        await store.experiences.updateExperience(experience('exp_a', 900));
        await store.experiences.insertExperience(experience('exp_b', 50));
        expect((await store.experiences.getExperience(orgId, 'exp_a'))?.price).toBe(900);
        expect(await store.experiences.getExperience(orgId, 'exp_b')).toBeDefined();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await store.experiences.getExperience(orgId, 'exp_a'))?.price).toBe(100);
    expect(await store.experiences.getExperience(orgId, 'exp_b')).toBeUndefined();
  });

  it('forgets what a rolled-back transaction wrote when the next read is inside another transaction', async () => {
    await store.experiences.insertExperience(experience('exp_a', 100));
    await expect(
      store.transaction(async () => {
        await store.experiences.updateExperience(experience('exp_a', 900));
        expect((await store.experiences.getExperience(orgId, 'exp_a'))?.price).toBe(900);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await store.transaction(async () => {
      expect((await store.experiences.getExperience(orgId, 'exp_a'))?.price).toBe(100);
    });
    expect((await store.experiences.getExperience(orgId, 'exp_a'))?.price).toBe(100);
  });

  it('sees an experience changed and deleted through the same store', async () => {
    await store.experiences.insertExperience(experience('exp_a', 100));
    expect((await store.experiences.getExperience(orgId, 'exp_a'))?.price).toBe(100);
    await store.experiences.updateExperience(experience('exp_a', 120));
    expect((await store.experiences.getExperience(orgId, 'exp_a'))?.price).toBe(120);
    await store.experiences.deleteExperience(orgId, 'exp_a');
    expect(await store.experiences.getExperience(orgId, 'exp_a')).toBeUndefined();
  });
});
