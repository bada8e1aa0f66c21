import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { everyDay, harbourCruise, createTestApp, expectData, expectError, expectValidationError, manualClock, type ManualClock, type TestApp } from '../test-helpers/index.js';
import { Booking, DailyReport, Experience, ExperienceReport, OccupancyReport } from '../../shared/index.js';

// Monday 2027-03-01, 08:00 UTC = 08:00 in Lisbon (WET, UTC+0, until 28 March).
const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);
const HOUR = 3_600_000;

let t: TestApp;
let clock: ManualClock;

const newExperience = (fields: Record<string, unknown> = {}): Promise<Experience> => harbourCruise(t, fields);

let guests = 0;
async function book(exp: Experience, startTime: string, participants = 2): Promise<Booking> {
  guests++;
  const body = { experienceId: exp.id, startTime, participants, customerName: `Guest ${guests}`, customerEmail: `guest${guests}@example.com` };
  return expectData(await t.request('POST', '/v1/bookings', { body }), Booking, 201);
}
const cancel = async (b: Booking) => expect((await t.request('PATCH', `/v1/bookings/${b.id}/cancel`, { body: {} })).status).toBe(200);

const daily = async (query = '') => expectData(await t.request('GET', `/v1/reports/daily${query}`), DailyReport);
const byExperience = async (query = '') => expectData(await t.request('GET', `/v1/reports/experiences${query}`), ExperienceReport);
const occupancy = async (query = '') => expectData(await t.request('GET', `/v1/reports/occupancy${query}`), OccupancyReport);

beforeEach(async () => {
  clock = manualClock(NOW);
  t = await createTestApp({ now: clock.now, org: { timezone: 'Europe/Lisbon', currency: 'EUR' } });
});
afterEach(() => t.close());

describe('GET /v1/reports/daily', () => {
  it('counts bookings on the local day they were made, cancellations on the day they happened', async () => {
    const cruise = await newExperience();
    await book(cruise, '2027-04-02T09:00:00.000Z', 3); // made 1 March
    const later = await book(cruise, '2027-04-02T09:00:00.000Z', 1);
    clock.set(Date.UTC(2027, 2, 2, 23, 59)); // 2 March, 23:59 in Lisbon
    await book(cruise, '2027-04-02T14:00:00.000Z', 2);
    clock.set(Date.UTC(2027, 2, 3, 12, 0));
    await cancel(later); // made 1 March, cancelled 3 March

    const r = await daily('?startDate=2027-02-28&endDate=2027-03-04');
    expect(r).toEqual({
      timezone: 'Europe/Lisbon',
      currency: 'EUR',
      days: [
        { date: '2027-02-28', bookings: 0, participants: 0, revenue: '0.00', cancellations: 0 },
        { date: '2027-03-01', bookings: 1, participants: 3, revenue: '135.00', cancellations: 0 },
        { date: '2027-03-02', bookings: 1, participants: 2, revenue: '90.00', cancellations: 0 },
        { date: '2027-03-03', bookings: 0, participants: 0, revenue: '0.00', cancellations: 1 },
        { date: '2027-03-04', bookings: 0, participants: 0, revenue: '0.00', cancellations: 0 },
      ],
    });
  });

  it('cuts days at local midnight across a DST change', async () => {
    const cruise = await newExperience();
    clock.set(Date.UTC(2027, 2, 28, 22, 59)); // 23:59 WEST on 28 March
    await book(cruise, '2027-04-10T09:00:00.000Z');
    clock.set(Date.UTC(2027, 2, 28, 23, 0)); // 00:00 WEST on 29 March
    await book(cruise, '2027-04-10T09:00:00.000Z', 1);
    const r = await daily('?startDate=2027-03-28&endDate=2027-03-29');
    expect(r.days.map((d) => [d.date, d.bookings, d.participants])).toEqual([
      ['2027-03-28', 1, 2],
      ['2027-03-29', 1, 1],
    ]);
  });

  it('answers zeros for days without bookings, and only the caller’s own', async () => {
    const other = await t.addOrganization({ name: 'Other' });
    const exp = expectData(
      await t.request('POST', '/v1/experiences', {
        key: other.secretKey,
        body: { name: 'Theirs', description: 'x', duration: 60, price: 1000, maxParticipants: 5, schedule: { weekly: everyDay(['10:00']) } },
      }),
      Experience,
      201,
    );
    expect(
      (await t.request('POST', '/v1/bookings', {
        key: other.secretKey,
        body: { experienceId: exp.id, startTime: '2027-03-05T10:00:00.000Z', participants: 1, customerName: 'X', customerEmail: 'x@example.com' },
      })).status,
    ).toBe(201);
    const r = await daily('?startDate=2027-03-01&endDate=2027-03-01');
    expect(r.days).toEqual([{ date: '2027-03-01', bookings: 0, participants: 0, revenue: '0.00', cancellations: 0 }]);
  });

  it('defaults to the 30 days ending today', async () => {
    const r = await daily();
    expect(r.days).toHaveLength(30);
    expect(r.days[0]!.date).toBe('2027-01-31');
    expect(r.days[29]!.date).toBe('2027-03-01');
    expect((await daily('?endDate=2027-02-10')).days.map((d) => d.date).slice(0, 1)).toEqual(['2027-01-12']);
    expect((await daily('?startDate=2027-02-27')).days.map((d) => d.date)).toEqual(['2027-02-27', '2027-02-28', '2027-03-01']);
  });

  it('refuses a range over 366 days, an end before the start, and dates that are not dates', async () => {
    expect((await daily('?startDate=2026-01-01&endDate=2027-01-02')).days).toHaveLength(367);
    expectValidationError(await t.request('GET', '/v1/reports/daily?startDate=2026-01-01&endDate=2027-01-03'), 'endDate');
    expectValidationError(await t.request('GET', '/v1/reports/daily?startDate=2027-03-02&endDate=2027-03-01'), 'endDate');
    expectValidationError(await t.request('GET', '/v1/reports/daily?startDate=2027-02-29'), 'startDate');
    expectValidationError(await t.request('GET', '/v1/reports/daily?startDate=2027-03-02'), 'endDate'); // after today
  });
});

