import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paymentsHarness, usePaymentsHarness, type PaymentsHarness } from '../payments/test-helpers/setup.js';
import type { FakeStripe } from '../payments/test-helpers/fake-stripe.js';
import { expectData, expectError, expectList, expectValidationError } from '../test-helpers/index.js';
import { Activity, Booking, Payment, PublicBooking, Refund, WebhookEndpoint, WebhookEndpointWithSecret } from '../../shared/index.js';

const MINUTE = 60_000;

describe('refunds by hand', () => {
  let h: PaymentsHarness;
  let booking: Booking;

  beforeEach(async () => {
    h = await paymentsHarness({ onlinePayments: false });
    booking = expectData(
      await h.t.request('POST', '/v1/bookings', {
        body: { experienceId: h.experienceId, startTime: h.startTime, participants: 2, customerName: 'Ana Lima', customerEmail: 'ana@example.com' },
      }),
      Booking,
      201,
    );
    expectData(await h.t.request('POST', `/v1/bookings/${booking.id}/payments`, { body: { amount: '90.00', status: 'SUCCEEDED' } }), Payment, 201);
  });
  afterEach(() => h.close());

  const refund = (ref: string, body: unknown, prefix = '/v1') => h.t.request('POST', `${prefix}/bookings/${ref}/refunds`, { body });
  const refunds = async (ref: string) => expectList(await h.t.request('GET', `/v1/bookings/${ref}/refunds`), Refund).data;

  it('records a cash refund as SUCCEEDED, adds it to amountRefunded and fires PAYMENT_REFUNDED with the booking after it', async () => {
    const made = expectData(await refund(booking.id, { amount: '20.00', method: 'CASH', reason: 'One guest could not come' }), Refund, 201);
    expect(made).toEqual({
      id: expect.stringMatching(/^re_[A-Za-z0-9]+$/),
      bookingId: booking.id,
      amount: '20.00',
      currency: 'EUR',
      method: 'CASH',
      status: 'SUCCEEDED',
      reason: 'One guest could not come',
      createdAt: new Date(h.clock.now()).toISOString(),
    });
    const after = await h.bookingOf(booking.id);
    expect(after).toMatchObject({ amountRefunded: '20.00', status: 'CONFIRMED', total: '90.00' });

    const events = (await h.events()).filter((e) => e.event === 'PAYMENT_REFUNDED');
    expect(events).toHaveLength(1);
    expect(events[0]?.data.refund).toEqual({ id: made.id, amount: '20.00', currency: 'EUR', method: 'CASH', status: 'SUCCEEDED', reason: 'One guest could not come' });
    expect(events[0]?.data.booking).toMatchObject({ id: booking.id, amountRefunded: '20.00' });
    expect(events[0]?.data.payment).toBeUndefined();

    const activity = expectList(await h.t.request('GET', '/v1/activity?limit=100'), Activity).data;
    expect(activity.find((a) => a.action === 'booking.refund')).toMatchObject({ targetId: booking.id });
  });

  it('defaults the method to OTHER without a Stripe payment, takes the booking number, answers under /api/v1 and lists oldest first', async () => {
    const first = expectData(await refund(booking.bookingNumber, { amount: '10.00' }), Refund, 201);
    expect(first).toMatchObject({ method: 'OTHER', status: 'SUCCEEDED', reason: null });
    h.clock.advance(MINUTE);
    const second = expectData(await refund(booking.id, { amount: '5.50', method: 'BANK_TRANSFER' }, '/api/v1'), Refund, 201);
    expect((await refunds(booking.id)).map((r) => r.id)).toEqual([first.id, second.id]);
    expect(expectList(await h.t.request('GET', `/api/v1/bookings/${booking.bookingNumber}/refunds`), Refund).data).toHaveLength(2);
    expect((await h.bookingOf(booking.id)).amountRefunded).toBe('15.50');
  });

  it('refuses an amount of zero or less, a bad method or a long reason with 400, and more than is left with 409 REFUND_EXCEEDS_PAID', async () => {
    expectValidationError(await refund(booking.id, { amount: '0.00' }), 'amount');
    expectValidationError(await refund(booking.id, { amount: '-5.00' }), 'amount');
    expectValidationError(await refund(booking.id, { amount: 5 }), 'amount');
    expectValidationError(await refund(booking.id, { amount: '5.00', method: 'VOUCHER' }), 'method');
    expectValidationError(await refund(booking.id, { amount: '5.00', reason: 'x'.repeat(501) }), 'reason');
    expectValidationError(await refund(booking.id, { amount: '5.00', extra: true }), 'extra');
    expectError(await refund(booking.id, { amount: '90.01' }), 409, 'REFUND_EXCEEDS_PAID');
    expectData(await refund(booking.id, { amount: '90.00' }), Refund, 201);
    const refused = expectError(await refund(booking.id, { amount: '0.01' }), 409, 'REFUND_EXCEEDS_PAID');
    expect(refused.message).toMatch(/At most 0\.00 EUR/);
    expectError(await refund('bk_doesnotexist', { amount: '1.00' }), 404, 'NOT_FOUND');
    expect(await refunds(booking.id)).toHaveLength(1);
  });

  it('refunds a cancelled booking and leaves its status alone; a booking never paid has nothing to refund', async () => {
    expectData(await h.t.request('PATCH', `/v1/bookings/${booking.id}/cancel`, { body: { reason: 'Storm' } }), Booking);
    expectData(await refund(booking.id, { amount: '90.00', method: 'CARD' }), Refund, 201);
    expect(await h.bookingOf(booking.id)).toMatchObject({ status: 'CANCELLED', amountRefunded: '90.00' });

    const unpaid = expectData(
      await h.t.request('POST', '/v1/bookings', {
        body: { experienceId: h.experienceId, startTime: h.startTime, participants: 1, customerName: 'Rui', customerEmail: 'rui@example.com' },
      }),
      Booking,
      201,
    );
    expect(unpaid.amountRefunded).toBe('0.00');
    expectError(await refund(unpaid.id, { amount: '1.00' }), 409, 'REFUND_EXCEEDS_PAID');
    // A failed payment is no money received.
    expectData(await h.t.request('POST', `/v1/bookings/${unpaid.id}/payments`, { body: { amount: '45.00', status: 'FAILED' } }), Payment, 201);
    expectError(await refund(unpaid.id, { amount: '1.00' }), 409, 'REFUND_EXCEEDS_PAID');
  });

  it('never gives back more than was paid when refunds arrive side by side', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => refund(booking.id, { amount: '20.00', method: 'CASH' })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(4);
    expect(statuses.filter((s) => s === 409)).toHaveLength(8);
    for (const a of answers.filter((x) => x.status === 409)) expectError(a, 409, 'REFUND_EXCEEDS_PAID');
    expect(await refunds(booking.id)).toHaveLength(4);
    expect((await h.bookingOf(booking.id)).amountRefunded).toBe('80.00');
    expect((await h.events()).filter((e) => e.event === 'PAYMENT_REFUNDED')).toHaveLength(4);
  });

  it('needs bookings:write to refund and bookings:read to list', async () => {
    const { key: reader } = await h.t.createKey({ scopes: ['bookings:read'] });
    expectError(await h.t.request('POST', `/v1/bookings/${booking.id}/refunds`, { key: reader, body: { amount: '1.00' } }), 403, 'FORBIDDEN');
    expectList(await h.t.request('GET', `/v1/bookings/${booking.id}/refunds`, { key: reader }), Refund);
  });

  it('keeps the manifest’s paid to payments and a STRIPE refund without a Stripe payment is refused', async () => {
    expectData(await refund(booking.id, { amount: '30.00', method: 'CASH' }), Refund, 201);
    const res = await h.t.request('GET', `/v1/manifest?date=${h.startTime.slice(0, 10)}`);
    expect(JSON.stringify(res.body)).toContain('"paid":"90.00"');
    expectError(await refund(booking.id, { amount: '10.00', method: 'STRIPE' }), 409, 'REFUND_EXCEEDS_PAID');
    // A Stripe payment on a server that no longer has Stripe configured: STRIPE (the default) cannot be sent.
    await h.t.store.payments.insertPayment({
      id: 'pay_fromstripe', orgId: h.t.orgId, bookingId: booking.id, amount: 500, currency: 'EUR', status: 'SUCCEEDED', provider: 'stripe', method: 'STRIPE',
      reference: 'pi_elsewhere', failureReason: null, refundRequired: 0, createdAt: h.clock.now(),
    });
    expectError(await refund(booking.id, { amount: '5.00' }), 409, 'CONFLICT');
    expect(expectData(await refund(booking.id, { amount: '5.00', method: 'CARD' }), Refund, 201).status).toBe('SUCCEEDED');
  });

  it('sends PAYMENT_REFUNDED to an endpoint created without events, not to one that chose others', async () => {
    const all = expectData(await h.t.request('POST', '/v1/webhook-endpoints', { body: { url: 'https://hooks.example.com/all' } }), WebhookEndpointWithSecret, 201);
    expect(all.events).toEqual(['BOOKING_CREATED', 'BOOKING_UPDATED', 'BOOKING_CANCELED', 'PAYMENT_SUCCEEDED', 'PAYMENT_FAILED', 'PAYMENT_REFUNDED']);
    const some = expectData(
      await h.t.request('POST', '/v1/webhook-endpoints', { body: { url: 'https://hooks.example.com/some', events: ['PAYMENT_SUCCEEDED'] } }),
      WebhookEndpoint,
      201,
    );
    expectData(await refund(booking.id, { amount: '1.00' }), Refund, 201);
    const [event] = (await h.events()).filter((e) => e.event === 'PAYMENT_REFUNDED');
    const deliveries = async (id: string) => (await h.t.request('GET', `/v1/webhook-endpoints/${id}/deliveries`)).body as { data: { eventId: string }[] };
    expect((await deliveries(all.id)).data.map((d) => d.eventId)).toContain(event?.id);
    expect((await deliveries(some.id)).data.map((d) => d.eventId)).not.toContain(event?.id);
  });
});

