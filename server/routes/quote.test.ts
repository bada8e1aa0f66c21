import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { everyDay, createTestApp, expectData, expectError, expectValidationError, manualClock, type TestApp, type TestResponse } from '../test-helpers/index.js';
import { Booking, CodeRefusedDetails, ErrorEnvelope, Experience, GiftVoucher, PromoCode, Quote } from '../../shared/index.js';

// Monday 2027-03-01, 08:00 UTC = 08:00 in Lisbon.
const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);
const S1 = '2027-03-02T10:00:00.000Z';

let t: TestApp;
let plain: Experience;
let ticketed: Experience;

async function newExperience(fields: Record<string, unknown>): Promise<Experience> {
  const body = { name: 'Alfama walk', description: 'Two hours', duration: 120, price: 2000, maxParticipants: 1000, maxPerBooking: 4, schedule: { weekly: everyDay(['10:00']) }, ...fields };
  return expectData(await t.request('POST', '/v1/experiences', { body }), Experience, 201);
}
const extraId = (e: Experience, name: string) => e.extras.find((x) => x.name === name)!.id;
const categoryId = (e: Experience, name: string) => e.priceCategories.find((c) => c.name === name)!.id;
const quote = (body: Record<string, unknown>, path = '/v1/quote') => t.request('POST', path, { body });

beforeEach(async () => {
  t = await createTestApp({ now: manualClock(NOW).now, org: { timezone: 'Europe/Lisbon', currency: 'EUR' } });
  plain = await newExperience({
    extras: [
      { name: 'Lunch', price: 1250, per: 'PERSON', maxQuantity: 10 },
      { name: 'Photos', price: 1500, maxQuantity: 1 },
    ],
    questions: [{ label: 'Shoe size', type: 'NUMBER', required: true }],
  });
  ticketed = await newExperience({
    name: 'Boat trip',
    priceCategories: [
      { name: 'Adult', price: 2500, type: 'ADULT' },
      { name: 'Child', price: 1200, type: 'CHILD' },
    ],
  });
});
afterEach(() => t.close());

