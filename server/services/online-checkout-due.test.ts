import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeStripe } from '../payments/test-helpers/fake-stripe.js';
import { usePaymentsHarness, type PaymentsHarness } from '../payments/test-helpers/setup.js';
import { expectData, expectList, insertBookingRow } from '../test-helpers/index.js';
import { bookWithCheckout, lineItemsOf } from './online-checkout.js';
import { paymentProviderFrom } from '../payments/configure.js';
import { createLogger } from '../logger.js';
import { guestActor } from '../domain/actor.js';
import { Booking, Experience, GiftVoucher, PublicBooking, Refund } from '../../shared/index.js';

const MINUTE = 60_000;

describe('online payment for what is due', () => {
  const harness = usePaymentsHarness();
  let stripe: FakeStripe;
  let h: PaymentsHarness;
  beforeEach(() => ({ stripe, h } = harness()));

  /** A held booking of the harness's experience with a discount and a voucher part, as the booking's own copy keeps them. */
  async function bookingWithCodes(fields: { discount?: boolean; voucherCents?: number }) {
    const row = await insertBookingRow(h.t.store, {
      orgId: h.t.orgId,
      experienceId: h.experienceId,
      slotStart: Date.parse(h.startTime),
      status: 'PENDING',
      participants: 2,
      unitPrice: 4500,
      totalCents: fields.discount ? 8100 : 9000,
      ...(fields.discount ? { discountCode: 'SUMMER10', discountType: 'PERCENT' as const, discountValue: 10 } : {}),
      ...(fields.voucherCents ? { voucherMask: 'GV-••••-••••-X4TB', voucherCents: fields.voucherCents } : {}),
    });
    return (await h.t.store.bookings.getBooking(h.t.orgId, row.id))!;
  }

  it('itemises the lines only when nothing is taken off; otherwise one line, the experience’s name, for the amount due', async () => {
    expect(lineItemsOf(await bookingWithCodes({}))).toEqual([{ name: 'Sunset kayak', unitAmount: 4500, quantity: 2 }]);
    // A discount: the total is after it, and positive lines could not add up to it.
    expect(lineItemsOf(await bookingWithCodes({ discount: true }))).toEqual([{ name: 'Sunset kayak', unitAmount: 8100, quantity: 1 }]);
    // A voucher pays part: what is due is charged.
    expect(lineItemsOf(await bookingWithCodes({ voucherCents: 5000 }))).toEqual([{ name: 'Sunset kayak', unitAmount: 4000, quantity: 1 }]);
    const both = await bookingWithCodes({ discount: true, voucherCents: 2500 });
    expect(lineItemsOf(both)).toEqual([{ name: 'Sunset kayak', unitAmount: 5600, quantity: 1 }]);

    // Through the real provider: Stripe's total is the amount due.
    await paymentProviderFrom(h.t.config)!.createCheckout({
      orgId: h.t.orgId, bookingId: both.id, bookingNumber: both.bookingNumber, title: both.experienceName,
      description: 'Sunset kayak', lineItems: lineItemsOf(both), currency: both.currency, customerEmail: both.guestEmail,
      successUrl: 'https://tours.example.com/ok', cancelUrl: 'https://tours.example.com/no', expiresAt: h.clock.now() + 30 * MINUTE, now: h.clock.now(),
    });
    expect(stripe.lastSession().amount_total).toBe(5600);
  });

  it('confirms at once, with no checkout, a booking that owes nothing', async () => {
    const free = expectData(await h.t.request('PATCH', `/v1/experiences/${h.experienceId}`, { body: { price: 0 } }), Experience);
    expect(free.price).toBe(0);
    const online = { provider: paymentProviderFrom(h.t.config)!, holdMinutes: 30, fallbackPage: 'https://tours.example.com/', logger: createLogger('silent') };
    const input = { experienceId: h.experienceId, startTime: h.startTime, participants: 2, customerName: 'Ana Lima', customerEmail: 'ana@example.com' };
    const booked = await bookWithCheckout(h.t.store, online, h.t.orgId, input, 'https://tours.example.com/', h.clock.now(), guestActor('Ana Lima', '127.0.0.1'));
    expect(booked).toMatchObject({ status: 'CONFIRMED', holdExpiresAt: null, checkoutSessionId: null, checkoutUrl: null });
    expect(stripe.sessions.size).toBe(0);
  });

  it('refunds through Stripe a late payment that cannot confirm its booking again', async () => {
    const booking = expectData(await h.book(2), PublicBooking, 201);
    const session = stripe.lastSession();
    await h.callback('checkout.session.expired', { ...session, status: 'expired' });
    expectData(
      await h.t.request('POST', '/v1/bookings', {
        body: { experienceId: h.experienceId, startTime: h.startTime, participants: 3, customerName: 'Rui', customerEmail: 'rui@example.com' },
      }),
      Booking,
      201,
    );
    h.clock.advance(MINUTE);
    const paid = stripe.pay(session.id);
    await h.callback('checkout.session.completed', paid);

    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('CANCELLED');
    const payments = await h.payments(booking.bookingNumber);
    expect(payments[1]).toMatchObject({ status: 'SUCCEEDED', amount: '90.00', refundRequired: true });
    // The refund was sent to Stripe once the callback's transaction committed.
    expect([...stripe.refunds.values()].map((r) => [r.amount, r.payment_intent])).toEqual([[9000, paid.payment_intent]]);
    const full = await h.bookingOf(booking.bookingNumber);
    const refunds = expectList(await h.t.request('GET', `/v1/bookings/${full.id}/refunds`), Refund);
    expect(refunds.data).toMatchObject([{ amount: '90.00', method: 'STRIPE', status: 'PENDING' }]);
    const row = (await h.t.store.refunds.getRefund(h.t.orgId, refunds.data[0]!.id))!;
    expect(row.paymentId).toBe(payments[1]!.id);
    expect(row.reference).toBe([...stripe.refunds.keys()][0]);

    // The same callback again changes nothing and sends no second refund.
    await h.callback('checkout.session.completed', paid);
    expect(stripe.refunds.size).toBe(1);
  });

  it('confirms again, with no refund, a late payment whose places are still free', async () => {
    const booking = expectData(await h.book(2), PublicBooking, 201);
    const session = stripe.lastSession();
    await h.callback('checkout.session.expired', { ...session, status: 'expired' });
    await h.callback('checkout.session.completed', stripe.pay(session.id));
    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('CONFIRMED');
    expect(stripe.refunds.size).toBe(0);
  });
});