describe('refunds through Stripe', () => {
  const harness = usePaymentsHarness();
  let stripe: FakeStripe;
  let h: PaymentsHarness;
  beforeEach(() => ({ stripe, h } = harness()));

  /** A widget booking of 90.00 paid through Stripe Checkout. */
  async function paidBooking() {
    const made = expectData(await h.book(2), PublicBooking, 201);
    const session = stripe.lastSession();
    expect((await h.callback('checkout.session.completed', stripe.pay(session.id))).status).toBe(200);
    return { booking: await h.bookingOf(made.bookingNumber), intent: String(stripe.sessions.get(session.id)?.payment_intent) };
  }
  const refund = (ref: string, body: unknown, headers?: Record<string, string>) => h.t.request('POST', `/v1/bookings/${ref}/refunds`, { body, headers });
  const refundRequests = () => stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds');

  it('defaults to STRIPE, asks Stripe’s Refunds API once committed and stays PENDING until Stripe reports it SUCCEEDED', async () => {
    const { booking, intent } = await paidBooking();
    const made = expectData(await refund(booking.id, { amount: '30.00', reason: 'Shorter trip' }), Refund, 201);
    expect(made).toMatchObject({ method: 'STRIPE', status: 'PENDING', amount: '30.00', reason: 'Shorter trip' });
    const [sent] = refundRequests();
    expect(sent?.params).toMatchObject({
      payment_intent: intent,
      amount: '3000',
      reason: 'requested_by_customer',
      metadata: { refundId: made.id, bookingId: booking.id, reason: 'Shorter trip' },
    });
    expect(sent?.headers['idempotency-key']).toBe(`outing-refund-${made.id}`);
    expect((await h.bookingOf(booking.id)).amountRefunded).toBe('0.00');
    expect((await h.events()).filter((e) => e.event === 'PAYMENT_REFUNDED')).toHaveLength(0);
    // What is PENDING is held back already.
    expectError(await refund(booking.id, { amount: '60.01' }), 409, 'REFUND_EXCEEDS_PAID');

    const stripeRefund = [...stripe.refunds.values()][0]!;
    const res = await h.callback('refund.updated', stripe.settleRefund(stripeRefund.id, 'succeeded'));
    expect(res.body).toMatchObject({ data: { outcome: 'applied' } });
    const listed = expectList(await h.t.request('GET', `/v1/bookings/${booking.id}/refunds`), Refund).data;
    expect(listed).toEqual([{ ...made, status: 'SUCCEEDED' }]);
    expect((await h.bookingOf(booking.id)).amountRefunded).toBe('30.00');
    const events = (await h.events()).filter((e) => e.event === 'PAYMENT_REFUNDED');
    expect(events.map((e) => e.data.refund)).toEqual([{ id: made.id, amount: '30.00', currency: 'EUR', method: 'STRIPE', status: 'SUCCEEDED', reason: 'Shorter trip' }]);
    expect(events[0]?.data.booking.amountRefunded).toBe('30.00');

    // Stripe's charge.refunded about the same refund afterwards changes nothing.
    const again = await h.callback('charge.refunded', stripe.chargeOf(stripe.refunds.get(stripeRefund.id)!));
    expect(again.body).toMatchObject({ data: { outcome: 'duplicate' } });
    expect((await h.events()).filter((e) => e.event === 'PAYMENT_REFUNDED')).toHaveLength(1);
  });

  it('applies charge.refunded, and a FAILED refund frees its amount again without PAYMENT_REFUNDED', async () => {
    const { booking } = await paidBooking();
    const one = expectData(await refund(booking.id, { amount: '50.00' }), Refund, 201);
    h.clock.advance(1000);
    const two = expectData(await refund(booking.id, { amount: '40.00' }), Refund, 201);
    expectError(await refund(booking.id, { amount: '0.01' }), 409, 'REFUND_EXCEEDS_PAID');
    const [first, second] = [...stripe.refunds.values()];
    stripe.settleRefund(first!.id, 'succeeded');
    expect((await h.callback('charge.refunded', stripe.chargeOf(first!))).body).toMatchObject({ data: { outcome: 'applied' } });
    expect((await h.callback('refund.updated', stripe.settleRefund(second!.id, 'failed', 'expired_or_canceled_card'))).body).toMatchObject({ data: { outcome: 'applied' } });

    const listed = expectList(await h.t.request('GET', `/v1/bookings/${booking.id}/refunds`), Refund).data;
    expect(listed.map((r) => [r.id, r.status])).toEqual([[one.id, 'SUCCEEDED'], [two.id, 'FAILED']]);
    expect((await h.bookingOf(booking.id)).amountRefunded).toBe('50.00');
    expect((await h.events()).filter((e) => e.event === 'PAYMENT_REFUNDED').map((e) => e.data.refund?.id)).toEqual([one.id]);
    expectData(await refund(booking.id, { amount: '40.00' }), Refund, 201);
  });

  it('is SUCCEEDED at once when Stripe answers succeeded, and FAILED when Stripe refuses it', async () => {
    const { booking } = await paidBooking();
    stripe.setRefundStatus('succeeded');
    expect(expectData(await refund(booking.id, { amount: '10.00' }), Refund, 201).status).toBe('SUCCEEDED');
    expect((await h.bookingOf(booking.id)).amountRefunded).toBe('10.00');
    // A refund Stripe cannot make (here its PaymentIntent has less left than Outing believes) ends FAILED.
    stripe.setRefundStatus('pending');
    const intent = [...stripe.refunds.values()][0]!.payment_intent as string;
    await fetch(`${stripe.url}/v1/refunds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stripe.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ payment_intent: intent, amount: '7500' }).toString(),
    });
    const refused = expectData(await refund(booking.id, { amount: '20.00' }), Refund, 201);
    expect(refused).toMatchObject({ status: 'FAILED', method: 'STRIPE' });
    expect((await h.bookingOf(booking.id)).amountRefunded).toBe('10.00');
  });

  it('takes a refund by hand beside Stripe, and caps a STRIPE one at the Stripe payment', async () => {
    const { booking } = await paidBooking();
    expectData(await h.t.request('POST', `/v1/bookings/${booking.id}/payments`, { body: { amount: '10.00', status: 'SUCCEEDED' } }), Payment, 201);
    expectError(await refund(booking.id, { amount: '95.00', method: 'STRIPE' }), 409, 'REFUND_EXCEEDS_PAID');
    expect(expectData(await refund(booking.id, { amount: '10.00', method: 'CASH' }), Refund, 201).status).toBe('SUCCEEDED');
    expect(expectData(await refund(booking.id, { amount: '90.00' }), Refund, 201)).toMatchObject({ method: 'STRIPE', status: 'PENDING' });
    expect(refundRequests()).toHaveLength(1);
  });

  it('keeps a refund PENDING while Stripe is down and sends it again with the same idempotency key', async () => {
    const { booking } = await paidBooking();
    stripe.setDown(true);
    const made = expectData(await refund(booking.id, { amount: '25.00' }), Refund, 201);
    expect(made.status).toBe('PENDING');
    stripe.setDown(false);
    const sweeper = await h.sweeper();
    expect(stripe.refunds.size).toBe(0); // too recent: its own request may still be sending it
    h.clock.advance(2 * MINUTE);
    await sweeper.runOnce();
    expect(stripe.refunds.size).toBe(1);
    const keys = refundRequests().map((r) => r.headers['idempotency-key']);
    expect(new Set(keys)).toEqual(new Set([`outing-refund-${made.id}`]));
    await sweeper.runOnce();
    expect(stripe.refunds.size).toBe(1);
    await h.callback('refund.updated', stripe.settleRefund([...stripe.refunds.keys()][0]!, 'succeeded'));
    expect((await h.bookingOf(booking.id)).amountRefunded).toBe('25.00');
  });
});
