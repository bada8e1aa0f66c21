import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestApp, expectData, insertBookingRow, manualClock, type TestApp } from '../test-helpers/index.js';
import { iso } from '../serializers/instant.js';
import { serializeAvailability } from '../serializers/availability.js';
import { availabilityOf } from './availability.js';
import { Experience } from '../../shared/index.js';

describe('instants in responses', () => {
  it('writes every instant exactly as Date#toISOString does (the whole-minute fast path included)', () => {
    const minute = 60_000;
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
        expect(iso(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.integer({ min: -1.44e11, max: 1.44e11 }), (minutes) => {
        const ms = minutes * minute;
        expect(iso(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 5000 },
    );
    for (const ms of [0, -1, -minute, Date.UTC(9999, 11, 31, 23, 59), Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(10000, 0, 1), Date.UTC(2028, 1, 29, 23, 59)]) {
      expect(iso(ms)).toBe(new Date(ms).toISOString());
    }
  });
});

describe('availabilityOf', () => {
  const NOW = Date.UTC(2027, 2, 1, 8, 0);
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: manualClock(NOW).now, org: { timezone: 'Europe/Lisbon' } });
  });
  afterAll(() => t.close());

  it('reads places from the per-slot counts, whatever the booking history holds', async () => {
    const exp = expectData(
      await t.request('POST', '/v1/experiences', {
        body: { name: 'Ferry', description: '', duration: 30, price: 500, maxParticipants: 40, schedule: { weekly: { tue: ['10:00'] } } },
      }),
      Experience,
      201,
    );
    const slot = Date.UTC(2027, 2, 2, 10);
    // Years of history on other instants, and cancelled bookings on this slot: none of it counts.
    for (let i = 0; i < 300; i++) await insertBookingRow(t.store, { orgId: t.orgId, experienceId: exp.id, slotStart: slot - (i + 1) * 7 * 86_400_000, participants: 3 });
    for (let i = 0; i < 5; i++) await insertBookingRow(t.store, { orgId: t.orgId, experienceId: exp.id, slotStart: slot, participants: 2, status: 'CANCELLED' });
    await insertBookingRow(t.store, { orgId: t.orgId, experienceId: exp.id, slotStart: slot, participants: 4 });
    await insertBookingRow(t.store, { orgId: t.orgId, experienceId: exp.id, slotStart: slot, participants: 1, status: 'PENDING' });
    const row = (await t.store.experiences.getExperience(t.orgId, exp.id))!;
    const a = serializeAvailability(await availabilityOf(t.store, row, 'Europe/Lisbon', { startDate: '2027-03-02', endDate: '2027-03-02', participants: 36 }, NOW));
    expect(a.slots).toEqual([
      expect.objectContaining({ startTime: '2027-03-02T10:00:00.000Z', capacity: 40, booked: 5, remaining: 35, available: false, unavailableReason: 'FULL' }),
    ]);
  });
});
