import type { ExperienceAvailability } from '../domain/availability.js';
import { iso } from './instant.js';
import type { Availability } from '../../shared/index.js';

export function serializeAvailability(a: ExperienceAvailability): Availability {
  return {
    experienceId: a.experienceId,
    timezone: a.timezone,
    startDate: a.startDate,
    endDate: a.endDate,
    slots: a.slots.map((s) => ({
      id: s.id,
      startTime: iso(s.start),
      endTime: iso(s.end),
      capacity: s.capacity,
      booked: s.booked,
      remaining: s.remaining,
      available: s.unavailableReason === null,
      unavailableReason: s.unavailableReason,
    })),
  };
}
