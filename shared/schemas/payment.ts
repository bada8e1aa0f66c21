import { z } from 'zod';
import { Instant, MoneyString, PageQuery } from './common.js';

export const PAYMENT_STATUSES = ['SUCCEEDED', 'FAILED'] as const;
export const PaymentStatus = z.enum(PAYMENT_STATUSES);
export type PaymentStatus = z.infer<typeof PaymentStatus>;

/**
 * How a payment was made: by Stripe Checkout (`STRIPE`), by a gift voucher at booking (`VOUCHER`:
 * returned by cancellation, never refunded), or by hand in one of the other ways.
 */
export const PAYMENT_METHODS = ['CASH', 'CARD', 'BANK_TRANSFER', 'STRIPE', 'OTHER', 'VOUCHER'] as const;
export const PaymentMethod = z.enum(PAYMENT_METHODS);
export type PaymentMethod = z.infer<typeof PaymentMethod>;
/** The methods of a payment recorded by hand: every one but `STRIPE` and `VOUCHER`. */
export const MANUAL_PAYMENT_METHODS = ['CASH', 'CARD', 'BANK_TRANSFER', 'OTHER'] as const;
export const ManualPaymentMethod = z.enum(MANUAL_PAYMENT_METHODS).describe('How the money was taken; `STRIPE` is for Stripe Checkout alone');
export type ManualPaymentMethod = z.infer<typeof ManualPaymentMethod>;

/**
 * A payment recorded by hand (`POST /v1/bookings/{id}/payments`, provider `manual`): money taken at
 * the desk, by bank transfer, or by a terminal Outing does not talk to.
 */
export const PaymentCreate = z
  .strictObject({
    amount: MoneyString,
    status: PaymentStatus,
    method: ManualPaymentMethod.optional().describe('Default OTHER. How the money was taken; `STRIPE` is for Stripe Checkout alone'),
    reference: z.string().min(1).max(200).optional().describe('Your own reference: receipt number, transfer id…'),
    failureReason: z.string().min(1).max(500).optional().describe('Why it failed; only with status FAILED'),
  })
  .superRefine((p, ctx) => {
    if (p.failureReason !== undefined && p.status !== 'FAILED') {
      ctx.addIssue({ code: 'custom', path: ['failureReason'], message: 'Only a FAILED payment has a failureReason' });
    }
  });
export type PaymentCreate = z.output<typeof PaymentCreate>;

/** A payment record (docs/payments.md). `refundRequired`: money arrived for a booking that cannot be kept. */
export const Payment = z.object({
  id: z.string(),
  bookingId: z.string(),
  amount: z.string().describe('Major units with two decimals, e.g. "90.00"'),
  currency: z.string(),
  status: PaymentStatus,
  provider: z.string().describe('`manual` for payments recorded by hand, `stripe` for Stripe Checkout, `voucher` for a gift voucher'),
  method: PaymentMethod.describe('`STRIPE` for Stripe Checkout; `VOUCHER` for a gift voucher; a payment recorded by hand says how it was made (`OTHER` for those recorded before methods existed)'),
  reference: z.string().nullable().describe('The provider’s reference (a Stripe PaymentIntent or Checkout Session id, a gift voucher’s masked code) or yours'),
  failureReason: z.string().nullable().describe('`expired` when an online payment hold lapsed'),
  refundRequired: z.boolean().describe('True when the money came for a booking that stays cancelled: refund it'),
  createdAt: Instant,
});
export type Payment = z.infer<typeof Payment>;

export const PaymentListQuery = z.strictObject({ ...PageQuery });

/** The payment as it stands in `PAYMENT_*` webhook events. */
export const EventPayment = Payment.pick({
  id: true,
  amount: true,
  currency: true,
  status: true,
  provider: true,
  method: true,
  failureReason: true,
});
export type EventPayment = z.infer<typeof EventPayment>;