describe('POST /v1/quote and /public/v1/quote', () => {
  it('prices participants and extras in the experience’s order, without answers and without a slot', async () => {
    const body = { experienceId: plain.id, participants: 2, extras: [{ extraId: extraId(plain, 'Photos'), quantity: 1 }, { extraId: extraId(plain, 'Lunch'), quantity: 2 }] };
    const expected: Quote = {
      currency: 'EUR',
      lines: [
        { kind: 'TICKETS', label: 'Alfama walk', quantity: 2, unitPrice: 2000, amount: '40.00' },
        { kind: 'EXTRA', label: 'Lunch', quantity: 2, unitPrice: 1250, amount: '25.00' },
        { kind: 'EXTRA', label: 'Photos', quantity: 1, unitPrice: 1500, amount: '15.00' },
      ],
      subtotal: '80.00',
      discount: '0.00',
      voucherAmount: '0.00',
      total: '80.00',
      amountDue: '80.00',
    };
    expect(expectData(await quote(body), Quote)).toEqual(expected);
    expect(expectData(await quote(body, '/public/v1/quote'), Quote)).toEqual(expected);
    // /api/v1 answers too; a startTime is taken (an instant) but never checked against a slot.
    expect(expectData(await quote({ ...body, startTime: '2031-01-01T03:17:00Z' }, '/api/v1/quote'), Quote)).toEqual(expected);
  });

  it('prices tickets one line per entry, in the order sent, labelled with the category’s name', async () => {
    const q = expectData(await quote({ experienceId: ticketed.id, tickets: [{ categoryId: categoryId(ticketed, 'Child'), quantity: 3 }, { categoryId: categoryId(ticketed, 'Adult'), quantity: 1 }] }, '/public/v1/quote'), Quote);
    expect(q.lines).toEqual([
      { kind: 'TICKETS', label: 'Child', quantity: 3, unitPrice: 1200, amount: '36.00' },
      { kind: 'TICKETS', label: 'Adult', quantity: 1, unitPrice: 2500, amount: '25.00' },
    ]);
    expect([q.subtotal, q.total, q.amountDue]).toEqual(['61.00', '61.00', '61.00']);
  });

  it('checks the parts as a booking does: 400s, 404, inactive experiences on /public/v1, other fields', async () => {
    expectValidationError(await quote({ experienceId: plain.id, participants: 2, customerName: 'Ana' }), 'customerName');
    expectValidationError(await quote({ experienceId: plain.id, participants: 2, answers: [] }), 'answers');
    expectValidationError(await quote({ experienceId: plain.id }), 'participants');
    expectValidationError(await quote({ experienceId: plain.id, participants: 5 }), 'participants');
    expectValidationError(await quote({ experienceId: plain.id, participants: 1, startTime: 'tomorrow' }), 'startTime');
    expectValidationError(await quote({ experienceId: plain.id, participants: 1, extras: [{ extraId: extraId(plain, 'Lunch'), quantity: 2 }] }), 'extras[0].quantity');
    expectValidationError(await quote({ experienceId: ticketed.id, participants: 1 }), 'tickets');
    expectValidationError(await quote({ experienceId: plain.id, participants: 1, promoCode: '' }), 'promoCode');
    expectValidationError(await quote({ experienceId: plain.id, participants: 1, voucherCode: 'x'.repeat(65) }, '/public/v1/quote'), 'voucherCode');
    expectError(await quote({ experienceId: 'exp_doesNotExist12', participants: 1 }), 404, 'NOT_FOUND');

    expectData(await t.request('PATCH', `/v1/experiences/${plain.id}`, { body: { active: false } }), Experience);
    expectData(await quote({ experienceId: plain.id, participants: 1 }), Quote);
    expectError(await quote({ experienceId: plain.id, participants: 1 }, '/public/v1/quote'), 404, 'NOT_FOUND');
  });

  it('needs bookings:read on /v1 and a publishable key on /public/v1', async () => {
    const body = { experienceId: plain.id, participants: 1 };
    const narrow = await t.createKey({ scopes: ['bookings:read'] });
    expectData(await t.request('POST', '/v1/quote', { key: narrow.key, body }), Quote);
    const other = await t.createKey({ scopes: ['experiences:read'] });
    expectError(await t.request('POST', '/v1/quote', { key: other.key, body }), 403, 'FORBIDDEN');
    expectError(await t.request('POST', '/public/v1/quote', { key: null, body }), 401, 'UNAUTHORIZED');
  });

  it('counts against PUBLIC_REQUESTS_PER_MINUTE', async () => {
    t.close();
    t = await createTestApp({ now: manualClock(NOW).now, env: { PUBLIC_REQUESTS_PER_MINUTE: '2' } });
    const exp = await newExperience({});
    const body = { experienceId: exp.id, participants: 1 };
    expectData(await quote(body, '/public/v1/quote'), Quote);
    expectData(await quote(body, '/public/v1/quote'), Quote);
    expectError(await quote(body, '/public/v1/quote'), 429, 'RATE_LIMITED');
  });

  it('stores nothing', async () => {
    const page = { limit: 1, offset: 0 };
    const before = [(await t.store.bookings.listBookings(t.orgId, {}, page)).total, (await t.store.events.listEvents(t.orgId, {}, page)).total];
    expectData(await quote({ experienceId: plain.id, participants: 4 }, '/public/v1/quote'), Quote);
    expect([(await t.store.bookings.listBookings(t.orgId, {}, page)).total, (await t.store.events.listEvents(t.orgId, {}, page)).total]).toEqual(before);
  });

  it('has the amounts of a booking of the same parts made right after it', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.integer({ min: 1, max: 2 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 1 }),
        async (useTickets, a, b, lunch, photos) => {
          const exp = useTickets ? ticketed : plain;
          const party = useTickets
            ? { tickets: [{ categoryId: categoryId(ticketed, 'Adult'), quantity: a }, ...(b ? [{ categoryId: categoryId(ticketed, 'Child'), quantity: b }] : [])] }
            : { participants: a };
          const extras = useTickets
            ? []
            : [...(photos ? [{ extraId: extraId(plain, 'Photos'), quantity: 1 }] : []), ...(Math.min(lunch, a) ? [{ extraId: extraId(plain, 'Lunch'), quantity: Math.min(lunch, a) }] : [])];
          const parts = { experienceId: exp.id, ...party, ...(extras.length ? { extras } : {}) };
          const q = expectData(await quote(parts, '/public/v1/quote'), Quote);
          const answers = useTickets ? {} : { answers: [{ questionId: plain.questions[0]!.id, value: 42 }] };
          const res = await t.request('POST', '/v1/bookings', {
            body: { ...parts, ...answers, startTime: S1, customerName: 'Ana Costa', customerEmail: `ana${n++}@example.com`, expectedTotal: q.total },
          });
          const booked = expectData(res, Booking, 201);
          expect({ subtotal: booked.subtotal, total: booked.total, amountDue: booked.amountDue }).toEqual({ subtotal: q.subtotal, total: q.total, amountDue: q.amountDue });
          expect(q.lines.reduce((sum, l) => sum + Math.round(Number(l.amount) * 100), 0)).toBe(Math.round(Number(q.amountDue) * 100));
          // Free the places for the next run.
          expectData(await t.request('PATCH', `/v1/bookings/${booked.id}/cancel`, { body: {} }), Booking);
        },
      ),
      { numRuns: 25 },
    );
  });
});

/** A 400 of a refused code (PROMO_CODE_INVALID or VOUCHER_INVALID) and its reason. */
function expectCodeRefused(res: TestResponse, code: 'PROMO_CODE_INVALID' | 'VOUCHER_INVALID', reason: string): void {
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 400, body: { success: false, error: { code, details: { reason } } } });
  expect(CodeRefusedDetails.strict().parse(ErrorEnvelope.parse(res.body).error.details)).toEqual({ reason });
}

