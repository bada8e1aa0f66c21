import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { everyDay, harbourCruise, insertBookingRow, createTestApp, expectData, expectError, expectValidationError, manualClock, type ManualClock, type TestApp } from '../test-helpers/index.js';
import { Booking, Experience, Manifest, type Answer, type BookingExtra } from '../../shared/index.js';

// Monday 2027-03-01, 08:00 UTC = 08:00 in Lisbon (WET, UTC+0, until 28 March).
const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);

let t: TestApp;
let clock: ManualClock;

const newExperience = (fields: Record<string, unknown> = {}): Promise<Experience> => harbourCruise(t, fields);

let guests = 0;
async function book(exp: Experience, startTime: string, fields: Record<string, unknown> = {}): Promise<Booking> {
  guests++;
  const body = {
    experienceId: exp.id,
    startTime,
    participants: 2,
    customerName: `Guest ${guests}`,
    customerEmail: `guest${guests}@example.com`,
    ...fields,
  };
  return expectData(await t.request('POST', '/v1/bookings', { body }), Booking, 201);
}

async function manifest(query = ''): Promise<Manifest> {
  return expectData(await t.request('GET', `/v1/manifest${query}`), Manifest);
}

const starts = (m: Manifest) => m.slots.map((s) => `${s.timeSlot.startTime} ${s.experience.title}`);

const LUNCH: BookingExtra = { extraId: 'ex_lunch', name: 'Lunch', per: 'PERSON', quantity: 2, unitPrice: 1200 };
const PHOTOS: BookingExtra = { extraId: 'ex_photos', name: 'Photos', per: 'BOOKING', quantity: 1, unitPrice: 2500 };

/** A booking of two at 10:00 on 2 March with these answers and extras, written straight into the store. */
async function bookWithForm(exp: Experience, answers: Answer[], extras: BookingExtra[], fields: { guestName?: string } = {}) {
  return insertBookingRow(t.store, {
    orgId: t.orgId,
    experienceId: exp.id,
    slotStart: Date.UTC(2027, 2, 2, 10),
    participants: 2,
    unitPrice: 4500,
    totalCents: 2 * 4500 + 2 * 1200 + 2500,
    answers: JSON.stringify(answers),
    extras: JSON.stringify(extras),
    ...fields,
  });
}

beforeEach(async () => {
  clock = manualClock(NOW);
  t = await createTestApp({ now: clock.now, org: { timezone: 'Europe/Lisbon', currency: 'EUR' } });
});
afterEach(() => t.close());

