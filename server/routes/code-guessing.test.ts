import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectData, expectError, harbourCruise, manualClock, type ManualClock, type TestApp, type TestResponse } from '../test-helpers/index.js';
import { Booking, GiftVoucher, PublicBooking, type Experience } from '../../shared/index.js';

const SATURDAY_10 = '2026-01-10T10:00:00.000Z';

describe('the guessing limit on /public/v1 (10 refused codes in 10 minutes per address)', { timeout: 60_000 }, () => {
  let t: TestApp;
  let clock: ManualClock;
  let exp: Experience;

  beforeEach(async () => {
    clock = manualClock();
    // Generous public limits: only the guessing limit is under test (it holds whatever they say).
    t = await createTestApp({ now: clock.now, env: { TRUST_PROXY: 'true', PUBLIC_BOOKINGS_PER_MINUTE: '1000', PUBLIC_REQUESTS_PER_MINUTE: '1000' } });
    exp = await harbourCruise(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const body = (fields: Record<string, unknown> = {}) => ({
    experienceId: exp.id, startTime: SATURDAY_10, participants: 1, customerName: 'Eve Adams', customerEmail: 'eve@example.com', ...fields,
  });
  const publicBook = (ip: string, fields: Record<string, unknown> = {}) =>
    t.request('POST', '/public/v1/bookings', { body: body(fields), headers: { 'x-forwarded-for': ip } });
  const refused = (res: TestResponse, code: string) => expect({ status: res.status, code: (res.body as { error?: { code: string } }).error?.code }).toEqual({ status: 400, code });
  const limited = (res: TestResponse) => {
    expectError(res, 429, 'RATE_LIMITED');
    return Number(res.headers.get('retry-after'));
  };

  it('after 10 refusals, refuses the address’s codes unchecked with Retry-After until the oldest is 10 minutes old', async () => {
    const good = expectData(await t.request('POST', '/v1/gift-vouchers', { body: { amount: '500.00' } }), GiftVoucher, 201);
    for (let i = 0; i < 10; i++) {
      refused(await publicBook('203.0.113.7', i % 2 ? { promoCode: `NOPE${i}` } : { voucherCode: `GV-AAAA-AAAA-AAA${i}` }), i % 2 ? 'PROMO_CODE_INVALID' : 'VOUCHER_INVALID');
      // An accepted code in between never counts.
      if (i === 4) expectData(await publicBook('203.0.113.7', { voucherCode: good.code }), PublicBooking, 201);
      clock.advance(1000);
    }
    clock.advance(10_000);
    // The first failure was 20 s ago: 580 s to go. A good code is not even checked.
    expect(limited(await publicBook('203.0.113.7', { voucherCode: good.code }))).toBe(580);
    expect(limited(await publicBook('203.0.113.7', { promoCode: 'ANY' }))).toBe(580);
    // Without a code the address still books; another address is not limited; /v1 never is.
    expectData(await publicBook('203.0.113.7'), PublicBooking, 201);
    refused(await publicBook('198.51.100.1', { promoCode: 'NOPE' }), 'PROMO_CODE_INVALID');
    refused(await t.request('POST', '/v1/bookings', { body: body({ promoCode: 'NOPE' }), headers: { 'x-forwarded-for': '203.0.113.7' } }), 'PROMO_CODE_INVALID');
    expectData(await t.request('POST', '/v1/bookings', { body: body({ voucherCode: good.code }), headers: { 'x-forwarded-for': '203.0.113.7' } }), Booking, 201);
    // Once the oldest is 10 minutes old, one more try is allowed (and, refused, counts again).
    clock.advance(579_000);
    expect(limited(await publicBook('203.0.113.7', { promoCode: 'ANY' }))).toBe(1);
    clock.advance(1000);
    expectData(await publicBook('203.0.113.7', { voucherCode: good.code }), PublicBooking, 201);
    refused(await publicBook('203.0.113.7', { promoCode: 'NOPE' }), 'PROMO_CODE_INVALID');
    expect(limited(await publicBook('203.0.113.7', { promoCode: 'ANY' }))).toBe(1);
  });

  it('forgets failures older than the window as new ones come', async () => {
    for (let i = 0; i < 3; i++) refused(await publicBook('192.0.2.1', { promoCode: 'NOPE' }), 'PROMO_CODE_INVALID');
    clock.advance(10 * 60_000 + 1);
    refused(await publicBook('192.0.2.2', { promoCode: 'NOPE' }), 'PROMO_CODE_INVALID');
    expect(await t.store.codeFailures.codeFailuresSince('192.0.2.1', 0)).toEqual([]);
    expect(await t.store.codeFailures.codeFailuresSince('192.0.2.2', 0)).toEqual([clock.now()]);
  });
});
