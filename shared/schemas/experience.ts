import { z } from 'zod';
import { ExtrasInput, Extra, Question, QuestionsInput } from './booking-form.js';
import { DateString, DisplayName, Instant, MAX_AMOUNT_CENTS, LocalDate, LocalTime, Locale, PageQuery, QueryBoolean, TimeZone } from './common.js';

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

/** The kinds of ticket a price category sells, as resellers' standards name them. */
export const PRICE_CATEGORY_TYPES = ['ADULT', 'CHILD', 'YOUTH', 'INFANT', 'SENIOR', 'STUDENT', 'OTHER'] as const;
export const PriceCategoryType = z.enum(PRICE_CATEGORY_TYPES);
export type PriceCategoryType = z.infer<typeof PriceCategoryType>;

const Age = z.int().min(0).max(120).nullable();

/** A price category as sent: without `id` it is new; with one, it is that category of this experience, kept. */
export const PriceCategoryInput = z
  .strictObject({
    id: z.string().min(1).max(100).optional().describe('Keeps an existing category (its bookings refer to it); absent: a new one'),
    name: DisplayName(60),
    price: z.int().min(0).max(MAX_AMOUNT_CENTS).describe('Integer cents per ticket, at most 99999999 (999,999.99)'),
    type: PriceCategoryType.optional().describe('Default OTHER'),
    occupiesPlace: z.boolean().optional().describe('Default true; false for, say, infants on a lap: they do not count against capacity'),
    minAge: Age.optional().describe('Shown to guests, not enforced'),
    maxAge: Age.optional().describe('Shown to guests, not enforced'),
  })
  .superRefine((c, ctx) => {
    if (c.minAge != null && c.maxAge != null && c.maxAge < c.minAge) {
      ctx.addIssue({ code: 'custom', path: ['maxAge'], message: 'maxAge must not be below minAge' });
    }
  });
export type PriceCategoryInput = z.infer<typeof PriceCategoryInput>;

/** The whole list, as create and PATCH take it: up to 10, names and ids unique. */
export const PriceCategoriesInput = z
  .array(PriceCategoryInput)
  .max(10)
  .superRefine((list, ctx) => {
    const names = new Set<string>();
    const ids = new Set<string>();
    list.forEach((c, i) => {
      const name = c.name.trim().toLowerCase();
      if (names.has(name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: 'Another category has this name' });
      names.add(name);
      if (c.id !== undefined) {
        if (ids.has(c.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: 'This category is listed twice' });
        ids.add(c.id);
      }
    });
  })
  .describe('Replaces the whole list; [] books by participants at the experience price');

export const PriceCategory = z.object({
  id: z.string(),
  name: z.string(),
  price: z.int().describe('Integer cents per ticket'),
  type: PriceCategoryType,
  occupiesPlace: z.boolean(),
  minAge: z.int().nullable(),
  maxAge: z.int().nullable(),
});
export type PriceCategory = z.infer<typeof PriceCategory>;

const experienceFields = {
  name: DisplayName(200),
  description: z.string().max(5000),
  duration: z.int().min(1).max(1440).describe('Minutes'),
  price: z.int().min(0).max(MAX_AMOUNT_CENTS).describe('Integer cents, at most 99999999 (999,999.99)'),
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
  priceCategories: PriceCategoriesInput,
  meetingPoint: z.string().max(500).nullable().describe('Where guests meet, shown in their e-mails, the widget and the manage page; blank is null'),
  meetingPointUrl: z
    .url({ protocol: /^https$/, message: 'Expected an https URL' })
    .max(500)
    .nullable()
    .describe('An https link to the meeting point (a map), at most 500 characters'),
  guestInstructions: z.string().max(2000).nullable().describe('What to bring or know, shown to guests with the meeting point; blank is null'),
  questions: QuestionsInput,
  extras: ExtrasInput,
  waitlist: z.boolean().describe('Default false. true: a full time takes a waitlist, and places that free up are offered to waiting guests in turn'),
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
    priceCategories: experienceFields.priceCategories.optional(),
    meetingPoint: experienceFields.meetingPoint.optional(),
    meetingPointUrl: experienceFields.meetingPointUrl.optional(),
    guestInstructions: experienceFields.guestInstructions.optional(),
    questions: experienceFields.questions.optional(),
    extras: experienceFields.extras.optional(),
    waitlist: experienceFields.waitlist.optional(),
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
  priceCategories: z.array(PriceCategory).describe('[] when the experience books by participants at its price'),
  meetingPoint: z.string().nullable(),
  meetingPointUrl: z.string().nullable(),
  guestInstructions: z.string().nullable(),
  questions: z.array(Question).describe('What guests are asked when they book, in order; [] when nothing'),
  extras: z.array(Extra).describe('What guests may add to a booking, in order; [] when nothing'),
  waitlist: z.boolean().describe('Whether a full time takes a waitlist'),
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
  priceCategories: true,
  meetingPoint: true,
  meetingPointUrl: true,
  guestInstructions: true,
  questions: true,
  waitlist: true,
}).extend({
  extras: z.array(Extra).describe('The active extras only'),
  defaultLocale: Locale.describe('The organization’s default language: the widget speaks it when the guest’s browser asks for none of the seven'),
});
export type PublicExperience = z.infer<typeof PublicExperience>;
