import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from './index.js';
import type { ExperienceRow } from './experiences.js';
import { addOrganization, insertBookingRow } from '../test-helpers/index.js';

describe('experience store', () => {
  let dir: string;
  let store: Store;
  let orgId: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'outing-exp-'));
    store = openStore(join(dir, 'o.db'));
    orgId = addOrganization(store).orgId;
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const row = (id: string, createdAt: number, active = 1, org = orgId): ExperienceRow => ({
    id, orgId: org, name: id, description: '', duration: 60, price: 100, maxParticipants: 5, maxPerBooking: null, schedule: null,
    minNoticeMinutes: 0, maxAdvanceDays: 365, active, priceCategories: '[]', createdAt, updatedAt: createdAt,
  });

  it('pages oldest first with the total, id breaking ties, filtered by active', () => {
    store.insertExperience(row('exp_c', 2));
    store.insertExperience(row('exp_b', 2, 0));
    store.insertExperience(row('exp_a', 3));
    store.insertExperience(row('exp_z', 1));
    expect(store.listExperiences(orgId, {}, { limit: 10, offset: 0 }).rows.map((r) => r.id)).toEqual(['exp_z', 'exp_b', 'exp_c', 'exp_a']);
    expect(store.listExperiences(orgId, {}, { limit: 2, offset: 1 })).toMatchObject({ total: 4, rows: [{ id: 'exp_b' }, { id: 'exp_c' }] });
    expect(store.listExperiences(orgId, { active: true }, { limit: 10, offset: 0 })).toMatchObject({ total: 3 });
    expect(store.listExperiences(orgId, { active: false }, { limit: 10, offset: 0 }).rows.map((r) => r.id)).toEqual(['exp_b']);
  });

  it('reads, changes and deletes only within the org', () => {
    const other = addOrganization(store).orgId;
    store.insertExperience(row('exp_mine', 1));
    expect(store.getExperience(other, 'exp_mine')).toBeUndefined();
    store.updateExperience({ ...row('exp_mine', 1), orgId: other, name: 'hijacked' });
    expect(store.getExperience(orgId, 'exp_mine')?.name).toBe('exp_mine');
    store.deleteExperience(other, 'exp_mine');
    expect(store.getExperience(orgId, 'exp_mine')).toBeDefined();
    store.deleteExperience(orgId, 'exp_mine');
    expect(store.getExperience(orgId, 'exp_mine')).toBeUndefined();
  });

  it('knows whether an experience or an org has bookings', () => {
    store.insertExperience(row('exp_a', 1));
    expect(store.experienceHasBookings('exp_a')).toBe(false);
    expect(store.orgHasBookings(orgId)).toBe(false);
    insertBookingRow(store, { orgId, experienceId: 'exp_a' });
    expect(store.experienceHasBookings('exp_a')).toBe(true);
    expect(store.orgHasBookings(orgId)).toBe(true);
  });
});
