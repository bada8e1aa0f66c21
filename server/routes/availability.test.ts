import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { everyDay,
  createTestApp, expectData, expectError, expectValidationError, manualClock, type ManualClock, type TestApp,
} from '../test-helpers/index.js';
import { Availability, Booking, Experience, Organization } from '../../shared/index.js';

// Monday 2027-03-01, 08:00 UTC (= 08:00 in Lisbon, which is on WET until 2027-03-28).
const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);


describe('GET /v1/availability', () => {
  let t: TestApp;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = manualClock(NOW);
    t = await createTestApp({ now: clock.now, org: { timezone: 'Europe/Lisbon', currency: 'EUR' } });
  });
  afterEach(() => t.close());

  async function experience(fields: Record<string, unknown> = {}) {
    const body = {
      name: 'Alfama walk',
      description: '',
      duration: 90,
      price: 2500,
      maxParticipants: 10,
      schedule: { weekly: everyDay(['10:00', '15:00']) },
      ...fields,
    };
    return expectData(await t.request('POST', '/v1/experiences', { body }), Experience, 201);
  }
  const availability = async (query: Record<string, string | number>, key?: string) =>
    t.request('GET', `/v1/availability?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { key });
  const slotsOf = async (query: Record<string, string | number>) => expectData(await availability(query), Availability);
  const book = async (experienceId: string, startTime: string, participants: number, email = 'guest@example.com') =>
    expectData(
      await t.request('POST', '/v1/bookings', {
        body: { experienceId, startTime, participants, customerName: 'Guest', customerEmail: email },
      }),
      Booking,
      201,
    );

  it('lists each slot with capacity, booked, remaining and available', async () => {
    const exp = await experience();
    const a = await slotsOf({ experienceId: exp.id, startDate: '2027-03-02', endDate: '2027-03-03' });
    expect(a).toMatchObject({ experienceId: exp.id, timezone: 'Europe/Lisbon', startDate: '2027-03-02', endDate: '2027-03-03' });
    expect(a.slots.map((s) => s.startTime)).toEqual([
      '2027-03-02T10:00:00.000Z',
      '2027-03-02T15:00:00.000Z',
      '2027-03-03T10:00:00.000Z',
      '2027-03-03T15:00:00.000Z',
    ]);
    expect(a.slots[0]).toEqual({
      id: expect.stringMatching(/^ts_/),
      startTime: '2027-03-02T10:00:00.000Z',
      endTime: '2027-03-02T11:30:00.000Z',
      capacity: 10,
      booked: 0,
      remaining: 10,
      available: true,
      unavailableReason: null,
    });
    expect(new Set(a.slots.map((s) => s.id)).size).toBe(4);
  });

  it('counts the places of bookings and gives the slot id bookings carry', async () => {
    const exp = await experience();
    const booking = await book(exp.id, '2027-03-02T10:00:00Z', 4);
    const a = await slotsOf({ experienceId: exp.id, startDate: '2027-03-02', endDate: '2027-03-02' });
    expect(a.slots[0]).toMatchObject({ id: booking.timeSlot.id, capacity: 10, booked: 4, remaining: 6, available: true });
    expect(a.slots[1]).toMatchObject({ booked: 0, remaining: 10 });
  });

  it('marks a slot FULL when fewer places remain than the participants asked for', async () => {
    const exp = await experience();
    await book(exp.id, '2027-03-02T10:00:00Z', 4);
    const forSeven = await slotsOf({ experienceId: exp.id, startDate: '2027-03-02', endDate: '2027-03-02', participants: 7 });
    expect(forSeven.slots[0]).toMatchObject({ remaining: 6, available: false, unavailableReason: 'FULL' });
    expect(forSeven.slots[1]).toMatchObject({ remaining: 10, available: true, unavailableReason: null });
    const forSix = await slotsOf({ experienceId: exp.id, startDate: '2027-03-02', endDate: '2027-03-02', participants: 6 });
    expect(forSix.slots[0]).toMatchObject({ available: true, unavailableReason: null });
  });

  it('shows a sold-out slot with remaining 0 and FULL for one participant', async () => {
    const exp = await experience();
    await book(exp.id, '2027-03-02T10:00:00Z', 6, 'a@example.com');
    await book(exp.id, '2027-03-02T10:00:00Z', 4, 'b@example.com');
    const a = await slotsOf({ experienceId: exp.id, startDate: '2027-03-02', endDate: '2027-03-02' });
    expect(a.slots[0]).toMatchObject({ capacity: 10, booked: 10, remaining: 0, available: false, unavailableReason: 'FULL' });
  });

  it('never shows remaining below zero when capacity is lowered under the places booked', async () => {
    const exp = await experience();
    await book(exp.id, '2027-03-02T10:00:00Z', 8);
    expectData(await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { maxParticipants: 5 } }), Experience);
    const a = await slotsOf({ experienceId: exp.id, startDate: '2027-03-02', endDate: '2027-03-02' });
    expect(a.slots[0]).toMatchObject({ capacity: 5, booked: 8, remaining: 0, available: false, unavailableReason: 'FULL' });
  });

  it('refuses participants above maxPerBooking, zero, or not a whole number', async () => {
    const exp = await experience({ maxPerBooking: 4 });
    expectValidationError(await availability({ experienceId: exp.id, participants: 5 }), 'participants');
    expectData(await availability({ experienceId: exp.id, participants: 4 }), Availability);
    expectValidationError(await availability({ experienceId: exp.id, participants: 0 }), 'participants');
    expectValidationError(await availability({ experienceId: exp.id, participants: '1.5' }), 'participants');
    expectValidationError(await availability({ experienceId: exp.id, participants: 'two' }), 'participants');
  });

  it('defaults to today and today + 30 days in the experience’s time zone', async () => {
    // 12:00 UTC on 1 March is already 2 March in Auckland (UTC+13).
    clock.set(Date.UTC(2027, 2, 1, 12, 0, 0));
    const exp = await experience({ schedule: { timezone: 'Pacific/Auckland', weekly: everyDay(['18:00']) } });
    const a = await slotsOf({ experienceId: exp.id });
    expect(a).toMatchObject({ timezone: 'Pacific/Auckland', startDate: '2027-03-02', endDate: '2027-04-01' });
    // 18:00 NZDT on 2 March = 05:00 UTC on 2 March; the last day is 1 April (NZDT ends 4 April).
    expect(a.slots[0]?.startTime).toBe('2027-03-02T05:00:00.000Z');
    expect(a.slots.at(-1)?.startTime).toBe('2027-04-01T05:00:00.000Z');
    expect(a.slots).toHaveLength(31);
  });

  it('counts 30 days from a given startDate when endDate is absent', async () => {
    const exp = await experience();
    const a = await slotsOf({ experienceId: exp.id, startDate: '2027-05-10' });
    expect(a).toMatchObject({ startDate: '2027-05-10', endDate: '2027-06-09' });
  });

  it('accepts a range of 92 days and refuses 93', async () => {
    const exp = await experience();
    const ok = await slotsOf({ experienceId: exp.id, startDate: '2027-03-02', endDate: '2027-06-02' });
    expect(ok.endDate).toBe('2027-06-02');
    expectValidationError(await availability({ experienceId: exp.id, startDate: '2027-03-02', endDate: '2027-06-03' }), 'endDate');
  });

  it('refuses an endDate before the startDate', async () => {
    const exp = await experience();
    expectValidationError(await availability({ experienceId: exp.id, startDate: '2027-03-05', endDate: '2027-03-04' }), 'endDate');
    const one = await slotsOf({ experienceId: exp.id, startDate: '2027-03-05', endDate: '2027-03-05' });
    expect(one.slots).toHaveLength(2);
  });

  it('refuses malformed queries', async () => {
    const exp = await experience();
    expectValidationError(await t.request('GET', '/v1/availability'), 'experienceId');
    expectValidationError(await availability({ experienceId: exp.id, startDate: '2027-02-30' }), 'startDate');
    expectValidationError(await availability({ experienceId: exp.id, startDate: '02/03/2027' }), 'startDate');
    expectValidationError(await availability({ experienceId: exp.id, endDate: '2027-03-02T00:00:00Z' }), 'endDate');
    expectError(await availability({ experienceId: exp.id, color: 'blue' }), 400, 'VALIDATION_ERROR');
  });

  it('answers 404 for an unknown experience or another organization’s', async () => {
    expectError(await availability({ experienceId: 'exp_doesnotexist' }), 404, 'NOT_FOUND');
    const exp = await experience();
    const other = await t.addOrganization({ name: 'Other' });
    expectError(await availability({ experienceId: exp.id }, other.secretKey), 404, 'NOT_FOUND');
  });

  it('needs experiences:read', async () => {
    const exp = await experience();
    const bookingsOnly = await t.createKey({ scopes: ['bookings:read', 'bookings:write'] });
    expect(expectError(await availability({ experienceId: exp.id }, bookingsOnly.key), 403, 'FORBIDDEN').message).toContain(
      'experiences:read',
    );
    const reader = await t.createKey({ scopes: ['experiences:read'] });
    expectData(await availability({ experienceId: exp.id }, reader.key), Availability);
    expectError(await t.request('GET', `/v1/availability?experienceId=${exp.id}`, { key: null }), 401, 'UNAUTHORIZED');
  });

  it('gives an inactive experience no slots', async () => {
    const exp = await experience({ active: false });
    const a = await slotsOf({ experienceId: exp.id, startDate: '2027-03-02', endDate: '2027-03-03' });
    expect(a).toEqual({ experienceId: exp.id, timezone: 'Europe/Lisbon', startDate: '2027-03-02', endDate: '2027-03-03', slots: [] });
  });

  it('gives an experience without a schedule no slots', async () => {
    const exp = await experience({ schedule: null });
    expect((await slotsOf({ experienceId: exp.id })).slots).toEqual([]);
  });

  it('leaves out slots already started and slots inside the notice period', async () => {
    clock.set(Date.UTC(2027, 2, 2, 10, 30)); // the 10:00 slot of 2 March has started
    const exp = await experience();
    const started = await slotsOf({ experienceId: exp.id, startDate: '2027-03-01', endDate: '2027-03-02' });
    expect(started.slots.map((s) => s.startTime)).toEqual(['2027-03-02T15:00:00.000Z']);

    clock.set(Date.UTC(2027, 2, 2, 8, 0));
    const noticed = await experience({ minNoticeMinutes: 121 }); // 10:00 is 120 min away: too soon
    const a = await slotsOf({ experienceId: noticed.id, startDate: '2027-03-02', endDate: '2027-03-02' });
    expect(a.slots.map((s) => s.startTime)).toEqual(['2027-03-02T15:00:00.000Z']);
    const exactly = await experience({ minNoticeMinutes: 120 });
    const b = await slotsOf({ experienceId: exactly.id, startDate: '2027-03-02', endDate: '2027-03-02' });
    expect(b.slots).toHaveLength(2);
  });

  it('leaves out slots past the booking window', async () => {
    const exp = await experience({ maxAdvanceDays: 3 });
    const a = await slotsOf({ experienceId: exp.id, startDate: '2027-03-01', endDate: '2027-03-10' });
    // Today is 1 March (local): the window ends with 4 March.
    expect(a.slots.map((s) => s.startTime.slice(0, 10))).toEqual([
      '2027-03-01', '2027-03-01', '2027-03-02', '2027-03-02', '2027-03-03', '2027-03-03', '2027-03-04', '2027-03-04',
    ]);
  });

  it('sorts slots by start, whatever order the schedule gives', async () => {
    const exp = await experience({
      schedule: { weekly: { tue: ['17:00', '09:00', '12:30'] }, exceptions: [{ date: '2027-03-03', times: ['20:00', '07:15'] }] },
    });
    const a = await slotsOf({ experienceId: exp.id, startDate: '2027-03-02', endDate: '2027-03-03' });
    expect(a.slots.map((s) => s.startTime)).toEqual([
      '2027-03-02T09:00:00.000Z',
      '2027-03-02T12:30:00.000Z',
      '2027-03-02T17:00:00.000Z',
      '2027-03-03T07:15:00.000Z',
      '2027-03-03T20:00:00.000Z',
    ]);
  });

  it('applies exceptions: a closed date, and a date opened outside the pattern and the start/end dates', async () => {
    const exp = await experience({
      schedule: {
        weekly: { tue: ['10:00'], wed: ['10:00'] },
        startDate: '2027-03-02',
        endDate: '2027-03-10',
        exceptions: [
          { date: '2027-03-03', times: [] },
          { date: '2027-03-04', times: ['18:00'] }, // a Thursday: not in the weekly pattern
          { date: '2027-03-09', times: ['11:00'] }, // replaces the Tuesday's 10:00
          { date: '2027-03-20', times: ['09:00'] }, // after endDate
        ],
      },
    });
    const a = await slotsOf({ experienceId: exp.id, startDate: '2027-03-01', endDate: '2027-03-31' });
    expect(a.slots.map((s) => s.startTime)).toEqual([
      '2027-03-02T10:00:00.000Z',
      '2027-03-04T18:00:00.000Z',
      '2027-03-09T11:00:00.000Z',
      '2027-03-10T10:00:00.000Z',
      '2027-03-20T09:00:00.000Z',
    ]);
  });

  it('reads times in the schedule’s own zone when it has one, and in the org’s zone otherwise', async () => {
    const own = await experience({ schedule: { timezone: 'Asia/Tokyo', weekly: { wed: ['10:00'] } } });
    const orgs = await experience({ schedule: { weekly: { wed: ['10:00'] } } });
    const range = { startDate: '2027-03-03', endDate: '2027-03-03' };
    const tokyo = await slotsOf({ experienceId: own.id, ...range });
    expect(tokyo).toMatchObject({ timezone: 'Asia/Tokyo' });
    expect(tokyo.slots.map((s) => s.startTime)).toEqual(['2027-03-03T01:00:00.000Z']);
    const lisbon = await slotsOf({ experienceId: orgs.id, ...range });
    expect(lisbon).toMatchObject({ timezone: 'Europe/Lisbon' });
    expect(lisbon.slots.map((s) => s.startTime)).toEqual(['2027-03-03T10:00:00.000Z']);

    // The org moves to New York: the schedule without a zone follows, the Tokyo one does not.
    expectData(await t.request('PATCH', '/v1/organization', { body: { timezone: 'America/New_York' } }), Organization);
    const moved = await slotsOf({ experienceId: orgs.id, ...range });
    expect(moved).toMatchObject({ timezone: 'America/New_York' });
    expect(moved.slots.map((s) => s.startTime)).toEqual(['2027-03-03T15:00:00.000Z']);
    expect((await slotsOf({ experienceId: own.id, ...range })).slots.map((s) => s.startTime)).toEqual(['2027-03-03T01:00:00.000Z']);
  });

  it('follows daylight saving time: a time in the spring-forward gap moves forward by the gap', async () => {
    // Lisbon jumps from 01:00 to 02:00 on 28 March 2027.
    const exp = await experience({ schedule: { weekly: { sat: ['10:00'], sun: ['01:30', '10:00'] } } });
    const a = await slotsOf({ experienceId: exp.id, startDate: '2027-03-27', endDate: '2027-03-28' });
    expect(a.slots.map((s) => s.startTime)).toEqual([
      '2027-03-27T10:00:00.000Z', // WET, UTC+0
      '2027-03-28T01:30:00.000Z', // 01:30 does not exist: 02:30 WEST
      '2027-03-28T09:00:00.000Z', // WEST, UTC+1
    ]);
  });
});
