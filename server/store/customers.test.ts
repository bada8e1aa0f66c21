import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { CustomerRow } from './customers.js';
import type { BookingRow } from './bookings.js';
import { insertBookingRow, testEngine, openStoreWithTwoOrganizations } from '../test-helpers/index.js';
import { REFUSALS } from '../test-helpers/engines.js';

describe(`customer store (${testEngine()})`, () => {
  let close: () => Promise<void>;
  let store: Store;
  let orgA: string;
  let orgB: string;
  beforeEach(async () => {
    ({ store, close, orgA, orgB } = await openStoreWithTwoOrganizations());
  });
  afterEach(async () => {
    await close();
  });

  const customer = (id: string, email: string, name: string, lastBookingAt: number | null, orgId = orgA): CustomerRow => ({
    id, orgId, email, name, phone: null, firstBookingAt: lastBookingAt === null ? null : lastBookingAt - 5, lastBookingAt,
    erasedAt: null, createdAt: 10, updatedAt: 10,
  });
  const insertAll = async (rows: CustomerRow[]) => {
    for (const row of rows) await store.customers.insertCustomer(row);
  };
  const list = (search: string | undefined, limit = 50, offset = 0, orgId = orgA) => store.customers.listCustomers(orgId, search, { limit, offset });
  const ids = async (search: string | undefined, limit = 50, offset = 0) => (await list(search, limit, offset)).rows.map((c) => c.id);
  const refusal = (why: keyof typeof REFUSALS) => ({ code: testEngine() === 'sqlite' ? expect.stringMatching(REFUSALS[why].sqlite) : REFUSALS[why].pg });

  it('lists customers latest booking first, the never-booked last, id breaking ties from the highest, with the total', async () => {
    expect(await list(undefined, 5)).toEqual({ rows: [], total: 0 });
    await insertAll([
      customer('cus_B', 'b@example.com', 'Bea', 300),
      customer('cus_a', 'a@example.com', 'Ann', null),
      customer('cus_c', 'c@example.com', 'Cyd', 300),
      customer('cus_A', 'aa@example.com', 'Abe', null),
      customer('cus_d', 'd@example.com', 'Dan', 100),
      customer('cus_e', 'e@example.com', 'Eve', 500),
      customer('cus_Z', 'z@example.com', 'Zed', null),
      customer('cus_x', 'x@example.com', 'Xia', 0),
      customer('cus_o', 'o@example.com', 'Other org', 900, orgB),
    ]);
    const all = await list(undefined);
    expect(all.rows.map((c) => c.id)).toEqual(['cus_e', 'cus_c', 'cus_B', 'cus_d', 'cus_x', 'cus_a', 'cus_Z', 'cus_A']);
    expect(all.total).toBe(8);
    expect(all.rows[0]).toStrictEqual({ ...customer('cus_e', 'e@example.com', 'Eve', 500), bookingCount: 0, spentCents: 0 });
    expect(all.rows[6]).toStrictEqual({ ...customer('cus_Z', 'z@example.com', 'Zed', null), bookingCount: 0, spentCents: 0 });
    expect(await ids(undefined, 3, 0)).toEqual(['cus_e', 'cus_c', 'cus_B']);
    expect(await ids(undefined, 3, 3)).toEqual(['cus_d', 'cus_x', 'cus_a']);
    expect(await list(undefined, 3, 6)).toMatchObject({ total: 8, rows: [{ id: 'cus_Z' }, { id: 'cus_A' }] });
    expect(await list(undefined, 5, 100)).toEqual({ rows: [], total: 8 });
    expect(await list(undefined, 5, 0, orgB)).toMatchObject({ total: 1, rows: [{ id: 'cus_o' }] });
    expect(await list(undefined, 5, 0, 'org_none')).toEqual({ rows: [], total: 0 });
  });

  it('searches names and e-mails ignoring ASCII case only, wildcards taken literally', async () => {
    await insertAll([
      customer('cus_1', 'ann@example.com', 'Ann Smith', 10),
      customer('cus_2', 'bob@annex.io', 'Bob', 20),
      customer('cus_3', '100pct@example.com', '100% Cotton', null),
      customer('cus_4', 'under_score@example.com', 'Under', 30),
      customer('cus_5', 'elise@example.com', 'Élise', 40),
      customer('cus_6', 'back@example.com', 'Back\\slash', null),
      customer('cus_7', 'ANNA@EXAMPLE.COM', 'anna', 10),
      customer('cus_8', 'other@example.com', 'Ann', 10, orgB),
    ]);
    const expected: [string, string[]][] = [
      ['ann', ['cus_2', 'cus_7', 'cus_1']],
      ['ANN', ['cus_2', 'cus_7', 'cus_1']],
      ['aNn sM', ['cus_1']],
      ['%', ['cus_3']],
      ['0%', ['cus_3']],
      ['_', ['cus_4']],
      ['r_s', ['cus_4']],
      ['\\', ['cus_6']],
      ['k\\s', ['cus_6']],
      ['Élise', ['cus_5']],
      ['ÉLISE', ['cus_5']],
      ['lise', ['cus_5']],
      // SQLite's LIKE folds ASCII letters only, and so does ILIKE under the C ctype: é is not É.
      ['élise', []],
      ['', ['cus_5', 'cus_4', 'cus_2', 'cus_7', 'cus_1', 'cus_6', 'cus_3']],
      ['.io', ['cus_2']],
      ['nobody', []],
    ];
    for (const [search, found] of expected) {
      expect(await list(search), search).toMatchObject({ total: found.length, rows: found.map((id) => ({ id })) });
    }
    expect(await ids('ann', 2, 1)).toEqual(['cus_7', 'cus_1']);
    // Beyond the last match: no rows, the total still counted.
    expect(await list('ann', 2, 3)).toEqual({ rows: [], total: 3 });
  });

  it('reads one customer with its booking count and what it spent on confirmed bookings', async () => {
    await insertAll([customer('cus_1', 'ann@example.com', 'Ann', 10), customer('cus_2', 'bob@example.com', 'Bob', null)]);
    await store.experiences.insertExperience({
      id: 'exp_a', orgId: orgA, name: 'Kayak', description: '', duration: 60, price: 2500, maxParticipants: 10, maxPerBooking: null,
      schedule: null, minNoticeMinutes: 0, maxAdvanceDays: 365, active: 1, priceCategories: '[]', createdAt: 1, updatedAt: 1,
    });
    const book = (status: BookingRow['status'], participants: number, unitPrice: number, totalCents: number | null) =>
      insertBookingRow(store, { orgId: orgA, experienceId: 'exp_a', customerId: 'cus_1', status, participants, unitPrice, totalCents });
    await book('CONFIRMED', 3, 2500, null); // 7500
    await book('CONFIRMED', 2, 2500, 4200); // tickets: their total
    await book('PENDING', 1, 2500, null);
    await book('CANCELLED', 4, 2500, null);
    await book('CONFIRMED', 1, 3_000_000_000, null); // beyond 32 bits
    const ann = { ...customer('cus_1', 'ann@example.com', 'Ann', 10), bookingCount: 5, spentCents: 7500 + 4200 + 3_000_000_000 };
    expect(await store.customers.getCustomer(orgA, 'cus_1')).toStrictEqual(ann);
    expect(await store.customers.getCustomerByEmail(orgA, 'ann@example.com')).toStrictEqual(ann);
    expect(await store.customers.getCustomerRecordByEmail(orgA, 'ann@example.com')).toStrictEqual(customer('cus_1', 'ann@example.com', 'Ann', 10));
    expect(await store.customers.getCustomer(orgA, 'cus_2')).toMatchObject({ bookingCount: 0, spentCents: 0 });
    expect((await list(undefined)).rows).toStrictEqual([ann, { ...customer('cus_2', 'bob@example.com', 'Bob', null), bookingCount: 0, spentCents: 0 }]);
    expect((await list('ANN')).rows).toStrictEqual([ann]);

    // Not found: another org, another case of the e-mail (compared as stored), no such id.
    expect(await store.customers.getCustomer(orgB, 'cus_1')).toBeUndefined();
    expect(await store.customers.getCustomer(orgA, 'cus_none')).toBeUndefined();
    expect(await store.customers.getCustomerByEmail(orgA, 'ANN@example.com')).toBeUndefined();
    expect(await store.customers.getCustomerByEmail(orgB, 'ann@example.com')).toBeUndefined();
    expect(await store.customers.getCustomerRecordByEmail(orgA, 'nobody@example.com')).toBeUndefined();
  });

  it('updates a customer, its e-mail too, and refuses an e-mail another customer of the org has', async () => {
    await insertAll([
      customer('cus_1', 'ann@example.com', 'Ann', 10),
      customer('cus_2', 'bob@example.com', 'Bob', 20),
      customer('cus_3', 'ann@example.com', 'Ann elsewhere', 20, orgB),
    ]);
    const ann = customer('cus_1', 'ann@example.com', 'Ann Smith', 50);
    // The same e-mail: every other field changes, but not the creation time.
    await store.customers.updateCustomer({ ...ann, phone: '+33 6 00 00 00 00', createdAt: 999, updatedAt: 60 });
    expect(await store.customers.getCustomerRecordByEmail(orgA, 'ann@example.com')).toStrictEqual({ ...ann, phone: '+33 6 00 00 00 00', updatedAt: 60 });
    // A new e-mail.
    const moved = { ...ann, email: 'ann.smith@example.com', lastBookingAt: null, firstBookingAt: null, updatedAt: 70 };
    await store.customers.updateCustomer(moved);
    expect(await store.customers.getCustomerByEmail(orgA, 'ann@example.com')).toBeUndefined();
    expect(await store.customers.getCustomerRecordByEmail(orgA, 'ann.smith@example.com')).toStrictEqual(moved);
    expect(await ids(undefined)).toEqual(['cus_2', 'cus_1']);
    await expect(store.customers.updateCustomer({ ...ann, email: 'bob@example.com', updatedAt: 80 })).rejects.toMatchObject(refusal('unique'));
    expect(await store.customers.getCustomer(orgA, 'cus_1')).toMatchObject({ email: 'ann.smith@example.com', updatedAt: 70 });
    // Erasure: the e-mail becomes a placeholder, the name and phone a mark.
    const erased = { ...ann, email: 'erased+cus_1@invalid', name: '[erased]', phone: '[erased]', erasedAt: 90, updatedAt: 90 };
    await store.customers.updateCustomer(erased);
    expect(await store.customers.getCustomer(orgA, 'cus_1')).toStrictEqual({ ...erased, bookingCount: 0, spentCents: 0 });
    // An unknown id changes nothing.
    await store.customers.updateCustomer(customer('cus_none', 'x@example.com', 'X', 1));
    expect(await list(undefined)).toMatchObject({ total: 2, rows: [{ id: 'cus_1' }, { id: 'cus_2' }] });
    expect(await store.customers.getCustomer(orgB, 'cus_3')).toMatchObject({ name: 'Ann elsewhere', email: 'ann@example.com' });
  });

  it('refuses a second customer with the same e-mail in an org, or the same id, and does not count it', async () => {
    await insertAll([customer('cus_1', 'ann@example.com', 'Ann', 10), customer('cus_2', 'ann@example.com', 'Ann', 10, orgB)]);
    await expect(store.customers.insertCustomer(customer('cus_3', 'ann@example.com', 'Ann again', null))).rejects.toMatchObject(refusal('unique'));
    await expect(store.customers.insertCustomer(customer('cus_1', 'new@example.com', 'New', null))).rejects.toMatchObject(refusal('unique'));
    await expect(store.customers.insertCustomer(customer('cus_4', 'new@example.com', 'New', null, 'org_none'))).rejects.toMatchObject(refusal('foreignKey'));
    expect(await list(undefined)).toMatchObject({ total: 1, rows: [{ id: 'cus_1' }] });
  });
});
