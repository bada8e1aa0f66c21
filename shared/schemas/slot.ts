import { z } from 'zod';
import { Instant } from './common.js';

/** One departure: an experience at one start, with its places and what the operator set on it. */
export const Slot = z.object({
  id: z.string().describe('The time slot id (ts_…), as availability and bookings give it'),
  experienceId: z.string(),
  startTime: Instant,
  endTime: Instant,
  capacity: z.int().describe('capacityOverride when set, else the experience\'s maxParticipants'),
  capacityOverride: z.int().nullable().describe("The departure's own capacity; null: the experience's"),
  closed: z.boolean().describe('Closed: keeps its bookings (they can be cancelled or made smaller) but takes no new places'),
  note: z.string().nullable().describe("The team's note on the departure"),
  booked: z.int().describe('Places held by CONFIRMED and PENDING bookings'),
  remaining: z.int().describe('capacity − booked, never below 0'),
});
export type Slot = z.infer<typeof Slot>;

export const SlotPatch = z
  .strictObject({
    capacity: z.int().min(0).max(10_000).nullable().optional().describe("The departure's own capacity (0–10000); null: the experience's maxParticipants"),
    closed: z.boolean().optional().describe('Close the departure to new places, or reopen it'),
    note: z.string().max(500).nullable().optional().describe("A note for the team (at most 500 characters); null clears it"),
  })
  .refine((patch) => Object.keys(patch).length > 0, { message: 'Send at least one of capacity, closed, note' });
export type SlotPatch = z.infer<typeof SlotPatch>;
