/**
 * The booking form: the questions an experience asks its guests and the extras it sells beside the
 * ticket, and what a booking keeps of them (answers and extras as at booking time).
 */
import type { Answer, BookingExtra, Extra, Question } from '../../shared/index.js';

/** An experience's questions from their stored JSON. */
export const questionsOf = (json: string | undefined): Question[] => (json === undefined ? [] : (JSON.parse(json) as Question[]));
/** An experience's extras from their stored JSON, inactive ones included. */
export const extrasOf = (json: string | undefined): Extra[] => (json === undefined ? [] : (JSON.parse(json) as Extra[]));
/** A booking's answers as stored; null (none, or a booking older than the form) is `[]`. */
export const answersOf = (json: string | null): Answer[] => (json === null ? [] : (JSON.parse(json) as Answer[]));
/** A booking's extras as stored; null is `[]`. */
export const bookingExtrasOf = (json: string | null): BookingExtra[] => (json === null ? [] : (JSON.parse(json) as BookingExtra[]));
