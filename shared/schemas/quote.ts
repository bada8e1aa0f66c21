import { z } from 'zod';
import { InstantInput } from './common.js';
import { bookingCreateFields, participantsOrTickets } from './booking.js';

/**
 * What a quote prices (`POST /v1/quote`, `/public/v1/quote`): a booking's parts without the guest.
 * Checked as a booking is (400s, 404), never against the slot or its capacity.
 */
export const QuoteRequest = z
  .strictObject({
    experienceId: bookingCreateFields.experienceId,
    startTime: InstantInput.optional().describe('Optional: prices do not depend on it today; checked as an instant when sent'),
    participants: bookingCreateFields.participants,
    tickets: bookingCreateFields.tickets,
    extras: bookingCreateFields.extras,
    promoCode: bookingCreateFields.promoCode,
    voucherCode: bookingCreateFields.voucherCode,
  })
  .superRefine(participantsOrTickets);
export type QuoteRequest = z.infer<typeof QuoteRequest>;

export const QUOTE_LINE_KINDS = ['TICKETS', 'EXTRA', 'DISCOUNT', 'VOUCHER'] as const;

export const QuoteLine = z.object({
  kind: z.enum(QUOTE_LINE_KINDS),
  label: z.string().describe('The category’s name (or the experience’s for participants), the extra’s name, the promo code, or the voucher’s mask'),
  quantity: z.int(),
  unitPrice: z.int().describe('Cents per unit; negative on DISCOUNT and VOUCHER lines'),
  amount: z.string().describe('quantity × unitPrice in major units, two decimals; negative on DISCOUNT and VOUCHER lines'),
});
export type QuoteLine = z.infer<typeof QuoteLine>;

/** A price made from today's prices by the one function that makes a booking's lines: nothing is stored. */
export const Quote = z.object({
  currency: z.string(),
  lines: z.array(QuoteLine),
  subtotal: z.string(),
  discount: z.string().describe('"0.00" without a promo code'),
  voucherAmount: z.string().describe('"0.00" without a voucher'),
  total: z.string().describe('subtotal − discount: what a booking of the same parts made now would have as its total'),
  amountDue: z.string().describe('total − voucherAmount: the sum of the line amounts'),
});
export type Quote = z.infer<typeof Quote>;
