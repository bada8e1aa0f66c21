import { z } from 'zod';
import { Instant, MoneyString, PageQuery } from './common.js';

/** How money goes back: by Stripe (through its Refunds API) or by hand. */
export const REFUND_METHODS = ['CASH', 'CARD', 'BANK_TRANSFER', 'STRIPE', 'OTHER'] as const;
export const RefundMethod = z.enum(REFUND_METHODS);
export type RefundMethod = z.infer<typeof RefundMethod>;

export const REFUND_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
export const RefundStatus = z.enum(REFUND_STATUSES);
export type RefundStatus = z.infer<typeof RefundStatus>;

/** `POST /v1/bookings/{id}/refunds` (docs/payments.md). */
export const RefundCreate = z.strictObject({
  amount: MoneyString.describe('More than 0.00 and at most what is left to refund: the SUCCEEDED payments less the SUCCEEDED and PENDING refunds'),
  reason: z.string().max(500).optional().describe('Why the money goes back; shown with the refund'),
  method: RefundMethod.optional().describe('Default STRIPE when the booking has a Stripe payment, else OTHER'),
});
export type RefundCreate = z.infer<typeof RefundCreate>;

export const Refund = z.object({
  id: z.string(),
  bookingId: z.string(),
  amount: z.string().describe('Major units with two decimals, e.g. "20.00"'),
  currency: z.string(),
  method: RefundMethod,
  status: RefundStatus.describe('STRIPE refunds are PENDING until Stripe reports them SUCCEEDED or FAILED; others are SUCCEEDED at once'),
  reason: z.string().nullable(),
  createdAt: Instant,
});
export type Refund = z.infer<typeof Refund>;

export const RefundListQuery = z.strictObject({ ...PageQuery });

/** The refund as `PAYMENT_REFUNDED` carries it. */
export const EventRefund = Refund.pick({ id: true, amount: true, currency: true, method: true, status: true, reason: true });
export type EventRefund = z.infer<typeof EventRefund>;
