import { z } from 'zod';
import { DateString, Instant, LocalDate, LocalTime, NonBlank, PageQuery, QueryBoolean, TimeZone } from './common.js';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const Times = z.array(LocalTime).max(96);

/** A weekly pattern of local start times, with dated exceptions. */
export const ScheduleInput = z
  .strictObject({
    timezone: TimeZone.nullable().optional().describe("Defaults to (and follows) the organization's time zone"),
    weekly: z.strictObject({
      mon: Times.optional(),
      tue: Times.optional(),
      wed: Times.optional(),
      thu: Times.optional(),
      fri: Times.optional(),
      sat: Times.optional(),
      sun: Times.optional(),
    }),
    startDate: LocalDate.nullable().optional(),
    endDate: LocalDate.nullable().optional().describe('Inclusive'),
    exceptions: z
      .array(z.strictObject({ date: LocalDate, times: Times.describe('Replaces the date’s times; [] closes it') }))
      .max(1000)
      .optional(),
  })
  .superRefine((s, ctx) => {
    if (s.startDate && s.endDate && s.endDate < s.startDate) {
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'endDate must not be before startDate' });
    }
    const seen = new Set<string>();
    s.exceptions?.forEach((e, i) => {
      if (seen.has(e.date)) ctx.addIssue({ code: 'custom', path: ['exceptions', i, 'date'], message: 'Duplicate exception date' });
      seen.add(e.date);
    });
  });
export type ScheduleInput = z.infer<typeof ScheduleInput>;

/** A schedule as stored and returned: every field present, times sorted and unique. */
export const Schedule = z.object({
  timezone: z.string().nullable(),
  weekly: z.partialRecord(z.enum(WEEKDAYS), z.array(z.string())),
  startDate: DateString.nullable(),
  endDate: DateString.nullable(),
  exceptions: z.array(z.object({ date: DateString, times: z.array(z.string()) })),
});
export type Schedule = z.infer<typeof Schedule>;

const experienceFields = {
  name: NonBlank(200),
  description: z.string().max(5000),
  duration: z.int().min(1).max(1440).describe('Minutes'),
  price: z.int().min(0).max(1_000_000_000).describe('Integer cents'),
  maxParticipants: z.int().min(1).max(10_000),
  schedule: ScheduleInput.nullable(),
  maxPerBooking: z
    .int()
    .min(1)
    .max(10_000)
    .nullable()
    .describe('Largest party one booking may have; unset (null) follows maxParticipants'),
  minNoticeMinutes: z.int().min(0).max(525_600),
  maxAdvanceDays: z.int().min(1).max(730),
  active: z.boolean(),
};

function perBookingWithinCapacity(e: { maxPerBooking?: number | null; maxParticipants?: number }, ctx: z.RefinementCtx) {
  if (e.maxPerBooking != null && e.maxParticipants !== undefined && e.maxPerBooking > e.maxParticipants) {
    ctx.addIssue({ code: 'custom', path: ['maxPerBooking'], message: 'maxPerBooking must not exceed maxParticipants' });
  }
}

export const ExperienceCreate = z
  .strictObject({
    name: experienceFields.name,
    description: experienceFields.description,
    duration: experienceFields.duration,
    price: experienceFields.price,
    maxParticipants: experienceFields.maxParticipants,
    schedule: experienceFields.schedule.optional(),
    maxPerBooking: experienceFields.maxPerBooking.optional(),
    minNoticeMinutes: experienceFields.minNoticeMinutes.optional(),
    maxAdvanceDays: experienceFields.maxAdvanceDays.optional(),
    active: experienceFields.active.optional(),
  })
  .superRefine(perBookingWithinCapacity);
export type ExperienceCreate = z.infer<typeof ExperienceCreate>;

export const ExperiencePatch = z
  .strictObject(experienceFields)
  .partial()
  .refine((o) => Object.keys(o).length > 0, { message: 'Send at least one field to change' });
export type ExperiencePatch = z.infer<typeof ExperiencePatch>;

export const Experience = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  duration: z.int(),
  price: z.int(),
  currency: z.string(),
  maxParticipants: z.int(),
  maxPerBooking: z.int(),
  schedule: Schedule.nullable(),
  minNoticeMinutes: z.int(),
  maxAdvanceDays: z.int(),
  active: z.boolean(),
  createdAt: Instant,
  updatedAt: Instant,
});
export type Experience = z.infer<typeof Experience>;

export const ExperienceListQuery = z.strictObject({ active: QueryBoolean.optional(), ...PageQuery });

/** What `/public/v1` shows of an experience. */
export const PublicExperience = Experience.pick({
  id: true,
  name: true,
  description: true,
  duration: true,
  price: true,
  currency: true,
  maxParticipants: true,
  maxPerBooking: true,
});
export type PublicExperience = z.infer<typeof PublicExperience>;
