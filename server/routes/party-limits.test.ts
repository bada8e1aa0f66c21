import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  everyDay, createTestApp, expectData, expectValidationError, insertBookingRow, manualClock, type TestApp,
} from '../test-helpers/index.js';
import { Booking, Experience, PublicBooking } from '../../shared/index.js';

// Monday 2027-03-01, 08:00 in Lisbon; the tour runs every day at 10:00 and 15:00.
const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);
const S1 = '2027-03-02T10:00:00.000Z';
const S2 = '2027-03-02T15:00:00.000Z';

const ADULT = { name: 'Adult', price: 2500, type: 'ADULT' };
const INFANT = { name: 'Infant', price: 0, type: 'INFANT', occupiesPlace: false };

let t: TestApp;
let exp: Experience;

async function newExperience(fields: Record<string, unknown> = {}): Promise<Experience> {
  const body = {
    name: 'Alfama walk',
    description: 'Two hours',
    duration: 120,
    price: 2000,
    maxParticipants: 20,
    schedule: { weekly: everyDay(['10:00', '15:00']) },
    priceCategories: [ADULT, INFANT],
    ...fields,
  };
  return expectData(await t.request('POST', '/v1/experiences', { body }), Experience, 201);
}

const category = (name: string, e: Experience = exp) => e.priceCategories.find((c) => c.name === name)!.id;
const tickets = (counts: Record<string, number>, e: Experience = exp) =>
  Object.entries(counts).map(([name, quantity]) => ({ categoryId: category(name, e), quantity }));
const guest = { customerName: 'Ana Costa', customerEmail: 'ana@example.com' };
const post = (body: Record<string, unknown>, path = '/v1/bookings') =>
  t.request('POST', path, { body: { experienceId: exp.id, startTime: S1, ...guest, ...body } });
const patch = (id: string, body: unknown) => t.request('PATCH', `/v1/bookings/${id}`, { body });

async function bookings() {
  return (await t.store.bookings.listBookings(t.orgId, {}, { limit: 1, offset: 0 })).total;
}

beforeEach(async () => {
  t = await createTestApp({ now: manualClock(NOW).now, org: { timezone: 'Europe/Lisbon', currency: 'EUR' } });
  exp = await newExperience();
});
afterEach(() => t.close());

