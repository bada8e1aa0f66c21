import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM } from '../domain/actor.js';
import fc from 'fast-check';
import { createTestApp, expectData, manualClock, type TestApp } from '../test-helpers/index.js';
import { Refusal } from '../domain/refusal.js';
import { STATUS_OF } from '../http/errors.js';
import { availabilityOf } from './availability.js';
import { cancelBooking, createBooking, updateBooking } from './bookings.js';
import { Experience, type BookingPatch } from '../../shared/index.js';

const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);
const DAY = 86_400_000;
// Four slots: 10:00 and 15:00 on 2 and 3 March 2027 (Lisbon is on UTC+0 then).
const SLOTS = [Date.UTC(2027, 2, 2, 10), Date.UTC(2027, 2, 2, 15), Date.UTC(2027, 2, 3, 10), Date.UTC(2027, 2, 3, 15)];
const CAPACITY = 7;
const EMAILS = ['ana@example.com', 'ANA@example.com', 'rui@example.com', 'mia@example.com'];

type Op =
  | { kind: 'create'; slot: number; participants: number; email: number; pending: boolean }
  | { kind: 'cancel'; booking: number }
  | { kind: 'patch'; booking: number; slot?: number; participants?: number; status?: 'CONFIRMED' | 'CANCELLED' | 'PENDING'; email?: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    slot: fc.nat({ max: SLOTS.length - 1 }),
    participants: fc.integer({ min: 1, max: 5 }),
    email: fc.nat({ max: EMAILS.length - 1 }),
    pending: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('cancel' as const), booking: fc.nat({ max: 30 }) }),
  fc.record(
    {
      kind: fc.constant('patch' as const),
      booking: fc.nat({ max: 30 }),
      slot: fc.nat({ max: SLOTS.length - 1 }),
      participants: fc.integer({ min: 1, max: 6 }),
      status: fc.constantFrom('CONFIRMED' as const, 'CANCELLED' as const, 'PENDING' as const),
      email: fc.nat({ max: EMAILS.length - 1 }),
    },
    { requiredKeys: ['kind', 'booking'] },
  ),
);

describe('booking services keep places and customers consistent', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: manualClock(NOW).now, org: { timezone: 'Europe/Lisbon', currency: 'EUR' } });
  });
  afterAll(() => t.close());

  const newExperience = async () =>
    expectData(
      await t.request('POST', '/v1/experiences', {
        body: {
          name: 'Kayak',
          description: '',
          duration: 60,
          price: 1250,
          maxParticipants: CAPACITY,
          maxPerBooking: 5,
          schedule: { weekly: { tue: ['10:00', '15:00'], wed: ['10:00', '15:00'] } },
        },
      }),
      Experience,
      201,
    );

  async function run(experienceId: string, op: Op, ids: string[], at: number): Promise<void> {
    const { store, orgId } = t;
    if (op.kind === 'create') {
      const view = await createBooking(
        store,
        orgId,
        {
          experienceId,
          startTime: new Date(SLOTS[op.slot]!).toISOString(),
          participants: op.participants,
          customerName: `Guest ${op.email}`,
          customerEmail: EMAILS[op.email]!,
        },
        op.pending ? { source: 'WIDGET', holdExpiresAt: at + 1_800_000, actor: SYSTEM } : { source: 'API', actor: SYSTEM },
        at,
      );
      ids.push(view.id);
      return;
    }
    const id = ids[op.booking % Math.max(1, ids.length)];
    if (id === undefined) return;
    if (op.kind === 'cancel') {
      await cancelBooking(store, orgId, id, 'changed plans', at, SYSTEM);
      return;
    }
    const patch: BookingPatch = {};
    if (op.slot !== undefined) patch.startTime = new Date(SLOTS[op.slot]!).toISOString();
    if (op.participants !== undefined) patch.participants = op.participants;
    if (op.status !== undefined) patch.status = op.status;
    if (op.email !== undefined) patch.customerEmail = EMAILS[op.email]!;
    if (Object.keys(patch).length > 0) await updateBooking(store, orgId, id, patch, at, SYSTEM);
  }

  it('never overbooks, and the per-slot counts always equal the places of live bookings', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 40 }), async (ops) => {
        const exp = await newExperience();
        const ids: string[] = [];
        let at = NOW;
        for (const op of ops) {
          at += 1000;
          const eventsBefore = (await t.store.events.listEvents(t.orgId, {}, { limit: 1, offset: 0 })).total;
          try {
            await run(exp.id, op, ids, at);
          } catch (err) {
            // Refusals are the contract's errors, and a refused change writes nothing.
            expect(err).toBeInstanceOf(Refusal);
            expect([400, 404, 409]).toContain(STATUS_OF[(err as Refusal).code]);
            expect((await t.store.events.listEvents(t.orgId, {}, { limit: 1, offset: 0 })).total).toBe(eventsBefore);
          }
        }

        const bookings = (await t.store.bookings.listBookings(t.orgId, { experienceId: exp.id }, { limit: 1000, offset: 0 })).rows;
        const availability = await availabilityOf(t.store, (await t.store.experiences.getExperience(t.orgId, exp.id))!, 'Europe/Lisbon', { startDate: '2027-03-02', endDate: '2027-03-03' }, NOW);
        for (const start of SLOTS) {
          const live = bookings.filter((b) => b.slotStart === start && b.status !== 'CANCELLED').reduce((n, b) => n + b.participants, 0);
          expect(await t.store.bookings.bookedPlaces(exp.id, start)).toBe(live);
          expect(live).toBeLessThanOrEqual(CAPACITY);
          const shown = availability.slots.find((s) => s.start === start);
          expect(shown).toMatchObject({ booked: live, remaining: CAPACITY - live });
        }
        for (const b of bookings) {
          expect(b.participants).toBeLessThanOrEqual(5);
          expect((await t.store.customers.getCustomer(t.orgId, b.customerId!))?.email).toBe(b.guestEmail!.toLowerCase());
        }
      }),
      { numRuns: 60 },
    );
  });

  it('sums each customer’s CONFIRMED bookings and counts all of them', async () => {
    const exp = await newExperience();
    const at = NOW + DAY / 2;
    const ops: Op[] = [
      { kind: 'create', slot: 0, participants: 2, email: 0, pending: false },
      { kind: 'create', slot: 1, participants: 1, email: 1, pending: true },
      { kind: 'create', slot: 2, participants: 3, email: 0, pending: false },
      { kind: 'cancel', booking: 2 },
    ];
    const ids: string[] = [];
    for (const op of ops) await run(exp.id, op, ids, at);
    const customer = (await t.store.customers.getCustomerByEmail(t.orgId, 'ana@example.com'))!;
    expect(customer.bookingCount).toBeGreaterThanOrEqual(3);
    const mine = (await t.store.bookings.listBookings(t.orgId, { customerId: customer.id }, { limit: 1000, offset: 0 })).rows;
    expect(customer.bookingCount).toBe(mine.length);
    expect(customer.spentCents).toBe(mine.filter((b) => b.status === 'CONFIRMED').reduce((n, b) => n + b.unitPrice * b.participants, 0));
  });
});
