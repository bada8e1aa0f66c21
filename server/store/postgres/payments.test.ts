import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Async } from '../index.js';
import type { PaymentRow, paymentStore } from '../payments.js';
import { bothEngines, refusedOnBoth, sameOnBoth, REFUSALS, type BothEngines } from '../../test-helpers/engines.js';
import { testDatabaseUrl } from '../../test-helpers/postgres.js';
import { paymentStorePg } from './payments.js';

type Engine = Async<ReturnType<typeof paymentStore>>;


describe.skipIf(!testDatabaseUrl())('paymentStorePg answers as the SQLite store does', () => {
  let e: BothEngines;
  let pg: Engine;
  beforeEach(async () => {
    e = await bothEngines();
    pg = paymentStorePg(e.pgDb);
    await plant('organizations', { id: 'org_A', name: 'A', email: 'a@example.com', timezone: 'UTC', created_at: 1, updated_at: 1 });
    await plant('experiences', {
      id: 'exp_1', org_id: 'org_A', name: 'Cruise', description: '', duration: 60, price: 1500, max_participants: 10, created_at: 1, updated_at: 1,
    });
    await plant('customers', { id: 'cus_1', org_id: 'org_A', email: 'guest@example.com', name: 'Guest', created_at: 1, updated_at: 1 });
    for (const id of ['bk_1', 'bk_2', 'bk_3']) {
      await plant('bookings', {
        id, org_id: 'org_A', booking_number: `BK-${id}`, experience_id: 'exp_1', customer_id: 'cus_1', slot_start: 10_000,
        slot_end: 20_000, status: 'PENDING', guest_name: 'Guest', guest_email: 'guest@example.com', participants: 2,
        unit_price: 1500, currency: 'EUR', source: 'API', created_at: 1, updated_at: 1,
      });
    }
  });
  afterEach(async () => {
    await e.close();
  });

  const plant = (table: string, row: Record<string, unknown>) => e.plant(table, row);

  const same = <T>(call: (s: Engine) => Promise<T>) => sameOnBoth<Engine, T>(e.sqlite, pg, call);

  const bothRefuse = (call: (s: Engine) => Promise<unknown>, why: keyof typeof REFUSALS) => refusedOnBoth<Engine>(e.sqlite, pg, call, why);

  const payment = (id: string, bookingId: string, createdAt: number, fields: Partial<PaymentRow> = {}): PaymentRow => ({
    id, orgId: 'org_A', bookingId, amount: 3000, currency: 'EUR', status: 'SUCCEEDED', provider: 'stripe',
    reference: `pi_${id}`, failureReason: null, refundRequired: 0, createdAt, ...fields,
  });

  const ids = (page: { rows: PaymentRow[] }) => page.rows.map((r) => r.id);

  it('records payments, pages them, finds them by reference and adds up what was kept', async () => {
    expect(await same((s) => s.listPayments('bk_1', { limit: 20, offset: 0 }))).toEqual({ rows: [], total: 0 });
    expect(await same((s) => s.succeededPaymentsTotal('bk_1'))).toBe(0);

    await same((s) => s.insertPayment(payment('pay_c', 'bk_1', 200, { status: 'FAILED', reference: 'pi_1', failureReason: 'card_declined', amount: 3000 })));
    await same((s) => s.insertPayment(payment('pay_b', 'bk_1', 200, { reference: 'pi_1', amount: 3_000_000_000 })));
    await same((s) => s.insertPayment(payment('pay_B', 'bk_1', 200, { reference: 'pi_1', amount: 2_500_000_000 })));
    await same((s) => s.insertPayment(payment('pay_a', 'bk_1', 300, { reference: null, provider: 'manual', amount: 1234 })));
    await same((s) => s.insertPayment(payment('pay_d', 'bk_1', 100, { refundRequired: 1, amount: 700 })));
    await same((s) => s.insertPayment(payment('pay_z', 'bk_2', 50, { currency: 'USD', amount: 99 })));

    // Oldest first, ties by id byte-wise.
    expect(ids(await same((s) => s.listPayments('bk_1', { limit: 20, offset: 0 })))).toEqual(['pay_d', 'pay_B', 'pay_b', 'pay_c', 'pay_a']);
    expect(await same((s) => s.listPayments('bk_1', { limit: 2, offset: 0 }))).toMatchObject({ total: 5 });
    expect(ids(await same((s) => s.listPayments('bk_1', { limit: 2, offset: 2 })))).toEqual(['pay_b', 'pay_c']);
    expect(await same((s) => s.listPayments('bk_1', { limit: 2, offset: 5 }))).toEqual({ rows: [], total: 5 });
    expect(ids(await same((s) => s.listPayments('bk_2', { limit: 20, offset: 0 })))).toEqual(['pay_z']);
    expect(await same((s) => s.listPayments('bk_missing', { limit: 20, offset: 0 }))).toEqual({ rows: [], total: 0 });

    // Several payments share a reference and status: the oldest answers (SQLite walks payments_booking).
    expect(await same((s) => s.getPaymentByReference('bk_1', 'stripe', 'pi_1', 'SUCCEEDED'))).toMatchObject({ id: 'pay_B', amount: 2_500_000_000 });
    expect(await same((s) => s.getPaymentByReference('bk_1', 'stripe', 'pi_1', 'FAILED'))).toMatchObject({ id: 'pay_c', failureReason: 'card_declined' });
    expect(await same((s) => s.getPaymentByReference('bk_2', 'stripe', 'pi_1', 'SUCCEEDED'))).toBeUndefined();
    expect(await same((s) => s.getPaymentByReference('bk_1', 'other', 'pi_1', 'SUCCEEDED'))).toBeUndefined();
    expect(await same((s) => s.getPaymentByReference('bk_1', 'STRIPE', 'pi_1', 'SUCCEEDED'))).toBeUndefined();
    expect(await same((s) => s.getPaymentByReference('bk_1', 'stripe', 'PI_1', 'SUCCEEDED'))).toBeUndefined();

    // Succeeded, not to be refunded: past 2^32 cents, still an exact number.
    expect(await same((s) => s.succeededPaymentsTotal('bk_1'))).toBe(3_000_000_000 + 2_500_000_000 + 1234);
    expect(await same((s) => s.succeededPaymentsTotal('bk_2'))).toBe(99);
    expect(await same((s) => s.succeededPaymentsTotal('bk_3'))).toBe(0);
    await same((s) => s.insertPayment(payment('pay_f', 'bk_3', 1, { status: 'FAILED' })));
    await same((s) => s.insertPayment(payment('pay_r', 'bk_3', 2, { refundRequired: 1 })));
    expect(await same((s) => s.succeededPaymentsTotal('bk_3'))).toBe(0);

    await bothRefuse((s) => s.insertPayment(payment('pay_a', 'bk_2', 400)), 'unique');
    await bothRefuse((s) => s.insertPayment(payment('pay_x', 'bk_missing', 400)), 'foreignKey');
    await bothRefuse((s) => s.insertPayment(payment('pay_y', 'bk_1', 400, { status: 'REFUNDED' as PaymentRow['status'] })), 'check');
    expect(await same((s) => s.listPayments('bk_1', { limit: 20, offset: 0 }))).toMatchObject({ total: 5 });
  });

  it('handles each provider callback once and forgets old ones', async () => {
    expect(await same((s) => s.insertProviderEvent('stripe', 'evt_1', 1000))).toBe(true);
    expect(await same((s) => s.insertProviderEvent('stripe', 'evt_1', 2000))).toBe(false);
    expect(await same((s) => s.insertProviderEvent('stripe', 'EVT_1', 2000))).toBe(true);
    expect(await same((s) => s.insertProviderEvent('other', 'evt_1', 3000))).toBe(true);
    expect(await same((s) => s.insertProviderEvent('stripe', 'evt_2', 4000))).toBe(true);

    expect(await same((s) => s.deleteProviderEventsBefore(1000))).toBe(0);
    // The repeat did not move evt_1's time: it goes with the events before 2000.
    expect(await same((s) => s.deleteProviderEventsBefore(2000))).toBe(1);
    expect(await same((s) => s.insertProviderEvent('stripe', 'EVT_1', 5000))).toBe(false);
    expect(await same((s) => s.deleteProviderEventsBefore(4001))).toBe(3);
    expect(await same((s) => s.deleteProviderEventsBefore(9999))).toBe(0);
    expect(await same((s) => s.insertProviderEvent('stripe', 'evt_1', 6000))).toBe(true); // forgotten, so new again
  });

  it('refuses a repeated callback inside a transaction without spoiling it', async () => {
    // ON CONFLICT DO NOTHING raises nothing, so PostgreSQL's transaction goes on as SQLite's does.
    const inside = async (s: Engine, run: <T>(work: () => Promise<T>) => Promise<T>) =>
      await run(async () => [
        await s.insertProviderEvent('stripe', 'evt_tx', 1),
        await s.insertProviderEvent('stripe', 'evt_tx', 2),
        await s.succeededPaymentsTotal('bk_1'),
      ]);
    const sqlite = await inside(e.sqlite, (work) => e.sqlite.transaction(work));
    expect(await inside(pg, (work) => e.pgDb.transaction(work))).toStrictEqual(sqlite);
    expect(await same((s) => s.insertProviderEvent('stripe', 'evt_tx', 3))).toBe(false);
  });
});