describe('GET /v1/reports/experiences', () => {
  it('sums the range per experience as the days count it, highest revenue first, then by title', async () => {
    const cruise = await newExperience(); // 45.00 a head
    const walk = await newExperience({ name: 'cave walk', price: 2000 });
    const boat = await newExperience({ name: 'Boat trip', price: 2000 });
    await newExperience({ name: 'Nobody came' });
    await book(cruise, '2027-04-02T09:00:00.000Z', 3); // made 1 March: 135.00
    const later = await book(cruise, '2027-04-02T09:00:00.000Z', 1);
    await book(walk, '2027-04-02T09:00:00.000Z', 2); // 40.00
    clock.set(Date.UTC(2027, 2, 2, 23, 59)); // 2 March, 23:59 in Lisbon
    await book(boat, '2027-04-02T14:00:00.000Z', 2); // 40.00, the same as the walk: by title, case aside
    clock.set(Date.UTC(2027, 2, 3, 12, 0));
    await cancel(later); // made 1 March, cancelled 3 March
    const early = await book(walk, '2027-04-03T09:00:00.000Z', 1);
    clock.set(Date.UTC(2027, 2, 5, 12, 0));
    await cancel(early); // cancelled after the range: no booking any more, and no cancellation of the range

    const r = await byExperience('?startDate=2027-02-28&endDate=2027-03-04');
    const ref = (e: Experience) => ({ id: e.id, title: e.name });
    expect(r).toEqual({
      timezone: 'Europe/Lisbon',
      currency: 'EUR',
      startDate: '2027-02-28',
      endDate: '2027-03-04',
      experiences: [
        { experience: ref(cruise), bookings: 1, participants: 3, revenue: '135.00', cancellations: 1 },
        { experience: ref(boat), bookings: 1, participants: 2, revenue: '40.00', cancellations: 0 },
        { experience: ref(walk), bookings: 1, participants: 2, revenue: '40.00', cancellations: 0 },
      ],
    });
    // The same figures as the days of the daily report, summed.
    const days = (await daily('?startDate=2027-02-28&endDate=2027-03-04')).days;
    const sum = (f: (x: { bookings: number; participants: number; cancellations: number }) => number, xs: typeof days | typeof r.experiences) =>
      xs.reduce((n, x) => n + f(x), 0);
    for (const f of [(x: { bookings: number }) => x.bookings, (x: { participants: number }) => x.participants, (x: { cancellations: number }) => x.cancellations]) {
      expect(sum(f, r.experiences)).toBe(sum(f, days));
    }
    // The booking made on 3 March and cancelled on the 5th is no booking of any range, and a cancellation of the 5th;
    // equal revenues go by title, case aside.
    const toFifth = await byExperience('?startDate=2027-03-03&endDate=2027-03-05');
    expect(toFifth.experiences.map((e) => [e.experience.title, e.bookings, e.revenue, e.cancellations])).toEqual([
      ['cave walk', 0, '0.00', 1],
      ['Harbour cruise', 0, '0.00', 1],
    ]);
    // Under /api/v1 too; nothing in the range: no entries.
    const api = expectData(await t.request('GET', '/api/v1/reports/experiences?startDate=2027-02-01&endDate=2027-02-27'), ExperienceReport);
    expect(api.experiences).toEqual([]);
  });

  it('takes the daily report’s default range and refuses the same ranges', async () => {
    const r = await byExperience();
    expect([r.startDate, r.endDate]).toEqual(['2027-01-31', '2027-03-01']);
    expect((await byExperience('?startDate=2026-01-01&endDate=2027-01-02')).endDate).toBe('2027-01-02');
    for (const path of ['/v1/reports/experiences', '/v1/reports/daily.csv', '/v1/reports/experiences.csv']) {
      expectValidationError(await t.request('GET', `${path}?startDate=2026-01-01&endDate=2027-01-03`), 'endDate');
      expectValidationError(await t.request('GET', `${path}?startDate=2027-03-02&endDate=2027-03-01`), 'endDate');
      const bad = await t.request('GET', `${path}?startDate=2027-02-29`);
      expect(bad.headers.get('content-type')).toMatch(/^application\/json/);
      expectValidationError(bad, 'startDate');
      expectValidationError(await t.request('GET', `${path}?endDate=2027-03-01&sort=x`), 'sort');
    }
  });

  it('needs the bookings:read scope, for the report and both files', async () => {
    const { key } = await t.createKey({ scopes: ['experiences:read', 'bookings:write'] });
    for (const path of ['/v1/reports/experiences', '/v1/reports/daily.csv', '/v1/reports/experiences.csv']) {
      expectError(await t.request('GET', path, { key }), 403, 'FORBIDDEN');
      expectError(await t.request('GET', path, { key: null }), 401, 'UNAUTHORIZED');
    }
  });
});

