/**
 * Answers and extras as a form asks them (the New booking form, the booking page's "Change extras
 * and answers"): the element ids of their fields, reading them as the API takes them, and a
 * refusal's `answers…`/`extras…` paths as those fields.
 */
import type { AnswerInput, BookingExtraInput, Extra, Question } from '../../shared/index.js';
import { ApiError } from '../api.js';

export const answerId = (questionId: string): string => `answer-${questionId}`;
export const extraQtyId = (extraId: string): string => `extra-qty-${extraId}`;

/** The most of an extra one booking may take: its maximum, and the party for a per-person one. */
export const extraLimit = (x: Pick<Extra, 'per' | 'maxQuantity'>, party: number): number => (x.per === 'PERSON' ? Math.min(x.maxQuantity, party) : x.maxQuantity);

export interface FormReader {
  value(name: string): string;
  checked(name: string): boolean;
}

/** The answers as the API takes them, checked as the server will: a required question answered, a value of its type. */
export function readAnswers(form: FormReader, questions: readonly Question[], fields: Record<string, string>): AnswerInput[] {
  const answers: AnswerInput[] = [];
  for (const q of questions) {
    const id = answerId(q.id);
    if (q.type === 'CHECKBOX') {
      const ticked = form.checked(id);
      if (q.required && !ticked) fields[id] = `Tick “${q.label}” to book.`;
      else answers.push({ questionId: q.id, value: ticked });
      continue;
    }
    const text = form.value(id).trim();
    if (!text) {
      if (q.required) fields[id] = `Answer “${q.label}”.`;
      continue;
    }
    if (q.type === 'NUMBER') {
      const n = Number(text);
      if (!Number.isFinite(n)) fields[id] = `Enter a number for “${q.label}”.`;
      else answers.push({ questionId: q.id, value: n });
    } else answers.push({ questionId: q.id, value: text });
  }
  return answers;
}

/** The extras taken (quantity above 0) as the API takes them, each within its limit. */
export function readExtras(form: FormReader, extras: readonly Extra[], party: number, fields: Record<string, string>): BookingExtraInput[] {
  const taken: BookingExtraInput[] = [];
  for (const x of extras) {
    const id = extraQtyId(x.id);
    const text = form.value(id).trim() || '0';
    const quantity = Number(text);
    const limit = extraLimit(x, party);
    if (!/^\d{1,2}$/.test(text)) fields[id] = `Enter a whole number from 0 to ${limit}.`;
    else if (quantity > limit) fields[id] = x.per === 'PERSON' && limit < x.maxQuantity ? `At most one each: ${limit} for this party.` : `At most ${limit}.`;
    else if (quantity > 0) taken.push({ extraId: x.id, quantity });
  }
  return taken;
}

/**
 * A refusal's `answers…`/`extras…` paths as these fields: `answers.<questionId>` (a required
 * question), `answers[i]…` and `extras[i]…` by what was sent at that index, else the whole list.
 */
export function formPartFields(e: unknown, sent: { answers: readonly AnswerInput[]; extras: readonly BookingExtraInput[] }): Record<string, string> {
  const fields: Record<string, string> = {};
  if (!(e instanceof ApiError) || e.code !== 'VALIDATION_ERROR') return fields;
  for (const d of e.details) {
    const message = d.message.endsWith('.') ? d.message : `${d.message}.`;
    let m: RegExpExecArray | null;
    let field: string | null = null;
    if ((m = /^answers\.([^.[]+)/.exec(d.path))) field = answerId(m[1]!);
    else if ((m = /^answers\[(\d+)\]/.exec(d.path))) field = sent.answers[Number(m[1])] ? answerId(sent.answers[Number(m[1])]!.questionId) : 'answers';
    else if ((m = /^extras\[(\d+)\]/.exec(d.path))) field = sent.extras[Number(m[1])] ? extraQtyId(sent.extras[Number(m[1])]!.extraId) : 'extras';
    else if (d.path.startsWith('answers')) field = 'answers';
    else if (d.path.startsWith('extras')) field = 'extras';
    if (field) fields[field] ??= message;
  }
  return fields;
}

