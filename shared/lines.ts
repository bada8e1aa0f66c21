/**
 * A booking's money as named lines. Every amount Outing shows or charges (the booking's total, the
 * widget's running total, the e-mails, the Stripe Checkout) is the sum of these lines, made here and
 * nowhere else, in integer minor units, so that no two places can disagree by a cent.
 */

/** What a line is for: tickets of one price category, the participants at one price, or an extra. */
export type LineKind = 'TICKETS' | 'PARTICIPANTS' | 'EXTRA';

export interface MoneyLine {
  kind: LineKind;
  /** The price category's or the extra's id; null for participants at the experience's price. */
  ref: string | null;
  /** The category's or the extra's name as booked; null for participants (the reader names them). */
  name: string | null;
  quantity: number;
  /** Cents per unit. */
  unitPrice: number;
  /** quantity × unitPrice, in cents. */
  amount: number;
}

export interface BookingLines {
  lines: MoneyLine[];
  /** The sum of every line, in cents: the booking's `total`. */
  total: number;
}

/** What the lines are made from: the record's own fields, as stored or as about to be stored. */
export interface LinesInput {
  /** The tickets bought; [] books participants at `unitPrice`. */
  tickets: readonly { categoryId: string; name: string; quantity: number; unitPrice: number }[];
  participants: number;
  /** Cents per participant when there are no tickets. */
  unitPrice: number | null;
  extras: readonly { extraId: string; name: string; quantity: number; unitPrice: number }[];
}

const line = (kind: LineKind, ref: string | null, name: string | null, quantity: number, unitPrice: number): MoneyLine => ({
  kind,
  ref,
  name,
  quantity,
  unitPrice,
  amount: quantity * unitPrice,
});

/** The lines of a booking, in the order a receipt reads: the party first, then each extra. */
export function bookingLines(b: LinesInput): BookingLines {
  const party = b.tickets.length
    ? b.tickets.map((t) => line('TICKETS', t.categoryId, t.name, t.quantity, t.unitPrice))
    : [line('PARTICIPANTS', null, null, b.participants, b.unitPrice ?? 0)];
  const lines = [...party, ...b.extras.map((e) => line('EXTRA', e.extraId, e.name, e.quantity, e.unitPrice))];
  return { lines, total: lines.reduce((sum, l) => sum + l.amount, 0) };
}
