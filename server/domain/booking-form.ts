/**
 * The booking form: the questions an experience asks its guests and the extras it sells beside the
 * ticket, and what a booking keeps of them (answers and extras as at booking time).
 */
import { bookingLines, type Answer, type BookingExtra, type BookingLines, type Extra, type Question } from '../../shared/index.js';
import { ticketsOf } from './tickets.js';

/** An experience's questions from their stored JSON. */
export const questionsOf = (json: string | undefined): Question[] => (json === undefined ? [] : (JSON.parse(json) as Question[]));
/** An experience's extras from their stored JSON, inactive ones included. */
export const extrasOf = (json: string | undefined): Extra[] => (json === undefined ? [] : (JSON.parse(json) as Extra[]));
/** A booking's answers as stored; null (none, or a booking older than the form) is `[]`. */
export const answersOf = (json: string | null): Answer[] => (json === null ? [] : (JSON.parse(json) as Answer[]));
/** A booking's extras as stored; null is `[]`. */
export const bookingExtrasOf = (json: string | null): BookingExtra[] => (json === null ? [] : (JSON.parse(json) as BookingExtra[]));

/** `2 × Lunch, 1 × Photos`: a booking's extras in a line of text (manifest CSV, iCal, e-mails). */
export const extrasLine = (extras: readonly Pick<BookingExtra, 'quantity' | 'name'>[], between = ', '): string =>
  extras.map((e) => `${e.quantity} × ${e.name}`).join(between);

/** An answer's value as text: a checkbox as the given words for yes and no, a number as written. */
export const answerValueText = (a: Pick<Answer, 'value'>, yes = 'yes', no = 'no'): string =>
  typeof a.value === 'boolean' ? (a.value ? yes : no) : String(a.value);

/** `label: value; label: value`: a booking's answers in a line of text (manifest CSV). */
export const answersLine = (answers: readonly Answer[], between = '; ', yes = 'yes', no = 'no'): string =>
  answers.map((a) => `${a.label}: ${answerValueText(a, yes, no)}`).join(between);

/**
 * The money lines of a booking as stored (tickets and extras as JSON, null as none): `bookingLines()`
 * over the record's own fields, for every reader that shows or charges a booking's amounts.
 */
export const storedBookingLines = (b: { tickets: string | null; participants: number; unitPrice: number | null; extras: string | null }): BookingLines =>
  bookingLines({ tickets: ticketsOf(b.tickets), participants: b.participants, unitPrice: b.unitPrice, extras: bookingExtrasOf(b.extras) });
