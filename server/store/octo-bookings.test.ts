import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { OctoBookingRow } from './octo-bookings.js';
import { insertBookingRow, insertExperienceRow, openStoreWithTwoOrganizations, testEngine } from '../test-helpers/index.js';

// What a reseller's booking keeps beside its Outing booking (migration 021): the same expectations on both engines.

const DAY = 86_400_000;
const START = Date.UTC(2030, 0, 1, 10);

describe(`OCTO booking store (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openStoreWithTwoOrganizations>>;
  let store: Store;
  beforeEach(async () => {
    opened = await openStoreWithTwoOrganizations();
    store = opened.store;
    await insertExperienceRow(store, opened.orgA, { id: 'exp_a' });
    await insertExperienceRow(store, opened.orgA, { id: 'exp_b' });
    await insertExperienceRow(store, opened.orgB, { id: 'exp_z' });
  });
  afterEach(() => opened.close());

  async function octoBooking(orgId: string, experienceId: string, fields: Partial<OctoBookingRow> & { slotStart?: number } = {}): Promise<OctoBookingRow> {
    const { slotStart, ...octo } = fields;
    const booking = await insertBookingRow(store, { orgId, experienceId, slotStart: slotStart ?? START, source: 'OCTO' });
    const row: OctoBookingRow = {
      bookingId: booking.id, orgId, uuid: crypto.randomUUID(), apiKeyId: 'key_1', resellerReference: null, contact: '{}', unitItems: '[]',
      requestDigest: 'd', emailReceipt: 0, confirmedAt: null, expiredAt: null, ...octo,
    };
    await store.octoBookings.insertOctoBooking(row);
    return row;
  }

  it('finds a booking by its uuid within its organization only, and by its booking', async () => {
    const row = await octoBooking(opened.orgA, 'exp_a', { resellerReference: 'R-1', confirmedAt: 1_700_000_000_000 });
    expect(await store.octoBookings.getOctoBookingByUuid(opened.orgA, row.uuid)).toEqual(row);
    expect(await store.octoBookings.getOctoBookingByUuid(opened.orgB, row.uuid)).toBeUndefined();
    expect(await store.octoBookings.getOctoBooking(row.bookingId)).toEqual(row);
  });

  it('refuses a uuid twice in one organization, not in two', async () => {
    const row = await octoBooking(opened.orgA, 'exp_a');
    await expect(octoBooking(opened.orgA, 'exp_b', { uuid: row.uuid })).rejects.toThrow();
    await expect(octoBooking(opened.orgB, 'exp_z', { uuid: row.uuid })).resolves.toMatchObject({ uuid: row.uuid });
  });

  it('updates what may change and keeps the rest', async () => {
    const row = await octoBooking(opened.orgA, 'exp_a');
    const next = { ...row, resellerReference: 'R-2', contact: '{"fullName":"Ana"}', unitItems: '[{}]', emailReceipt: 1, confirmedAt: 5, expiredAt: 6, uuid: 'other', requestDigest: 'x' };
    await store.octoBookings.updateOctoBooking(next);
    expect(await store.octoBookings.getOctoBooking(row.bookingId)).toEqual({ ...next, uuid: row.uuid, requestDigest: 'd' });
  });

  it('lists an organization\'s bookings by slot start, matching every filter given', async () => {
    const late = await octoBooking(opened.orgA, 'exp_a', { slotStart: START + 2 * DAY, resellerReference: 'R-1' });
    const early = await octoBooking(opened.orgA, 'exp_b', { slotStart: START, resellerReference: 'R-1' });
    const middle = await octoBooking(opened.orgA, 'exp_a', { slotStart: START + DAY, apiKeyId: 'key_2' });
    await octoBooking(opened.orgB, 'exp_z', { resellerReference: 'R-1' });
    await insertBookingRow(store, { orgId: opened.orgA, experienceId: 'exp_a', slotStart: START });
    const ids = async (filter: Parameters<Store['octoBookings']['listOctoBookings']>[1]) =>
      (await store.octoBookings.listOctoBookings(opened.orgA, filter, 100)).map((r) => r.bookingId);
    expect(await ids({})).toEqual([early.bookingId, middle.bookingId, late.bookingId]);
    expect(await ids({ resellerReference: 'R-1' })).toEqual([early.bookingId, late.bookingId]);
    expect(await ids({ experienceId: 'exp_a', startFrom: START, startTo: START + 2 * DAY })).toEqual([middle.bookingId]);
    const number = (await store.bookings.getBooking(opened.orgA, late.bookingId))!.bookingNumber;
    expect(await ids({ bookingNumber: number })).toEqual([late.bookingId]);
    expect(await store.octoBookings.listOctoBookings(opened.orgA, {}, 1)).toHaveLength(1);
  });

  it('moves a booking to another experience, with its counters', async () => {
    const row = await octoBooking(opened.orgA, 'exp_a');
    await store.octoBookings.moveBookingToExperience(row.bookingId, 'exp_b', 2000);
    expect(await store.bookings.getBooking(opened.orgA, row.bookingId)).toMatchObject({ experienceId: 'exp_b', unitPrice: 2000 });
  });
});