describe('GET /v1/manifest', () => {
  it('lists every slot of the day by start then experience name, empty ones included, with its guests', async () => {
    const cruise = await newExperience();
    const walk = await newExperience({ name: 'Alfama walk', price: 1500, maxParticipants: 8, schedule: { weekly: everyDay(['10:00']) } });
    const a = await book(cruise, '2027-03-02T10:00:00.000Z', { participants: 3, customerPhone: '+351 912 345 678', metadata: { room: '12' }, internalNote: 'Pays the rest on board' });
    const b = await book(walk, '2027-03-02T10:00:00.000Z', { participants: 1 });
    clock.advance(60_000);
    const c = await book(cruise, '2027-03-02T10:00:00.000Z', { participants: 2 });
    await book(cruise, '2027-03-03T10:00:00.000Z'); // another day

    const m = await manifest('?date=2027-03-02');
    expect(m.date).toBe('2027-03-02');
    expect(m.timezone).toBe('Europe/Lisbon');
    expect(starts(m)).toEqual([
      '2027-03-02T10:00:00.000Z Alfama walk',
      '2027-03-02T10:00:00.000Z Harbour cruise',
      '2027-03-02T15:00:00.000Z Harbour cruise',
    ]);
    const [walkSlot, cruiseSlot, emptySlot] = m.slots;
    expect(walkSlot).toMatchObject({ experience: { id: walk.id, title: 'Alfama walk' }, capacity: 8, booked: 1, remaining: 7 });
    expect(walkSlot!.bookings.map((x) => x.bookingNumber)).toEqual([b.bookingNumber]);
    expect(cruiseSlot!.timeSlot).toEqual(a.timeSlot);
    expect(cruiseSlot).toMatchObject({ capacity: 10, booked: 5, remaining: 5 });
    // In the order they were made.
    expect(cruiseSlot!.bookings.map((x) => x.id)).toEqual([a.id, c.id]);
    expect(cruiseSlot!.bookings[0]).toEqual({
      id: a.id,
      bookingNumber: a.bookingNumber,
      status: 'CONFIRMED',
      guestName: a.guestName,
      guestEmail: a.guestEmail,
      guestPhone: '+351 912 345 678',
      totalParticipants: 3,
      tickets: [],
      total: '135.00',
      paid: '0.00',
      currency: 'EUR',
      checkedInAt: null,
      metadata: { room: '12' },
      internalNote: 'Pays the rest on board',
      extras: [],
      answers: [],
    });
    expect(emptySlot).toMatchObject({ capacity: 10, booked: 0, remaining: 10, bookings: [] });
    expect(emptySlot!.timeSlot.endTime).toBe('2027-03-02T17:00:00.000Z');
  });

  it('defaults to today in the organization’s zone and keeps the slots already under way', async () => {
    await newExperience();
    clock.set(Date.UTC(2027, 2, 1, 16, 0)); // after both of today's departures
    const m = await manifest();
    expect(m.date).toBe('2027-03-01');
    expect(starts(m)).toEqual(['2027-03-01T10:00:00.000Z Harbour cruise', '2027-03-01T15:00:00.000Z Harbour cruise']);
  });

  it('shows the booked slots of an inactive experience, and none of its empty ones', async () => {
    const cruise = await newExperience();
    const closed = await newExperience({ name: 'Night kayak', schedule: { weekly: everyDay(['10:00', '20:00']) } });
    await book(closed, '2027-03-02T20:00:00.000Z');
    expectData(await t.request('PATCH', `/v1/experiences/${closed.id}`, { body: { active: false } }), Experience);
    const m = await manifest('?date=2027-03-02');
    expect(starts(m)).toEqual([
      '2027-03-02T10:00:00.000Z Harbour cruise',
      '2027-03-02T15:00:00.000Z Harbour cruise',
      '2027-03-02T20:00:00.000Z Night kayak',
    ]);
    expect(m.slots[2]).toMatchObject({ booked: 2, bookings: [{ status: 'CONFIRMED' }] });
    expect(cruise.active).toBe(true);
  });

  it('leaves cancelled bookings out', async () => {
    const cruise = await newExperience();
    const kept = await book(cruise, '2027-03-02T10:00:00.000Z');
    const gone = await book(cruise, '2027-03-02T10:00:00.000Z', { participants: 4 });
    expect((await t.request('PATCH', `/v1/bookings/${gone.id}/cancel`, { body: {} })).status).toBe(200);
    const closed = await newExperience({ name: 'Night kayak', schedule: { weekly: everyDay(['20:00']) } });
    const lone = await book(closed, '2027-03-02T20:00:00.000Z');
    expect((await t.request('PATCH', `/v1/bookings/${lone.id}/cancel`, { body: {} })).status).toBe(200);
    expectData(await t.request('PATCH', `/v1/experiences/${closed.id}`, { body: { active: false } }), Experience);

    const m = await manifest('?date=2027-03-02');
    // The inactive experience's slot held only a cancelled booking: it is not there at all.
    expect(starts(m)).toEqual(['2027-03-02T10:00:00.000Z Harbour cruise', '2027-03-02T15:00:00.000Z Harbour cruise']);
    expect(m.slots[0]!.bookings.map((b) => b.id)).toEqual([kept.id]);
    expect(m.slots[0]).toMatchObject({ booked: 2, remaining: 8 });
  });

  it('sums the succeeded payments of each booking', async () => {
    const cruise = await newExperience();
    const a = await book(cruise, '2027-03-02T10:00:00.000Z');
    await book(cruise, '2027-03-02T10:00:00.000Z');
    const pay = (amount: string, status: string) =>
      t.request('POST', `/v1/bookings/${a.id}/payments`, { body: { amount, status, ...(status === 'FAILED' ? { failureReason: 'declined' } : {}) } });
    expect((await pay('40.00', 'SUCCEEDED')).status).toBe(201);
    expect((await pay('25.50', 'SUCCEEDED')).status).toBe(201);
    expect((await pay('90.00', 'FAILED')).status).toBe(201);
    const m = await manifest('?date=2027-03-02');
    expect(m.slots[0]!.bookings.map((b) => [b.total, b.paid])).toEqual([
      ['90.00', '65.50'],
      ['90.00', '0.00'],
    ]);
  });

  it('shows when a guest was checked in', async () => {
    const cruise = await newExperience();
    const a = await book(cruise, '2027-03-02T10:00:00.000Z');
    await book(cruise, '2027-03-02T10:00:00.000Z');
    clock.set(Date.UTC(2027, 2, 2, 9, 50));
    expect((await t.request('PATCH', `/v1/bookings/${a.id}`, { body: { checkedIn: true } })).status).toBe(200);
    const m = await manifest('?date=2027-03-02');
    expect(m.slots[0]!.bookings.map((b) => b.checkedInAt)).toEqual(['2027-03-02T09:50:00.000Z', null]);
    const csv = (await t.request('GET', '/v1/manifest.csv?date=2027-03-02')).text.split('\r\n');
    expect([csv[1]!.split(',').at(-4), csv[2]!.split(',').at(-4)]).toEqual(['yes', 'no']);
  });

  it('reads a DST day in Europe/Lisbon as 23 hours, a gap time moved past the gap', async () => {
    // 2027-03-28: clocks go from 01:00 WET to 02:00 WEST. 01:30 does not exist and becomes 02:30 WEST.
    await newExperience({ name: 'Night walk', duration: 30, schedule: { weekly: everyDay(['00:30', '01:30', '10:00', '23:30']) } });
    const m = await manifest('?date=2027-03-28');
    expect(m.slots.map((s) => s.timeSlot.startTime)).toEqual([
      '2027-03-28T00:30:00.000Z', // 00:30 WET
      '2027-03-28T01:30:00.000Z', // 02:30 WEST
      '2027-03-28T09:00:00.000Z', // 10:00 WEST
      '2027-03-28T22:30:00.000Z', // 23:30 WEST
    ]);
    const next = await manifest('?date=2027-03-29');
    expect(next.slots[0]!.timeSlot.startTime).toBe('2027-03-28T23:30:00.000Z'); // 00:30 WEST on the 29th
  });

  it('cuts the day in the organization’s zone, whatever zone an experience is scheduled in', async () => {
    // 20:00 in New York (EST, UTC−5) is 01:00 the next day in Lisbon.
    const ny = await newExperience({ name: 'Harbour lights', schedule: { timezone: 'America/New_York', weekly: everyDay(['08:00', '20:00']) } });
    await book(ny, '2027-03-02T01:00:00.000Z', { customerName: 'Late Guest' });
    const m = await manifest('?date=2027-03-02');
    expect(m.slots.map((s) => s.timeSlot.startTime)).toEqual([
      '2027-03-02T01:00:00.000Z', // 20:00 on 1 March in New York
      '2027-03-02T13:00:00.000Z', // 08:00 on 2 March in New York
    ]);
    expect(m.slots[0]!.bookings.map((b) => b.guestName)).toEqual(['Late Guest']);
    const csv = await t.request('GET', '/v1/manifest.csv?date=2027-03-02');
    expect(csv.text.split('\r\n')[1]).toMatch(/^20:00,Harbour lights,/);
  });

  it('filters by experience; an unknown one is a 404', async () => {
    const cruise = await newExperience();
    const walk = await newExperience({ name: 'Alfama walk', schedule: { weekly: everyDay(['10:00']) } });
    await book(cruise, '2027-03-02T10:00:00.000Z');
    await book(walk, '2027-03-02T10:00:00.000Z');
    const m = await manifest(`?date=2027-03-02&experienceId=${walk.id}`);
    expect(starts(m)).toEqual(['2027-03-02T10:00:00.000Z Alfama walk']);
    expect(m.slots[0]!.bookings).toHaveLength(1);
    expectError(await t.request('GET', '/v1/manifest?experienceId=exp_unknown'), 404, 'NOT_FOUND');
    expectError(await t.request('GET', '/v1/manifest.csv?experienceId=exp_unknown'), 404, 'NOT_FOUND');
    const other = await t.addOrganization({ name: 'Other' });
    expectError(await t.request('GET', `/v1/manifest?experienceId=${walk.id}`, { key: other.secretKey }), 404, 'NOT_FOUND');
  });

  it('refuses a date that is not one', async () => {
    expectValidationError(await t.request('GET', '/v1/manifest?date=2027-02-30'), 'date');
    expectValidationError(await t.request('GET', '/v1/manifest?date=tomorrow'), 'date');
    expectValidationError(await t.request('GET', '/v1/manifest?day=2027-03-01'), 'day');
    const csv = await t.request('GET', '/v1/manifest.csv?date=2027-13-01');
    expect(csv.headers.get('content-type')).toMatch(/^application\/json/);
    expectValidationError(csv, 'date');
  });

  it('needs the bookings:read scope', async () => {
    const { key } = await t.createKey({ scopes: ['experiences:read', 'bookings:write'] });
    for (const path of ['/v1/manifest', '/v1/manifest.csv', '/v1/reports/daily', '/v1/reports/occupancy']) {
      expectError(await t.request('GET', path, { key }), 403, 'FORBIDDEN');
      expectError(await t.request('GET', path, { key: null }), 401, 'UNAUTHORIZED');
    }
    const reader = await t.createKey({ scopes: ['bookings:read'] });
    expect((await t.request('GET', '/v1/manifest', { key: reader.key })).status).toBe(200);
  });
  it('shows each booking’s extras and answers as the booking keeps them', async () => {
    const cruise = await newExperience();
    const answers: Answer[] = [
      { questionId: 'q_diet', label: 'Dietary needs', type: 'TEXT', value: 'No nuts' },
      { questionId: 'q_waiver', label: 'I accept the waiver', type: 'CHECKBOX', value: true },
    ];
    await bookWithForm(cruise, answers, [LUNCH, PHOTOS]);
    await book(cruise, '2027-03-02T10:00:00.000Z');
    const [form, plain] = (await manifest('?date=2027-03-02')).slots[0]!.bookings;
    expect(form).toMatchObject({ extras: [LUNCH, PHOTOS], answers, total: '139.00' });
    expect(plain).toMatchObject({ extras: [], answers: [] });
  });

});

