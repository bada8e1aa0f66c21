import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeStripe } from '../payments/test-helpers/fake-stripe.js';
import { usePaymentsHarness, type PaymentsHarness } from '../payments/test-helpers/setup.js';
import { createLogger } from '../logger.js';
import { newId } from '../domain/ids.js';
import { expectData } from '../test-helpers/index.js';
import { sweepLapsedHolds, GIVE_UP_AFTER_MS } from './hold-expiry.js';
import { PublicBooking } from '../../shared/index.js';

const MINUTE = 60_000;

describe('lapsed payment holds', () => {
  const harness = usePaymentsHarness();
  let stripe: FakeStripe;
  let h: PaymentsHarness;
  beforeEach(() => ({ stripe, h } = harness()));

  async function hold(participants = 2) {
    const booking = expectData(await h.book(participants), PublicBooking, 201);
    return { booking, session: stripe.lastSession() };
  }

  it('leaves a hold alone until it lapses', async () => {
    const { booking, session } = await hold();
    h.clock.advance(29 * MINUTE);
    expect(await (await h.sweeper()).runOnce()).toBe(0);
    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('PENDING');
    expect(session.status).toBe('open');
  });

  it('expires the Checkout Session first, then records a FAILED "expired" payment and cancels the booking', async () => {
    const { booking, session } = await hold(3);
    expect(await h.remaining()).toBe(1);
    h.clock.advance(30 * MINUTE);

    expect(await (await h.sweeper()).runOnce()).toBe(1);

    const expire = stripe.requests.find((r) => r.path === `/v1/checkout/sessions/${session.id}/expire`);
    expect(expire?.method).toBe('POST');
    expect(session.status).toBe('expired');
    const after = await h.bookingOf(booking.bookingNumber);
    expect(after).toMatchObject({ status: 'CANCELLED', holdExpiresAt: null, cancellationReason: 'Online payment not completed in time' });
    expect(await h.remaining()).toBe(4);
    const payments = await h.payments(booking.bookingNumber);
    expect(payments).toEqual([
      expect.objectContaining({ status: 'FAILED', failureReason: 'expired', provider: 'stripe', method: 'STRIPE', amount: '135.00', currency: 'EUR', refundRequired: false }),
    ]);
    const events = (await h.events()).slice(1);
    expect(events.map((e) => e.event)).toEqual(['PAYMENT_FAILED', 'BOOKING_CANCELED']);
    expect(events[0]?.data.payment).toEqual({ id: payments[0]?.id, amount: '135.00', currency: 'EUR', status: 'FAILED', provider: 'stripe', method: 'STRIPE', failureReason: 'expired' });
    expect(events[1]?.data.booking.status).toBe('CANCELLED');

    // Stripe's own expiry notice arriving afterwards changes nothing.
    await h.callback('checkout.session.expired', session);
    expect(await h.payments(booking.bookingNumber)).toHaveLength(1);
    expect(await h.events()).toHaveLength(3);
  });

  it('confirms instead when Stripe says the session was paid just before the hold lapsed', async () => {
    const { booking, session } = await hold();
    stripe.pay(session.id);
    h.clock.advance(31 * MINUTE);

    expect(await (await h.sweeper()).runOnce()).toBe(1);
    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('CONFIRMED');
    expect(stripe.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/checkout/sessions',
      `POST /v1/checkout/sessions/${session.id}/expire`,
      `GET /v1/checkout/sessions/${session.id}`,
    ]);

    // The payment's own callback then finds it recorded already.
    await h.callback('checkout.session.completed', session);
    expect(await h.payments(booking.bookingNumber)).toMatchObject([{ status: 'SUCCEEDED', reference: session.payment_intent }]);
    expect((await h.events()).map((e) => e.event)).toEqual(['BOOKING_CREATED', 'PAYMENT_SUCCEEDED', 'BOOKING_UPDATED']);
  });

  it('keeps the places while the payment clears, then settles by the outcome', async () => {
    const { booking, session } = await hold();
    stripe.pay(session.id, 'unpaid');
    h.clock.advance(31 * MINUTE);
    await (await h.sweeper()).runOnce();
    const held = await h.bookingOf(booking.bookingNumber);
    expect(held.status).toBe('PENDING');
    expect(Date.parse(held.holdExpiresAt ?? '')).toBeGreaterThan(h.clock.now());

    session.payment_status = 'paid';
    await h.callback('checkout.session.async_payment_succeeded', session);
    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('CONFIRMED');
  });

  it('keeps the hold while Stripe cannot be reached, and releases it after a while', async () => {
    const { booking, session } = await hold();
    stripe.setDown(true);
    h.clock.advance(31 * MINUTE);
    const sweeper = await h.sweeper();
    expect(await sweeper.runOnce()).toBe(0);
    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('PENDING');

    h.clock.advance(GIVE_UP_AFTER_MS);
    expect(await sweeper.runOnce()).toBe(1);
    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('CANCELLED');

    // Should the guest still pay on the page they kept open, the payment is not lost.
    stripe.setDown(false);
    await h.callback('checkout.session.completed', stripe.pay(session.id));
    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('CONFIRMED');
  });

  it('releases lapsed holds even when the server no longer has Stripe keys', async () => {
    const { booking } = await hold();
    h.clock.advance(31 * MINUTE);
    const settled = await sweepLapsedHolds({ store: h.t.store, provider: undefined, logger: createLogger('silent'), now: h.clock.now });
    expect(settled).toBe(1);
    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('CANCELLED');
    expect(await h.payments(booking.bookingNumber)).toMatchObject([{ status: 'FAILED', failureReason: 'expired' }]);
  });

  it('settles a lapsed hold once when several processes sweep it at the same time', async () => {
    const { booking } = await hold();
    h.clock.advance(31 * MINUTE);
    // Three sweepers over one store stand for three processes over one database: all list the hold as
    // lapsed; the settling transaction checks it is still a PENDING lapsed hold, so only one applies.
    const sweep = () => sweepLapsedHolds({ store: h.t.store, provider: undefined, logger: createLogger('silent'), now: h.clock.now });
    const settled = await Promise.all([sweep(), sweep(), sweep()]);
    expect(settled.reduce((a, b) => a + b, 0)).toBe(1);
    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('CANCELLED');
    expect(await h.payments(booking.bookingNumber)).toHaveLength(1);
    expect((await h.events()).slice(1).map((e) => e.event)).toEqual(['PAYMENT_FAILED', 'BOOKING_CANCELED']);
  });

  it('offers a lapsed hold\'s places to the waitlist of its slot before anyone may book them', async () => {
    const { booking } = await hold(4);
    const start = Date.parse(h.startTime);
    const now = h.clock.now();
    const id = newId('waitlistEntry', now);
    await h.t.store.waitlist.insertEntry({
      id, orgId: h.t.orgId, experienceId: h.experienceId, slotStart: start, slotEnd: start + 60 * MINUTE, status: 'WAITING', places: 3,
      totalParticipants: 3, tickets: '[]', answers: '[]', guestName: 'Waiting guest', guestEmail: 'waiting@example.com', guestPhone: null,
      locale: 'en', tokenHash: null, offeredAt: null, offerExpiresAt: null, bookingId: null, createdAt: now, updatedAt: now,
    });
    h.clock.advance(31 * MINUTE);
    expect(await (await h.sweeper()).runOnce()).toBe(1);
    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('CANCELLED');
    expect(await h.t.store.waitlist.getEntry(h.t.orgId, id)).toMatchObject({ status: 'OFFERED', offeredAt: h.clock.now() });
    expect(await h.remaining()).toBe(1);
  });

  it('sweeps once on start, then stops cleanly', async () => {
    const { booking } = await hold();
    h.clock.advance(31 * MINUTE);
    const sweeper = await h.sweeper();
    // The first pass starts by itself, on the next turn of the event loop; runOnce() then queues
    // behind it and finds nothing left to do.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await sweeper.runOnce()).toBe(0);
    expect((await h.bookingOf(booking.bookingNumber)).status).toBe('CANCELLED');
    await sweeper.stop();
    expect(await sweeper.runOnce()).toBe(0);
  });
});
