import { describe, expect, it } from 'vitest';
import { ExperienceCreate, ExperienceListQuery, ExperiencePatch, ScheduleInput } from '../index.js';

const base = { name: 'Walk', description: '', duration: 60, price: 0, maxParticipants: 4 };

describe('experience schemas', () => {
  it('take a minimal experience and a full schedule', () => {
    expect(ExperienceCreate.safeParse(base).success).toBe(true);
    const schedule = {
      timezone: 'Europe/Lisbon',
      weekly: { mon: ['09:00'], sun: [] },
      startDate: '2026-01-01',
      endDate: null,
      exceptions: [{ date: '2026-12-25', times: [] }],
    };
    expect(ScheduleInput.safeParse(schedule).success).toBe(true);
    expect(ExperienceCreate.safeParse({ ...base, schedule }).success).toBe(true);
  });

  it('allow a one-day schedule window and refuse a reversed one', () => {
    expect(ScheduleInput.safeParse({ weekly: {}, startDate: '2026-05-01', endDate: '2026-05-01' }).success).toBe(true);
    const reversed = ScheduleInput.safeParse({ weekly: {}, startDate: '2026-05-02', endDate: '2026-05-01' });
    expect(reversed.success).toBe(false);
    expect(reversed.error?.issues[0]?.path).toEqual(['endDate']);
  });

  it('refuse maxPerBooking above maxParticipants on create', () => {
    const result = ExperienceCreate.safeParse({ ...base, maxPerBooking: 5 });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['maxPerBooking']);
    expect(ExperienceCreate.safeParse({ ...base, maxPerBooking: 4 }).success).toBe(true);
  });

  it('need at least one field in a patch', () => {
    expect(ExperiencePatch.safeParse({}).success).toBe(false);
    expect(ExperiencePatch.safeParse({ schedule: null }).success).toBe(true);
  });

  it('read list queries from strings', () => {
    expect(ExperienceListQuery.parse({ active: 'false', limit: '5', offset: '0' })).toEqual({ active: false, limit: 5, offset: 0 });
    expect(ExperienceListQuery.safeParse({ active: '0' }).success).toBe(false);
  });
});
