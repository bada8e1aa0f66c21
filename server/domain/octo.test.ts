import { describe, expect, it } from 'vitest';
import { octoAvailable, octoCalendarDays, octoLocalStartTimes, octoSelection, octoStatus, octoUnitsOf, placesOfUnits, requestedCapabilities, OctoRefusal } from './octo.js';
import { daysBetween } from './time.js';

const refusalOf = (work: () => unknown) => {
  try {
    work();
  } catch (err) {
    if (err instanceof OctoRefusal) return { code: err.code, field: err.field, value: err.value };
    throw err;
  }
  throw new Error('no refusal');
};

describe('OCTO rules', () => {
  it('reads the capabilities asked for, ignoring unknown ones and case', () => {
    expect(requestedCapabilities(undefined)).toEqual([]);
    expect(requestedCapabilities('')).toEqual([]);
    expect(requestedCapabilities(' Octo/Pricing , octo/content')).toEqual(['octo/pricing']);
  });

  it('takes exactly one selector', () => {
    expect(octoSelection({ localDate: '2027-03-02' }, daysBetween)).toEqual({ kind: 'dates', from: '2027-03-02', to: '2027-03-02' });
    expect(octoSelection({ localDateStart: '2027-03-02', localDateEnd: '2028-03-01' }, daysBetween)).toEqual({ kind: 'dates', from: '2027-03-02', to: '2028-03-01' });
    expect(octoSelection({ availabilityIds: ['a'] }, daysBetween)).toEqual({ kind: 'ids', ids: ['a'] });
    for (const asked of [
      {},
      { localDate: '2027-03-02', availabilityIds: ['a'] },
      { localDateEnd: '2027-03-02' },
      { localDateStart: '2027-03-02', localDateEnd: '2027-03-01' },
      { localDateStart: '2027-03-02', localDateEnd: '2028-03-02' },
      { availabilityIds: [] },
    ]) {
      expect(refusalOf(() => octoSelection(asked, daysBetween)).code, JSON.stringify(asked)).toBe('BAD_REQUEST');
    }
  });

  it('tells a slot’s status from its cutoff, closure and places', () => {
    const slot = { start: 10 * 3_600_000, capacity: 10, remaining: 10, shut: false };
    const now = 8 * 3_600_000;
    expect(octoStatus(slot, 60, now)).toBe('AVAILABLE');
    expect(octoStatus({ ...slot, remaining: 5 }, 60, now)).toBe('AVAILABLE');
    expect(octoStatus({ ...slot, remaining: 4 }, 60, now)).toBe('LIMITED');
    expect(octoStatus({ ...slot, remaining: 0 }, 60, now)).toBe('SOLD_OUT');
    expect(octoStatus({ ...slot, shut: true }, 60, now)).toBe('CLOSED');
    expect(octoStatus(slot, 120, now)).toBe('CLOSED');
    expect(octoStatus(slot, 119, now)).toBe('AVAILABLE');
    expect(octoAvailable('LIMITED', 3, undefined)).toBe(true);
    expect(octoAvailable('LIMITED', 3, 4)).toBe(false);
    expect(octoAvailable('SOLD_OUT', 0, 0)).toBe(false);
  });

  it('makes units of the price categories, or one adult at the experience’s price', () => {
    expect(octoUnitsOf([], 2500)).toEqual([{ id: 'adult', name: 'Adult', type: 'ADULT', price: 2500, paxCount: 1, minAge: 0, maxAge: 99, categoryId: null }]);
    const units = octoUnitsOf(
      [{ id: 'pc_a', name: 'Adult', price: 4000, type: 'ADULT', occupiesPlace: true, minAge: null, maxAge: null }, { id: 'pc_i', name: 'Infant', price: 0, type: 'INFANT', occupiesPlace: false, minAge: null, maxAge: 2 }],
      9999,
    );
    expect(units.map((u) => [u.id, u.paxCount, u.minAge, u.maxAge])).toEqual([['pc_a', 1, 0, 99], ['pc_i', 0, 0, 2]]);
    expect(placesOfUnits([{ id: 'pc_a', quantity: 2 }, { id: 'pc_i', quantity: 3 }], units)).toBe(2);
    expect(refusalOf(() => placesOfUnits([{ id: 'adult', quantity: 1 }], units))).toEqual({ code: 'INVALID_UNIT_ID', field: 'unitId', value: 'adult' });
  });

  it('lists the weekly start times and those of exceptions from today on', () => {
    const schedule = { weekly: { mon: ['15:00', '09:30'], tue: ['09:30'] }, exceptions: [{ date: '2027-02-01', times: ['07:00'] }, { date: '2027-03-01', times: ['18:00'] }] };
    expect(octoLocalStartTimes(schedule, '2027-03-01')).toEqual(['09:30', '15:00', '18:00']);
    expect(octoLocalStartTimes(null, '2027-03-01')).toEqual([]);
  });

  it('picks each day’s slot with most places among those not CLOSED', () => {
    const slot = (day: string, remaining: number, closed = false) => ({ day, start: 0, capacity: 10, remaining, shut: closed });
    const days = octoCalendarDays(
      [slot('a', 2), slot('a', 7), slot('a', 9, true), slot('b', 1, true)],
      ['a', 'b', 'c'],
      (s) => s.day,
      (s) => (s.shut ? 'CLOSED' : 'AVAILABLE'),
    );
    expect(days.map((d) => [d.localDate, d.best?.remaining ?? null, d.slots])).toEqual([['a', 7, 3], ['b', null, 1], ['c', null, 0]]);
  });
});
