/**
 * A booking's money as named lines. Every amount Outing shows or charges (the booking's total, the
 * widget's running total, the e-mails, the Stripe Checkout) is the sum of these lines, made here and
 * nowhere else, in integer minor units, so that no two places can disagree by a cent.
 */

/**
 * What a line is for: tickets of one price category, the participants at one price, an extra, then
 * the promo code's discount and the gift voucher's part (both negative, quantity 1).
 */
export type LineKind = 'TICKETS' | 'PARTICIPANTS' | 'EXTRA' | 'DISCOUNT' | 'VOUCHER';

export interface MoneyLine {
  kind: LineKind;
  /** The price category's or the extra's id; null for participants, a discount or a voucher. */
  ref: string | null;
  /** The category's or the extra's name, the promo code, or the voucher's mask; null for participants (the reader names them). */
  name: string | null;
  quantity: number;
  /** Cents per unit. */
  unitPrice: number;
  /** quantity × unitPrice, in cents. */
  amount: number;
}

export interface BookingLines {
  lines: MoneyLine[];
  /** The party and the extras, in cents: the booking's `subtotal`. */
  subtotal: number;
  /** What the promo code takes off (positive cents; 0 without one). */
  discount: number;
  /** The booking's `total`: subtotal − discount. */
  total: number;
  /** What the gift voucher pays of the total (positive cents; 0 without one). */
  voucherAmount: number;
  /** total − voucherAmount: the sum of every line, what is left to pay. */
  due: number;
}

/** A promo code's rule as the booking keeps it: a percentage of the subtotal, or an amount off it. */
export interface DiscountRule {
  code: string;
  type: 'PERCENT' | 'AMOUNT';
  /** 1–100 for PERCENT; cents for AMOUNT. */
  value: number;
}

/** What the lines are made from: the record's own fields, as stored or as about to be stored. */
export interface LinesInput {
  /** The tickets bought; [] books participants at `unitPrice`. */
  tickets: readonly { categoryId: string; name: string; quantity: number; unitPrice: number }[];
  participants: number;
  /** Cents per participant when there are no tickets. */
  unitPrice: number | null;
  extras: readonly { extraId: string; name: string; quantity: number; unitPrice: number }[];
  /** The promo code's rule, when the booking took one. */
  discount?: DiscountRule | null;
  /** The gift voucher, when one pays: its mask and what it may pay at most (its balance, in cents). */
  voucher?: { mask: string; balance: number } | null;
}

/** A percentage of an amount in cents, rounded half-up to the cent: the one place a discount rounds. */
export const percentOf = (cents: number, percent: number): number => Math.floor((cents * percent + 50) / 100);

const line = (kind: LineKind, ref: string | null, name: string | null, quantity: number, unitPrice: number): MoneyLine => ({
  kind,
  ref,
  name,
  quantity,
  unitPrice,
  amount: quantity * unitPrice,
});

/**
 * The lines of the party and each extra, and their sum: the start of every booking's lines
 * (bookingLines), and all of them where no code can apply (the widget's booking form, whose chunk
 * then carries none of the discount's and the voucher's arithmetic).
 */
export function partyLines(b: Omit<LinesInput, 'discount' | 'voucher'>): { lines: MoneyLine[]; subtotal: number } {
  const party = b.tickets.length
    ? b.tickets.map((t) => line('TICKETS', t.categoryId, t.name, t.quantity, t.unitPrice))
    : [line('PARTICIPANTS', null, null, b.participants, b.unitPrice ?? 0)];
  const lines = [...party, ...b.extras.map((e) => line('EXTRA', e.extraId, e.name, e.quantity, e.unitPrice))];
  return { lines, subtotal: lines.reduce((sum, l) => sum + l.amount, 0) };
}

/**
 * The lines of a booking, in the order a receipt reads: the party, each extra, the discount (a
 * percentage rounded half-up, or an amount, never more than the subtotal), then the voucher (never
 * more than the total). Each figure is a sum of the lines before it.
 */
export function bookingLines(b: LinesInput): BookingLines {
  const { lines, subtotal } = partyLines(b);
  const rule = b.discount;
  const discount = !rule ? 0 : Math.min(subtotal, rule.type === 'PERCENT' ? percentOf(subtotal, rule.value) : rule.value);
  // A code that takes nothing off (a free booking) still shows: the booking names the code it took.
  if (rule) lines.push(line('DISCOUNT', null, rule.code, 1, 0 - discount));
  const total = subtotal - discount;
  const voucherAmount = b.voucher ? Math.min(b.voucher.balance, total) : 0;
  // Nothing to pay, nothing redeemed: no voucher line.
  if (b.voucher && voucherAmount > 0) lines.push(line('VOUCHER', null, b.voucher.mask, 1, 0 - voucherAmount));
  return { lines, subtotal, discount, total, voucherAmount, due: total - voucherAmount };
}
