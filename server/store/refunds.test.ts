import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { RefundRow } from './refunds.js';
import { addOrganization, insertBookingRow, openTestStore, testEngine, insertExperienceRow } from '../test-helpers/index.js';

// Behaviour of the store, not of one engine: the `server-postgres` project runs the same
// expectations on a leased, migrated PostgreSQL database.

describe(`refund store (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let store: Store;
  let orgId: string;
  beforeEach(async () => {
    opened = await openTestStore();
    store = opened.store;
    orgId = (await addOrganization(store)).orgId;
    await insertExperienceRow(store, orgId);
    for (const id of ['bk_1', 'bk_2']) await insertBookingRow(store, { id, orgId, experienceId: 'exp_1', guestEmail: 'guest@example.com' });
    await store.payments.insertPayment({
      id: 'pay_s', orgId, bookingId: 'bk_1', amount: 9000, currency: 'EUR', status: 'SUCCEEDED', provider: 'stripe', method: 'STRIPE', reference: 'pi_1',
      failureReason: null, refundRequired: 0, createdAt: 10,
    });
  });
  afterEach(async () => {
    await opened.close();
  });

  const refund = (id: string, createdAt: number, fields: Partial<RefundRow> = {}): RefundRow => ({
    id, orgId, bookingId: 'bk_1', amount: 1000, currency: 'EUR', method: 'CASH', status: 'SUCCEEDED', reason: null, paymentId: null,
    reference: null, failureReason: null, createdAt, updatedAt: createdAt, ...fields,
  });
  const ALL = { limit: 20, offset: 0 };

  it('pages a booking’s refunds oldest first, ties by id, and totals what is held per Stripe payment', async () => {
    expect(await store.refunds.refundTotals('bk_1')).toEqual({ held: 0, heldByPayment: new Map() });
    await store.refunds.insertRefund(refund('re_c', 200, { reason: 'Rain' }));
    await store.refunds.insertRefund(refund('re_b', 200, { method: 'STRIPE', status: 'PENDING', paymentId: 'pay_s', amount: 3_000_000_000 }));
    await store.refunds.insertRefund(refund('re_a', 300, { method: 'STRIPE', status: 'FAILED', paymentId: 'pay_s', amount: 500 }));
    await store.refunds.insertRefund(refund('re_d', 100, { bookingId: 'bk_2' }));
    const page = await store.refunds.listRefunds('bk_1', ALL);
    expect(page.total).toBe(3);
    expect(page.rows.map((r) => r.id)).toEqual(['re_b', 're_c', 're_a']);
    expect(page.rows[1]).toEqual(refund('re_c', 200, { reason: 'Rain' }));
    expect(await store.refunds.listRefunds('bk_1', { limit: 1, offset: 1 })).toEqual({ rows: [page.rows[1]], total: 3 });
    // FAILED ones hold nothing back; PENDING and SUCCEEDED do, whatever their method.
    expect(await store.refunds.refundTotals('bk_1')).toEqual({ held: 3_000_001_000, heldByPayment: new Map([['pay_s', 3_000_000_000]]) });
    expect(await store.refunds.getRefund(orgId, 're_d')).toMatchObject({ bookingId: 'bk_2' });
    expect(await store.refunds.getRefund('org_other', 're_d')).toBeUndefined();
  });

  it('settles a PENDING refund once, notes Stripe’s id, and keeps amount_refunded on the booking', async () => {
    await store.refunds.insertRefund(refund('re_1', 100, { method: 'STRIPE', status: 'PENDING', paymentId: 'pay_s' }));
    expect(await store.refunds.listUnsentRefunds(101, 10)).toEqual([expect.objectContaining({ id: 're_1' })]);
    expect(await store.refunds.listUnsentRefunds(100, 10)).toEqual([]);
    await store.refunds.setRefundReference('re_1', 're_stripe', 150);
    expect(await store.refunds.listUnsentRefunds(1000, 10)).toEqual([]);
    expect(await store.refunds.getRefundByReference('re_stripe')).toMatchObject({ id: 're_1', reference: 're_stripe', updatedAt: 150 });

    expect(await store.refunds.settleRefund('re_1', { status: 'SUCCEEDED', reference: null, failureReason: null, updatedAt: 200 })).toBe(true);
    expect(await store.refunds.settleRefund('re_1', { status: 'FAILED', reference: null, failureReason: 'x', updatedAt: 300 })).toBe(false);
    expect(await store.refunds.getRefund(orgId, 're_1')).toMatchObject({ status: 'SUCCEEDED', reference: 're_stripe', failureReason: null, updatedAt: 200 });

    await store.refunds.addAmountRefunded('bk_1', 1000);
    await store.refunds.addAmountRefunded('bk_1', 2_999_999_000);
    expect((await store.bookings.getBooking(orgId, 'bk_1'))?.amountRefunded).toBe(3_000_000_000);
    expect((await store.bookings.getBooking(orgId, 'bk_2'))?.amountRefunded).toBe(0);
  });

  it('refuses an amount of zero and a method it does not know', async () => {
    await expect(store.refunds.insertRefund(refund('re_0', 1, { amount: 0 }))).rejects.toThrow();
    await expect(store.refunds.insertRefund(refund('re_v', 1, { method: 'VOUCHER' as RefundRow['method'] }))).rejects.toThrow();
  });
});
