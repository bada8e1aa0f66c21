import { z } from 'zod';
import { Instant, MoneyString } from './common.js';

export const PAYMENT_STATUSES = ['SUCCEEDED', 'FAILED'] as const;

export const PaymentCreate = z.strictObject({
  amount: MoneyString,
  status: z.enum(PAYMENT_STATUSES),
  reference: z.string().min(1).max(200).optional(),
  failureReason: z.string().min(1).max(500).optional(),
});
export type PaymentCreate = z.infer<typeof PaymentCreate>;

export const Payment = z.object({
  id: z.string(),
  bookingId: z.string(),
  amount: z.string(),
  currency: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  provider: z.string(),
  reference: z.string().nullable(),
  failureReason: z.string().nullable(),
  refundRequired: z.boolean(),
  createdAt: Instant,
});
export type Payment = z.infer<typeof Payment>;

/** The payment as it stands in `PAYMENT_*` webhook events. */
export const EventPayment = Payment.pick({
  id: true,
  amount: true,
  currency: true,
  status: true,
  provider: true,
  failureReason: true,
});