describe('online payment with a gift voucher', () => {
  const harness = usePaymentsHarness();
  let stripe: FakeStripe;
  let h: PaymentsHarness;
  beforeEach(() => ({ stripe, h } = harness()));

  const voucher = async (amount: string) => expectData(await h.t.request('POST', '/v1/gift-vouchers', { body: { amount } }), GiftVoucher, 201);
  const book = (participants: number, voucherCode: string) =>
    h.t.request('POST', '/public/v1/bookings', {
      body: { experienceId: h.experienceId, startTime: h.startTime, participants, customerName: 'Ana Lima', customerEmail: 'ana@example.com', voucherCode },
      headers: { origin: 'https://tours.example.com', referer: 'https://tours.example.com/book' },
    });
  const balance = async (id: string) => expectData(await h.t.request('GET', `/v1/gift-vouchers/${id}`), GiftVoucher).balance;

  it('confirms at once, with no checkout, a booking the voucher pays in full', async () => {
    const gv = await voucher('100.00');
    const booking = expectData(await book(2, gv.code), PublicBooking, 201);
    expect(booking).toMatchObject({ status: 'CONFIRMED', checkoutUrl: null, holdExpiresAt: null, total: '90.00', amountDue: '0.00' });
    expect(stripe.sessions.size).toBe(0);
    expect(await balance(gv.id)).toBe('10.00');
  });

  it('charges only what is due, in one line, and a lapsed hold returns the voucher’s part', async () => {
    const gv = await voucher('50.00');
    const booking = expectData(await book(2, gv.code), PublicBooking, 201);
    expect(booking).toMatchObject({ status: 'PENDING', total: '90.00', amountDue: '40.00' });
    const session = stripe.lastSession();
    expect(session.amount_total).toBe(4000);
    const create = stripe.requests.find((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
    expect(create?.params).toMatchObject({ line_items: [{ quantity: '1', price_data: { unit_amount: '4000', product_data: { name: 'Sunset kayak' } } }] });
    expect(await balance(gv.id)).toBe('0.00');

    await h.callback('checkout.session.expired', { ...session, status: 'expired' });
    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('CANCELLED');
    expect(await balance(gv.id)).toBe('50.00');

    // Paid late, with the voucher still whole: confirmed again, the part spent again.
    await h.callback('checkout.session.completed', stripe.pay(session.id));
    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('CONFIRMED');
    expect(await balance(gv.id)).toBe('0.00');
    expect(stripe.refunds.size).toBe(0);
  });

  it('stays cancelled and refunds through Stripe a late payment whose voucher part was spent meanwhile', async () => {
    const gv = await voucher('50.00');
    const booking = expectData(await book(2, gv.code), PublicBooking, 201);
    const session = stripe.lastSession();
    await h.callback('checkout.session.expired', { ...session, status: 'expired' });
    // Another booking spends the returned balance (at the desk, on another slot).
    expectData(
      await h.t.request('POST', '/v1/bookings', {
        body: { experienceId: h.experienceId, startTime: h.startTime, participants: 1, customerName: 'Rui', customerEmail: 'rui@example.com', voucherCode: gv.code },
      }),
      Booking,
      201,
    );
    expect(await balance(gv.id)).toBe('5.00');
    const paid = stripe.pay(session.id);
    await h.callback('checkout.session.completed', paid);
    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('CANCELLED');
    expect(await balance(gv.id)).toBe('5.00');
    expect([...stripe.refunds.values()].map((r) => [r.amount, r.payment_intent])).toEqual([[4000, paid.payment_intent]]);
  });
});
