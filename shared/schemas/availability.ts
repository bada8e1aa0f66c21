import { z } from 'zod';
import { DateString, Instant, LocalDate, QueryBoolean, queryInt } from './common.js';

export const AvailabilityQuery = z.strictObject({
  experienceId: z.string().min(1).max(100),
  startDate: LocalDate.optional().describe("Default: today in the experience's time zone"),
  endDate: LocalDate.optional().describe('Inclusive; default startDate + 30 days; at most 92 days after startDate'),
  participants: queryInt(1, 10_000).default(1).describe('Places wanted'),
});

/** `GET /v1/availability`: the public query, and an operator may look past the notice period. */
export const OperatorAvailabilityQuery = AvailabilityQuery.extend({
  ignoreNotice: QueryBoolean.optional().describe(
    'true: also the slots inside the notice period and those under way (until they end), as `POST /v1/bookings` with `ignoreNotice` books them',
  ),
});

/** Why a slot is not available, in the order they are checked: closed by the operator, blocked by a calendar, full. */
export const UNAVAILABLE_REASONS = ['CLOSED', 'FULL', 'BLOCKED'] as const;

export const TimeSlotAvailability = z.object({
  id: z.string(),
  startTime: Instant,
  endTime: Instant,
  capacity: z.int(),
  booked: z.int(),
  remaining: z.int(),
  available: z.boolean(),
  unavailableReason: z.enum(UNAVAILABLE_REASONS).nullable(),
});
export type TimeSlotAvailability = z.infer<typeof TimeSlotAvailability>;

export const Availability = z.object({
  experienceId: z.string(),
  timezone: z.string(),
  startDate: DateString,
  endDate: DateString,
  slots: z.array(TimeSlotAvailability),
});
export type Availability = z.infer<typeof Availability>;
