/**
 * Answers and extras as a form asks them (the New booking form, the booking page's "Change extras
 * and answers"): the element ids of their fields, and a refusal's `answers…`/`extras…` paths as
 * those fields. Reading the fields is components/booking-form-fields.tsx's, loaded with the screens.
 */
import type { AnswerInput, BookingExtraInput } from '../../shared/index.js';
import { ApiError } from '../api.js';

export const answerId = (questionId: string): string => `answer-${questionId}`;
export const extraQtyId = (extraId: string): string => `extra-qty-${extraId}`;

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

