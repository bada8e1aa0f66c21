/**
 * Every text the widget shows, one object per language. Texts are data, never code, so that a
 * language other than English can be fetched as JSON (`/widget/{code}.json`, widget/i18n/load.ts):
 * `{0}`, `{1}` stand for the values a text names (format.ts's `fill`), and a text whose words
 * depend on a number is a `Plural`.
 */
import type { CodeTexts } from '../codes/types.js';
import type { GuestInfoTexts } from '../confirm/texts.js';
import type { FormTexts } from '../form/texts.js';
import type { GiftTexts } from '../gift/texts.js';
import type { WaitlistTexts } from '../waitlist/types.js';

/**
 * Forms by `Intl.PluralRules` category of the number (`one`, `few`, `many`, …; `other` for every
 * number no other form takes), or one text for every number. `{0}` is the number.
 */
export type Plural = string | { [category: string]: string; other: string };

export interface Messages {
  /** Visually hidden name of the whole widget region. */
  widget: string;
  /** `{0}` the step, `{1}` how many there are. */
  step: string;
  chooseExperience: string;
  chooseDate: string;
  chooseTime: string;
  yourDetails: string;
  confirmed: string;
  paymentDue: string;
  loading: string;
  retry: string;
  back: string;
  select: string;
  /** After an experience's price, when every guest pays it: "€25.00 per person". */
  perPerson: string;
  /** An experience whose price categories cost different amounts: `{0}` the lowest a booking can start at. */
  from: string;
  noExperiences: string;
  previousMonth: string;
  nextMonth: string;
  noDatesThisMonth: string;
  noTimes: string;
  /** Names the zone the times are shown in, `{0}` e.g. "Lisbon (Western European Summer Time)". */
  timesIn: string;
  placesLeft: Plural;
  full: string;
  /** A full time of an experience with a waitlist, which the guest may still choose to join it. */
  joinWaitlist: string;
  experience: string;
  date: string;
  time: string;
  fewer: string;
  more: string;
  participants: string;
  /** The price categories' group, and the confirmation's line of them ("2 × Adult, 1 × Child"). */
  tickets: string;
  /** The quantity buttons of one price category, `{0}` its name. */
  ticketFewer: string;
  ticketMore: string;
  /** A category's ages: from `{0}` on; from `{0}` to `{1}`; under `{0}` (a Plural of that age). */
  agesFrom: string;
  agesRange: string;
  agesUnder: Plural;
  /** No ticket takes a place; `{0}` the categories that do ("Adult, Child"). */
  noPlace: string;
  /** The party is as large as one booking may be, `{0}` (the places left at the time say `placesLeft`). */
  perBooking: string;
  name: string;
  email: string;
  phone: string;
  honeypot: string;
  total: string;
  /**
   * The booking's money beyond its total, shown by the code box's and the confirmation's chunks:
   * a promo code's discount and a gift voucher's part (`{0}` the code, the voucher's mask), and what
   * is left to pay. In widget.js's catalog so that the two chunks do not each carry them.
   */
  discount: string;
  voucher: string;
  due: string;
  /** Opens the box for a promo code or a gift voucher's code (its words come with it, widget/codes/texts.ts). */
  haveCode: string;
  /**
   * The code box's words (widget/codes/texts.ts): English comes with the box's chunk, so en.ts has
   * none; another language's file carries them, as the widget has fetched it already.
   */
  codes?: CodeTexts;
  /** The booking form's step's words (widget/form/texts.ts): English comes with its chunk, so en.ts has none. */
  form?: FormTexts;
  /** The guest information's words (widget/confirm/texts.ts): English comes with the code that shows them. */
  guestInfo?: GuestInfoTexts;
  /**
   * The waitlist's words (widget/waitlist/texts.ts): English comes with its chunk, so en.ts has
   * none; another language's file carries them.
   */
  waitlist?: WaitlistTexts;
  /** Said beside the total, and focused, when the price changed before the guest booked; `{0}` the new total. */
  priceChanged: string;
  book: string;
  booking: string;
  required: string;
  invalidEmail: string;
  invalidPhone: string;
  bookingNumber: string;
  continueToPayment: string;
  bookAnother: string;
  /** Back from the payment page (docs/payments.md): the heading, by where the payment stands. */
  returned: { wait: string; slow: string; fail: string; gone: string };
  stillConfirming: string;
  checkAgain: string;
  notKept: string;
  returnToPayment: string;
  bookAgain: string;
  /** The Book-now dialog's Close button (main.tsx). */
  close: string;
  errors: {
    /** The chosen time went while the guest typed: fresh times show. */
    slotTaken: string;
    network: string;
    rateLimited: string;
    setup: string;
    notFound: string;
    busy: string;
    server: string;
  };
  /**
   * The gift-voucher mode's words (widget/gift/texts.ts): English travels with its chunk, so only
   * the other languages' files have them.
   */
  giftVoucher?: GiftTexts;
}