describe("a booking's participants, free tickets included, are at most the experience's maxParticipants", () => {
  it('refuses 1 adult and 10,000 infants on a 20-place tour, on both APIs, and writes nothing', async () => {
    const before = await bookings();
    const refused = expectValidationError(await post({ tickets: tickets({ Adult: 1, Infant: 10_000 }) }), 'tickets');
    expect(refused[0]?.message).toMatch(/At most 20 tickets per booking/);
    expectValidationError(await post({ tickets: tickets({ Adult: 1, Infant: 20 }) }, '/public/v1/bookings'), 'tickets');
    expect(await bookings()).toBe(before);
  });

  it('takes a party of exactly maxParticipants, places and free tickets together', async () => {
    const booked = expectData(await post({ tickets: tickets({ Adult: 1, Infant: 19 }) }), Booking, 201);
    expect(booked.totalParticipants).toBe(20);
    expectData(await post({ tickets: tickets({ Adult: 1, Infant: 19 }), startTime: S2 }, '/public/v1/bookings'), PublicBooking, 201);
  });

  it('refuses a PATCH that grows the party beyond it, before any capacity check', async () => {
    const booked = expectData(await post({ tickets: tickets({ Adult: 2, Infant: 2 }) }), Booking, 201);
    expectValidationError(await patch(booked.id, { tickets: tickets({ Adult: 2, Infant: 10_000 }) }), 'tickets');
    expectValidationError(await patch(booked.id, { tickets: tickets({ Adult: 2, Infant: 19 }) }), 'tickets');
    // Moving and growing at once: the party's limit is told, not the slot's.
    expectValidationError(await patch(booked.id, { startTime: S2, tickets: tickets({ Adult: 2, Infant: 19 }) }), 'tickets');
    expect(expectData(await t.request('GET', `/v1/bookings/${booked.id}`), Booking).totalParticipants).toBe(4);
    expect(expectData(await patch(booked.id, { tickets: tickets({ Adult: 2, Infant: 18 }) }), Booking).totalParticipants).toBe(20);
  });

  it('holds against the experience’s maxParticipants, not the places left in the slot', async () => {
    await post({ tickets: tickets({ Adult: 15 }), customerEmail: 'group@example.com' });
    // Five places left, but a party of 1 adult and 19 infants takes one place and 20 participants.
    expectData(await post({ tickets: tickets({ Adult: 1, Infant: 19 }) }), Booking, 201);
  });

  it('never stops a decrease, nor a move, of a booking made larger before the rule', async () => {
    const legacy = await insertBookingRow(t.store, {
      orgId: t.orgId,
      experienceId: exp.id,
      slotStart: Date.parse(S1),
      participants: 5_001,
      places: 1,
      unitPrice: 0,
      totalCents: 2500,
      tickets: JSON.stringify([
        { categoryId: category('Adult'), name: 'Adult', type: 'ADULT', quantity: 1, unitPrice: 2500, occupiesPlace: true },
        { categoryId: category('Infant'), name: 'Infant', type: 'INFANT', quantity: 5_000, unitPrice: 0, occupiesPlace: false },
      ]),
    });
    // The helper counts participants as places; this booking holds one.
    await t.store.bookings.addBookedPlaces(exp.id, Date.parse(S1), 1 - 5_001);
    const moved = expectData(await patch(legacy.id, { startTime: S2 }), Booking);
    expect(moved.totalParticipants).toBe(5_001);
    expect(expectData(await patch(legacy.id, { tickets: tickets({ Adult: 1, Infant: 4_000 }) }), Booking).totalParticipants).toBe(4_001);
    expectValidationError(await patch(legacy.id, { tickets: tickets({ Adult: 1, Infant: 4_001 }) }), 'tickets');
  });

  it('applies to participants without categories too, on create and PATCH', async () => {
    const plain = await newExperience({ name: 'Plain', priceCategories: undefined, maxParticipants: 8 });
    const body = { experienceId: plain.id, startTime: S1, ...guest };
    expectValidationError(await t.request('POST', '/v1/bookings', { body: { ...body, participants: 9 } }), 'participants');
    const booked = expectData(await t.request('POST', '/v1/bookings', { body: { ...body, participants: 8 } }), Booking, 201);
    expectValidationError(await patch(booked.id, { participants: 9 }), 'participants');
  });
});

describe('a booking total is at most 999999.99, the largest one charge can be', () => {
  it('refuses a total above it on create, naming tickets or participants, and takes one exactly at it', async () => {
    const dear = await newExperience({
      name: 'Private yacht',
      price: 99_999_999,
      priceCategories: [{ name: 'Whole boat', price: 33_333_333, type: 'OTHER' }],
    });
    const cat = dear.priceCategories[0]!.id;
    const base = { experienceId: dear.id, startTime: S1, ...guest };
    const over = expectValidationError(await t.request('POST', '/v1/bookings', { body: { ...base, tickets: [{ categoryId: cat, quantity: 4 }] } }), 'tickets');
    expect(over[0]?.message).toBe('A booking may total at most 999999.99 EUR; this one would be 1333333.32 EUR');
    expectValidationError(await t.request('POST', '/public/v1/bookings', { body: { ...base, tickets: [{ categoryId: cat, quantity: 4 }] } }), 'tickets');
    const three = expectData(await t.request('POST', '/v1/bookings', { body: { ...base, tickets: [{ categoryId: cat, quantity: 3 }] } }), Booking, 201);
    expect(three.total).toBe('999999.99');
    // Growing it past the limit is refused too.
    expectValidationError(await patch(three.id, { tickets: [{ categoryId: cat, quantity: 4 }] }), 'tickets');

    const plain = await newExperience({ name: 'Private jet', price: 99_999_999, priceCategories: undefined });
    const one = expectData(await t.request('POST', '/v1/bookings', { body: { ...base, experienceId: plain.id, participants: 1 } }), Booking, 201);
    expect(one.total).toBe('999999.99');
    expectValidationError(await t.request('POST', '/v1/bookings', { body: { ...base, experienceId: plain.id, participants: 2, startTime: S2 } }), 'participants');
    expectValidationError(await patch(one.id, { participants: 2 }), 'participants');
  });

  it('refuses a price above it, on the experience and on a category', async () => {
    expectValidationError(await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { price: 100_000_000 } }), 'price');
    expectValidationError(
      await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { priceCategories: [{ ...ADULT, price: 100_000_000 }] } }),
      'priceCategories[0].price',
    );
  });
});
