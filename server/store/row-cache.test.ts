import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { ExperienceRow } from './experiences.js';
import { addOrganization, testEngine } from '../test-helpers/index.js';
import { openTwoStores } from '../test-helpers/process-database.js';

// The SQLite store keeps the organizations, experiences and settings it has read (row-cache.ts);
// PostgreSQL reads them each time. Either way a read must see every committed change, from this
// store or another connection, and nothing a rolled-back transaction wrote. Each test would fail if a
// kept row outlived the change.
describe(`rows read by every booking, after changes (${testEngine()})`, () => {
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
  const organization = async (from: Store) => (await from.organizations.getOrganization(orgId))!;

  it('sees an organization changed through the same store, inside and after its transaction', async () => {
    const before = await organization(store);
    await store.organizations.updateOrganization({ ...before, name: 'Renamed' });
    expect((await organization(store)).name).toBe('Renamed');
    await store.transaction(async () => {
      await store.organizations.updateOrganization({ ...before, name: 'Inside' });
      expect((await organization(store)).name).toBe('Inside');
    });
    expect((await organization(store)).name).toBe('Inside');
  });

  it('sees an organization and an experience changed through another connection (the CLI, another process)', async () => {
    await store.experiences.insertExperience(experience('exp_a', 100));
    expect((await store.experiences.getExperience(orgId, 'exp_a'))?.price).toBe(100);
    expect((await organization(store)).timezone).toBe('Europe/Lisbon');
    await other.experiences.updateExperience({ ...experience('exp_a', 250), updatedAt: 2 });
    await other.organizations.updateOrganization({ ...(await organization(other)), timezone: 'Asia/Tokyo' });
    expect((await store.experiences.getExperience(orgId, 'exp_a'))?.price).toBe(250);
    expect((await organization(store)).timezone).toBe('Asia/Tokyo');
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
        await store.settings.setSetting('guest_mail', 'off');
        expect((await store.experiences.getExperience(orgId, 'exp_a'))?.price).toBe(900);
        expect(await store.experiences.getExperience(orgId, 'exp_b')).toBeDefined();
        expect(await store.settings.getSetting('guest_mail')).toBe('off');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await store.experiences.getExperience(orgId, 'exp_a'))?.price).toBe(100);
    expect(await store.experiences.getExperience(orgId, 'exp_b')).toBeUndefined();
    expect(await store.settings.getSetting('guest_mail')).toBeUndefined();
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

  it('forgets what a rolled-back nested transaction wrote, while its outer transaction goes on', async () => {
    const before = await store.transaction(async () => await organization(store));
    await store.transaction(async () => {
      expect((await organization(store)).name).toBe(before.name);
      await expect(
        store.transaction(async () => {
          await store.organizations.updateOrganization({ ...before, name: 'Nested' });
          expect((await organization(store)).name).toBe('Nested');
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect((await organization(store)).name).toBe(before.name);
    });
    expect((await organization(store)).name).toBe(before.name);
    await store.transaction(async () => {
      expect((await organization(store)).name).toBe(before.name);
    });
  });

  it('sees an experience changed and deleted and a setting changed through the same store', async () => {
    await store.experiences.insertExperience(experience('exp_a', 100));
    expect((await store.experiences.getExperience(orgId, 'exp_a'))?.price).toBe(100);
    await store.experiences.updateExperience(experience('exp_a', 120));
    expect((await store.experiences.getExperience(orgId, 'exp_a'))?.price).toBe(120);
    await store.experiences.deleteExperience(orgId, 'exp_a');
    expect(await store.experiences.getExperience(orgId, 'exp_a')).toBeUndefined();
    expect(await store.settings.getSetting('guest_mail')).toBeUndefined();
    await store.settings.setSetting('guest_mail', 'off');
    expect(await store.settings.getSetting('guest_mail')).toBe('off');
    await other.settings.setSetting('guest_mail', 'on');
    expect(await store.settings.getSetting('guest_mail')).toBe('on');
  });

  it('keeps experiences apart by organization', async () => {
    const second = (await addOrganization(store)).orgId;
    await store.experiences.insertExperience(experience('exp_a', 100));
    expect(await store.experiences.getExperience(orgId, 'exp_a')).toBeDefined();
    expect(await store.experiences.getExperience(second, 'exp_a')).toBeUndefined();
  });
});
