/**
 * The booking form: the questions an experience asks its guests and the extras it sells beside the
 * ticket, and what a booking keeps of them (answers and extras as at booking time).
 */
import { invalid } from './refusal.js';
import type { Answer, BookingExtra, Extra, ExtraInput, Question, QuestionInput } from '../../shared/index.js';

/** An experience's questions from their stored JSON. */
export const questionsOf = (json: string | undefined): Question[] => (json === undefined ? [] : (JSON.parse(json) as Question[]));
/** An experience's extras from their stored JSON, inactive ones included. */
export const extrasOf = (json: string | undefined): Extra[] => (json === undefined ? [] : (JSON.parse(json) as Extra[]));
/** A booking's answers as stored; null (none, or a booking older than the form) is `[]`. */
export const answersOf = (json: string | null): Answer[] => (json === null ? [] : (JSON.parse(json) as Answer[]));
/** A booking's extras as stored; null is `[]`. */
export const bookingExtrasOf = (json: string | null): BookingExtra[] => (json === null ? [] : (JSON.parse(json) as BookingExtra[]));

/** A text shown under a field or an extra: blank (or absent) is null, so nobody sees an empty line. */
const noteOf = (text: string | null | undefined): string | null => (text == null || text.trim() === '' ? null : text.trim());

/**
 * An experience's questions to store from the list sent: a new entry gets an id and the defaults; an
 * entry with an id must name a question of this experience and keeps it (bookings' answers refer to
 * it); any other id is refused at `questions[i].id`.
 */
export function resolveQuestions(sent: readonly QuestionInput[], current: readonly Question[], newId: () => string): Question[] {
  const known = new Set(current.map((q) => q.id));
  return sent.map((q, i) => {
    if (q.id !== undefined && !known.has(q.id)) {
      throw invalid(`questions[${i}].id`, 'Not a question of this experience; leave id out to add a new one');
    }
    return {
      id: q.id ?? newId(),
      label: q.label.trim(),
      type: q.type,
      options: q.type === 'SELECT' ? [...(q.options ?? [])] : [],
      required: q.required ?? false,
      help: noteOf(q.help),
    };
  });
}

/** An experience's extras to store from the list sent, ids kept as `resolveQuestions` keeps them. */
export function resolveExtras(sent: readonly ExtraInput[], current: readonly Extra[], newId: () => string): Extra[] {
  const known = new Set(current.map((e) => e.id));
  return sent.map((e, i) => {
    if (e.id !== undefined && !known.has(e.id)) {
      throw invalid(`extras[${i}].id`, 'Not an extra of this experience; leave id out to add a new one');
    }
    return {
      id: e.id ?? newId(),
      name: e.name.trim(),
      description: noteOf(e.description),
      price: e.price,
      per: e.per ?? 'BOOKING',
      maxQuantity: e.maxQuantity ?? 10,
      active: e.active ?? true,
    };
  });
}
