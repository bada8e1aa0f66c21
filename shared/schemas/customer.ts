import { z } from 'zod';
import { EmailString, Instant, PageQuery, SearchTerm } from './common.js';
import { Booking } from './booking.js';

export const Customer = z.object({
  id: z.string(),
  name: z.string(),
  email: EmailString,
  phone: z.string().nullable(),
  bookingCount: z.int(),
  totalSpent: z.string().describe('Sum of CONFIRMED bookings, major units'),
  currency: z.string(),
  firstBookingAt: Instant.nullable(),
  lastBookingAt: Instant.nullable(),
  createdAt: Instant,
  updatedAt: Instant,
});
export type Customer = z.infer<typeof Customer>;

export const CustomerDetail = Customer.extend({ bookings: z.array(Booking).describe('Latest slot first, at most 100') });
export type CustomerDetail = z.infer<typeof CustomerDetail>;

export const CustomerListQuery = z.strictObject({
  search: SearchTerm.optional().describe('Case-insensitive substring of name or e-mail'),
  ...PageQuery,
});

export const CustomerErased = z.object({ id: z.string(), erased: z.literal(true) });
