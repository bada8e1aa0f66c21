import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectData, expectError, expectList, harbourCruise, manualClock, type ManualClock, type TestApp, type TestResponse } from '../test-helpers/index.js';
import { startSmtpServer } from '../test-helpers/smtp.js';
import { guestMailJob } from '../jobs/guest-mail.js';
import { smtpTransport } from '../mail/smtp.js';
import { createLogger } from '../logger.js';
import { Booking, GiftVoucher, Payment, PublicBooking, Refund, WebhookEvent, type Experience } from '../../shared/index.js';

// The clock starts on Monday 5 January 2026, 12:00 in Lisbon; the cruise costs 45.00 a person.
const SATURDAY_10 = '2026-01-10T10:00:00.000Z';
const DAY = 86_400_000;

/** A refused code: 400 VOUCHER_INVALID with its reason, said in words. */
function expectVoucherRefused(res: TestResponse, reason: string): void {
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 400, body: { success: false, error: { code: 'VOUCHER_INVALID', details: { reason } } } });
  expect((res.body as { error: { message: string } }).error.message).toMatch(/gift voucher/);
}

describe('redeeming gift vouchers on bookings', { timeout: 60_000 }, () => {
  let t: TestApp;
  let clock: ManualClock;
  let exp: Experience;

  beforeEach(async () => {
    clock = manualClock();
    t = await createTestApp({ now: clock.now });
    exp = await harbourCruise(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const voucher = async (amount: string, more: Record<string, unknown> = {}) =>
    expectData(await t.request('POST', '/v1/gift-vouchers', { body: { amount, ...more } }), GiftVoucher, 201);
  const getVoucher = async (id: string) => expectData(await t.request('GET', `/v1/gift-vouchers/${id}`), GiftVoucher);
  const bookingBody = (fields: Record<string, unknown> = {}) => ({
    experienceId: exp.id, startTime: SATURDAY_10, participants: 2, customerName: 'Eve Adams', customerEmail: 'eve@example.com', ...fields,
  });
  const book = (fields: Record<string, unknown> = {}) => t.request('POST', '/v1/bookings', { body: bookingBody(fields) });
  const mask = (code: string) => `GV-••••-••••-${code.slice(-4)}`;
  const payments = async (id: string) => expectList(await t.request('GET', `/v1/bookings/${id}/payments`), Payment).data;

  it('pays up to the balance: the masked voucher, amountDue, a VOUCHER payment and PAYMENT_SUCCEEDED after BOOKING_CREATED', async () => {
    const v = await voucher('50.00');
    const b = expectData(await book({ voucherCode: v.code }), Booking, 201);
    expect(b).toMatchObject({ subtotal: '90.00', total: '90.00', discount: null, voucher: { code: mask(v.code), amount: '50.00' }, amountDue: '40.00' });
    expect(JSON.stringify(b)).not.toContain(v.code);
    const after = await getVoucher(v.id);
    expect(after).toMatchObject({ balance: '0.00', status: 'USED', redemptions: [{ bookingId: b.id, amount: '50.00', at: new Date(clock.now()).toISOString() }] });
    const [paid] = await payments(b.id);
    expect(paid).toMatchObject({ amount: '50.00', status: 'SUCCEEDED', provider: 'voucher', method: 'VOUCHER', reference: mask(v.code) });
    const events = expectList(await t.request('GET', '/v1/events?limit=100'), WebhookEvent).data.filter((e) => e.data.booking.id === b.id);
    expect(events.map((e) => e.event)).toEqual(['BOOKING_CREATED', 'PAYMENT_SUCCEEDED']);
    expect(JSON.stringify(events)).not.toContain(v.code);
    expect(JSON.stringify(expectList(await t.request('GET', '/v1/activity'), (await import('../../shared/index.js')).Activity).data)).not.toContain(v.code);
    expect(JSON.stringify(t.logs)).not.toContain(v.code);
    // The booking's own reads show the same.
    expect(expectData(await t.request('GET', `/v1/bookings/${b.id}`), Booking)).toMatchObject({ voucher: b.voucher, amountDue: '40.00' });
  });

  it('spends only the total when the balance is larger, reads the code in any case with spaces around, and none on a free booking', async () => {
    const v = await voucher('100.00');
    const b = expectData(await book({ voucherCode: `  ${v.code.toLowerCase()} ` }), Booking, 201);
    expect(b).toMatchObject({ voucher: { code: mask(v.code), amount: '90.00' }, amountDue: '0.00' });
    expect(await getVoucher(v.id)).toMatchObject({ balance: '10.00', status: 'ACTIVE' });
    const free = await harbourCruise(t, { name: 'Free walk', price: 0 });
    const nothing = expectData(await t.request('POST', '/v1/bookings', { body: bookingBody({ experienceId: free.id, voucherCode: v.code }) }), Booking, 201);
    expect(nothing).toMatchObject({ total: '0.00', voucher: null, amountDue: '0.00' });
    expect(await payments(nothing.id)).toEqual([]);
    expect((await getVoucher(v.id)).redemptions).toHaveLength(1);
  });

  it('refuses in order: NOT_FOUND, DISABLED, EXPIRED, USED, CURRENCY; nothing is booked', async () => {
    expectVoucherRefused(await book({ voucherCode: 'GV-AAAA-BBBB-CCCC' }), 'NOT_FOUND');
    // Another organization's voucher does not exist here.
    const other = await t.addOrganization({ name: 'Other Tours' });
    const theirs = expectData(await t.request('POST', '/v1/gift-vouchers', { key: other.secretKey, body: { amount: '10.00' } }), GiftVoucher, 201);
    expectVoucherRefused(await book({ voucherCode: theirs.code }), 'NOT_FOUND');
    const v = await voucher('10.00', { expiresAt: new Date(clock.now() + DAY).toISOString() });
    await t.request('PATCH', `/v1/gift-vouchers/${v.id}`, { body: { status: 'DISABLED' } });
    clock.advance(2 * DAY);
    expectVoucherRefused(await book({ voucherCode: v.code }), 'DISABLED');
    await t.request('PATCH', `/v1/gift-vouchers/${v.id}`, { body: { status: 'ACTIVE' } });
    expectVoucherRefused(await book({ voucherCode: v.code }), 'EXPIRED');
    await t.request('PATCH', `/v1/gift-vouchers/${v.id}`, { body: { expiresAt: null } });
    expectData(await book({ voucherCode: v.code, participants: 1 }), Booking, 201);
    expectVoucherRefused(await book({ voucherCode: v.code }), 'USED');
    const dollars = await voucher('10.00');
    await t.store.transaction(async () => {
      const org = await t.store.organizations.getOrganization(t.orgId);
      await t.store.organizations.updateOrganization({ ...org!, currency: 'USD' });
    });
    expectVoucherRefused(await book({ voucherCode: dollars.code }), 'CURRENCY');
    // A voucher too short or too long is a validation error, before any lookup.
    expectError(await book({ voucherCode: '' }), 400, 'VALIDATION_ERROR');
    expectError(await book({ voucherCode: 'x'.repeat(65) }), 400, 'VALIDATION_ERROR');
    expect(expectList(await t.request('GET', '/v1/bookings'), Booking).data).toHaveLength(1);
  });

  it('a cancellation returns the part: a negative redemption, the balance back, USED → ACTIVE; the booking keeps its voucher and payment', async () => {
    const v = await voucher('50.00');
    const b = expectData(await book({ voucherCode: v.code }), Booking, 201);
    clock.advance(60_000);
    const cancelled = expectData(await t.request('PATCH', `/v1/bookings/${b.id}/cancel`, { body: {} }), Booking);
    expect(cancelled).toMatchObject({ status: 'CANCELLED', voucher: { code: mask(v.code), amount: '50.00' }, amountDue: '0.00' });
    const back = await getVoucher(v.id);
    expect(back).toMatchObject({ balance: '50.00', status: 'ACTIVE' });
    expect(back.redemptions).toEqual([
      { bookingId: b.id, amount: '50.00', at: new Date(clock.now() - 60_000).toISOString() },
      { bookingId: b.id, amount: '-50.00', at: new Date(clock.now()).toISOString() },
    ]);
    expect(await payments(b.id)).toEqual([expect.objectContaining({ method: 'VOUCHER', amount: '50.00', status: 'SUCCEEDED' })]);
    // The balance spends again.
    expect(expectData(await book({ voucherCode: v.code }), Booking, 201).voucher).toEqual({ code: mask(v.code), amount: '50.00' });
  });

  it('never refunds the voucher part (decision 4): refundable is the other payments only', async () => {
    const v = await voucher('50.00');
    const b = expectData(await book({ voucherCode: v.code, payment: { amount: '40.00', method: 'CASH' } }), Booking, 201);
    expect(b.amountDue).toBe('0.00');
    expectError(await t.request('POST', `/v1/bookings/${b.id}/refunds`, { body: { amount: '40.01', method: 'CASH' } }), 409, 'REFUND_EXCEEDS_PAID');
    expectData(await t.request('POST', `/v1/bookings/${b.id}/refunds`, { body: { amount: '40.00', method: 'CASH' } }), Refund, 201);
    const only = expectData(await book({ voucherCode: (await voucher('200.00')).code }), Booking, 201);
    expectError(await t.request('POST', `/v1/bookings/${only.id}/refunds`, { body: { amount: '1.00', method: 'CASH' } }), 409, 'REFUND_EXCEEDS_PAID');
  });

  it('redeems on /public/v1 too, masked in the public booking', async () => {
    const v = await voucher('30.00');
    const res = await t.request('POST', '/public/v1/bookings', { body: bookingBody({ voucherCode: v.code }) });
    const b = expectData(res, PublicBooking, 201);
    expect(b).toMatchObject({ voucher: { code: mask(v.code), amount: '30.00' }, amountDue: '60.00' });
    expect(JSON.stringify(res.body)).not.toContain(v.code);
  });

  it('under concurrency never spends more than the balance: 10 bookings of 20.00 at once on a voucher of 50.00', async () => {
    const walk = await harbourCruise(t, { name: 'Short walk', price: 2000, maxParticipants: 50 });
    const v = await voucher('50.00');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.request('POST', '/v1/bookings', { body: bookingBody({ experienceId: walk.id, participants: 1, customerEmail: `g${i}@example.com`, voucherCode: v.code }) }),
      ),
    );
    const made = results.filter((r) => r.status === 201).map((r) => Booking.parse((r.body as { data: unknown }).data));
    for (const r of results.filter((x) => x.status !== 201)) expectVoucherRefused(r, 'USED');
    const spent = made.reduce((sum, b) => sum + Math.round(Number(b.voucher?.amount ?? '0') * 100), 0);
    const after = await getVoucher(v.id);
    const redeemed = after.redemptions.reduce((sum, r) => sum + Math.round(Number(r.amount) * 100), 0);
    expect(redeemed).toBe(spent);
    expect(spent).toBeLessThanOrEqual(5000);
    expect(Math.round(Number(after.balance) * 100)).toBe(5000 - spent);
    expect(Number(after.balance)).toBeGreaterThanOrEqual(0);
    // Every booking that was made with a part of it shows a matching VOUCHER payment.
    for (const b of made.filter((x) => x.voucher)) {
      expect((await payments(b.id)).filter((p) => p.method === 'VOUCHER').map((p) => p.amount)).toEqual([b.voucher!.amount]);
    }
    expect(made.length).toBeGreaterThanOrEqual(3);
  });

  it('the guest’s confirmation shows the voucher by its mask and the amount due, never the code', async () => {
    const smtp = await startSmtpServer();
    const job = guestMailJob({
      store: t.store, config: t.config, logger: createLogger('silent'), now: clock.now, random: () => 0.5,
      transport: smtpTransport({ url: smtp.url, from: 'Outing <book@test-tours.example>', greetingTimeoutMs: 500 }),
    });
    try {
      const v = await voucher('50.00');
      expectData(await book({ voucherCode: v.code }), Booking, 201);
      await job.runOnce();
      const { mail } = (await smtp.waitFor(1))[0]!;
      expect(mail.text).toContain(`Gift voucher: ${mask(v.code)} (-€50.00)`);
      expect(mail.text).toContain('Amount due: €40.00');
      expect(`${mail.text} ${String(mail.html)} ${mail.subject}`).not.toContain(v.code);
    } finally {
      await job.stop();
      await smtp.close();
    }
  });
});
