import { z } from 'zod';
import { Instant, PageQuery } from './common.js';
import { Booking, BookingExperienceRef, BookingTimeSlotRef } from './booking.js';
import { EventPayment } from './payment.js';
import { EventRefund } from './refund.js';

/** Event kinds (docs/webhooks.md). Note the event spells CANCELED with one L; the booking status, CANCELLED. */
export const EVENT_KINDS = [
  'BOOKING_CREATED',
  'BOOKING_UPDATED',
  'BOOKING_CANCELED',
  'PAYMENT_SUCCEEDED',
  'PAYMENT_FAILED',
  'PAYMENT_REFUNDED',
] as const;
export const EventKind = z.enum(EVENT_KINDS);
export type EventKind = z.infer<typeof EventKind>;

/** The booking as it stands in events: the record without `experience` and `timeSlot`. */
export const EventBooking = Booking.omit({ experience: true, timeSlot: true });

export const Change = z.object({ from: z.unknown(), to: z.unknown() });

export const EventData = z.object({
  booking: EventBooking,
  experience: BookingExperienceRef,
  timeSlot: BookingTimeSlotRef,
  changes: z.record(z.string(), Change).optional().describe('BOOKING_UPDATED only'),
  payment: EventPayment.optional().describe('PAYMENT_SUCCEEDED and PAYMENT_FAILED only'),
  refund: EventRefund.optional().describe('PAYMENT_REFUNDED only'),
});
export type EventData = z.infer<typeof EventData>;

/** The body of every webhook delivery and of each `/v1/events` entry. */
export const WebhookEvent = z.object({
  id: z.string(),
  event: EventKind,
  timestamp: Instant,
  data: EventData,
});
export type WebhookEvent = z.infer<typeof WebhookEvent>;

export const EventListQuery = z.strictObject({
  after: z.string().min(1).max(100).optional().describe('An event id: only later events'),
  type: EventKind.optional(),
  ...PageQuery,
});

const WebhookUrl = z
  .url({ protocol: /^https?$/, message: 'Expected an http or https URL' })
  .max(2048);

const EventKinds = z
  .array(EventKind)
  .min(1)
  .refine((a) => new Set(a).size === a.length, { message: 'Event kinds must be unique' });

export const WebhookEndpointCreate = z.strictObject({
  url: WebhookUrl,
  events: EventKinds.optional().describe('Default: all six kinds'),
  description: z.string().max(500).nullable().optional(),
});

export const WebhookEndpointPatch = z
  .strictObject({
    url: WebhookUrl,
    events: EventKinds,
    description: z.string().max(500).nullable(),
    enabled: z.boolean(),
  })
  .partial()
  .refine((o) => Object.keys(o).length > 0, { message: 'Send at least one field to change' });

export const WebhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(EventKind),
  description: z.string().nullable(),
  enabled: z.boolean(),
  disabledReason: z
    .string()
    .nullable()
    .describe('Why the endpoint is disabled (e.g. its receiver answered 410 Gone); null while enabled'),
  createdAt: Instant,
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z.string().describe('whsec_…, shown only here'),
});

export const DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;

export const Delivery = z.object({
  id: z.string(),
  eventId: z.string(),
  event: EventKind,
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.int(),
  lastStatusCode: z.int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: Instant.nullable(),
  createdAt: Instant,
  deliveredAt: Instant.nullable(),
});
export type Delivery = z.infer<typeof Delivery>;

export const DeliveryListQuery = z.strictObject({ ...PageQuery });
export const RotatedSecret = z.object({ secret: z.string() });