describe('GET /v1/reports/daily.csv and /v1/reports/experiences.csv', () => {
  it('answer the reports as RFC 4180 CSV files named after their range, formulas neutralised', async () => {
    const cruise = await newExperience({ name: '=HYPERLINK("http://evil.example","Cruise, classic")' });
    const walk = await newExperience({ name: 'Walk', price: 1000 });
    await book(cruise, '2027-04-02T09:00:00.000Z', 3);
    await book(walk, '2027-04-02T09:00:00.000Z', 1);
    clock.set(Date.UTC(2027, 2, 2, 12, 0));
    await book(walk, '2027-04-02T09:00:00.000Z', 2);

    const daily = await t.request('GET', '/v1/reports/daily.csv?startDate=2027-02-28&endDate=2027-03-02');
    expect(daily.status).toBe(200);
    expect(daily.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(daily.headers.get('content-disposition')).toBe('attachment; filename="daily-2027-02-28-2027-03-02.csv"');
    expect(daily.text).toBe(
      'date,bookings,participants,revenue,cancellations\r\n' +
        '2027-02-28,0,0,0.00,0\r\n' +
        '2027-03-01,2,4,145.00,0\r\n' +
        '2027-03-02,1,2,20.00,0\r\n',
    );

    const res = await t.request('GET', '/v1/reports/experiences.csv?startDate=2027-02-28&endDate=2027-03-02');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="experiences-2027-02-28-2027-03-02.csv"');
    expect(res.text).toBe(
      'experienceId,experience,bookings,participants,revenue,cancellations\r\n' +
        `${cruise.id},"'=HYPERLINK(""http://evil.example"",""Cruise, classic"")",1,3,135.00,0\r\n` +
        `${walk.id},Walk,2,3,30.00,0\r\n`,
    );
  });

  it('default to the 30 days ending today, a header row alone when nothing happened', async () => {
    const daily = await t.request('GET', '/api/v1/reports/daily.csv');
    expect(daily.headers.get('content-disposition')).toBe('attachment; filename="daily-2027-01-31-2027-03-01.csv"');
    expect(daily.text.split('\r\n')).toHaveLength(32); // header, 30 days, the empty string after the last CRLF
    const res = await t.request('GET', '/api/v1/reports/experiences.csv');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="experiences-2027-01-31-2027-03-01.csv"');
    expect(res.text).toBe('experienceId,experience,bookings,participants,revenue,cancellations\r\n');
  });
});

describe('GET /v1/reports/occupancy', () => {
  it('sums slots, places and places taken of each active experience over the range', async () => {
    const cruise = await newExperience();
    const walk = await newExperience({ name: 'Alfama walk', maxParticipants: 8, schedule: { weekly: everyDay(['10:00']) } });
    const closed = await newExperience({ name: 'Closed' });
    const none = await newExperience({ name: 'No schedule', schedule: { weekly: {} } });
    await book(cruise, '2027-03-02T10:00:00.000Z', 3);
    const gone = await book(cruise, '2027-03-02T15:00:00.000Z', 4);
    await cancel(gone);
    await book(cruise, '2027-03-03T15:00:00.000Z', 2);
    await book(cruise, '2027-03-04T10:00:00.000Z', 5); // outside the range
    await book(walk, '2027-03-03T10:00:00.000Z', 1);
    expectData(await t.request('PATCH', `/v1/experiences/${closed.id}`, { body: { active: false } }), Experience);

    const r = await occupancy('?startDate=2027-03-02&endDate=2027-03-03');
    expect(r).toEqual({
      experiences: [
        { experience: { id: cruise.id, title: 'Harbour cruise' }, slots: 4, capacity: 40, booked: 5, occupancy: 0.125 },
        { experience: { id: walk.id, title: 'Alfama walk' }, slots: 2, capacity: 16, booked: 1, occupancy: 0.0625 },
        { experience: { id: none.id, title: 'No schedule' }, slots: 0, capacity: 0, booked: 0, occupancy: 0 },
      ],
    });
  });

  it('rounds to four decimals and counts today’s slots already under way', async () => {
    const cruise = await newExperience({ maxParticipants: 3, schedule: { weekly: everyDay(['10:00']) } });
    await book(cruise, '2027-03-02T10:00:00.000Z', 1);
    clock.set(Date.UTC(2027, 2, 2, 12, 0));
    const r = await occupancy('?startDate=2027-03-02&endDate=2027-03-02');
    expect(r.experiences[0]).toMatchObject({ slots: 1, capacity: 3, booked: 1, occupancy: 0.3333 });
  });

  it('defaults to today to today + 30 days, and refuses a range over 366 days', async () => {
    await newExperience({ schedule: { weekly: everyDay(['10:00']) } });
    clock.set(Date.UTC(2027, 2, 1, 0, 0) - HOUR); // 28 February, 23:00 in Lisbon
    expect((await occupancy()).experiences[0]!.slots).toBe(31); // 28 February to 30 March
    expect((await occupancy('?startDate=2027-03-01')).experiences[0]!.slots).toBe(31);
    expect((await occupancy('?startDate=2027-03-01&endDate=2028-03-01')).experiences[0]!.slots).toBe(367);
    expectValidationError(await t.request('GET', '/v1/reports/occupancy?startDate=2027-03-01&endDate=2028-03-02'), 'endDate');
    expectValidationError(await t.request('GET', '/v1/reports/occupancy?startDate=2027-03-02&endDate=2027-03-01'), 'endDate');
  });
});
