import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeStripe } from '../payments/test-helpers/fake-stripe.js';
import { usePaymentsHarness, type PaymentsHarness } from '../payments/test-helpers/setup.js';
import { expectData, expectError } from '../test-helpers/index.js';
import { offeredEntry } from '../test-helpers/waitlist.js';
import { Experience, WaitlistAccepted, WaitlistOffer } from '../../shared/index.js';

describe('accepting a waitlist offer with online payment due', { timeout: 60_000 }, () => {
  const harness = usePaymentsHarness();
  let stripe: FakeStripe;
  let h: PaymentsHarness;
  beforeEach(() => ({ stripe, h } = harness()));

  const offer = async () => {
    const exp = expectData(await h.t.request('GET', `/v1/experiences/${h.experienceId}`), Experience);
    return await offeredEntry(h.t.store, exp, h.t.orgId, h.startTime, h.clock.now(), { places: 2, totalParticipants: 2 });
  };
  const asGuest = (token: string, method: string, path = '') =>
    h.t.request(method, `/public/v1/waitlist/offer${path}`, { key: null, headers: { 'x-waitlist-token': token } });

  it('holds the places in a PENDING booking with its checkout, which leads back to the offer’s link', async () => {
    const { entry, token } = await offer();
    expect(await h.remaining()).toBe(2);
    const accepted = expectData(await asGuest(token, 'POST', '/accept'), WaitlistAccepted, 201);
    expect(accepted.entry).toMatchObject({ id: entry.id, status: 'BOOKED' });
    expect(accepted.booking).toMatchObject({ status: 'PENDING', total: '90.00' });
    expect(accepted.booking.checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    expect(await h.remaining()).toBe(2);
    const session = stripe.lastSession();
    const back = new URL(session.success_url ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(`${h.t.config.publicUrl}/manage`);
    expect(back.hash).toBe(`#${token}`);
    expect(back.searchParams.get('outing_booking')).toBe(accepted.booking.bookingNumber);
    // Paid: CONFIRMED, and the offer's link shows it so.
    stripe.pay(session.id);
    expect((await h.callback('checkout.session.completed', stripe.sessions.get(session.id)!)).status).toBe(200);
    const after = expectData(await asGuest(token, 'GET'), WaitlistOffer);
    expect(after.booking).toMatchObject({ bookingNumber: accepted.booking.bookingNumber, status: 'CONFIRMED' });
  });

  it('a checkout that cannot be opened puts the offer back, its places still held for it', async () => {
    const { entry, token } = await offer();
    stripe.setDown(true);
    const error = expectError(await asGuest(token, 'POST', '/accept'), 500, 'INTERNAL_ERROR');
    expect(error.message).toMatch(/Online payment could not be started/);
    const seen = expectData(await asGuest(token, 'GET'), WaitlistOffer);
    expect(seen.entry).toMatchObject({ id: entry.id, status: 'OFFERED', bookingId: null });
    expect(seen.booking).toBeUndefined();
    expect(await h.remaining()).toBe(2);
    stripe.setDown(false);
    const accepted = expectData(await asGuest(token, 'POST', '/accept'), WaitlistAccepted, 201);
    expect(accepted.booking.status).toBe('PENDING');
    expect(await h.remaining()).toBe(2);
  });
});
