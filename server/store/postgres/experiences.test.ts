import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExperienceRow, experienceStore } from '../experiences.js';
import type { Async } from '../index.js';
import { bothEngines, refusedOnBoth, sameOnBoth, REFUSALS, type BothEngines } from '../../test-helpers/engines.js';
import { testDatabaseUrl } from '../../test-helpers/postgres.js';
import { experienceStorePg } from './experiences.js';

type Engine = Async<ReturnType<typeof experienceStore>>;


describe.skipIf(!testDatabaseUrl())('experienceStorePg answers as the SQLite store does', () => {
  let e: BothEngines;
  let pg: Engine;
  beforeEach(async () => {
    e = await bothEngines();
    pg = experienceStorePg(e.pgDb);
    for (const id of ['org_A', 'org_B']) await plant('organizations', { id, name: id, email: `${id}@example.com`, timezone: 'UTC', created_at: 1, updated_at: 1 });
  });
  afterEach(async () => {
    await e.close();
  });

  const plant = (table: string, row: Record<string, unknown>) => e.plant(table, row);

  /** A booking (and its customer) of an experience, enough for "it has bookings". */
  async function plantBooking(id: string, orgId: string, experienceId: string): Promise<void> {
    await plant('customers', { id: `cus_${id}`, org_id: orgId, email: `${id}@example.com`, name: 'Guest', created_at: 1, updated_at: 1 });
    await plant('bookings', {
      id, org_id: orgId, booking_number: `BK-${id}`, experience_id: experienceId, customer_id: `cus_${id}`,
      slot_start: 10_000, slot_end: 20_000, status: 'CONFIRMED', guest_name: 'Guest', guest_email: `${id}@example.com`,
      participants: 2, unit_price: 1500, currency: 'EUR', source: 'API', created_at: 1, updated_at: 1,
    });
  }

  const same = <T>(call: (s: Engine) => Promise<T>) => sameOnBoth<Engine, T>(e.sqlite, pg, call);

  const bothRefuse = (call: (s: Engine) => Promise<unknown>, why: keyof typeof REFUSALS) => refusedOnBoth<Engine>(e.sqlite, pg, call, why);

  const experience = (id: string, orgId: string, createdAt: number, fields: Partial<ExperienceRow> = {}): ExperienceRow => ({
    id, orgId, name: `Experience ${id}`, description: 'On the river', duration: 90, price: 2500, maxParticipants: 12,
    maxPerBooking: null, schedule: null, minNoticeMinutes: 0, maxAdvanceDays: 365, active: 1, priceCategories: '[]',
    createdAt, updatedAt: createdAt, ...fields,
  });

  const ids = (page: { rows: ExperienceRow[] }) => page.rows.map((r) => r.id);

  it('inserts, reads, pages, filters, updates and deletes experiences', async () => {
    expect(await same((s) => s.listExperiences('org_A', {}, { limit: 20, offset: 0 }))).toEqual({ rows: [], total: 0 });
    expect(await same((s) => s.listAllExperiences('org_A'))).toEqual([]);

    const schedule = JSON.stringify({ mon: ['09:00', '14:30'], sat: ['10:00'] });
    await same((s) => s.insertExperience(experience('exp_d', 'org_A', 300)));
    await same((s) => s.insertExperience(experience('exp_C', 'org_A', 200, { active: 0, schedule, maxPerBooking: 4 })));
    await same((s) => s.insertExperience(experience('exp_c', 'org_A', 200, {
      price: 1_000_000_000, priceCategories: '[{"id":"adult","name":"Adult","price":2500},{"id":"child","name":"Child","price":1000}]',
    })));
    await same((s) => s.insertExperience(experience('exp_a', 'org_A', 200, { minNoticeMinutes: 60, maxAdvanceDays: 30 })));
    await same((s) => s.insertExperience(experience('exp_b', 'org_A', 100, { active: 0, description: '' })));
    await same((s) => s.insertExperience(experience('exp_z', 'org_B', 50, { name: 'Élan — ünïcode ✓' })));

    // Oldest first, ties by id byte-wise: exp_C (upper case) before exp_a.
    expect(ids(await same((s) => s.listExperiences('org_A', {}, { limit: 20, offset: 0 })))).toEqual(['exp_b', 'exp_C', 'exp_a', 'exp_c', 'exp_d']);
    expect(await same((s) => s.listExperiences('org_A', {}, { limit: 2, offset: 0 }))).toMatchObject({ total: 5 });
    expect(ids(await same((s) => s.listExperiences('org_A', {}, { limit: 2, offset: 2 })))).toEqual(['exp_a', 'exp_c']);
    expect(ids(await same((s) => s.listExperiences('org_A', {}, { limit: 2, offset: 4 })))).toEqual(['exp_d']);
    expect(await same((s) => s.listExperiences('org_A', {}, { limit: 2, offset: 9 }))).toEqual({ rows: [], total: 5 });
    expect(ids(await same((s) => s.listExperiences('org_A', { active: true }, { limit: 2, offset: 1 })))).toEqual(['exp_c', 'exp_d']);
    expect(await same((s) => s.listExperiences('org_A', { active: true }, { limit: 1, offset: 0 }))).toMatchObject({ total: 3 });
    expect(ids(await same((s) => s.listExperiences('org_A', { active: false }, { limit: 20, offset: 0 })))).toEqual(['exp_b', 'exp_C']);
    expect(await same((s) => s.listExperiences('org_B', { active: false }, { limit: 20, offset: 0 }))).toEqual({ rows: [], total: 0 });
    expect(await same((s) => s.listExperiences('org_B', { active: undefined }, { limit: 20, offset: 0 }))).toMatchObject({ total: 1 });
    expect((await same((s) => s.listAllExperiences('org_A'))).map((r) => r.id)).toEqual(['exp_b', 'exp_C', 'exp_a', 'exp_c', 'exp_d']);
    await same((s) => s.listAllExperiences('org_B'));

    expect(await same((s) => s.getExperience('org_A', 'exp_C'))).toMatchObject({ schedule, maxPerBooking: 4, active: 0 });
    expect(await same((s) => s.getExperience('org_B', 'exp_C'))).toBeUndefined(); // another org's
    expect(await same((s) => s.getExperience('org_A', 'exp_missing'))).toBeUndefined();

    await bothRefuse((s) => s.insertExperience(experience('exp_a', 'org_A', 400)), 'unique');
    await bothRefuse((s) => s.insertExperience(experience('exp_a', 'org_B', 400)), 'unique'); // ids are global
    await bothRefuse((s) => s.insertExperience(experience('exp_x', 'org_missing', 400)), 'foreignKey');

    // An update changes every field but org and creation time, and only within the org.
    const changed = experience('exp_a', 'org_A', 9999, {
      name: 'Sunset', description: 'Longer', duration: 120, price: 3000, maxParticipants: 20, maxPerBooking: 6,
      schedule, minNoticeMinutes: 120, maxAdvanceDays: 90, active: 0, priceCategories: '[]', updatedAt: 5000,
    });
    await same((s) => s.updateExperience(changed));
    expect(await same((s) => s.getExperience('org_A', 'exp_a'))).toStrictEqual({ ...changed, createdAt: 200 });
    await same((s) => s.updateExperience({ ...changed, orgId: 'org_B', name: 'Hijacked' }));
    expect(await same((s) => s.getExperience('org_A', 'exp_a'))).toMatchObject({ name: 'Sunset' });
    await same((s) => s.updateExperience(experience('exp_missing', 'org_A', 1)));
    expect(await same((s) => s.listExperiences('org_A', { active: false }, { limit: 20, offset: 0 }))).toMatchObject({ total: 3 });

    // Bookings keep an experience from being deleted (the foreign key refuses, in both engines).
    expect(await same((s) => s.experienceHasBookings('exp_d'))).toBe(false);
    expect(await same((s) => s.experienceHasBookings('exp_missing'))).toBe(false);
    await plantBooking('bk_1', 'org_A', 'exp_d');
    await plantBooking('bk_2', 'org_A', 'exp_d');
    expect(await same((s) => s.experienceHasBookings('exp_d'))).toBe(true);
    expect(await same((s) => s.experienceHasBookings('exp_c'))).toBe(false);
    await bothRefuse((s) => s.deleteExperience('org_A', 'exp_d'), 'foreignKey');

    await same((s) => s.deleteExperience('org_B', 'exp_c')); // another org's: nothing happens
    await same((s) => s.deleteExperience('org_A', 'exp_c'));
    await same((s) => s.deleteExperience('org_A', 'exp_c'));
    expect(await same((s) => s.getExperience('org_A', 'exp_c'))).toBeUndefined();
    expect(ids(await same((s) => s.listExperiences('org_A', {}, { limit: 20, offset: 0 })))).toEqual(['exp_b', 'exp_C', 'exp_a', 'exp_d']);
    await same((s) => s.listAllExperiences('org_A'));
  });
});
