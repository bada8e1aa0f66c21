import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  everyDay,
  createTestApp, expectData, expectError, expectList, expectValidationError, manualClock, type ManualClock, type TestApp,
} from '../test-helpers/index.js';
import { Activity, Availability, Booking, Experience, Manifest, OccupancyReport, Slot } from '../../shared/index.js';

// Monday 2027-03-01, 08:00 UTC (= 08:00 in Lisbon, on WET until 2027-03-28).
const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);
const TUESDAY_10 = '2027-03-02T10:00:00.000Z';
const TUESDAY_15 = '2027-03-02T15:00:00.000Z';

describe('departures: GET and PATCH /v1/slots/{id}', () => {
  let t: TestApp;
  let clock: ManualClock;
  let exp: Experience;
  beforeEach(async () => {
    clock = manualClock(NOW);
    t = await createTestApp({ now: clock.now, org: { timezone: 'Europe/Lisbon', currency: 'EUR' } });
    const body = { name: 'Alfama walk', description: '', duration: 90, price: 2500, maxParticipants: 10, schedule: { weekly: everyDay(['10:00', '15:00']) } };
    exp = expectData(await t.request('POST', '/v1/experiences', { body }), Experience, 201);
  });
  afterEach(() => t.close());

  const slotsOn = async (date: string, participants = 1, prefix = '/v1') =>
    expectData(await t.request('GET', `${prefix}/availability?experienceId=${exp.id}&startDate=${date}&endDate=${date}&participants=${participants}`), Availability).slots;
  const idOf = async (startTime: string) => {
    const slot = (await slotsOn(startTime.slice(0, 10))).find((s) => s.startTime === startTime);
    if (!slot) throw new Error(`no slot at ${startTime}`);
    return slot.id;
  };
  const book = (startTime: string, participants: number, email = 'guest@example.com') =>
    t.request('POST', '/v1/bookings', { body: { experienceId: exp.id, startTime, participants, customerName: 'Guest', customerEmail: email } });
  const patch = (id: string, body: unknown) => t.request('PATCH', `/v1/slots/${id}`, { body });

  it('shows any start of the schedule with its places and settings, the past included', async () => {
    const id = await idOf(TUESDAY_10);
    expectData(await book(TUESDAY_10, 3), Booking, 201);
    expect(expectData(await t.request('GET', `/v1/slots/${id}`), Slot)).toEqual({
      id,
      experienceId: exp.id,
      startTime: TUESDAY_10,
      endTime: '2027-03-02T11:30:00.000Z',
      capacity: 10,
      capacityOverride: null,
      closed: false,
      note: null,
      booked: 3,
      remaining: 7,
    });
    // A week later the start is past, and still there.
    clock.set(NOW + 8 * 86_400_000);
    expect(expectData(await t.request('GET', `/v1/slots/${id}`), Slot)).toMatchObject({ id, booked: 3 });
  });

  it('answers 404 for a start outside the schedule without bookings, a malformed id, or another experience’s spelling', async () => {
    const id = await idOf(TUESDAY_10);
    // 10:01 is not a start of the schedule: the id of the same experience at that minute.
    const offSchedule = id.replace(/\d+$/, (minutes) => String(Number(minutes) + 1));
    expectError(await t.request('GET', `/v1/slots/${offSchedule}`), 404, 'NOT_FOUND');
    expectError(await patch(offSchedule, { closed: true }), 404, 'NOT_FOUND');
    expectError(await t.request('GET', '/v1/slots/ts_nonsense'), 404, 'NOT_FOUND');
    expectError(await t.request('GET', `/v1/slots/${id}0`), 404, 'NOT_FOUND');
    expectError(await t.request('GET', `/v1/slots/${id.replace('ts_', 'ts_0')}`), 404, 'NOT_FOUND');
  });

  it('keeps a departure that holds a booking after the schedule drops its start', async () => {
    const id = await idOf(TUESDAY_10);
    expectData(await book(TUESDAY_10, 2), Booking, 201);
    expectData(await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { schedule: { weekly: everyDay(['15:00']) } } }), Experience);
    expect(expectData(await t.request('GET', `/v1/slots/${id}`), Slot)).toMatchObject({ booked: 2, startTime: TUESDAY_10 });
  });

  it('sets a capacity, closes and notes a departure, and says so in the activity log', async () => {
    const id = await idOf(TUESDAY_10);
    const changed = expectData(await patch(id, { capacity: 4, closed: true, note: 'Guide off sick' }), Slot);
    expect(changed).toMatchObject({ id, capacity: 4, capacityOverride: 4, closed: true, note: 'Guide off sick', booked: 0, remaining: 4 });
    expect(expectData(await t.request('GET', `/v1/slots/${id}`), Slot)).toEqual(changed);
    // A field left out keeps its value; null clears the note and gives back the experience's capacity.
    expect(expectData(await patch(id, { closed: false }), Slot)).toMatchObject({ capacity: 4, closed: false, note: 'Guide off sick' });
    expect(expectData(await patch(id, { capacity: null, note: null }), Slot)).toMatchObject({ capacity: 10, capacityOverride: null, closed: false, note: null });
    const [latest] = expectList(await t.request('GET', '/v1/activity'), Activity).data;
    expect(latest).toMatchObject({ action: 'slot.update', targetType: 'slot', targetId: id });
    expect(latest?.summary).toMatch(/Alfama walk/);
  });

  it('refuses an empty body, out-of-range values, a long note and unknown fields', async () => {
    const id = await idOf(TUESDAY_10);
    expectError(await patch(id, {}), 400, 'VALIDATION_ERROR');
    expectValidationError(await patch(id, { capacity: 10_001 }), 'capacity');
    expectValidationError(await patch(id, { capacity: -1 }), 'capacity');
    expectValidationError(await patch(id, { capacity: 2.5 }), 'capacity');
    expectValidationError(await patch(id, { closed: 'yes' }), 'closed');
    expectValidationError(await patch(id, { note: 'x'.repeat(501) }), 'note');
    expectValidationError(await patch(id, { maxParticipants: 3 }), 'maxParticipants');
    expect(expectData(await patch(id, { capacity: 10_000, note: 'x'.repeat(500) }), Slot)).toMatchObject({ capacity: 10_000 });
    expect(expectData(await patch(id, { capacity: 0 }), Slot)).toMatchObject({ capacity: 0, remaining: 0 });
  });

  it('refuses a capacity below the places booked with 409 CAPACITY_BELOW_BOOKED and changes nothing', async () => {
    const id = await idOf(TUESDAY_10);
    expectData(await book(TUESDAY_10, 6), Booking, 201);
    expectError(await patch(id, { capacity: 5, closed: true, note: 'no' }), 409, 'CAPACITY_BELOW_BOOKED');
    expect(expectData(await t.request('GET', `/v1/slots/${id}`), Slot)).toMatchObject({ capacity: 10, capacityOverride: null, closed: false, note: null });
    expect(expectData(await patch(id, { capacity: 6 }), Slot)).toMatchObject({ capacity: 6, remaining: 0 });
    // Back to the experience's capacity when it is below the places booked is refused too.
    expectData(await patch(id, { capacity: 8 }), Slot);
    expectData(await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { maxParticipants: 5 } }), Experience);
    expectError(await patch(id, { capacity: null }), 409, 'CAPACITY_BELOW_BOOKED');
    expect(expectData(await t.request('GET', `/v1/slots/${id}`), Slot)).toMatchObject({ capacity: 8, capacityOverride: 8 });
  });

  it('needs experiences:read to read and experiences:write to change', async () => {
    const id = await idOf(TUESDAY_10);
    const reader = await t.createKey({ scopes: ['experiences:read'] });
    expectData(await t.request('GET', `/v1/slots/${id}`, { key: reader.key }), Slot);
    expectError(await t.request('PATCH', `/v1/slots/${id}`, { key: reader.key, body: { closed: true } }), 403, 'FORBIDDEN');
    const bookingsOnly = await t.createKey({ scopes: ['bookings:read'] });
    expectError(await t.request('GET', `/v1/slots/${id}`, { key: bookingsOnly.key }), 403, 'FORBIDDEN');
  });

  it('answers a NUL in the path id with 400, and the /api/v1 alias alike', async () => {
    const id = await idOf(TUESDAY_10);
    expectValidationError(await t.request('GET', `/v1/slots/${id}%00`), 'id');
    expectValidationError(await t.request('PATCH', `/v1/slots/%00`, { body: { closed: true } }), 'id');
    expectData(await t.request('GET', `/api/v1/slots/${id}`), Slot);
  });

  describe('a closed departure', () => {
    it('takes no new booking, move or more places, but keeps, shrinks and cancels its own', async () => {
      const id = await idOf(TUESDAY_10);
      const kept = expectData(await book(TUESDAY_10, 3), Booking, 201);
      const elsewhere = expectData(await book(TUESDAY_15, 2, 'other@example.com'), Booking, 201);
      expectData(await patch(id, { closed: true }), Slot);

      expectError(await book(TUESDAY_10, 1, 'new@example.com'), 409, 'SLOT_UNAVAILABLE');
      expectError(await t.request('PATCH', `/v1/bookings/${elsewhere.id}`, { body: { startTime: TUESDAY_10 } }), 409, 'SLOT_UNAVAILABLE');
      expectError(await t.request('PATCH', `/v1/bookings/${kept.id}`, { body: { participants: 4 } }), 409, 'SLOT_UNAVAILABLE');
      expect(expectData(await t.request('PATCH', `/v1/bookings/${kept.id}`, { body: { participants: 2 } }), Booking).totalParticipants).toBe(2);
      expect(expectData(await t.request('PATCH', `/v1/bookings/${kept.id}/cancel`, { body: {} }), Booking).status).toBe('CANCELLED');
      // The other departure books as before.
      expectData(await book(TUESDAY_15, 1, 'third@example.com'), Booking, 201);

      // Reopened, it books again.
      expectData(await patch(id, { closed: false }), Slot);
      expectData(await book(TUESDAY_10, 1, 'new@example.com'), Booking, 201);
    });

    it('is listed CLOSED (before FULL) in /v1 and /public/v1 availability at once, cached answers included', async () => {
      const id = await idOf(TUESDAY_10);
      // Warm both answer caches.
      expect((await slotsOn('2027-03-02', 1, '/public/v1'))[0]).toMatchObject({ available: true });
      expect((await slotsOn('2027-03-02'))[0]).toMatchObject({ available: true });
      expectData(await patch(id, { closed: true, capacity: 0 }), Slot);
      for (const prefix of ['/v1', '/public/v1']) {
        const [closed, open] = await slotsOn('2027-03-02', 1, prefix);
        expect(closed).toMatchObject({ id, capacity: 0, remaining: 0, available: false, unavailableReason: 'CLOSED' });
        expect(open).toMatchObject({ available: true, unavailableReason: null });
      }
    });

    it('shows closed and its note in the manifest', async () => {
      const id = await idOf(TUESDAY_10);
      expectData(await patch(id, { closed: true, note: 'Storm warning', capacity: 6 }), Slot);
      const manifest = expectData(await t.request('GET', '/v1/manifest?date=2027-03-02'), Manifest);
      expect(manifest.slots.map((s) => [s.timeSlot.id, s.capacity, s.remaining, s.closed, s.note])).toEqual([
        [id, 6, 6, true, 'Storm warning'],
        [await idOf(TUESDAY_15), 10, 10, false, null],
      ]);
    });
  });

  describe('a departure’s own capacity', () => {
    it('holds new bookings, moves and more places to it, and shows in availability', async () => {
      const id = await idOf(TUESDAY_10);
      expectData(await patch(id, { capacity: 4 }), Slot);
      const first = expectData(await book(TUESDAY_10, 3), Booking, 201);
      const refused = expectError(await book(TUESDAY_10, 2, 'b@example.com'), 409, 'CAPACITY_EXCEEDED');
      expect(refused.details).toEqual([{ path: 'participants', message: '1 remaining' }]);
      expectError(await t.request('PATCH', `/v1/bookings/${first.id}`, { body: { participants: 5 } }), 409, 'CAPACITY_EXCEEDED');
      const other = expectData(await book(TUESDAY_15, 2, 'c@example.com'), Booking, 201);
      expectError(await t.request('PATCH', `/v1/bookings/${other.id}`, { body: { startTime: TUESDAY_10 } }), 409, 'CAPACITY_EXCEEDED');
      expect((await slotsOn('2027-03-02', 2))[0]).toMatchObject({ capacity: 4, booked: 3, remaining: 1, available: false, unavailableReason: 'FULL' });
      expect((await slotsOn('2027-03-02', 2, '/public/v1'))[0]).toMatchObject({ capacity: 4, remaining: 1, unavailableReason: 'FULL' });
    });

    it('may be above the experience’s capacity', async () => {
      const id = await idOf(TUESDAY_10);
      expectData(await patch(id, { capacity: 14 }), Slot);
      expectData(await book(TUESDAY_10, 10), Booking, 201);
      expectData(await book(TUESDAY_10, 4, 'b@example.com'), Booking, 201);
      expectError(await book(TUESDAY_10, 1, 'c@example.com'), 409, 'CAPACITY_EXCEEDED');
      expect(expectData(await t.request('GET', `/v1/slots/${id}`), Slot)).toMatchObject({ capacity: 14, booked: 14, remaining: 0 });
    });

    it('survives schedule and capacity edits that keep the start', async () => {
      const id = await idOf(TUESDAY_10);
      expectData(await patch(id, { capacity: 3, closed: true, note: 'Kept' }), Slot);
      const schedule = { weekly: everyDay(['10:00', '12:00']), exceptions: [{ date: '2027-03-03', times: [] }] };
      expectData(await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { schedule, maxParticipants: 20, duration: 60 } }), Experience);
      expect(expectData(await t.request('GET', `/v1/slots/${id}`), Slot)).toMatchObject({
        capacity: 3, capacityOverride: 3, closed: true, note: 'Kept', endTime: '2027-03-02T11:00:00.000Z',
      });
      expect((await slotsOn('2027-03-02'))[0]).toMatchObject({ id, capacity: 3, unavailableReason: 'CLOSED' });
    });

    it('is what the occupancy report counts', async () => {
      const id = await idOf(TUESDAY_10);
      expectData(await patch(id, { capacity: 4 }), Slot);
      const report = expectData(await t.request('GET', '/v1/reports/occupancy?startDate=2027-03-02&endDate=2027-03-02'), OccupancyReport);
      expect(report.experiences[0]).toMatchObject({ slots: 2, capacity: 14 });
    });

    it('is never exceeded by bookings made at the same time', async () => {
      const id = await idOf(TUESDAY_10);
      expectData(await patch(id, { capacity: 3 }), Slot);
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => book(TUESDAY_10, 1, `guest${i}@example.com`)));
      expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
      for (const a of answers.filter((a) => a.status !== 201)) expectError(a, 409, 'CAPACITY_EXCEEDED');
      expect(expectData(await t.request('GET', `/v1/slots/${id}`), Slot)).toMatchObject({ booked: 3, remaining: 0 });
    });

    it('is never overtaken by bookings made while it is lowered', async () => {
      const id = await idOf(TUESDAY_10);
      const answers = await Promise.all([
        ...Array.from({ length: 8 }, (_, i) => book(TUESDAY_10, 1, `guest${i}@example.com`)),
        patch(id, { capacity: 4 }),
      ]);
      const lowered = answers.at(-1)!;
      const booked = answers.slice(0, -1).filter((a) => a.status === 201).length;
      const slot = expectData(await t.request('GET', `/v1/slots/${id}`), Slot);
      expect(slot.booked).toBe(booked);
      if (lowered.status === 200) expect(slot.booked).toBeLessThanOrEqual(4);
      else expectError(lowered, 409, 'CAPACITY_BELOW_BOOKED');
    });
  });
});
