import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { ExperienceRow } from './experiences.js';
import { addOrganization, insertBookingRow, openTestStore, testEngine } from '../test-helpers/index.js';
import { REFUSALS } from '../test-helpers/engines.js';

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

  const experience = (id: string, org: string, createdAt: number, fields: Partial<ExperienceRow> = {}): ExperienceRow => ({
    id, orgId: org, name: `Experience ${id}`, description: 'On the river', duration: 90, price: 2500, maxParticipants: 12,
    maxPerBooking: null, schedule: null, minNoticeMinutes: 0, maxAdvanceDays: 365, active: 1, priceCategories: '[]',
    meetingPoint: null, meetingPointUrl: null, guestInstructions: null, questions: '[]', extras: '[]', waitlist: 0, createdAt, updatedAt: createdAt, ...fields,
  });
  const ids = (page: { rows: ExperienceRow[] }) => page.rows.map((r) => r.id);
  const refusal = (why: keyof typeof REFUSALS) => ({ code: testEngine() === 'sqlite' ? expect.stringMatching(REFUSALS[why].sqlite) : REFUSALS[why].pg });

  it('keeps every field as given, pages byte-wise by id on ties, and refuses what the schema forbids', async () => {
    const other = (await addOrganization(store)).orgId;
    const e = store.experiences;
    expect(await e.listExperiences(orgId, {}, { limit: 20, offset: 0 })).toEqual({ rows: [], total: 0 });
    expect(await e.listAllExperiences(orgId)).toEqual([]);

    const schedule = JSON.stringify({ mon: ['09:00', '14:30'], sat: ['10:00'] });
    const categories = '[{"id":"adult","name":"Adult","price":2500},{"id":"child","name":"Child","price":1000}]';
    await e.insertExperience(experience('exp_d', orgId, 300));
    await e.insertExperience(experience('exp_C', orgId, 200, { active: 0, schedule, maxPerBooking: 4 }));
    const guestInfo = { meetingPoint: 'Cais do Sodré, “pier” 2', meetingPointUrl: 'https://maps.example.com/?q=1', guestInstructions: 'Line one\nline two ✓' };
    const form = {
      questions: '[{"id":"q_1","label":"Shoe size","type":"SELECT","options":["38","40"],"required":true,"help":null}]',
      extras: '[{"id":"ex_1","name":"Lunch","description":null,"price":1200,"per":"PERSON","maxQuantity":6,"active":false}]',
    };
    await e.insertExperience(experience('exp_c', orgId, 200, { price: 1_000_000_000, priceCategories: categories, ...guestInfo, ...form }));
    await e.insertExperience(experience('exp_a', orgId, 200, { minNoticeMinutes: 60, maxAdvanceDays: 30 }));
    await e.insertExperience(experience('exp_b', orgId, 100, { active: 0, description: '' }));
    await e.insertExperience(experience('exp_z', other, 50, { name: 'Élan — ünïcode ✓' }));

    // Oldest first, ties by id byte-wise: exp_C (upper case) before exp_a.
    expect(ids(await e.listExperiences(orgId, {}, { limit: 20, offset: 0 }))).toEqual(['exp_b', 'exp_C', 'exp_a', 'exp_c', 'exp_d']);
    expect(await e.listExperiences(orgId, {}, { limit: 2, offset: 0 })).toMatchObject({ total: 5 });
    expect(ids(await e.listExperiences(orgId, {}, { limit: 2, offset: 2 }))).toEqual(['exp_a', 'exp_c']);
    expect(ids(await e.listExperiences(orgId, {}, { limit: 2, offset: 4 }))).toEqual(['exp_d']);
    expect(await e.listExperiences(orgId, {}, { limit: 2, offset: 9 })).toEqual({ rows: [], total: 5 });
    expect(ids(await e.listExperiences(orgId, { active: true }, { limit: 2, offset: 1 }))).toEqual(['exp_c', 'exp_d']);
    expect(ids(await e.listExperiences(orgId, { active: false }, { limit: 20, offset: 0 }))).toEqual(['exp_b', 'exp_C']);
    expect(await e.listExperiences(other, { active: false }, { limit: 20, offset: 0 })).toEqual({ rows: [], total: 0 });
    expect(await e.listExperiences(other, { active: undefined }, { limit: 20, offset: 0 })).toMatchObject({ total: 1 });
    expect((await e.listAllExperiences(orgId)).map((r) => r.id)).toEqual(['exp_b', 'exp_C', 'exp_a', 'exp_c', 'exp_d']);

    // Every field comes back as written: numbers as numbers, nulls as nulls, text byte for byte.
    expect(await e.getExperience(orgId, 'exp_C')).toStrictEqual(experience('exp_C', orgId, 200, { active: 0, schedule, maxPerBooking: 4 }));
    expect(await e.getExperience(orgId, 'exp_c')).toStrictEqual(experience('exp_c', orgId, 200, { price: 1_000_000_000, priceCategories: categories, ...guestInfo, ...form }));
    expect((await e.getExperience(other, 'exp_z'))?.name).toBe('Élan — ünïcode ✓');
    expect(await e.getExperience(orgId, 'exp_missing')).toBeUndefined();

    await expect(e.insertExperience(experience('exp_a', orgId, 400))).rejects.toMatchObject(refusal('unique'));
    await expect(e.insertExperience(experience('exp_a', other, 400))).rejects.toMatchObject(refusal('unique')); // ids are global
    await expect(e.insertExperience(experience('exp_x', 'org_missing', 400))).rejects.toMatchObject(refusal('foreignKey'));

    // An update changes every field but the organization and the creation time.
    const changed = experience('exp_a', orgId, 9999, {
      name: 'Sunset', description: 'Longer', duration: 120, price: 3000, maxParticipants: 20, maxPerBooking: 6,
      schedule, minNoticeMinutes: 120, maxAdvanceDays: 90, active: 0, priceCategories: '[]', updatedAt: 5000,
      meetingPoint: 'Gate B', meetingPointUrl: 'https://maps.example.com/b', guestInstructions: 'Bring water', ...form,
    });
    await e.updateExperience(changed);
    expect(await e.getExperience(orgId, 'exp_a')).toStrictEqual({ ...changed, createdAt: 200 });
    await e.updateExperience(experience('exp_missing', orgId, 1));
    expect(await e.listExperiences(orgId, { active: false }, { limit: 20, offset: 0 })).toMatchObject({ total: 3 });
  });

  it('refuses to delete an experience that has bookings', async () => {
    await store.experiences.insertExperience(experience('exp_d', orgId, 1));
    await insertBookingRow(store, { orgId, experienceId: 'exp_d' });
    await expect(store.experiences.deleteExperience(orgId, 'exp_d')).rejects.toMatchObject(refusal('foreignKey'));
    expect(await store.experiences.getExperience(orgId, 'exp_d')).toBeDefined();
    // Deleting twice, or what does not exist, is no error.
    await store.experiences.insertExperience(experience('exp_e', orgId, 1));
    await store.experiences.deleteExperience(orgId, 'exp_e');
    await store.experiences.deleteExperience(orgId, 'exp_e');
    expect(await store.experiences.experienceHasBookings('exp_missing')).toBe(false);
  });

  it('deletes an experience with its waitlist entries', async () => {
    await store.experiences.insertExperience(experience('exp_w', orgId, 1));
    await store.waitlist.insertEntry({
      id: 'wl_1', orgId, experienceId: 'exp_w', slotStart: 10_000, slotEnd: 20_000, status: 'WAITING', places: 2, totalParticipants: 2,
      tickets: '[]', answers: '[]', guestName: 'Ana', guestEmail: 'ana@example.com', guestPhone: null, locale: 'en', tokenHash: null,
      offeredAt: null, offerExpiresAt: null, bookingId: null, createdAt: 1, updatedAt: 1,
    });
    await store.experiences.deleteExperience(orgId, 'exp_w');
    expect(await store.experiences.getExperience(orgId, 'exp_w')).toBeUndefined();
    expect(await store.waitlist.getEntry(orgId, 'wl_1')).toBeUndefined();
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