describe('quotes with codes', () => {
  const promo = async (body: Record<string, unknown>) => expectData(await t.request('POST', '/v1/promo-codes', { body }), PromoCode, 201);
  const voucher = async (amount: string) => expectData(await t.request('POST', '/v1/gift-vouchers', { body: { amount } }), GiftVoucher, 201);

  it('shows the discount and the voucher as negative lines, labelled with the code and the mask; nothing is used or spent', async () => {
    await promo({ code: 'SUMMER10', discountType: 'PERCENT', discountValue: 10, maxUses: 1 });
    const gv = await voucher('30.00');
    const body = { experienceId: plain.id, participants: 2, extras: [{ extraId: extraId(plain, 'Photos'), quantity: 1 }], promoCode: ' summer10 ', voucherCode: gv.code.toLowerCase() };
    const mask = `GV-••••-••••-${gv.code.slice(-4)}`;
    const q = expectData(await quote(body, '/public/v1/quote'), Quote);
    expect(q).toEqual({
      currency: 'EUR',
      lines: [
        { kind: 'TICKETS', label: 'Alfama walk', quantity: 2, unitPrice: 2000, amount: '40.00' },
        { kind: 'EXTRA', label: 'Photos', quantity: 1, unitPrice: 1500, amount: '15.00' },
        { kind: 'DISCOUNT', label: 'SUMMER10', quantity: 1, unitPrice: -550, amount: '-5.50' },
        { kind: 'VOUCHER', label: mask, quantity: 1, unitPrice: -3000, amount: '-30.00' },
      ],
      subtotal: '55.00',
      discount: '5.50',
      voucherAmount: '30.00',
      total: '49.50',
      amountDue: '19.50',
    });
    expect(expectData(await quote(body), Quote)).toEqual(q);
    // A quote takes nothing: the single use is still there, the balance whole.
    const codes = (await t.request('GET', '/v1/promo-codes')).body as { data: { uses: number }[] };
    expect(codes.data[0]!.uses).toBe(0);
    expect(expectData(await t.request('GET', `/v1/gift-vouchers/${gv.id}`), GiftVoucher).balance).toBe('30.00');

    // The booking made next has the quote's amounts.
    const booked = expectData(
      await t.request('POST', '/v1/bookings', {
        body: { ...body, answers: [{ questionId: plain.questions[0]!.id, value: 40 }], startTime: S1, customerName: 'Ana Costa', customerEmail: 'ana@example.com', expectedTotal: q.total },
      }),
      Booking,
      201,
    );
    expect([booked.subtotal, booked.discount, booked.voucher, booked.total, booked.amountDue]).toEqual([
      q.subtotal, { code: 'SUMMER10', amount: q.discount }, { code: mask, amount: q.voucherAmount }, q.total, q.amountDue,
    ]);
  });

  it('has no voucher line when the voucher pays nothing, and pays at most the total', async () => {
    await promo({ code: 'FREE', discountType: 'PERCENT', discountValue: 100 });
    const gv = await voucher('500.00');
    const free = expectData(await quote({ experienceId: plain.id, participants: 1, promoCode: 'FREE', voucherCode: gv.code }), Quote);
    expect(free.lines.map((l) => [l.kind, l.amount])).toEqual([['TICKETS', '20.00'], ['DISCOUNT', '-20.00']]);
    expect([free.total, free.voucherAmount, free.amountDue]).toEqual(['0.00', '0.00', '0.00']);
    const all = expectData(await quote({ experienceId: plain.id, participants: 2, voucherCode: gv.code }), Quote);
    expect([all.discount, all.voucherAmount, all.amountDue]).toEqual(['0.00', '40.00', '0.00']);
  });

  it('refuses codes as a booking does, with their reasons', async () => {
    await promo({ code: 'BOATS', discountType: 'AMOUNT', discountValue: 500, experienceIds: [ticketed.id] });
    expectCodeRefused(await quote({ experienceId: plain.id, participants: 1, promoCode: 'NOPE' }), 'PROMO_CODE_INVALID', 'NOT_FOUND');
    expectCodeRefused(await quote({ experienceId: plain.id, participants: 1, promoCode: 'boats' }, '/public/v1/quote'), 'PROMO_CODE_INVALID', 'NOT_FOR_EXPERIENCE');
    expectCodeRefused(await quote({ experienceId: plain.id, participants: 1, voucherCode: 'GV-AAAA-BBBB-CCCC' }), 'VOUCHER_INVALID', 'NOT_FOUND');
  });

  it('counts refused codes toward the guessing limit on /public/v1 only', async () => {
    const body = { experienceId: plain.id, participants: 1, promoCode: 'GUESS' };
    for (let i = 0; i < 10; i++) expectCodeRefused(await quote(body, '/public/v1/quote'), 'PROMO_CODE_INVALID', 'NOT_FOUND');
    const limited = await quote(body, '/public/v1/quote');
    expectError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Without a code, and on /v1, nothing is limited.
    expectData(await quote({ experienceId: plain.id, participants: 1 }, '/public/v1/quote'), Quote);
    expectCodeRefused(await quote(body), 'PROMO_CODE_INVALID', 'NOT_FOUND');
  });
});
