import type { SlotView } from '../domain/availability.js';
import { iso } from './instant.js';
import type { Slot } from '../../shared/index.js';

export function serializeSlot(s: SlotView): Slot {
  return {
    id: s.id,
    experienceId: s.experienceId,
    startTime: iso(s.start),
    endTime: iso(s.end),
    capacity: s.capacity,
    capacityOverride: s.capacityOverride,
    closed: s.closed,
    note: s.note,
    booked: s.booked,
    remaining: s.remaining,
  };
}
