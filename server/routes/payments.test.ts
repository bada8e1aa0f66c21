import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paymentsHarness, type PaymentsHarness } from '../payments/test-helpers/setup.js';
import { expectData, expectError, expectList, expectValidationError, insertBookingRow } from '../test-helpers/index.js';
import { Booking, Payment } from '../../shared/index.js';

describe('payments recorded by hand', () => {
  let h: PaymentsHarness;
  let booking: Booking;

  beforeEach(async () => {
    h = await paymentsHarness();
    booking = expectData(
      await h.t.request('POST', '/v1/bookings', {
        body: { experienceId: h.experienceId, startTime: h.startTime, participants: 2, customerName: 'Ana Lima', customerEmail: 'ana@example.com' },
      }),
      Booking,
      201,
    );
  });
  afterEach(() => h.close());

  const pay = (ref: string, body: unknown, headers?: Record<string, string>) =>
    h.t.request('POST', `/v1/bookings/${ref}/payments`, { body, headers });

  /** A booking awaiting online payment, written straight into the store (this server has no Stripe). */
  async function pendingBooking() {
    const slotStart = Date.parse(h.startTime);
    return await insertBookingRow(h.t.store, {
      orgId: h.t.orgId,
      experienceId: h.experienceId,
      slotStart,
      slotEnd: slotStart + 2 * 3_600_000,
      status: 'PENDING',
      participants: 2,
      unitPrice: 4500,
      source: 'WIDGET',
      holdExpiresAt: h.clock.now() + 30 * 60_000,
    });
  }

  it('records a succeeded payment and fires PAYMENT_SUCCEEDED with the payment', async () => {
    const payment = expectData(await pay(booking.id, { amount: '90.00', status: 'SUCCEEDED', reference: 'till-0042' }), Payment, 201);
    expect(payment).toEqual({
      id: expect.stringMatching(/^pay_[A-Za-z0-9]+$/),
      bookingId: booking.id,
      amount: '90.00',
      currency: 'EUR',
      status: 'SUCCEEDED',
      provider: 'manual',
      method: 'OTHER',
      reference: 'till-0042',
      failureReason: null,
      refundRequired: false,
      createdAt: new Date(h.clock.now()).toISOString(),
    });
    const events = (await h.events()).filter((e) => e.event !== 'BOOKING_CREATED');
    expect(events.map((e) => e.event)).toEqual(['PAYMENT_SUCCEEDED']);
    expect(events[0]?.data.payment).toEqual({ id: payment.id, amount: '90.00', currency: 'EUR', status: 'SUCCEEDED', provider: 'manual', method: 'OTHER', failureReason: null });
    expect(events[0]?.data.booking.id).toBe(booking.id);
    expect((await h.bookingOf(booking.id)).status).toBe('CONFIRMED');
  });

  it('confirms a PENDING booking with a succeeded payment: PAYMENT_SUCCEEDED, then BOOKING_UPDATED', async () => {
    const pending = await pendingBooking();
    const payment = expectData(await pay(pending.bookingNumber, { amount: '90.00', status: 'SUCCEEDED' }), Payment, 201);
    expect(payment.bookingId).toBe(pending.id);
    expect(await h.bookingOf(pending.id)).toMatchObject({ status: 'CONFIRMED', holdExpiresAt: null });
    const events = (await h.events()).filter((e) => e.data.booking.id === pending.id);
    expect(events.map((e) => e.event)).toEqual(['PAYMENT_SUCCEEDED', 'BOOKING_UPDATED']);
    // Paid in full: nothing is due any more.
    expect(events[1]?.data.changes).toEqual({ status: { from: 'PENDING', to: 'CONFIRMED' }, amountDue: { from: '90.00', to: '0.00' } });
    expect(events[1]?.data.payment?.id).toBe(payment.id);
  });

  it('records a failed payment without changing the booking', async () => {
    const pending = await pendingBooking();
    const payment = expectData(
      await pay(pending.id, { amount: '90.00', status: 'FAILED', failureReason: 'card declined at the desk' }),
      Payment,
      201,
    );
    expect(payment).toMatchObject({ status: 'FAILED', failureReason: 'card declined at the desk', refundRequired: false });
    expect((await h.bookingOf(pending.id)).status).toBe('PENDING');
    const events = (await h.events()).filter((e) => e.data.booking.id === pending.id);
    expect(events.map((e) => e.event)).toEqual(['PAYMENT_FAILED']);
    expect(events[0]?.data.payment).toMatchObject({ status: 'FAILED', failureReason: 'card declined at the desk' });
  });

  it('refuses a payment on a cancelled booking and stores nothing', async () => {
    expectData(await h.t.request('PATCH', `/v1/bookings/${booking.id}/cancel`, { body: {} }), Booking);
    const before = (await h.events()).length;
    expectError(await pay(booking.id, { amount: '90.00', status: 'SUCCEEDED' }), 409, 'INVALID_STATUS_TRANSITION');
    expect(await h.payments(booking.id)).toEqual([]);
    expect(await h.events()).toHaveLength(before);
  });

  it.each([
    ['an amount without two decimals', { amount: '90', status: 'SUCCEEDED' }, 'amount'],
    ['an amount with one decimal', { amount: '90.0', status: 'SUCCEEDED' }, 'amount'],
    ['an amount with three decimals', { amount: '90.000', status: 'SUCCEEDED' }, 'amount'],
    ['an amount as a number', { amount: 90, status: 'SUCCEEDED' }, 'amount'],
    ['a negative amount', { amount: '-1.00', status: 'SUCCEEDED' }, 'amount'],
    ['an amount in words', { amount: 'ninety', status: 'SUCCEEDED' }, 'amount'],
    ['a missing amount', { status: 'SUCCEEDED' }, 'amount'],
    ['an unknown status', { amount: '90.00', status: 'PAID' }, 'status'],
    ['a lower-case status', { amount: '90.00', status: 'succeeded' }, 'status'],
    ['a failure reason on a success', { amount: '90.00', status: 'SUCCEEDED', failureReason: 'none' }, 'failureReason'],
    ['an unknown field', { amount: '90.00', status: 'SUCCEEDED', provider: 'stripe' }, 'provider'],
  ])('refuses %s with VALIDATION_ERROR and stores nothing', async (_name, body, path) => {
    expectValidationError(await pay(booking.id, body), path);
    expect(await h.payments(booking.id)).toEqual([]);
  });

  it('replays a payment sent again with the same Idempotency-Key', async () => {
    const body = { amount: '45.00', status: 'SUCCEEDED' };
    const first = await pay(booking.id, body, { 'idempotency-key': 'desk-1' });
    const again = await pay(booking.id, body, { 'idempotency-key': 'desk-1' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(expectData(again, Payment, 201)).toEqual(expectData(first, Payment, 201));
    expect(await h.payments(booking.id)).toHaveLength(1);
    expectError(await pay(booking.id, { ...body, amount: '46.00' }, { 'idempotency-key': 'desk-1' }), 422, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('lists a booking’s payments oldest first, by id or booking number, a page at a time', async () => {
    for (const amount of ['10.00', '20.00', '30.00']) {
      expectData(await pay(booking.id, { amount, status: 'SUCCEEDED' }), Payment, 201);
      h.clock.advance(1_000);
    }
    const all = expectList(await h.t.request('GET', `/v1/bookings/${booking.bookingNumber}/payments`), Payment);
    expect(all.data.map((p) => p.amount)).toEqual(['10.00', '20.00', '30.00']);
    expect(all.pagination).toEqual({ total: 3, limit: 20, offset: 0, hasMore: false });
    const page = expectList(await h.t.request('GET', `/v1/bookings/${booking.id}/payments?limit=2&offset=1`), Payment);
    expect(page.data.map((p) => p.amount)).toEqual(['20.00', '30.00']);
    expectValidationError(await h.t.request('GET', `/v1/bookings/${booking.id}/payments?limit=0`), 'limit');
  });

  it('answers 404 for a booking that is not the caller’s, or an id of the wrong shape', async () => {
    const other = await h.t.addOrganization({ name: 'Other Tours', email: 'other@example.com' });
    const res = await h.t.request('POST', `/v1/bookings/${booking.id}/payments`, {
      key: other.secretKey,
      body: { amount: '90.00', status: 'SUCCEEDED' },
    });
    expectError(res, 404, 'NOT_FOUND');
    expectError(await h.t.request('GET', `/v1/bookings/${booking.id}/payments`, { key: other.secretKey }), 404, 'NOT_FOUND');
    expectError(await h.t.request('GET', '/v1/bookings/xyz/payments'), 404, 'NOT_FOUND');
    expectError(await pay('bk_doesNotExist', { amount: '90.00', status: 'SUCCEEDED' }), 404, 'NOT_FOUND');
  });

  it('needs bookings:write to record and bookings:read to list', async () => {
    const reader = await h.t.createKey({ scopes: ['bookings:read'] });
    const writer = await h.t.createKey({ scopes: ['bookings:write'] });
    const body = { amount: '90.00', status: 'SUCCEEDED' };
    expect(expectError(await h.t.request('POST', `/v1/bookings/${booking.id}/payments`, { key: reader.key, body }), 403, 'FORBIDDEN').message).toMatch(
      'bookings:write',
    );
    expectError(await h.t.request('GET', `/v1/bookings/${booking.id}/payments`, { key: writer.key }), 403, 'FORBIDDEN');
    expectData(await h.t.request('POST', `/v1/bookings/${booking.id}/payments`, { key: writer.key, body }), Payment, 201);
    expect(expectList(await h.t.request('GET', `/v1/bookings/${booking.id}/payments`, { key: reader.key }), Payment).data).toHaveLength(1);
  });

  it('answers under /api/v1 too, and is described in the OpenAPI document', async () => {
    expectData(await h.t.request('POST', `/api/v1/bookings/${booking.id}/payments`, { body: { amount: '1.00', status: 'FAILED' } }), Payment, 201);
    const doc = (await h.t.request('GET', '/v1/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/v1/bookings/{id}/payments'] ?? {}).sort()).toEqual(['get', 'post']);
  });
});
