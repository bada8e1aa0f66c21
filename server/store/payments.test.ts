import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { PaymentRow } from './payments.js';
import { addOrganization, insertBookingRow, openTestStore, testEngine, insertExperienceRow } from '../test-helpers/index.js';
import { REFUSALS } from '../test-helpers/engines.js';

// Behaviour of the store, not of one engine: the `server-postgres` project runs the same
// expectations on a leased, migrated PostgreSQL database.

/** The error a write refused for breaking `why` carries, on the engine under test. */
const refusal = (why: keyof typeof REFUSALS) => ({
  code: testEngine() === 'sqlite' ? expect.stringMatching(REFUSALS[why].sqlite) : REFUSALS[why].pg,
});

describe(`payment store (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let store: Store;
  let orgId: string;
  beforeEach(async () => {
    opened = await openTestStore();
    store = opened.store;
    orgId = (await addOrganization(store)).orgId;
    await insertExperienceRow(store, orgId);
    for (const id of ['bk_1', 'bk_2', 'bk_3']) {
      await insertBookingRow(store, { id, orgId, experienceId: 'exp_1', guestEmail: 'guest@example.com', status: 'PENDING' });
    }
  });
  afterEach(async () => {
    await opened.close();
  });

  const payment = (id: string, bookingId: string, createdAt: number, fields: Partial<PaymentRow> = {}): PaymentRow => ({
    id, orgId, bookingId, amount: 3000, currency: 'EUR', status: 'SUCCEEDED', provider: 'stripe', method: 'STRIPE',
    reference: `pi_${id}`, failureReason: null, refundRequired: 0, createdAt, ...fields,
  });
  const ids = (page: { rows: PaymentRow[] }) => page.rows.map((r) => r.id);
  const ALL = { limit: 20, offset: 0 };

  it('keeps each payment’s method; one stored without (before migration 012) reads as its provider made it', async () => {
    const methods = ['CASH', 'CARD', 'BANK_TRANSFER', 'STRIPE', 'OTHER', 'VOUCHER'] as const;
    for (const [i, method] of methods.entries()) {
      await store.payments.insertPayment(payment(`pay_${i}`, 'bk_1', 10 + i, { method, provider: method === 'STRIPE' ? 'stripe' : 'manual' }));
    }
    expect((await store.payments.listPayments('bk_1', ALL)).rows.map((p) => p.method)).toEqual([...methods]);
    // As migration 012 leaves the rows written before it: no method.
    await store.payments.insertPayment(payment('pay_old_stripe', 'bk_2', 1, { method: null as unknown as PaymentRow['method'] }));
    await store.payments.insertPayment(payment('pay_old_manual', 'bk_2', 2, { method: null as unknown as PaymentRow['method'], provider: 'manual' }));
    expect((await store.payments.listPayments('bk_2', ALL)).rows.map((p) => [p.id, p.method])).toEqual([
      ['pay_old_stripe', 'STRIPE'],
      ['pay_old_manual', 'OTHER'],
    ]);
    expect((await store.payments.getPaymentByReference('bk_2', 'stripe', 'pi_pay_old_stripe', 'SUCCEEDED'))?.method).toBe('STRIPE');
    await expect(store.payments.insertPayment(payment('pay_bad', 'bk_3', 1, { method: 'CHEQUE' as PaymentRow['method'] }))).rejects.toMatchObject(refusal('check'));
  });

  it('adds each SUCCEEDED payment to its booking’s paid sum, and no FAILED one', async () => {
    await store.payments.insertPayment(payment('pay_1', 'bk_1', 1, { amount: 2000 }));
    await store.payments.insertPayment(payment('pay_2', 'bk_1', 2, { amount: 700, status: 'FAILED' }));
    await store.payments.insertPayment(payment('pay_3', 'bk_1', 3, { amount: 500, method: 'VOUCHER', provider: 'voucher', reference: 'GV-••••-••••-7QX2' }));
    expect((await store.bookings.getBooking(orgId, 'bk_1'))?.amountPaid).toBe(2500);
    expect((await store.bookings.getBooking(orgId, 'bk_2'))?.amountPaid).toBe(0);
  });

  it('records payments and pages a booking’s oldest first, ties by id byte-wise, with the total', async () => {
    expect(await store.payments.listPayments('bk_1', ALL)).toEqual({ rows: [], total: 0 });

    await store.payments.insertPayment(payment('pay_c', 'bk_1', 200, { status: 'FAILED', reference: 'pi_1', failureReason: 'card_declined' }));
    await store.payments.insertPayment(payment('pay_b', 'bk_1', 200, { reference: 'pi_1', amount: 3_000_000_000 }));
    await store.payments.insertPayment(payment('pay_B', 'bk_1', 200, { reference: 'pi_1', amount: 2_500_000_000 }));
    await store.payments.insertPayment(payment('pay_a', 'bk_1', 300, { reference: null, provider: 'manual', amount: 1234 }));
    await store.payments.insertPayment(payment('pay_d', 'bk_1', 100, { refundRequired: 1, amount: 700 }));
    await store.payments.insertPayment(payment('pay_z', 'bk_2', 50, { currency: 'USD', amount: 99 }));

    const all = await store.payments.listPayments('bk_1', ALL);
    expect(ids(all)).toEqual(['pay_d', 'pay_B', 'pay_b', 'pay_c', 'pay_a']);
    expect(all.total).toBe(5);
    expect(all.rows[3]).toStrictEqual({
      id: 'pay_c', orgId, bookingId: 'bk_1', amount: 3000, currency: 'EUR', status: 'FAILED', provider: 'stripe', method: 'STRIPE',
      reference: 'pi_1', failureReason: 'card_declined', refundRequired: 0, createdAt: 200,
    });
    expect(all.rows[2]?.amount).toBe(3_000_000_000);
    expect(all.rows[4]).toMatchObject({ provider: 'manual', reference: null, amount: 1234 });
    expect(await store.payments.listPayments('bk_1', { limit: 2, offset: 0 })).toMatchObject({ total: 5 });
    expect(ids(await store.payments.listPayments('bk_1', { limit: 2, offset: 2 }))).toEqual(['pay_b', 'pay_c']);
    expect(await store.payments.listPayments('bk_1', { limit: 2, offset: 5 })).toEqual({ rows: [], total: 5 });
    expect(ids(await store.payments.listPayments('bk_2', ALL))).toEqual(['pay_z']);
    expect(await store.payments.listPayments('bk_missing', ALL)).toEqual({ rows: [], total: 0 });
  });

  it('finds a payment by booking, provider, reference and status, exactly, the oldest of several', async () => {
    await store.payments.insertPayment(payment('pay_c', 'bk_1', 200, { status: 'FAILED', reference: 'pi_1', failureReason: 'card_declined' }));
    await store.payments.insertPayment(payment('pay_b', 'bk_1', 200, { reference: 'pi_1', amount: 3_000_000_000 }));
    await store.payments.insertPayment(payment('pay_B', 'bk_1', 200, { reference: 'pi_1', amount: 2_500_000_000 }));
    await store.payments.insertPayment(payment('pay_0', 'bk_1', 300, { reference: 'pi_1' }));

    expect(await store.payments.getPaymentByReference('bk_1', 'stripe', 'pi_1', 'SUCCEEDED')).toMatchObject({ id: 'pay_B', amount: 2_500_000_000 });
    expect(await store.payments.getPaymentByReference('bk_1', 'stripe', 'pi_1', 'FAILED')).toMatchObject({ id: 'pay_c', failureReason: 'card_declined' });
    expect(await store.payments.getPaymentByReference('bk_2', 'stripe', 'pi_1', 'SUCCEEDED')).toBeUndefined();
    expect(await store.payments.getPaymentByReference('bk_1', 'other', 'pi_1', 'SUCCEEDED')).toBeUndefined();
    expect(await store.payments.getPaymentByReference('bk_1', 'STRIPE', 'pi_1', 'SUCCEEDED')).toBeUndefined();
    expect(await store.payments.getPaymentByReference('bk_1', 'stripe', 'PI_1', 'SUCCEEDED')).toBeUndefined();
  });

  it('adds up the cents succeeded and kept, exactly past 2^32, as a number', async () => {
    expect(await store.payments.succeededPaymentsTotal('bk_1')).toBe(0);
    await store.payments.insertPayment(payment('pay_b', 'bk_1', 200, { amount: 3_000_000_000 }));
    await store.payments.insertPayment(payment('pay_B', 'bk_1', 200, { amount: 2_500_000_000 }));
    await store.payments.insertPayment(payment('pay_a', 'bk_1', 300, { provider: 'manual', reference: null, amount: 1234 }));
    await store.payments.insertPayment(payment('pay_c', 'bk_1', 200, { status: 'FAILED', amount: 5000 }));
    await store.payments.insertPayment(payment('pay_d', 'bk_1', 100, { refundRequired: 1, amount: 700 }));
    await store.payments.insertPayment(payment('pay_z', 'bk_2', 50, { currency: 'USD', amount: 99 }));
    await store.payments.insertPayment(payment('pay_f', 'bk_3', 1, { status: 'FAILED' }));
    await store.payments.insertPayment(payment('pay_r', 'bk_3', 2, { refundRequired: 1 }));

    expect(await store.payments.succeededPaymentsTotal('bk_1')).toBe(3_000_000_000 + 2_500_000_000 + 1234);
    expect(await store.payments.succeededPaymentsTotal('bk_2')).toBe(99);
    expect(await store.payments.succeededPaymentsTotal('bk_3')).toBe(0);
    expect(await store.payments.succeededPaymentsTotal('bk_missing')).toBe(0);
  });

  it('refuses a repeated id, an unknown booking and an unknown status', async () => {
    await store.payments.insertPayment(payment('pay_a', 'bk_1', 100));
    await expect(store.payments.insertPayment(payment('pay_a', 'bk_2', 400))).rejects.toMatchObject(refusal('unique'));
    await expect(store.payments.insertPayment(payment('pay_x', 'bk_missing', 400))).rejects.toMatchObject(refusal('foreignKey'));
    await expect(
      store.payments.insertPayment(payment('pay_y', 'bk_1', 400, { status: 'REFUNDED' as PaymentRow['status'] })),
    ).rejects.toMatchObject(refusal('check'));
    expect(await store.payments.listPayments('bk_1', ALL)).toMatchObject({ total: 1 });
    expect(await store.payments.listPayments('bk_2', ALL)).toMatchObject({ total: 0 });
  });

  it('handles each provider callback once, by exact provider and event id, and forgets old ones', async () => {
    expect(await store.payments.insertProviderEvent('stripe', 'evt_1', 1000)).toBe(true);
    expect(await store.payments.insertProviderEvent('stripe', 'evt_1', 2000)).toBe(false);
    expect(await store.payments.insertProviderEvent('stripe', 'EVT_1', 2000)).toBe(true);
    expect(await store.payments.insertProviderEvent('other', 'evt_1', 3000)).toBe(true);
    expect(await store.payments.insertProviderEvent('stripe', 'evt_2', 4000)).toBe(true);

    expect(await store.payments.deleteProviderEventsBefore(1000)).toBe(0);
    // The repeat did not move evt_1's time: it goes with the events before 2000.
    expect(await store.payments.deleteProviderEventsBefore(2000)).toBe(1);
    expect(await store.payments.insertProviderEvent('stripe', 'EVT_1', 5000)).toBe(false);
    expect(await store.payments.deleteProviderEventsBefore(4001)).toBe(3);
    expect(await store.payments.deleteProviderEventsBefore(9999)).toBe(0);
    expect(await store.payments.insertProviderEvent('stripe', 'evt_1', 6000)).toBe(true); // forgotten, so new again
  });

  it('answers a repeated callback inside a transaction without spoiling it', async () => {
    const inside = await store.transaction(async () => [
      await store.payments.insertProviderEvent('stripe', 'evt_tx', 1),
      await store.payments.insertProviderEvent('stripe', 'evt_tx', 2),
      await store.payments.insertPayment(payment('pay_tx', 'bk_1', 3, { amount: 4200 })),
      await store.payments.succeededPaymentsTotal('bk_1'),
    ]);
    expect(inside).toEqual([true, false, undefined, 4200]);
    // Both writes committed.
    expect(await store.payments.insertProviderEvent('stripe', 'evt_tx', 3)).toBe(false);
    expect(await store.payments.succeededPaymentsTotal('bk_1')).toBe(4200);
  });
});
