import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { GiftVoucherRow, GiftVoucherStatus } from './gift-vouchers.js';
import { insertBookingRow, insertExperienceRow, openStoreWithTwoOrganizations, testEngine } from '../test-helpers/index.js';

const NOW = 1_800_000_000_000;
const DAY = 86_400_000;

describe(`gift voucher store (${testEngine()})`, () => {
  let store: Store;
  let orgA: string;
  let orgB: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, orgA, orgB, close } = await openStoreWithTwoOrganizations());
  });
  afterAll(async () => {
    await close();
  });

  const voucher = (id: string, code: string, createdAt: number, more: Partial<GiftVoucherRow> = {}): GiftVoucherRow => ({
    id, orgId: orgA, code, amount: 5000, balance: 5000, currency: 'EUR', expiresAt: null, disabled: 0, recipientName: null,
    recipientEmail: null, message: null, buyerName: null, buyerEmail: null, purchaseProvider: null, purchaseReference: null,
    purchaseAmount: null, createdAt, updatedAt: createdAt, ...more,
  });

  it('writes, reads by id in its organization only, and by its exact code anywhere', async () => {
    const row = voucher('gv_one', 'GV-AAAA-BBBB-CCC1', NOW, { recipientName: 'Ana', recipientEmail: 'ana@example.com', message: 'Enjoy', expiresAt: NOW + DAY });
    expect(await store.giftVouchers.insertVoucher(row)).toBe(true);
    expect(await store.giftVouchers.getVoucher(orgA, 'gv_one')).toStrictEqual(row);
    expect(await store.giftVouchers.getVoucher(orgB, 'gv_one')).toBeUndefined();
    expect(await store.giftVouchers.getVoucherByCode('GV-AAAA-BBBB-CCC1')).toStrictEqual(row);
    expect(await store.giftVouchers.getVoucherByCode('gv-aaaa-bbbb-ccc1')).toBeUndefined();
    // A clash of codes writes nothing and answers false.
    expect(await store.giftVouchers.insertVoucher(voucher('gv_clash', 'GV-AAAA-BBBB-CCC1', NOW, { orgId: orgB }))).toBe(false);
    expect(await store.giftVouchers.getVoucher(orgB, 'gv_clash')).toBeUndefined();
  });

  it('lists newest first with the status derived at the instant given, paged, with the total', async () => {
    const base = NOW + 10 * DAY;
    await store.giftVouchers.insertVoucher(voucher('gv_active', 'GV-AAAA-AAAA-0001', base + 1, { orgId: orgB }));
    await store.giftVouchers.insertVoucher(voucher('gv_used', 'GV-AAAA-AAAA-0002', base + 2, { orgId: orgB, balance: 0 }));
    await store.giftVouchers.insertVoucher(voucher('gv_expired', 'GV-AAAA-AAAA-0003', base + 3, { orgId: orgB, expiresAt: base + 100, balance: 0 }));
    await store.giftVouchers.insertVoucher(voucher('gv_disabled', 'GV-AAAA-AAAA-0004', base + 4, { orgId: orgB, disabled: 1, expiresAt: base + 100 }));
    await store.giftVouchers.insertVoucher(voucher('gv_later', 'GV-AAAA-AAAA-0005', base + 5, { orgId: orgB, expiresAt: base + 1000 }));
    const ids = async (status: GiftVoucherStatus | undefined, now: number) =>
      (await store.giftVouchers.listVouchers(orgB, { status, now }, { limit: 10, offset: 0 })).rows.map((r) => r.id);
    expect(await ids(undefined, base + 500)).toEqual(['gv_later', 'gv_disabled', 'gv_expired', 'gv_used', 'gv_active']);
    expect(await ids('ACTIVE', base + 500)).toEqual(['gv_later', 'gv_active']);
    expect(await ids('USED', base + 500)).toEqual(['gv_used']);
    // Expired wins over used; disabled over expired.
    expect(await ids('EXPIRED', base + 500)).toEqual(['gv_expired']);
    expect(await ids('DISABLED', base + 500)).toEqual(['gv_disabled']);
    // At the instant of expiry it is expired; just before, not.
    expect(await ids('EXPIRED', base + 1000)).toEqual(['gv_later', 'gv_expired']);
    expect(await ids('ACTIVE', base + 999)).toEqual(['gv_later', 'gv_active']);
    expect(await ids('USED', base + 99)).toEqual(['gv_expired', 'gv_used']);
    const page = await store.giftVouchers.listVouchers(orgB, { now: base }, { limit: 2, offset: 1 });
    expect({ ids: page.rows.map((r) => r.id), total: page.total }).toEqual({ ids: ['gv_disabled', 'gv_expired'], total: 5 });
  });

  it('updates the disabled flag and the expiry in its organization only', async () => {
    await store.giftVouchers.insertVoucher(voucher('gv_upd', 'GV-AAAA-CCCC-0001', NOW));
    expect(await store.giftVouchers.updateVoucher(orgB, 'gv_upd', { disabled: 1, expiresAt: 5, updatedAt: NOW + 1 })).toBe(0);
    expect(await store.giftVouchers.updateVoucher(orgA, 'gv_upd', { disabled: 1, expiresAt: NOW + DAY, updatedAt: NOW + 1 })).toBe(1);
    expect(await store.giftVouchers.getVoucher(orgA, 'gv_upd')).toMatchObject({ disabled: 1, expiresAt: NOW + DAY, updatedAt: NOW + 1 });
  });

  it('spends only what the balance holds and gives back never above the amount', async () => {
    await store.giftVouchers.insertVoucher(voucher('gv_spend', 'GV-AAAA-DDDD-0001', NOW));
    expect(await store.giftVouchers.spend('gv_spend', 3000, NOW)).toBe(true);
    expect(await store.giftVouchers.spend('gv_spend', 2001, NOW)).toBe(false);
    expect(await store.giftVouchers.spend('gv_spend', 2000, NOW)).toBe(true);
    expect((await store.giftVouchers.getVoucher(orgA, 'gv_spend'))?.balance).toBe(0);
    expect(await store.giftVouchers.spend('gv_spend', 1, NOW)).toBe(false);
    expect(await store.giftVouchers.giveBack('gv_spend', 3000, NOW)).toBe(true);
    expect(await store.giftVouchers.giveBack('gv_spend', 2001, NOW)).toBe(false);
    expect((await store.giftVouchers.getVoucher(orgA, 'gv_spend'))?.balance).toBe(3000);
  });

  it('keeps redemptions oldest first, and what a booking holds of a voucher', async () => {
    await insertExperienceRow(store, orgA, { id: 'exp_r' });
    const b1 = await insertBookingRow(store, { orgId: orgA, experienceId: 'exp_r' });
    const b2 = await insertBookingRow(store, { orgId: orgA, experienceId: 'exp_r' });
    await store.giftVouchers.insertVoucher(voucher('gv_red', 'GV-AAAA-EEEE-0001', NOW));
    await store.giftVouchers.insertVoucher(voucher('gv_red2', 'GV-AAAA-EEEE-0002', NOW));
    const red = (id: string, voucherId: string, bookingId: string, amount: number, createdAt: number) => ({ id, orgId: orgA, voucherId, bookingId, amount, createdAt });
    await store.giftVouchers.insertRedemption(red('gvr_3', 'gv_red', b1.id, -1500, NOW + 3));
    await store.giftVouchers.insertRedemption(red('gvr_1', 'gv_red', b1.id, 1500, NOW + 1));
    await store.giftVouchers.insertRedemption(red('gvr_2', 'gv_red', b2.id, 2000, NOW + 2));
    await store.giftVouchers.insertRedemption(red('gvr_4', 'gv_red2', b2.id, 700, NOW + 1));
    expect((await store.giftVouchers.listRedemptions(['gv_red'])).map((r) => r.id)).toEqual(['gvr_1', 'gvr_2', 'gvr_3']);
    expect(await store.giftVouchers.listRedemptions(['gv_red2'])).toStrictEqual([red('gvr_4', 'gv_red2', b2.id, 700, NOW + 1)]);
    expect((await store.giftVouchers.listRedemptions(['gv_red', 'gv_red2'])).map((r) => r.id)).toEqual(['gvr_1', 'gvr_4', 'gvr_2', 'gvr_3']);
    expect(await store.giftVouchers.listRedemptions([])).toEqual([]);
    expect(await store.giftVouchers.redeemedBy('gv_red', b1.id)).toBe(0);
    expect(await store.giftVouchers.redeemedBy('gv_red', b2.id)).toBe(2000);
    expect(await store.giftVouchers.redeemedBy('gv_red2', b1.id)).toBe(0);
  });
});
