import { describe, expect, it } from 'vitest';
import { addDays, addMonths, dateInZone, lastDayOf, monthWeeks, weekdayIndex } from './dates.js';

describe('calendar dates', () => {
  it('adds days and months across year ends and leap days', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2027-01', -1)).toBe('2026-12');
    expect(lastDayOf('2027-02')).toBe('2027-02-28');
    expect(lastDayOf('2028-02')).toBe('2028-02-29');
  });

  it('puts a month in Monday-first weeks with blanks around it', () => {
    expect(weekdayIndex('2026-12-07')).toBe(0);
    const weeks = monthWeeks('2026-12');
    expect(weeks).toHaveLength(5);
    expect(weeks[0]).toEqual([null, '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05', '2026-12-06']);
    expect(weeks[4]).toEqual(['2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31', null, null, null]);
  });

  it('reads an instant’s local date in the experience’s zone, not the browser’s', () => {
    expect(dateInZone('2026-12-01T23:30:00.000Z', 'Europe/Lisbon')).toBe('2026-12-01');
    expect(dateInZone('2026-12-01T23:30:00.000Z', 'Europe/Berlin')).toBe('2026-12-02');
    expect(dateInZone('2026-12-01T03:00:00.000Z', 'America/New_York')).toBe('2026-11-30');
    // Across the spring-forward night in Lisbon.
    expect(dateInZone('2027-03-28T00:30:00.000Z', 'Europe/Lisbon')).toBe('2027-03-28');
  });
});
