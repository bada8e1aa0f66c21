import { z } from 'zod';
import { DateString, EmailString, Instant, LocalDate } from './common.js';
import { Answer, BookingExtra } from './booking-form.js';
import { BookingExperienceRef, BookingStatus, BookingTimeSlotRef, Ticket } from './booking.js';

export const ManifestQuery = z.strictObject({
  date: LocalDate.optional().describe("The day, in the organization's time zone; default today"),
  experienceId: z.string().min(1).max(100).optional().describe('Only this experience'),
});


export const ManifestBooking = z.object({
  id: z.string(),
  bookingNumber: z.string(),
  status: BookingStatus,
  guestName: z.string().nullable().describe('null only for an OCTO booking whose reseller gave no name'),
  guestEmail: EmailString.nullable().describe('null only for an OCTO booking whose reseller gave no e-mail address'),
  guestPhone: z.string().nullable(),
  totalParticipants: z.int(),
  tickets: z.array(Ticket).describe('Tickets per price category; empty for a booking without categories'),
  extras: z.array(BookingExtra).describe('Its extras; [] when none'),
  answers: z.array(Answer).describe('Its answers to the experience’s questions; [] when none'),
  total: z.string().describe('What the booking costs, in major units with two decimals'),
  paid: z.string().describe('The sum of its succeeded payments, in major units with two decimals'),
  currency: z.string(),
  checkedInAt: Instant.nullable(),
  metadata: z.record(z.string(), z.string()),
  internalNote: z.string().nullable().describe('The operator’s own note on the booking'),
});
export type ManifestBooking = z.infer<typeof ManifestBooking>;

export const ManifestSlot = z.object({
  experience: BookingExperienceRef,
  timeSlot: BookingTimeSlotRef,
  capacity: z.int().describe("The departure's own capacity when one is set (PATCH /v1/slots/{id}), else the experience's maxParticipants"),
  booked: z.int().describe('Places held by CONFIRMED and PENDING bookings and by waitlist offers (OFFERED entries)'),
  remaining: z.int(),
  closed: z.boolean().describe('Closed by the operator: keeps its bookings, takes no new places'),
  note: z.string().nullable().describe("The team's note on the departure"),
  waitlist: z
    .object({
      waiting: z.int().describe('WAITING entries: guests in the queue'),
      offered: z.int().describe('OFFERED entries: guests whose offer holds places (counted in `booked`)'),
    })
    .describe('The slot’s live waitlist entries'),
  bookings: z.array(ManifestBooking),
});
export type ManifestSlot = z.infer<typeof ManifestSlot>;

export const Manifest = z.object({
  date: DateString,
  timezone: z.string().describe("The organization's time zone, in which `date` is read"),
  slots: z.array(ManifestSlot),
});
export type Manifest = z.infer<typeof Manifest>;
