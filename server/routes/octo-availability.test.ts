import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, everyDay, expectData, manualClock, type ManualClock, type TestApp } from '../test-helpers/index.js';
import { Booking, Experience, Slot } from '../../shared/index.js';
import { OctoAvailability, OctoCalendarEntry, OctoError } from '../../shared/schemas/octo.js';

// Monday 2027-03-01, 08:00 UTC (08:00 in Lisbon, on WET until 2027-03-28, then WEST, +01:00).
const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);
const HOUR = 3_600_000;

const expectOctoError = (res: { status: number; body: unknown }, error: string, field?: Record<string, string>) => {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(OctoError.parse(res.body)).toEqual({ error, errorMessage: expect.any(String), ...field });
};

describe('OCTO: availability', () => {
  let t: TestApp;
  let clock: ManualClock;
  let walk: Experience;
  beforeEach(async () => {
    clock = manualClock(NOW);
    t = await createTestApp({ now: clock.now, org: { timezone: 'Europe/Lisbon', currency: 'EUR' } });
    const body = {
      name: 'Alfama walk', description: '', duration: 90, price: 2500, maxParticipants: 10, maxPerBooking: 8, minNoticeMinutes: 60, maxAdvanceDays: 400,
      schedule: { weekly: everyDay(['10:00', '15:00']) },
    };
    walk = expectData(await t.request('POST', '/v1/experiences', { body }), Experience, 201);
  });
  afterEach(() => t.close());

  const availability = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.request('POST', '/octo/availability', { body: { productId: walk.id, optionId: 'DEFAULT', ...body }, headers });
  const slotsOf = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const res = await availability(body, headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body as unknown[]).map((a) => OctoAvailability.parse(a));
  };
  const calendar = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const res = await t.request('POST', '/octo/availability/calendar', { body: { productId: walk.id, optionId: 'DEFAULT', ...body }, headers });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body as unknown[]).map((a) => OctoCalendarEntry.parse(a));
  };
  const book = async (startTime: string, participants: number) =>
    expectData(
      await t.request('POST', '/v1/bookings', { body: { experienceId: walk.id, startTime, participants, customerName: 'Guest', customerEmail: 'guest@example.com' } }),
      Booking,
      201,
    );

  it('shows a day’s slots with local times at the offset then in force: +00:00 in Lisbon’s winter, +01:00 in its summer', async () => {
    const winter = await slotsOf({ localDate: '2027-03-02' });
    expect(winter).toEqual([
      {
        id: expect.stringMatching(/^ts_/),
        localDateTimeStart: '2027-03-02T10:00:00+00:00',
        localDateTimeEnd: '2027-03-02T11:30:00+00:00',
        utcCutoffAt: '2027-03-02T09:00:00Z',
        allDay: false,
        available: true,
        status: 'AVAILABLE',
        vacancies: 10,
        capacity: 10,
        maxUnits: 8,
        openingHours: [],
      },
      expect.objectContaining({ localDateTimeStart: '2027-03-02T15:00:00+00:00', localDateTimeEnd: '2027-03-02T16:30:00+00:00', utcCutoffAt: '2027-03-02T14:00:00Z' }),
    ]);
    const summer = await slotsOf({ localDate: '2027-07-01' });
    expect(summer.map((a) => [a.localDateTimeStart, a.localDateTimeEnd, a.utcCutoffAt])).toEqual([
      ['2027-07-01T10:00:00+01:00', '2027-07-01T11:30:00+01:00', '2027-07-01T08:00:00Z'],
      ['2027-07-01T15:00:00+01:00', '2027-07-01T16:30:00+01:00', '2027-07-01T13:00:00Z'],
    ]);
    // The night the clocks go forward: the day's slots after it are at +01:00.
    const change = await slotsOf({ localDate: '2027-03-28' });
    expect(change.map((a) => a.localDateTimeStart)).toEqual(['2027-03-28T10:00:00+01:00', '2027-03-28T15:00:00+01:00']);
    // Ids are the slots of /v1.
    const v1 = (await t.request('GET', `/v1/availability?experienceId=${walk.id}&startDate=2027-03-02&endDate=2027-03-02`)).body.data.slots as { id: string }[];
    expect(winter.map((a) => a.id)).toEqual(v1.map((s) => s.id));
  });

  it('writes a zone west of UTC with a negative offset', async () => {
    const ny = expectData(
      await t.request('POST', '/v1/experiences', {
        body: { name: 'Harbor', description: '', duration: 60, price: 1000, maxParticipants: 4, schedule: { timezone: 'America/New_York', weekly: everyDay(['09:30']) } },
      }),
      Experience,
      201,
    );
    const res = await t.request('POST', '/octo/availability', { body: { productId: ny.id, optionId: 'DEFAULT', localDate: '2027-03-05' } });
    expect(res.body.map((a: OctoAvailability) => [a.localDateTimeStart, a.utcCutoffAt])).toEqual([['2027-03-05T09:30:00-05:00', '2027-03-05T14:30:00Z']]);
  });

  it('tells AVAILABLE, LIMITED (under half the capacity left), SOLD_OUT and CLOSED (closed or calendar-blocked) slots apart', async () => {
    await book('2027-03-02T10:00:00.000Z', 6);
    await book('2027-03-02T15:00:00.000Z', 5);
    await book('2027-03-03T10:00:00.000Z', 8);
    await book('2027-03-03T10:00:00.000Z', 2);
    const day2 = await slotsOf({ localDate: '2027-03-02' });
    expect(day2.map((a) => [a.status, a.available, a.vacancies, a.capacity])).toEqual([
      ['LIMITED', true, 4, 10],
      ['AVAILABLE', true, 5, 10],
    ]);
    const day3 = await slotsOf({ localDate: '2027-03-03' });
    expect(day3.map((a) => [a.status, a.available, a.vacancies])).toEqual([
      ['SOLD_OUT', false, 0],
      ['AVAILABLE', true, 10],
    ]);
    // A slot the operator closed, and one an imported calendar blocks.
    expectData(await t.request('PATCH', `/v1/slots/${day3[1]!.id}`, { body: { closed: true } }), Slot);
    const imported = {
      id: 'cal_blocking0000000000', orgId: t.orgId, name: 'Guide’s days off', url: 'https://calendar.example/off.ics', experienceId: walk.id, etag: null,
      lastModified: null, lastSyncedAt: NOW, lastError: null, eventCount: 1, nextSyncAt: NOW + HOUR, expandedAt: null, expandedZone: null,
      syncNote: null, createdAt: NOW, updatedAt: NOW,
    };
    await t.store.calendarImports.insertCalendarImport(imported);
    const blockedStart = Date.parse('2027-03-02T15:00:00.000Z');
    await t.store.calendarImports.replaceBusyIntervals(imported, [{ start: blockedStart - HOUR, end: blockedStart + 60_000 }]);
    const closed = await slotsOf({ localDateStart: '2027-03-02', localDateEnd: '2027-03-03' });
    expect(closed.map((a) => [a.localDateTimeStart, a.status, a.available, a.vacancies])).toEqual([
      ['2027-03-02T10:00:00+00:00', 'LIMITED', true, 4],
      ['2027-03-02T15:00:00+00:00', 'CLOSED', false, 5],
      ['2027-03-03T10:00:00+00:00', 'SOLD_OUT', false, 0],
      ['2027-03-03T15:00:00+00:00', 'CLOSED', false, 10],
    ]);
  });

  it('counts a slot’s own capacity when the operator set one', async () => {
    const [slot] = await slotsOf({ localDate: '2027-03-04' });
    expectData(await t.request('PATCH', `/v1/slots/${slot!.id}`, { body: { capacity: 20 } }), Slot);
    await book('2027-03-04T10:00:00.000Z', 8);
    const [raised] = await slotsOf({ localDate: '2027-03-04' });
    expect(raised).toMatchObject({ capacity: 20, vacancies: 12, status: 'AVAILABLE' });
    expectData(await t.request('PATCH', `/v1/slots/${slot!.id}`, { body: { capacity: 15 } }), Slot);
    const [lowered] = await slotsOf({ localDate: '2027-03-04' });
    expect(lowered).toMatchObject({ capacity: 15, vacancies: 7, status: 'LIMITED' });
  });

  it('shows a slot CLOSED from its cutoff (start less the notice period) and leaves it out once started', async () => {
    // 09:00 today is the cutoff of today's 10:00 slot.
    const today = () => slotsOf({ localDate: '2027-03-01' });
    expect((await today()).map((a) => a.status)).toEqual(['AVAILABLE', 'AVAILABLE']);
    clock.set(Date.UTC(2027, 2, 1, 8, 59, 59));
    expect((await today()).map((a) => a.status)).toEqual(['AVAILABLE', 'AVAILABLE']);
    clock.set(Date.UTC(2027, 2, 1, 9, 0, 0));
    expect((await today()).map((a) => [a.status, a.available])).toEqual([['CLOSED', false], ['AVAILABLE', true]]);
    clock.set(Date.UTC(2027, 2, 1, 10, 0, 0));
    expect((await today()).map((a) => a.localDateTimeStart)).toEqual(['2027-03-01T15:00:00+00:00']);
  });

  it('leaves out the days past the booking window', async () => {
    // maxAdvanceDays 400: 2028-04-04 is the last local date that can be booked.
    expect((await slotsOf({ localDate: '2028-04-04' })).length).toBe(2);
    expect(await slotsOf({ localDate: '2028-04-05' })).toEqual([]);
    expect(await slotsOf({ localDate: '2027-02-28' })).toEqual([]);
  });

  it('says with units whether they fit, counting the places each unit takes', async () => {
    const cruise = expectData(
      await t.request('POST', '/v1/experiences', {
        body: {
          name: 'Cruise', description: '', duration: 60, price: 1000, maxParticipants: 4, schedule: { weekly: everyDay(['12:00']) },
          priceCategories: [{ name: 'Adult', price: 3000, type: 'ADULT' }, { name: 'Lap infant', price: 0, type: 'INFANT', occupiesPlace: false }],
        },
      }),
      Experience,
      201,
    );
    const [adult, infant] = cruise.priceCategories.map((c) => c.id);
    const ask = async (units: { id: string; quantity: number }[]) => {
      const res = await t.request('POST', '/octo/availability', { body: { productId: cruise.id, optionId: 'DEFAULT', localDate: '2027-03-02', units } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body as OctoAvailability[]).map((a) => a.available);
    };
    expect(await ask([{ id: adult!, quantity: 4 }, { id: infant!, quantity: 3 }])).toEqual([true]);
    expect(await ask([{ id: adult!, quantity: 5 }])).toEqual([false]);
    expect(await ask([{ id: adult!, quantity: 0 }])).toEqual([true]);
    expect(await ask([])).toEqual([true]);
    await book('2027-03-02T10:00:00.000Z', 7);
    const limited = await slotsOf({ localDate: '2027-03-02', units: [{ id: 'adult', quantity: 4 }] });
    expect(limited.map((a) => [a.status, a.vacancies, a.available])).toEqual([['LIMITED', 3, false], ['AVAILABLE', 10, true]]);
    expectOctoError(
      await t.request('POST', '/octo/availability', { body: { productId: cruise.id, optionId: 'DEFAULT', localDate: '2027-03-02', units: [{ id: 'adult', quantity: 1 }] } }),
      'INVALID_UNIT_ID',
      { unitId: 'adult' },
    );
  });

  it('adds unit prices only with the octo/pricing capability', async () => {
    const priced = await availability({ localDate: '2027-03-02' }, { 'octo-capabilities': 'octo/pricing' });
    expect(priced.headers.get('octo-capabilities')).toBe('octo/pricing');
    expect(OctoAvailability.parse(priced.body[0]).unitPricing).toEqual([
      { unitId: 'adult', original: 2500, retail: 2500, net: null, currency: 'EUR', currencyPrecision: 2, includedTaxes: [] },
    ]);
    const plain = await availability({ localDate: '2027-03-02' });
    expect(plain.headers.get('octo-capabilities')).toBe('');
    expect(plain.body[0]).not.toHaveProperty('unitPricing');
  });

  it('finds slots by id, by start, leaving out unknown, other products’ and past ones', async () => {
    const [a, b] = await slotsOf({ localDate: '2027-03-02' });
    const [c] = await slotsOf({ localDate: '2027-07-01' });
    const [todays] = await slotsOf({ localDate: '2027-03-01' });
    const other = expectData(
      await t.request('POST', '/v1/experiences', { body: { name: 'Other', description: '', duration: 60, price: 1000, maxParticipants: 4, schedule: { weekly: everyDay(['10:00']) } } }),
      Experience,
      201,
    );
    const otherSlot = (await t.request('POST', '/octo/availability', { body: { productId: other.id, optionId: 'DEFAULT', localDate: '2027-03-02' } })).body[0].id as string;
    const offSchedule = a!.id.replace(/\d+$/, (m) => String(Number(m) + 1));
    clock.set(Date.UTC(2027, 2, 1, 12, 0, 0));
    // A start some 190,000 years ahead: the shape of a slot id of this product, far past its window.
    const farAway = a!.id.replace(/\d+$/, '99999999999');
    const found = await slotsOf({ availabilityIds: [c!.id, 'nonsense', otherSlot, b!.id, offSchedule, todays!.id, farAway, a!.id] });
    expect(found.map((s) => s.id)).toEqual([a!.id, b!.id, c!.id]);
    expect(found[2]!.localDateTimeStart).toBe('2027-07-01T10:00:00+01:00');
    expect(await slotsOf({ availabilityIds: ['nonsense'] })).toEqual([]);
  });

  it('takes exactly one selector, a range in order of at most 366 days, and 1 to 100 ids', async () => {
    const bad = async (body: Record<string, unknown>) => expectOctoError(await availability(body), 'BAD_REQUEST');
    await bad({});
    await bad({ localDate: '2027-03-02', availabilityIds: ['x'] });
    await bad({ localDate: '2027-03-02', localDateStart: '2027-03-02', localDateEnd: '2027-03-03' });
    await bad({ localDateStart: '2027-03-02' });
    await bad({ localDateEnd: '2027-03-02' });
    await bad({ localDateStart: '2027-03-03', localDateEnd: '2027-03-02' });
    await bad({ localDateStart: '2027-03-01', localDateEnd: '2028-03-01' });
    await bad({ availabilityIds: [] });
    await bad({ availabilityIds: Array.from({ length: 101 }, (_, i) => `ts_${i}`) });
    await bad({ availabilityIds: 'ts_1' });
    await bad({ localDate: '02/03/2027' });
    // 366 days, 2027-03-01 to 2028-02-29, is the longest range.
    const year = await slotsOf({ localDateStart: '2027-03-01', localDateEnd: '2028-02-29' });
    expect(year.length).toBe(2 * 366);
    expect(year[0]!.localDateTimeStart).toBe('2027-03-01T10:00:00+00:00');
    expect((await slotsOf({ availabilityIds: Array.from({ length: 100 }, (_, i) => year[i]!.id) })).length).toBe(100);
    // null reads as absent.
    expect((await slotsOf({ localDate: '2027-03-02', availabilityIds: null, localDateStart: null, units: null, currency: null })).length).toBe(2);
  });

  it('checks the product, the option, the units and the currency', async () => {
    expectOctoError(await availability({ productId: 'exp_nothing', localDate: '2027-03-02' }), 'INVALID_PRODUCT_ID', { productId: 'exp_nothing' });
    expectOctoError(await availability({ optionId: 'PREMIUM', localDate: '2027-03-02' }), 'INVALID_OPTION_ID', { optionId: 'PREMIUM' });
    expectOctoError(await availability({ localDate: '2027-03-02', units: [{ id: 'child', quantity: 1 }] }), 'INVALID_UNIT_ID', { unitId: 'child' });
    expectOctoError(await availability({ localDate: '2027-03-02', currency: 'USD' }), 'BAD_REQUEST');
    expect((await slotsOf({ localDate: '2027-03-02', currency: 'EUR' })).length).toBe(2);
    // Fields OCTO does not know are ignored.
    expect((await slotsOf({ localDate: '2027-03-02', pickupRequested: true, whatever: { x: 1 } })).length).toBe(2);
  });

  it('gives one calendar entry per local date: the best open slot’s places and status, CLOSED when none', async () => {
    await book('2027-03-02T10:00:00.000Z', 8);
    await book('2027-03-02T10:00:00.000Z', 2);
    await book('2027-03-02T15:00:00.000Z', 7);
    await book('2027-03-03T10:00:00.000Z', 2);
    const [a, b] = await slotsOf({ localDate: '2027-03-04' });
    for (const slot of [a!, b!]) expectData(await t.request('PATCH', `/v1/slots/${slot.id}`, { body: { closed: true } }), Slot);
    const [c] = await slotsOf({ localDate: '2027-03-05' });
    expectData(await t.request('PATCH', `/v1/slots/${c!.id}`, { body: { capacity: 30 } }), Slot);
    const days = await calendar({ localDateStart: '2027-02-28', localDateEnd: '2027-03-05' });
    expect(days).toEqual([
      { localDate: '2027-02-28', available: false, status: 'CLOSED', vacancies: 0, capacity: 0, openingHours: [] },
      { localDate: '2027-03-01', available: true, status: 'AVAILABLE', vacancies: 10, capacity: 10, openingHours: [] },
      { localDate: '2027-03-02', available: true, status: 'LIMITED', vacancies: 3, capacity: 10, openingHours: [] },
      { localDate: '2027-03-03', available: true, status: 'AVAILABLE', vacancies: 10, capacity: 10, openingHours: [] },
      { localDate: '2027-03-04', available: false, status: 'CLOSED', vacancies: 0, capacity: 10, openingHours: [] },
      { localDate: '2027-03-05', available: true, status: 'AVAILABLE', vacancies: 30, capacity: 30, openingHours: [] },
    ]);
    const summer = await calendar({ localDateStart: '2027-07-01', localDateEnd: '2027-07-01', units: [{ id: 'adult', quantity: 11 }] });
    expect(summer).toEqual([{ localDate: '2027-07-01', available: false, status: 'AVAILABLE', vacancies: 10, capacity: 10, openingHours: [] }]);
  });

  it('prices calendar entries only with octo/pricing, and takes a range only', async () => {
    const priced = await calendar({ localDateStart: '2027-03-02', localDateEnd: '2027-03-02' }, { 'octo-capabilities': 'octo/pricing' });
    expect(priced[0]!.unitPricingFrom).toEqual([{ unitId: 'adult', original: 2500, retail: 2500, net: null, currency: 'EUR', currencyPrecision: 2, includedTaxes: [] }]);
    const calendarOf = (body: Record<string, unknown>) =>
      t.request('POST', '/octo/availability/calendar', { body: { productId: walk.id, optionId: 'DEFAULT', ...body } });
    expectOctoError(await calendarOf({ localDate: '2027-03-02' }), 'BAD_REQUEST');
    expectOctoError(await calendarOf({ localDateStart: '2027-03-02' }), 'BAD_REQUEST');
    expectOctoError(await calendarOf({ localDateStart: '2027-03-03', localDateEnd: '2027-03-02' }), 'BAD_REQUEST');
    expectOctoError(await calendarOf({ localDateStart: '2027-03-01', localDateEnd: '2028-03-01' }), 'BAD_REQUEST');
    expect((await calendar({ localDateStart: '2027-03-01', localDateEnd: '2028-02-29' })).length).toBe(366);
    expectOctoError(await calendarOf({ productId: 'nope', localDateStart: '2027-03-02', localDateEnd: '2027-03-02' }), 'INVALID_PRODUCT_ID', { productId: 'nope' });
    expectOctoError(await calendarOf({ optionId: 'nope', localDateStart: '2027-03-02', localDateEnd: '2027-03-02' }), 'INVALID_OPTION_ID', { optionId: 'nope' });
  });
});