describe('GET /v1/manifest.csv', () => {
  it('answers RFC 4180 CSV with a header row, a filename, and formulas neutralised', async () => {
    const cruise = await newExperience({ name: 'Harbour cruise, "classic"' });
    await book(cruise, '2027-03-02T15:00:00.000Z', { customerName: 'Ana "Nani" Costa, Jr.\nRoom 4', customerPhone: '+351 912 345 678' });
    await book(cruise, '2027-03-02T10:00:00.000Z', { customerName: '=HYPERLINK("http://evil.example","click")', participants: 1 });
    await book(cruise, '2027-03-02T10:00:00.000Z', { customerName: '@SUM(A1)', customerPhone: '-1', internalNote: '=1+1, "VIP"' });

    const res = await t.request('GET', '/v1/manifest.csv?date=2027-03-02');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="manifest-2027-03-02.csv"');
    expect(res.text.endsWith('\r\n')).toBe(true);
    const lines = res.text.split('\r\n');
    expect(lines[0]).toBe('start,experience,bookingNumber,status,guestName,guestEmail,guestPhone,participants,tickets,total,paid,currency,checkedIn,note,extras,answers');
    expect(lines).toHaveLength(5); // header, three bookings, and the empty string after the last CRLF
    expect(lines[1]).toMatch(
      /^10:00,"Harbour cruise, ""classic""",BK-\w{8},CONFIRMED,"'=HYPERLINK\(""http:\/\/evil\.example"",""click""\)",guest\d+@example\.com,,1,,45\.00,0\.00,EUR,no,,,$/,
    );
    expect(lines[2]).toMatch(/^10:00,"Harbour cruise, ""classic""",BK-\w{8},CONFIRMED,'@SUM\(A1\),guest\d+@example\.com,'-1,2,,90\.00,0\.00,EUR,no,"'=1\+1, ""VIP""",,$/);
    // The newline inside the quoted name is a bare LF, so the record continues on the next split line.
    expect(lines[3]).toMatch(/^15:00,"Harbour cruise, ""classic""",BK-\w{8},CONFIRMED,"Ana ""Nani"" Costa, Jr\.\nRoom 4",guest\d+@example\.com,'\+351 912 345 678,2,,90\.00,0\.00,EUR,no,,,$/);
    expect(lines[4]).toBe('');
  });

  it('ends each row with its extras and answers, quoted and neutralised like every cell, empty when none', async () => {
    const cruise = await newExperience();
    await bookWithForm(
      cruise,
      [
        { questionId: 'q_plus', label: '+1 guest name', type: 'TEXT', value: '=HYPERLINK("http://evil.example","click")' },
        { questionId: 'q_waiver', label: 'Waiver', type: 'CHECKBOX', value: true },
        { questionId: 'q_towel', label: 'Needs a towel', type: 'CHECKBOX', value: false },
        { questionId: 'q_weight', label: 'Weight (kg)', type: 'NUMBER', value: 72.5 },
        { questionId: 'q_date', label: 'Birthday', type: 'DATE', value: '1990-05-01' },
      ],
      [LUNCH, PHOTOS],
      { guestName: 'Ana' },
    );
    await bookWithForm(cruise, [{ questionId: 'q_diet', label: 'Dietary needs', type: 'TEXT', value: '@SUM(A1)' }], [], { guestName: 'Bea' });
    await bookWithForm(cruise, [], [], { guestName: 'Carla' });

    const lines = (await t.request('GET', '/v1/manifest.csv?date=2027-03-02')).text.split('\r\n');
    const byGuest = (name: string) => lines.find((l) => l.includes(`,${name},`))!;
    expect(byGuest('Ana')).toMatch(
      /,139\.00,0\.00,EUR,no,,2 × Lunch; 1 × Photos,"'\+1 guest name: =HYPERLINK\(""http:\/\/evil\.example"",""click""\); Waiver: yes; Needs a towel: no; Weight \(kg\): 72\.5; Birthday: 1990-05-01"$/,
    );
    expect(byGuest('Bea')).toMatch(/,EUR,no,,,Dietary needs: @SUM\(A1\)$/);
    expect(byGuest('Carla')).toMatch(/,EUR,no,,,$/);
  });

  it('lists a reseller’s guest given without a name or an e-mail with empty cells, in the JSON and the CSV', async () => {
    const cruise = await newExperience();
    const named = await book(cruise, '2027-03-02T10:00:00.000Z', { participants: 1 });
    clock.advance(1000);
    const resold = await insertBookingRow(t.store, {
      orgId: t.orgId, experienceId: cruise.id, slotStart: Date.UTC(2027, 2, 2, 10), participants: 2, unitPrice: 4500,
      source: 'OCTO', customerId: null, guestName: null, guestEmail: null, guestPhone: '+44 20 7946 0000', createdAt: NOW + 1000,
    });

    const guests = (await manifest('?date=2027-03-02')).slots[0]!.bookings;
    expect(guests.map((b) => [b.bookingNumber, b.guestName, b.guestEmail, b.guestPhone])).toEqual([
      [named.bookingNumber, named.guestName, named.guestEmail, null],
      [resold.bookingNumber, null, null, '+44 20 7946 0000'],
    ]);

    const lines = (await t.request('GET', '/v1/manifest.csv?date=2027-03-02')).text.split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(new RegExp(`^10:00,Harbour cruise,${named.bookingNumber},CONFIRMED,Guest \\d+,guest\\d+@example\\.com,,1,`));
    expect(lines[2]).toBe(`10:00,Harbour cruise,${resold.bookingNumber},CONFIRMED,,,'+44 20 7946 0000,2,,90.00,0.00,EUR,no,,,`);
  });

  it('is only a header row on a day without bookings', async () => {
    await newExperience();
    const res = await t.request('GET', '/v1/manifest.csv?date=2027-03-02');
    expect(res.text).toBe('start,experience,bookingNumber,status,guestName,guestEmail,guestPhone,participants,tickets,total,paid,currency,checkedIn,note,extras,answers\r\n');
  });

  it('names the file after today when no date is given', async () => {
    const res = await t.request('GET', '/v1/manifest.csv');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="manifest-2027-03-01.csv"');
  });
});
