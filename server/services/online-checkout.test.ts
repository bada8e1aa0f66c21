import { beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeStripe, type FakeStripe } from '../payments/test-helpers/fake-stripe.js';
import { HOST_PAGE, paymentsHarness, usePaymentsHarness, type PaymentsHarness } from '../payments/test-helpers/setup.js';
import { expectData, expectError, expectPriceChanged, insertBookingRow, manualClock } from '../test-helpers/index.js';
import { hostPageOf, lineItemsOf, onlinePaymentDue, returnUrl, type OnlinePayments } from './online-checkout.js';
import { createLogger } from '../logger.js';
import { storedBookingLines } from '../domain/booking-form.js';
import { paymentProviderFrom } from '../payments/configure.js';
import { Booking, Experience, Payment, PublicBooking } from '../../shared/index.js';

const MINUTE = 60_000;

describe('online payment with Stripe Checkout', () => {
  const harness = usePaymentsHarness();
  let stripe: FakeStripe;
  let h: PaymentsHarness;
  beforeEach(() => ({ stripe, h } = harness()));

  async function heldBooking(participants = 2) {
    const booking = expectData(await h.book(participants), PublicBooking, 201);
    return { booking, session: stripe.lastSession() };
  }

  it('holds a widget booking of a priced experience as PENDING and sends the guest to Stripe Checkout', async () => {
    const booking = expectData(await h.book(2), PublicBooking, 201);
    const session = stripe.lastSession();

    expect(booking.status).toBe('PENDING');
    expect(booking.total).toBe('90.00');
    expect(booking.holdExpiresAt).toBe(new Date(h.clock.now() + 30 * MINUTE).toISOString());
    expect(booking.checkoutUrl).toBe(session.url);
    expect(booking.checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);

    const create = stripe.requests.find((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
    expect(create?.headers['idempotency-key']).toBeTruthy();
    expect(create?.params).toMatchObject({
      mode: 'payment',
      client_reference_id: expect.stringMatching(/^bk_/),
      customer_email: 'ana@example.com',
      metadata: { bookingNumber: booking.bookingNumber },
      line_items: [{ quantity: '2', price_data: { currency: 'eur', unit_amount: '4500', product_data: { name: 'Sunset kayak' } } }],
    });
    expect(session.amount_total).toBe(9000);
    const full = await h.bookingOf(booking.bookingNumber);
    expect(session.client_reference_id).toBe(full.id);
    expect(session.metadata).toMatchObject({ bookingId: full.id });

    // Back to the host page, with the booking and how checkout ended.
    const success = new URL(session.success_url ?? '');
    const cancel = new URL(session.cancel_url ?? '');
    expect(success.origin + success.pathname).toBe('https://tours.example.com/book/sunset-kayak');
    expect(Object.fromEntries(success.searchParams)).toEqual({ lang: 'en', outing_booking: booking.bookingNumber, outing_status: 'success' });
    expect(cancel.searchParams.get('outing_status')).toBe('cancel');

    // The session ends with the hold, but never before Stripe's 30-minute minimum (plus a margin).
    const hold = Date.parse(booking.holdExpiresAt ?? '') / 1000;
    expect(session.expires_at).toBeGreaterThanOrEqual(hold);
    expect(session.expires_at).toBeLessThanOrEqual(hold + 120);

    const [created] = await h.events();
    expect(created).toMatchObject({ event: 'BOOKING_CREATED', data: { booking: { status: 'PENDING', holdExpiresAt: booking.holdExpiresAt } } });
  });

  it('charges a ticketed booking with one checkout line per category with a price', async () => {
    const cats = expectData(
      await h.t.request('PATCH', `/v1/experiences/${h.experienceId}`, {
        body: {
          priceCategories: [
            { name: 'Adult', price: 4500, type: 'ADULT' },
            { name: 'Child', price: 2000, type: 'CHILD' },
            { name: 'Infant', price: 0, type: 'INFANT', occupiesPlace: false },
          ],
        },
      }),
      Experience,
    ).priceCategories;
    const res = await h.t.request('POST', '/public/v1/bookings', {
      body: {
        experienceId: h.experienceId,
        startTime: h.startTime,
        tickets: cats.map((c, i) => ({ categoryId: c.id, quantity: i === 0 ? 2 : 1 })),
        customerName: 'Ana Lima',
        customerEmail: 'ana@example.com',
      },
      headers: { origin: 'https://tours.example.com', referer: 'https://tours.example.com/book/sunset-kayak' },
    });
    const booking = expectData(res, PublicBooking, 201);
    expect(booking.total).toBe('110.00');
    expect(booking.tickets.map((t) => [t.name, t.quantity])).toEqual([['Adult', 2], ['Child', 1], ['Infant', 1]]);
    const create = stripe.requests.find((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
    expect(create?.params).toMatchObject({
      line_items: [
        { quantity: '2', price_data: { currency: 'eur', unit_amount: '4500', product_data: { name: 'Sunset kayak · Adult' } } },
        { quantity: '1', price_data: { currency: 'eur', unit_amount: '2000', product_data: { name: 'Sunset kayak · Child' } } },
      ],
    });
    expect(stripe.lastSession().amount_total).toBe(11000);
    // The infant is free and takes no place: three of the four places are held.
    expect(await h.remaining()).toBe(1);
  });

  it('charges a booking’s extras as one checkout line each beside its tickets, free ones named in the description', async () => {
    const booking = await insertBookingRow(h.t.store, {
      orgId: h.t.orgId,
      experienceId: h.experienceId,
      slotStart: Date.parse(h.startTime),
      status: 'PENDING',
      participants: 3,
      unitPrice: 0,
      tickets: JSON.stringify([
        { categoryId: 'pc_adult', name: 'Adult', type: 'ADULT', quantity: 2, unitPrice: 4500, occupiesPlace: true },
        { categoryId: 'pc_infant', name: 'Infant', type: 'INFANT', quantity: 1, unitPrice: 0, occupiesPlace: false },
      ]),
      places: 2,
      totalCents: 2 * 4500 + 2 * 1200 + 2500,
      extras: JSON.stringify([
        { extraId: 'ex_lunch', name: 'Lunch', per: 'PERSON', quantity: 2, unitPrice: 1200 },
        { extraId: 'ex_map', name: 'Map', per: 'BOOKING', quantity: 1, unitPrice: 0 },
        { extraId: 'ex_photos', name: 'Photos', per: 'BOOKING', quantity: 1, unitPrice: 2500 },
      ]),
      answers: JSON.stringify([{ questionId: 'q_diet', label: 'Dietary needs', type: 'TEXT', value: 'No nuts' }]),
    });
    const view = (await h.t.store.bookings.getBooking(h.t.orgId, booking.id))!;
    expect(lineItemsOf(view)).toEqual([
      { name: 'Sunset kayak · Adult', unitAmount: 4500, quantity: 2 },
      { name: 'Lunch', unitAmount: 1200, quantity: 2 },
      { name: 'Photos', unitAmount: 2500, quantity: 1 },
    ]);
    expect(storedBookingLines(view).total).toBe(booking.totalCents);
    // What Stripe is asked for, through the real provider and its HTTP client.
    await paymentProviderFrom(h.t.config)!.createCheckout({
      orgId: h.t.orgId, bookingId: booking.id, bookingNumber: booking.bookingNumber, title: view.experienceName,
      description: 'Sunset kayak', lineItems: lineItemsOf(view), currency: view.currency, customerEmail: view.guestEmail,
      successUrl: 'https://tours.example.com/ok', cancelUrl: 'https://tours.example.com/no', expiresAt: h.clock.now() + 30 * MINUTE, now: h.clock.now(),
    });
    const create = stripe.requests.find((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
    expect(create?.params).toMatchObject({
      line_items: [
        { quantity: '2', price_data: { currency: 'eur', unit_amount: '4500', product_data: { name: 'Sunset kayak · Adult' } } },
        { quantity: '2', price_data: { currency: 'eur', unit_amount: '1200', product_data: { name: 'Lunch' } } },
        { quantity: '1', price_data: { currency: 'eur', unit_amount: '2500', product_data: { name: 'Photos' } } },
      ],
    });
    expect(stripe.lastSession().amount_total).toBe(booking.totalCents);
  });

  it('itemises the extras a guest chooses in the widget: a line each, free ones in the description, Stripe’s total the booking’s', async () => {
    const extras = expectData(
      await h.t.request('PATCH', `/v1/experiences/${h.experienceId}`, {
        body: {
          extras: [
            { name: 'Lunch', price: 1200, per: 'PERSON' },
            { name: 'Map', price: 0 },
            { name: 'Photos', price: 2500 },
          ],
        },
      }),
      Experience,
    ).extras;
    const res = await h.t.request('POST', '/public/v1/bookings', {
      body: {
        experienceId: h.experienceId,
        startTime: h.startTime,
        participants: 2,
        extras: extras.map((e) => ({ extraId: e.id, quantity: e.name === 'Lunch' ? 2 : 1 })),
        customerName: 'Ana Lima',
        customerEmail: 'ana@example.com',
      },
      headers: { origin: 'https://tours.example.com', referer: HOST_PAGE },
    });
    const booking = expectData(res, PublicBooking, 201);
    expect(booking).toMatchObject({ status: 'PENDING', total: '139.00' });
    const create = stripe.requests.find((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
    const description = `${h.startTime.slice(0, 16).replace('T', ' ')} UTC · 2 guests · 2 × Lunch, 1 × Map, 1 × Photos · ${booking.bookingNumber}`;
    expect(create?.params).toMatchObject({
      line_items: [
        { quantity: '2', price_data: { currency: 'eur', unit_amount: '4500', product_data: { name: 'Sunset kayak', description } } },
        { quantity: '2', price_data: { currency: 'eur', unit_amount: '1200', product_data: { name: 'Lunch', description } } },
        { quantity: '1', price_data: { currency: 'eur', unit_amount: '2500', product_data: { name: 'Photos', description } } },
      ],
    });
    expect((create?.params as { line_items: unknown[] }).line_items).toHaveLength(3);
    expect(stripe.lastSession().amount_total).toBe(13900);
  });

  it('takes a free experience’s booking to Checkout when the guest chooses a priced extra', async () => {
    const exp = expectData(
      await h.t.request('PATCH', `/v1/experiences/${h.experienceId}`, { body: { price: 0, extras: [{ name: 'Photos', price: 2500 }, { name: 'Map', price: 0 }] } }),
      Experience,
    );
    const [photos, map] = exp.extras;
    const body = { experienceId: h.experienceId, startTime: h.startTime, participants: 2, customerName: 'Ana Lima', customerEmail: 'ana@example.com' };
    const headers = { origin: 'https://tours.example.com', referer: HOST_PAGE };
    const free = expectData(await h.t.request('POST', '/public/v1/bookings', { body: { ...body, extras: [{ extraId: map!.id, quantity: 1 }] }, headers }), PublicBooking, 201);
    expect(free).toMatchObject({ status: 'CONFIRMED', total: '0.00', checkoutUrl: null });
    const paid = expectData(await h.t.request('POST', '/public/v1/bookings', { body: { ...body, extras: [{ extraId: photos!.id, quantity: 1 }] }, headers }), PublicBooking, 201);
    expect(paid).toMatchObject({ status: 'PENDING', total: '25.00' });
    expect(paid.checkoutUrl).toBe(stripe.lastSession().url);
    expect(stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions')[0]?.params).toMatchObject({
      line_items: [{ quantity: '1', price_data: { currency: 'eur', unit_amount: '2500', product_data: { name: 'Photos' } } }],
    });
    expect(stripe.lastSession().amount_total).toBe(2500);
  });

  it('counts held places against the slot', async () => {
    await heldBooking(3);
    expect(await h.remaining()).toBe(1);
    expectError(await h.book(2), 409, 'CAPACITY_EXCEEDED');
  });

  it('sends the guest back to the requesting origin, or to the demo page, when the page is not known', async () => {
    await h.book(1, { headers: { origin: 'https://shop.example.org' } });
    expect(new URL(stripe.lastSession().success_url ?? '').origin + new URL(stripe.lastSession().success_url ?? '').pathname).toBe('https://shop.example.org/');
    await h.book(1, { headers: {} });
    expect(stripe.lastSession().success_url).toMatch(/^http:\/\/localhost:3000\/demo\?outing_booking=BK-[0-9A-Z]{8}&outing_status=success$/);
  });

  it('confirms the booking when Stripe reports it paid, firing PAYMENT_SUCCEEDED before BOOKING_UPDATED', async () => {
    const { booking, session } = await heldBooking(2);
    const res = await h.callback('checkout.session.completed', stripe.pay(session.id));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: { outcome: 'applied' } });

    const after = await h.bookingOf(booking.bookingNumber);
    expect(after).toMatchObject({ status: 'CONFIRMED', holdExpiresAt: null });
    const [payment] = await h.payments(booking.bookingNumber);
    expect(payment).toMatchObject({
      bookingId: after.id,
      amount: '90.00',
      currency: 'EUR',
      status: 'SUCCEEDED',
      provider: 'stripe',
      method: 'STRIPE',
      reference: session.payment_intent,
      failureReason: null,
      refundRequired: false,
    });

    const events = (await h.events()).slice(1);
    expect(events.map((e) => e.event)).toEqual(['PAYMENT_SUCCEEDED', 'BOOKING_UPDATED']);
    expect(events[0]?.data.payment).toEqual({
      id: payment?.id,
      amount: '90.00',
      currency: 'EUR',
      status: 'SUCCEEDED',
      provider: 'stripe',
      method: 'STRIPE',
      failureReason: null,
    });
    expect(events[1]?.data.changes).toEqual({ status: { from: 'PENDING', to: 'CONFIRMED' }, amountDue: { from: '90.00', to: '0.00' } });
    expect(events[1]?.data.booking.status).toBe('CONFIRMED');
  });

  it('handles each Stripe event once, even when Stripe sends it twice', async () => {
    const { booking, session } = await heldBooking();
    const paid = stripe.pay(session.id);
    const first = await h.callback('checkout.session.completed', paid, { id: 'evt_1DuplicateTest' });
    const again = await h.callback('checkout.session.completed', paid, { id: 'evt_1DuplicateTest' });
    expect(first.body).toMatchObject({ data: { outcome: 'applied' } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ data: { eventId: 'evt_1DuplicateTest', outcome: 'duplicate' } });
    expect(await h.payments(booking.bookingNumber)).toHaveLength(1);
    expect((await h.events()).map((e) => e.event)).toEqual(['BOOKING_CREATED', 'PAYMENT_SUCCEEDED', 'BOOKING_UPDATED']);
  });

  it('cancels the booking and frees its places when the payment fails', async () => {
    const { booking, session } = await heldBooking(3);
    stripe.pay(session.id, 'unpaid');
    // A bank debit: checkout completes, the money is still clearing — the places stay held.
    const clearing = await h.callback('checkout.session.completed', stripe.sessions.get(session.id)!);
    expect(clearing.status).toBe(200);
    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('PENDING');
    expect(await h.remaining()).toBe(1);

    await h.callback('checkout.session.async_payment_failed', stripe.sessions.get(session.id)!);
    const after = await h.bookingOf(booking.bookingNumber);
    expect(after).toMatchObject({ status: 'CANCELLED', holdExpiresAt: null });
    expect(after.cancelledAt).not.toBeNull();
    expect(await h.remaining()).toBe(4);
    expect(await h.payments(booking.bookingNumber)).toMatchObject([
      { status: 'FAILED', provider: 'stripe', amount: '135.00', failureReason: 'payment_failed', refundRequired: false },
    ]);
    const events = (await h.events()).slice(1);
    expect(events.map((e) => e.event)).toEqual(['PAYMENT_FAILED', 'BOOKING_CANCELED']);
    expect(events[0]?.data.payment).toMatchObject({ status: 'FAILED', failureReason: 'payment_failed' });
  });

  it('cancels the booking when Stripe reports the Checkout Session expired', async () => {
    const { booking, session } = await heldBooking(2);
    session.status = 'expired';
    await h.callback('checkout.session.expired', session);
    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('CANCELLED');
    expect(await h.payments(booking.bookingNumber)).toMatchObject([{ status: 'FAILED', failureReason: 'expired', amount: '90.00' }]);
    expect((await h.events()).map((e) => e.event)).toEqual(['BOOKING_CREATED', 'PAYMENT_FAILED', 'BOOKING_CANCELED']);
    // A second expiry notice (another event id) changes nothing.
    await h.callback('checkout.session.expired', session);
    expect(await h.payments(booking.bookingNumber)).toHaveLength(1);
  });

  it('confirms a cancelled booking again when its payment arrives late and places remain', async () => {
    const { booking, session } = await heldBooking(2);
    await h.callback('checkout.session.expired', { ...session, status: 'expired' });
    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('CANCELLED');

    h.clock.advance(MINUTE);
    await h.callback('checkout.session.completed', stripe.pay(session.id));
    const after = await h.bookingOf(booking.bookingNumber);
    expect(after).toMatchObject({ status: 'CONFIRMED', cancelledAt: null, cancellationReason: null });
    expect(await h.remaining()).toBe(2);
    expect(await h.payments(booking.bookingNumber)).toMatchObject([
      { status: 'FAILED', failureReason: 'expired' },
      { status: 'SUCCEEDED', refundRequired: false },
    ]);
    const events = (await h.events()).slice(-2);
    expect(events.map((e) => e.event)).toEqual(['PAYMENT_SUCCEEDED', 'BOOKING_UPDATED']);
    expect(events[1]?.data.changes?.status).toEqual({ from: 'CANCELLED', to: 'CONFIRMED' });
  });

  it('keeps a late payment as refundRequired when the slot has filled meanwhile', async () => {
    const { booking, session } = await heldBooking(2);
    await h.callback('checkout.session.expired', { ...session, status: 'expired' });
    // The freed places are taken by someone else.
    expectData(
      await h.t.request('POST', '/v1/bookings', {
        body: { experienceId: h.experienceId, startTime: h.startTime, participants: 3, customerName: 'Rui', customerEmail: 'rui@example.com' },
      }),
      Booking,
      201,
    );

    h.clock.advance(MINUTE);
    await h.callback('checkout.session.completed', stripe.pay(session.id));
    const after = await h.bookingOf(booking.bookingNumber);
    expect(after.status).toBe('CANCELLED');
    expect(await h.remaining()).toBe(1);
    const payments = await h.payments(booking.bookingNumber);
    expect(payments[1]).toMatchObject({ status: 'SUCCEEDED', provider: 'stripe', amount: '90.00', refundRequired: true });
    const last = (await h.events()).at(-1);
    expect(last).toMatchObject({ event: 'PAYMENT_SUCCEEDED', data: { booking: { status: 'CANCELLED' }, payment: { status: 'SUCCEEDED' } } });
  });

  it.each([
    ['closed meanwhile', { closed: true }],
    ['given a capacity of its own below the places wanted', { capacity: 1 }],
  ])('keeps a late payment as refundRequired when the departure was %s', async (_why, change) => {
    const { booking, session } = await heldBooking(2);
    await h.callback('checkout.session.expired', { ...session, status: 'expired' });
    const slotId = (await h.bookingOf(booking.bookingNumber)).timeSlot.id;
    expect((await h.t.request('PATCH', `/v1/slots/${slotId}`, { body: change })).status).toBe(200);

    h.clock.advance(MINUTE);
    await h.callback('checkout.session.completed', stripe.pay(session.id));
    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('CANCELLED');
    expect((await h.payments(booking.bookingNumber))[1]).toMatchObject({ status: 'SUCCEEDED', refundRequired: true });
  });

  describe('refuses forged and replayed callbacks, changing nothing', () => {
    async function expectRefused(res: Awaited<ReturnType<PaymentsHarness['callback']>>, bookingNumber: string, message: RegExp) {
      const error = expectError(res, 400, 'VALIDATION_ERROR');
      expect(error.message).toMatch(message);
      expect(error.details?.[0]?.path).toBe('Stripe-Signature');
      expect(res.text).not.toMatch(/at .*\.(ts|js):\d+/);
      expect((await h.bookingOf(bookingNumber)).status).toBe('PENDING');
      expect(await h.payments(bookingNumber)).toEqual([]);
    }

    it('a signature made with another secret', async () => {
      const { booking, session } = await heldBooking();
      const res = await h.callback('checkout.session.completed', stripe.pay(session.id), { secret: 'whsec_not_the_real_one' });
      await expectRefused(res, booking.bookingNumber, /does not match/);
    });

    it('a body altered after signing', async () => {
      const { booking, session } = await heldBooking();
      const event = stripe.event('checkout.session.completed', stripe.pay(session.id));
      const res = await h.t.request('POST', '/payments/stripe/webhook', {
        key: null,
        body: event.payload.replace('"amount_total":9000', '"amount_total":1'),
        headers: { 'stripe-signature': stripe.sign(event.payload, { timestamp: Math.floor(h.clock.now() / 1000) }), 'content-type': 'application/json' },
      });
      await expectRefused(res as never, booking.bookingNumber, /does not match/);
    });

    it('a signature older than five minutes (a replay)', async () => {
      const { booking, session } = await heldBooking();
      const res = await h.callback('checkout.session.completed', stripe.pay(session.id), { timestamp: Math.floor(h.clock.now() / 1000) - 600 });
      await expectRefused(res, booking.bookingNumber, /too old/);
    });

    it('no signature at all', async () => {
      const { booking, session } = await heldBooking();
      const event = stripe.event('checkout.session.completed', stripe.pay(session.id));
      const res = await h.t.request('POST', '/payments/stripe/webhook', { key: null, body: event.payload, headers: { 'content-type': 'application/json' } });
      await expectRefused(res as never, booking.bookingNumber, /Missing the Stripe-Signature/);
    });
  });

  it('answers 200 to event types it does not act on', async () => {
    const { booking, session } = await heldBooking();
    const res = await h.callback('customer.created', session);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: { outcome: 'ignored' } });
    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('PENDING');
  });

  it('answers a clear error and holds nothing when Stripe cannot open the checkout', async () => {
    stripe.setDown(true);
    const res = await h.book(2);
    const error = expectError(res, 500, 'INTERNAL_ERROR');
    expect(error.message).toMatch(/Online payment could not be started/);
    expect(res.text).not.toMatch(/Stripe|at .*:\d+/);
    expect(await h.remaining()).toBe(4);
    const events = await h.events();
    expect(events.map((e) => e.event)).toEqual(['BOOKING_CREATED', 'BOOKING_CANCELED']);
    expect(events[1]?.data.booking).toMatchObject({ status: 'CANCELLED', cancellationReason: 'Online payment could not be started' });

    stripe.setDown(false);
    expect(expectData(await h.book(2), PublicBooking, 201).status).toBe('PENDING');
  });

  it('opens no checkout and holds nothing when the total the guest saw is no longer the price', async () => {
    const body = { experienceId: h.experienceId, startTime: h.startTime, participants: 2, customerName: 'Ana Lima', customerEmail: 'ana@example.com' };
    const sessions = () => stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions').length;
    const res = await h.t.request('POST', '/public/v1/bookings', { body: { ...body, expectedTotal: '80.00' }, headers: { origin: 'https://tours.example.com', referer: HOST_PAGE } });
    expect(expectPriceChanged(res)).toBe('90.00');
    expect(sessions()).toBe(0);
    expect(await h.remaining()).toBe(4);
    expect(await h.events()).toEqual([]);
    const held = expectData(await h.t.request('POST', '/public/v1/bookings', { body: { ...body, expectedTotal: '90.00' }, headers: { referer: HOST_PAGE } }), PublicBooking, 201);
    expect(held).toMatchObject({ status: 'PENDING', total: '90.00' });
    expect(sessions()).toBe(1);
  });

  it('replays a booking sent again with the same Idempotency-Key instead of opening a second checkout', async () => {
    const headers = { origin: 'https://tours.example.com', referer: HOST_PAGE, 'idempotency-key': 'widget-try-1' };
    const first = expectData(await h.book(1, { headers }), PublicBooking, 201);
    const again = await h.book(1, { headers });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(expectData(again, PublicBooking, 201)).toEqual(first);
    expect(stripe.sessions.size).toBe(1);
  });

  it('confirms a held booking paid by hand and closes its checkout at Stripe', async () => {
    const { booking, session } = await heldBooking();
    const res = await h.t.request('POST', `/v1/bookings/${booking.bookingNumber}/payments`, { body: { amount: '90.00', status: 'SUCCEEDED' } });
    expect(expectData(res, Payment, 201).provider).toBe('manual');
    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('CONFIRMED');
    await vi.waitFor(() => expect(session.status).toBe('expired'), { timeout: 10_000 });
    // Stripe's expiry notice for that session then leaves the confirmed booking alone.
    await h.callback('checkout.session.expired', session);
    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('CONFIRMED');
    expect(await h.payments(booking.bookingNumber)).toHaveLength(1);
  });

  it('confirms bookings made on /v1 at once, without a checkout', async () => {
    const res = await h.t.request('POST', '/v1/bookings', {
      body: { experienceId: h.experienceId, startTime: h.startTime, participants: 1, customerName: 'Rui', customerEmail: 'rui@example.com' },
    });
    expect(expectData(res, Booking, 201)).toMatchObject({ status: 'CONFIRMED', holdExpiresAt: null });
    expect(stripe.sessions.size).toBe(0);
  });
});

describe('without online payment', () => {
  it('confirms widget bookings at once when the server has no Stripe keys', async () => {
    const h = await paymentsHarness();
    try {
      const booking = expectData(await h.book(2), PublicBooking, 201);
      expect(booking).toMatchObject({ status: 'CONFIRMED', checkoutUrl: null, holdExpiresAt: null });
      const res = await h.t.request('POST', '/payments/stripe/webhook', { key: null, body: '{}', headers: { 'stripe-signature': 't=1,v1=x' } });
      expectError(res, 404, 'NOT_FOUND');
    } finally {
      await h.close();
    }
  });

  it('confirms at once when the organization has online payments off, or the experience is free', async () => {
    const stripe = await startFakeStripe();
    const off = await paymentsHarness({ stripe, onlinePayments: false, clock: manualClock(Date.now()) });
    const free = await paymentsHarness({ stripe, price: 0, clock: manualClock(Date.now()) });
    try {
      expect(expectData(await off.book(1), PublicBooking, 201)).toMatchObject({ status: 'CONFIRMED', checkoutUrl: null });
      expect(expectData(await free.book(1), PublicBooking, 201)).toMatchObject({ status: 'CONFIRMED', checkoutUrl: null });
      expect(stripe.sessions.size).toBe(0);
    } finally {
      await off.close();
      await free.close();
      await stripe.close();
    }
  });
});

describe('when online payment is due', () => {
  const online = { provider: {} as OnlinePayments['provider'], holdMinutes: 30, fallbackPage: 'http://localhost:3000/demo', logger: createLogger('silent') };
  const on = { onlinePayments: 1 };
  const extras = JSON.stringify([
    { id: 'ex_lunch', name: 'Lunch', description: null, price: 1200, per: 'PERSON', maxQuantity: 10, active: true },
    { id: 'ex_map', name: 'Map', description: null, price: 0, per: 'BOOKING', maxQuantity: 10, active: true },
    { id: 'ex_old', name: 'Old', description: null, price: 900, per: 'BOOKING', maxQuantity: 10, active: false },
  ]);

  it('is due for a free experience when the guest chooses a priced extra, and only then', () => {
    expect(onlinePaymentDue(on, { price: 0, extras }, online, [{ extraId: 'ex_lunch', quantity: 2 }])).toBe(true);
    expect(onlinePaymentDue(on, { price: 0, extras }, online, [{ extraId: 'ex_map', quantity: 1 }])).toBe(false);
    expect(onlinePaymentDue(on, { price: 0, extras }, online, [{ extraId: 'ex_old', quantity: 1 }])).toBe(false);
    expect(onlinePaymentDue(on, { price: 0, extras }, online)).toBe(false);
    expect(onlinePaymentDue(on, { price: 4500, extras }, online)).toBe(true);
    expect(onlinePaymentDue({ onlinePayments: 0 }, { price: 0, extras }, online, [{ extraId: 'ex_lunch', quantity: 2 }])).toBe(false);
    expect(onlinePaymentDue(on, { price: 0, extras }, undefined, [{ extraId: 'ex_lunch', quantity: 2 }])).toBe(false);
  });
});

describe('the page a guest returns to', () => {
  const fallback = 'http://localhost:3000/demo';

  it('is the page that sent the booking, without its fragment or old return parameters', () => {
    const page = hostPageOf('https://tours.example.com', 'https://tours.example.com/book?x=1&outing_status=cancel#widget', fallback);
    expect(page).toBe('https://tours.example.com/book?x=1');
    expect(returnUrl(page, 'BK-7M3Q9X2A', 'success')).toBe('https://tours.example.com/book?x=1&outing_booking=BK-7M3Q9X2A&outing_status=success');
  });

  it('falls back to the origin when the Referer names another site or is not a web page', () => {
    expect(hostPageOf('https://tours.example.com', 'https://elsewhere.example.net/page', fallback)).toBe('https://tours.example.com/');
    expect(hostPageOf('https://tours.example.com', 'javascript:alert(1)', fallback)).toBe('https://tours.example.com/');
  });

  it('falls back to the demo page when the request tells nothing usable', () => {
    expect(hostPageOf(undefined, undefined, fallback)).toBe(fallback);
    expect(hostPageOf('null', 'not a url', fallback)).toBe(fallback);
    expect(hostPageOf(undefined, `https://tours.example.com/${'a'.repeat(3000)}`, fallback)).toBe(fallback);
  });
});
