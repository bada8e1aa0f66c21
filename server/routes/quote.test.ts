import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { everyDay, createTestApp, expectData, expectError, expectValidationError, manualClock, type TestApp } from '../test-helpers/index.js';
import { Booking, Experience, Quote } from '../../shared/index.js';

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
